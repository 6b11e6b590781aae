//! `replay diff` on small service-level logs made by the kernel: the first divergence,
//! each changed job and its change, the counts side by side (agreeing with `verify`'s),
//! the header lines that differ, the outputs, and the refusal of different inputs.

use kernel::Tick;
use kernel::log::Body;
use kernel::service_level::{Event, Level, Policy};
use replay::diff::{Answer, Change, Diff, DiffError, Log, diff, write_csv, write_json, write_table};
use replay::engine::service_level::ServiceLevelEngine;
use replay::format::{FormatError, Header, LogReader, LogWriter, ServiceLevelHeader};
use replay::verify::{audit, verify};

/// The log the kernel writes for `events` under `header`.
fn run(header: &Header, events: &[Event]) -> Vec<u8> {
    let mut engine = ServiceLevelEngine::from_header(header.service_level().unwrap()).unwrap();
    let mut writer = LogWriter::new(Vec::new(), header).unwrap();
    for &event in events {
        let mut decisions = Vec::new();
        engine.step(event, &mut decisions);
        writer.record(Body::Event(event)).unwrap();
        decisions.into_iter().for_each(|d| writer.record(Body::Decision(d)).unwrap());
    }
    writer.finish().unwrap()
}

fn header(machines: u16, policy: Policy) -> Header {
    Header::new(ServiceLevelHeader::new(machines, 16, policy, vec![Level::whole(1, 20)]).into())
        .with_input("unit", 1)
}

/// Job 1 fills a machine until 10; job 2, as long and as urgent, needs a second
/// machine; job 3 fits nowhere; job 4 comes once both are free.
const EVENTS: [Event; 5] = [
    Event::Submit { t: 0, job: 1, p: 10, level: 0 },
    Event::Submit { t: 0, job: 2, p: 10, level: 0 },
    Event::Submit { t: 3, job: 3, p: 1, level: 0 },
    Event::Submit { t: 20, job: 4, p: 5, level: 0 },
    Event::Advance { t: Tick::MAX },
];

fn diff_bytes(a: &[u8], b: &[u8]) -> Result<Diff, DiffError> {
    let open_a = || -> Result<LogReader<&[u8]>, FormatError> { LogReader::new(a) };
    let open_b = || -> Result<LogReader<&[u8]>, FormatError> { LogReader::new(b) };
    diff(&Log { name: "a.log", open: &open_a }, &Log { name: "b.log", open: &open_b })
}

fn count(d: &Diff, change: Change) -> u64 {
    d.counts.iter().find(|(c, _)| *c == change).map_or(0, |(_, n)| *n)
}

fn measure(d: &Diff, name: &str) -> (u128, u128) {
    d.measures.iter().find(|m| m.name == name).map(|m| (m.a, m.b)).unwrap()
}

#[test]
fn a_log_against_itself_is_the_same() {
    let log = run(&header(1, Policy::FirstFit), &EVENTS);
    let d = diff_bytes(&log, &log).unwrap();
    assert!(d.same_records());
    assert!(d.header.is_empty() && d.jobs.is_empty());
    assert_eq!(d.jobs_compared, 4);
    assert!(d.measures.iter().all(|m| m.a == m.b));
}

#[test]
fn one_machine_against_two_flips_job_2_and_nothing_else() {
    let (a, b) = (run(&header(1, Policy::FirstFit), &EVENTS), run(&header(2, Policy::FirstFit), &EVENTS));
    let d = diff_bytes(&a, &b).unwrap();
    let divergence = d.divergence.clone().unwrap();
    assert_eq!(divergence.after.as_deref().map(str::trim), Some("t=0 submit job 2 p=10 level 0"));
    assert!(divergence.a.unwrap().contains("reject job 2"), "{d:?}");
    assert!(divergence.b.unwrap().contains("accept job 2 on m1"), "{d:?}");
    assert_eq!(d.jobs.len(), 1);
    let job = &d.jobs[0];
    assert_eq!((job.window, job.job, job.changes.as_slice()), (0, 2, &[Change::RejectedToAccepted][..]));
    assert_eq!(job.a.as_ref().unwrap().answer, Answer::Rejected("no_feasible_machine"));
    let fate_b = job.b.as_ref().unwrap();
    assert_eq!((fate_b.place, fate_b.start, fate_b.completion), (Some(1), Some(0), Some(10)));
    // The counts are verify's, and the flips account for their change.
    let (accepted_a, accepted_b) = measure(&d, "accepted");
    let report_a = verify(LogReader::new(&a[..]).unwrap()).unwrap();
    let report_b = verify(LogReader::new(&b[..]).unwrap()).unwrap();
    assert_eq!((accepted_a, accepted_b), (u128::from(report_a.accepted), u128::from(report_b.accepted)));
    let flips =
        i128::from(count(&d, Change::RejectedToAccepted)) - i128::from(count(&d, Change::AcceptedToRejected));
    assert_eq!(accepted_b as i128 - accepted_a as i128, flips);
    assert_eq!(d.header.len(), 1);
    assert_eq!(d.header[0].key, "machines");
    assert!(d.header[0].a.as_deref().unwrap().starts_with("1,"), "{:?}", d.header);
}

