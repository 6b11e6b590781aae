//! The job tables from records: rows when final, pieces, windows laid end to end,
//! and Batsim's processor sets (replay::jobs).

use kernel::log::Body;
use kernel::service_level::{Decision, Event, Level, Policy, RejectReason};
use kernel::sla::{Decision as SlaDecision, Event as SlaEvent, Order, Request};
use replay::export::ExportError;
use replay::format::{Header, LogWriter, Model, ServiceLevelHeader};
use replay::jobs::{JobRow, JobSink, JobTable, Segment};

#[derive(Default)]
struct Collected {
    rows: Vec<JobRow>,
    pieces: Vec<Segment>,
}

impl JobSink for Collected {
    fn job(&mut self, row: &JobRow) -> Result<(), ExportError> {
        self.rows.push(row.clone());
        Ok(())
    }
    fn segment(&mut self, segment: &Segment) -> Result<(), ExportError> {
        self.pieces.push(segment.clone());
        Ok(())
    }
}

fn service_level(window_ticks: Option<u64>) -> Header {
    let part = ServiceLevelHeader::new(1, 16, Policy::FirstFit, vec![Level::whole(2, 1)]);
    let mut header = Header::new(Model::ServiceLevel(part));
    header.window_ticks = window_ticks;
    header
}

fn table(header: &Header, records: &[Body]) -> Collected {
    let mut table = JobTable::new(header);
    let mut sink = Collected::default();
    for body in records {
        table.record(body, &mut sink).unwrap();
    }
    table.finish(&mut sink).unwrap();
    sink
}

/// Job 1 runs, is preempted by job 2, runs again; job 3 is rejected; then a second
/// window whose one job runs past nothing.
fn preempted_then_a_window() -> Vec<Body> {
    let (e, d) = (Body::Event, Body::Decision);
    vec![
        e(Event::Submit { t: 0, job: 1, p: 10, level: 0 }),
        d(Decision::Accept { job: 1, machine: 0, deadline: 20, preempted: None }),
        d(Decision::Start { t: 0, job: 1, machine: 0 }),
        e(Event::Submit { t: 2, job: 2, p: 1, level: 0 }),
        d(Decision::Accept { job: 2, machine: 0, deadline: 4, preempted: Some(1) }),
        d(Decision::Preempt { t: 2, job: 1, machine: 0 }),
        d(Decision::Start { t: 2, job: 2, machine: 0 }),
        e(Event::Submit { t: 2, job: 3, p: 50, level: 5 }),
        d(Decision::Reject { job: 3, reason: RejectReason::UnknownLevel }),
        d(Decision::Complete { t: 3, job: 2, machine: 0 }),
        d(Decision::Start { t: 3, job: 1, machine: 0 }),
        d(Decision::Complete { t: 11, job: 1, machine: 0 }),
        e(Event::Reset),
        e(Event::Submit { t: 1, job: 4, p: 5, level: 0 }),
        d(Decision::Accept { job: 4, machine: 0, deadline: 11, preempted: None }),
        d(Decision::Start { t: 1, job: 4, machine: 0 }),
        d(Decision::Complete { t: 6, job: 4, machine: 0 }),
    ]
}

#[test]
fn rows_come_when_final_and_pieces_add_up() {
    let got = table(&service_level(Some(100)), &preempted_then_a_window());
    let fates: Vec<(u32, &str, &str, u32, u32)> =
        got.rows.iter().map(|r| (r.job, r.outcome, r.reason, r.pieces, r.interruptions)).collect();
    assert_eq!(
        fates,
        [
            (3, "rejected", "unknown_level", 0, 0),
            (2, "accepted", "", 1, 0),
            (1, "accepted", "", 2, 1),
            (4, "accepted", "", 1, 0)
        ]
    );
    let one = &got.rows[2];
    assert_eq!((one.start, one.finish, one.deadline, one.place), (Some(0), Some(11), Some(20), Some(0)));
    let pieces: Vec<(u32, u32, u64, u64, &str)> =
        got.pieces.iter().filter(|p| p.job == 1).map(|p| (p.job, p.piece, p.start, p.end, p.how)).collect();
    assert_eq!(pieces, [(1, 1, 0, 2, "preempted"), (1, 2, 3, 11, "finished")]);
    let ran: u64 = got.pieces.iter().filter(|p| p.job == 1).map(|p| p.end - p.start).sum();
    assert_eq!(ran, 10, "a preempted job's pieces add up to its work");
    // The second window starts at 1 x 100 ticks: its times are shifted by that.
    let four = &got.rows[3];
    assert_eq!((four.window, four.window_start, four.submit, four.finish), (1, 100, 101, Some(106)));
}

