//! The small pieces: tick steps, node bands, what overlaps a range, and the range
//! checks. Charts of whole logs are tested in `snapshots/tests/gantt.rs`.

use super::*;

#[test]
fn tick_steps_are_round() {
    assert_eq!(svg::tick_step_for_tests(100.0), 20);
    assert_eq!(svg::tick_step_for_tests(7.0), 1);
    assert_eq!(svg::tick_step_for_tests(86_400.0), 20_000);
}

#[test]
fn nodes_become_bands_of_consecutive_ones() {
    assert_eq!(layout::bands(&[0, 1, 2, 5, 6, 9]), vec![0..3, 5..7, 9..10]);
    assert_eq!(layout::bands(&[]), Vec::<Range<u32>>::new());
}

#[test]
fn runs_touching_the_edge_are_left_out_and_instants_kept() {
    assert!(!overlaps(3, 5, 5, Some(10)));
    assert!(!overlaps(10, 12, 5, Some(10)));
    assert!(overlaps(4, 6, 5, Some(10)));
    assert!(overlaps(10, 10, 5, Some(10)));
    assert!(overlaps(5, 5, 5, Some(10)));
    assert!(!overlaps(4, 4, 5, None));
    assert!(overlaps(7, 9, 5, None));
}

#[test]
fn rows_and_ranges_are_checked() {
    let options = Options { rows: Some(3..9), ..Options::default() };
    assert_eq!(chosen_rows(&options, 16, "node").unwrap(), 3..9);
    assert_eq!(
        chosen_rows(&options, 8, "node").unwrap_err().to_string(),
        "--machines 3..9: the log has 8 nodes (rows 0..8)"
    );
    assert_eq!(chosen_rows(&Options::default(), 4, "machine").unwrap(), 0..4);
}

#[test]
fn a_reset_with_nothing_before_it_opens_no_window() {
    let options = Options { window: 1, ..Options::default() };
    let mut position = Position::default();
    // A log that opens with a reset, as host-sim's reservation logs do.
    assert!(position.event(None, &options));
    assert!(position.event(Some(5), &options));
    assert_eq!(position.window, 0);
    assert!(position.event(None, &options));
    assert!(position.event(None, &options));
    assert!(position.event(Some(0), &options));
    assert_eq!(position.window, 1);
    assert!(position.in_window(&options));
    // The next window is past the chosen one: reading stops.
    assert!(!position.event(None, &options));
}

#[test]
fn a_chart_of_more_runs_and_marks_than_the_limit_asks_for_a_range() {
    use kernel::log::Body;
    use kernel::service_level::{Decision, Event, Level, Policy};

    use crate::format::{Header, LogWriter, ServiceLevelHeader};
    // 110,000 submits, each a mark: past the limit with no run at all, as the
    // submits of a million-job log are.
    let jobs = 110_000u32;
    let header =
        Header::new(ServiceLevelHeader::new(1, 1024, Policy::FirstFit, vec![Level::whole(2, 19)]).into())
            .with_input("unit", 7);
    let mut writer = LogWriter::new(Vec::new(), &header).unwrap();
    for job in 0..jobs {
        let t = u64::from(job) * 10;
        writer.record(Body::Event(Event::Submit { t, job, p: 5, level: 0 })).unwrap();
        writer
            .record(Body::Decision(Decision::Accept { job, machine: 0, deadline: t + 10, preempted: None }))
            .unwrap();
    }
    let bytes = writer.finish().unwrap();
    let whole = collect(crate::format::LogReader::new(&bytes[..]).unwrap(), &Options::default());
    let Err(GanttError::TooManyBars { runs, marks }) = whole else { panic!("drawn whole") };
    assert!(runs + marks > MAX_BARS, "{runs} + {marks}");
    // A range of a tenth of it is drawn.
    let options = Options { to: Some(110_000), ..Options::default() };
    let part = collect(crate::format::LogReader::new(&bytes[..]).unwrap(), &options).unwrap();
    assert!(part.bars.len() + part.marks.len() <= MAX_BARS);
    // Submits every 10 s from 0 to 110,000 s, both ends included.
    assert_eq!(part.marks.len(), 11_001);
}