#[test]
fn round_robin_moves_job_5_to_the_other_machine() {
    // Round robin gives job 4 machine 0 (after job 2's machine 1), then job 5 machine 1.
    let mut events = EVENTS.to_vec();
    events.insert(4, Event::Submit { t: 30, job: 5, p: 5, level: 0 });
    let (a, b) = (run(&header(2, Policy::FirstFit), &events), run(&header(2, Policy::RoundRobin), &events));
    let d = diff_bytes(&a, &b).unwrap();
    let moved: Vec<_> = d.jobs.iter().filter(|j| j.changes.contains(&Change::Place)).collect();
    assert_eq!(moved.len(), 1, "{:?}", d.jobs);
    assert_eq!(moved[0].job, 5);
    let places = (moved[0].a.as_ref().unwrap().place, moved[0].b.as_ref().unwrap().place);
    assert_eq!(places, (Some(0), Some(1)));
    assert_eq!(count(&d, Change::AcceptedToRejected) + count(&d, Change::RejectedToAccepted), 0);
    // Both logs are version 6 whatever their policy: only the policy's line differs.
    assert!(!d.header.iter().any(|h| h.key == "format version"), "{:?}", d.header);
    assert!(d.header.iter().any(|h| h.key == "machines"), "{:?}", d.header);
}

#[test]
fn the_outputs_say_the_same() {
    let (a, b) = (run(&header(1, Policy::FirstFit), &EVENTS), run(&header(2, Policy::FirstFit), &EVENTS));
    let d = diff_bytes(&a, &b).unwrap();
    let mut csv = Vec::new();
    write_csv(&d, &mut csv).unwrap();
    let csv = String::from_utf8(csv).unwrap();
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[1], "0,2,rejected->accepted,no_feasible_machine,,,,0,0,0,accepted,1,0,10,0,0,0");
    let mut json = Vec::new();
    write_json(&d, &mut json).unwrap();
    let json: serde_json::Value = serde_json::from_slice(&json).unwrap();
    assert_eq!(json["jobs_changed"], 1);
    assert_eq!(json["same_records"], false);
    assert_eq!(json["jobs"][0]["b"]["outcome"], "accepted");
    let accepted = json["counts"].as_array().unwrap().iter().find(|c| c["name"] == "accepted").unwrap();
    assert_eq!(
        (accepted["a"].as_u64(), accepted["b"].as_u64(), accepted["delta"].as_str()),
        (Some(2), Some(3), Some("+1"))
    );
    let mut table = Vec::new();
    write_table(&d, Some(0), &mut table).unwrap();
    let table = String::from_utf8(table).unwrap();
    assert!(table.contains("first divergence: record "), "{table}");
    assert!(table.contains("... and 1 more changed jobs"), "{table}");
}

#[test]
fn logs_of_different_inputs_are_refused_by_name() {
    let a = run(&header(1, Policy::FirstFit), &EVENTS);
    let other =
        Header::new(ServiceLevelHeader::new(1, 16, Policy::FirstFit, vec![Level::whole(1, 20)]).into())
            .with_input("unit", 2);
    let b = run(&other, &EVENTS);
    let message = diff_bytes(&a, &b).unwrap_err().to_string();
    assert!(message.contains("a.log") && message.contains("b.log"), "{message}");
    assert!(message.contains("different inputs"), "{message}");
    assert!(message.contains("0000000000000001") && message.contains("0000000000000002"), "{message}");
}

#[test]
fn audit_counts_as_verify_does() {
    let log = run(&header(2, Policy::BestFit), &EVENTS);
    let verified = verify(LogReader::new(&log[..]).unwrap()).unwrap();
    assert_eq!(audit(LogReader::new(&log[..]).unwrap()).unwrap(), verified);
}