#[test]
fn a_window_that_would_overlap_the_last_starts_after_it() {
    // With 5-tick windows, the first window's last job ends at 11: the second starts there.
    let got = table(&service_level(Some(5)), &preempted_then_a_window());
    let four = got.rows.iter().find(|r| r.job == 4).unwrap();
    assert_eq!((four.window_start, four.submit, four.start), (11, 12, Some(12)));
    let first_end = got.pieces.iter().filter(|p| p.window == 0).map(|p| p.end).max().unwrap();
    assert!(got.pieces.iter().filter(|p| p.window == 1).all(|p| p.start >= first_end));
}

#[test]
fn an_sla_plan_is_the_run_and_a_leading_reset_opens_no_window() {
    let config = kernel::sla::Config::new(
        4,
        10,
        Order::Heuristic(kernel::sla::Heuristic::single(kernel::sla::Direction::Min, kernel::sla::Term::Tf)),
    );
    let header = Header::new(Model::Sla(replay::engine::sla::header(config)));
    let request = |job, ts, tf, td| Request { job, ts, tf, td, ncpu: 2 };
    let got = table(
        &header,
        &[
            Body::SlaEvent(SlaEvent::Reset { t: 0 }),
            Body::SlaEvent(SlaEvent::Submit { t: 0, request: request(1, 0, 100, 30) }),
            Body::SlaEvent(SlaEvent::Submit { t: 0, request: request(2, 0, 10, 30) }),
            Body::SlaEvent(SlaEvent::Plan { t: 0 }),
            Body::SlaDecision(SlaDecision::Accept { job: 1, start: 20 }),
            Body::SlaDecision(SlaDecision::Reject { job: 2, reason: kernel::sla::RejectReason::Late }),
        ],
    );
    let one = got.rows.iter().find(|r| r.job == 1).unwrap();
    assert_eq!((one.window, one.size, one.start, one.finish, one.place), (0, 2, Some(20), Some(50), None));
    assert_eq!(got.rows.iter().find(|r| r.job == 2).unwrap().reason, "late");
    assert_eq!(got.pieces.len(), 1);
}

#[test]
fn the_batsim_table_gives_a_pool_the_lowest_free_processors() {
    let config = kernel::sla::Config::new(
        4,
        10,
        Order::Heuristic(kernel::sla::Heuristic::single(kernel::sla::Direction::Min, kernel::sla::Term::Tf)),
    );
    let header = Header::new(Model::Sla(replay::engine::sla::header(config)));
    let request = |job| Request { job, ts: 0, tf: 100, td: 10, ncpu: 2 };
    let mut log = Vec::new();
    let mut writer = LogWriter::new(&mut log, &header).unwrap();
    for job in 1..=3 {
        writer.record(Body::SlaEvent(SlaEvent::Submit { t: 0, request: request(job) })).unwrap();
    }
    writer.record(Body::SlaEvent(SlaEvent::Plan { t: 0 })).unwrap();
    for (job, start) in [(1, 0), (2, 0), (3, 10)] {
        writer.record(Body::SlaDecision(SlaDecision::Accept { job, start })).unwrap();
    }
    writer.finish().unwrap();
    let reader = replay::format::LogReader::new(log.as_slice()).unwrap();
    let mut out = Vec::new();
    replay::jobs::batsim::export(reader, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let resources: Vec<&str> = text.lines().skip(1).map(|l| l.split(',').nth(13).unwrap()).collect();
    assert_eq!(resources, ["0-1", "2-3", "0-1"], "{text}");
}

#[test]
fn every_table_has_its_header_even_without_a_row_and_it_names_the_fields() {
    let header = service_level(None);
    let empty = || {
        let mut log = Vec::new();
        LogWriter::new(&mut log, &header).unwrap().finish().unwrap();
        log
    };
    let columns = [
        replay::jobs::JOB_COLUMNS.join(","),
        replay::jobs::SEGMENT_COLUMNS.join(","),
        replay::jobs::batsim::BATSIM_COLUMNS.join(","),
    ];
    for (table, columns) in columns.iter().enumerate() {
        let log = empty();
        let reader = replay::format::LogReader::new(log.as_slice()).unwrap();
        let mut out = Vec::new();
        match table {
            0 => replay::jobs::export_csv(reader, &mut out),
            1 => replay::jobs::segments_csv(reader, &mut out),
            _ => replay::jobs::batsim::export(reader, &mut out),
        }
        .unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), format!("{columns}\n"));
    }
    // The constants are the fields the rows serialize, in order: the header the csv
    // crate makes from them.
    let got = table(&header, &preempted_then_a_window());
    let first_line = |serialize: &dyn Fn(&mut csv::Writer<Vec<u8>>)| {
        let mut csv = csv::Writer::from_writer(Vec::new());
        serialize(&mut csv);
        String::from_utf8(csv.into_inner().unwrap()).unwrap().lines().next().unwrap().to_owned()
    };
    assert_eq!(first_line(&|csv| csv.serialize(&got.rows[0]).unwrap()), replay::jobs::JOB_COLUMNS.join(","));
    assert_eq!(
        first_line(&|csv| csv.serialize(&got.pieces[0]).unwrap()),
        replay::jobs::SEGMENT_COLUMNS.join(",")
    );
}
