//! The streamed reading against the whole one: the same jobs in the same order, the
//! same provenance and errors, and a trace out of order past the look-ahead refused
//! by line.

use std::io::Write;
use std::path::{Path, PathBuf};

use flate2::Compression;
use flate2::write::GzEncoder;

use super::super::{FIELDS, SwfError, SwfOptions, read};
use super::{LOOKAHEAD, Scan};
use crate::input::TraceArgs;
use crate::workload::Job;

/// A job line: number, submit time, run time, processors; every other field `-1`.
fn line(id: u32, submit: i64, run: i64, procs: u32) -> String {
    let mut fields = vec!["-1".to_owned(); FIELDS];
    (fields[0], fields[1], fields[3], fields[4]) =
        (id.to_string(), submit.to_string(), run.to_string(), procs.to_string());
    fields.join(" ")
}

fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("host-sim-stream-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn gzip(path: &Path, text: &str) {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::fast());
    encoder.write_all(text.as_bytes()).unwrap();
    std::fs::write(path, encoder.finish().unwrap()).unwrap();
}

fn streamed(scan: &Scan) -> Result<Vec<Job>, SwfError> {
    scan.stream().unwrap().collect()
}

#[test]
fn a_stream_gives_what_a_whole_read_gives() {
    let dir = folder("same");
    // Locally out of order, excluded lines, a header, a malformed line skipped.
    let mut lines =
        vec!["; MaxNodes: 4".to_owned(), line(1, 500, 10, 3), line(2, 400, 0, 1), line(3, -5, 10, 1)];
    lines.extend((4..3000).map(|k| line(k, 1000 + i64::from(k % 97) * 3 + i64::from(k), 5, k % 9)));
    lines.push("not a job".to_owned());
    lines.push(line(3000, 450, 7, 2));
    let path = dir.join("t.swf.gz");
    gzip(&path, &(lines.join("\n") + "\n"));
    let options = SwfOptions { skip_bad_lines: true, allow_extra_fields: false };
    let whole = read(&path, options).unwrap();
    let scan = Scan::new(&path, options).unwrap();
    assert_eq!(streamed(&scan).unwrap(), whole.workload.jobs);
    assert_eq!(scan.jobs, whole.workload.jobs.len() as u64);
    assert_eq!(scan.workload.hash, whole.workload.hash);
    assert_eq!(scan.workload.excluded, whole.workload.excluded);
    assert_eq!(scan.workload.settings, whole.workload.settings);
    assert_eq!((scan.max_procs, scan.max_nodes), (whole.max_procs, whole.max_nodes));
    assert_eq!(scan.widest, whole.workload.jobs.iter().map(|j| j.procs).max().unwrap());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn merged_streams_give_the_merged_workload() {
    let dir = folder("merge");
    let a: Vec<String> = (1..400).map(|k| line(k, 1000 + i64::from(k / 3) * 7, 5, 1)).collect();
    let b: Vec<String> = (1..300).map(|k| line(k, 50 + i64::from(k / 2) * 7, 6, 1)).collect();
    let (path_a, path_b) = (dir.join("a.swf"), dir.join("b.swf"));
    std::fs::write(&path_a, a.join("\n")).unwrap();
    gzip(&path_b, &b.join("\n"));
    let args = TraceArgs { trace: vec![path_a, path_b], limit: Some(500), ..TraceArgs::default() };
    let whole = args.read().unwrap().unwrap().workload;
    let scanned = args.scan().unwrap().unwrap();
    let jobs: Vec<Job> = scanned.jobs().unwrap().collect::<Result<_, _>>().unwrap();
    assert_eq!(jobs, whole.jobs);
    assert_eq!(scanned.jobs, 500);
    assert_eq!((scanned.workload.hash, &scanned.workload.parts), (whole.hash, &whole.parts));
    assert_eq!((&scanned.workload.name, &scanned.workload.settings), (&whole.name, &whole.settings));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_job_out_of_order_past_the_look_ahead_is_refused_by_line() {
    let dir = folder("order");
    let count = u32::try_from(LOOKAHEAD).unwrap() + 2;
    let mut lines: Vec<String> = (1..=count).map(|k| line(k, 100 + i64::from(k), 5, 1)).collect();
    lines.push(line(count + 1, 100, 5, 1));
    let path = dir.join("late.swf");
    std::fs::write(&path, lines.join("\n")).unwrap();
    let scan = Scan::new(&path, SwfOptions::default()).unwrap();
    let error = streamed(&scan).unwrap_err().to_string();
    let expected = format!(
        "{}:{}: field 2 (submit time): 100 is before the submit time 102 of a job already taken: a trace is \
         read as a stream with a look-ahead of {LOOKAHEAD} jobs",
        path.display(),
        count + 1
    );
    assert!(error.starts_with(&expected), "{error}");
    assert!(error.ends_with("sort -s -n -k2,2) > T.sorted"), "{error}");
    // Within the look-ahead the same job is put in its place.
    lines.swap(1, 30);
    std::fs::write(&path, lines[..200].join("\n")).unwrap();
    let scan = Scan::new(&path, SwfOptions::default()).unwrap();
    assert_eq!(streamed(&scan).unwrap(), read(&path, SwfOptions::default()).unwrap().workload.jobs);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_duplicate_job_names_both_lines_as_a_whole_read_does() {
    let dir = folder("duplicate");
    let lines = [line(7, 1, 5, 1), line(8, 2, 5, 1), line(70_000, 3, 5, 1), line(8, 4, 5, 1)];
    let path = dir.join("dup.swf");
    std::fs::write(&path, lines.join("\n")).unwrap();
    let whole = read(&path, SwfOptions::default()).unwrap_err().to_string();
    let scanned = Scan::new(&path, SwfOptions::default()).unwrap_err().to_string();
    assert_eq!(scanned, whole);
    assert!(scanned.ends_with("dup.swf:4: field 1 (job number): job 8 is already on line 2"), "{scanned}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// One reading gives what the two passes give: the jobs, then the same tallies.
#[test]
fn one_reading_gives_both_passes() {
    let dir = folder("once");
    // Out of order now and then (the held jobs' queue and heap both in play), with
    // excluded lines and a header.
    let mut lines = vec!["; MaxProcs: 128".to_owned(), line(1, 900, 10, 3), line(2, 400, 0, 1)];
    lines.extend((3..5000).map(|k| line(k, 1000 + i64::from(k) - i64::from(k % 7 == 0) * 40, 5, k % 11)));
    let path = dir.join("t.swf.gz");
    gzip(&path, &(lines.join("\n") + "\n"));
    let scan = Scan::new(&path, SwfOptions::default()).unwrap();
    let mut once = Scan::once(&path, SwfOptions::default(), None).unwrap();
    let jobs: Vec<Job> = once.by_ref().collect::<Result<_, _>>().unwrap();
    assert_eq!(jobs, read(&path, SwfOptions::default()).unwrap().workload.jobs);
    let found = once.finish().unwrap();
    assert!(found.same_origin && found.in_order);
    let found = found.scan;
    assert_eq!((found.jobs, found.widest, found.origin), (scan.jobs, scan.widest, scan.origin));
    assert_eq!((found.workload.hash, found.workload.excluded), (scan.workload.hash, scan.workload.excluded));
    assert_eq!((found.max_procs, found.max_nodes), (Some(128), None));
    // A malformed line at the end: the jobs stop short, and the error is the end's.
    std::fs::write(&path, lines.join("\n") + "\n1 2 3\n").unwrap();
    let mut once = Scan::once(&path, SwfOptions::default(), None).unwrap();
    assert!(once.by_ref().all(|job| job.is_ok()));
    let error = once.finish().unwrap_err().to_string();
    assert!(error.ends_with(":5001: 3 fields, an SWF job line has exactly 18"), "{error}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A job out of order past the look-ahead, earlier than every job before it, that
/// the taker never reaches: the jobs taken were measured from a later time than two
/// passes measure them from, which the end says.
#[test]
fn jobs_taken_short_of_an_earlier_job_are_measured_from_another_origin() {
    let dir = folder("origin");
    // Past the look-ahead by more than a batch, so that jobs are handed out first.
    let count = u32::try_from(super::LOOKAHEAD).unwrap() + 5000;
    let mut lines: Vec<String> = (1..=count).map(|k| line(k, 100 + i64::from(k), 5, 1)).collect();
    lines.push(line(count + 1, 7, 5, 1));
    let path = dir.join("t.swf");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let mut once = Scan::once(&path, SwfOptions::default(), None).unwrap();
    assert_eq!(once.next().unwrap().unwrap().release, 0);
    let found = once.finish().unwrap();
    assert_eq!((found.same_origin, found.in_order, found.scan.origin), (false, false, 7));
    // Taken to the end, the jobs stop short of it, and the origin is as wrong.
    let mut once = Scan::once(&path, SwfOptions::default(), None).unwrap();
    assert!(once.by_ref().all(|job| job.is_ok()));
    let found = once.finish().unwrap();
    assert_eq!((found.same_origin, found.in_order), (false, false));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A job out of order by more lines than one pass looks ahead, but fewer than two
/// passes do: one pass stops its jobs there and says so; two passes sort it.
#[test]
fn one_reading_says_when_its_short_look_ahead_was_not_enough() {
    let dir = folder("ahead");
    let count = u32::try_from(super::ONCE_AHEAD).unwrap() * 4;
    let mut lines: Vec<String> = (1..=count).map(|k| line(k, 100 + i64::from(k), 5, 1)).collect();
    lines.push(line(count + 1, 150, 5, 1));
    let path = dir.join("t.swf");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let whole = read(&path, SwfOptions::default()).unwrap().workload.jobs;
    let scan = Scan::new(&path, SwfOptions::default()).unwrap();
    assert_eq!(streamed(&scan).unwrap(), whole);
    let mut once = Scan::once(&path, SwfOptions::default(), None).unwrap();
    let jobs: Vec<Job> = once.by_ref().collect::<Result<_, _>>().unwrap();
    assert!(jobs.len() < whole.len() && whole.starts_with(&jobs[..jobs.len().min(40)]), "{}", jobs.len());
    let found = once.finish().unwrap();
    assert!(!found.in_order && found.same_origin);
    assert_eq!((found.scan.jobs, found.scan.workload.hash), (scan.jobs, scan.workload.hash));
    // In order, the same jobs all come, and it says so.
    lines.pop();
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let mut once = Scan::once(&path, SwfOptions::default(), None).unwrap();
    let jobs: Vec<Job> = once.by_ref().collect::<Result<_, _>>().unwrap();
    assert_eq!(jobs, read(&path, SwfOptions::default()).unwrap().workload.jobs);
    assert!(once.finish().unwrap().in_order);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn job_numbers_are_seen_once_across_pages() {
    let mut seen = super::SeenIds::default();
    let numbers = [0, 1, 40_000, 2, 40_000, u32::MAX, 1, 70_000, u32::MAX, 0];
    let new: Vec<bool> = numbers.iter().map(|&id| seen.insert(id)).collect();
    assert_eq!(new, [true, true, true, true, false, true, false, true, false, false]);
}
