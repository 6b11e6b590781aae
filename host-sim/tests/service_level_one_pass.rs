//! `host-sim run` reads a trace once when its outputs allow it (a log that is a
//! regular file, no `--jobs-out`), and twice otherwise. Both readings must give the
//! same bytes, the same summary and the same errors: each case here runs both (two
//! passes forced by `--jobs-out`) and compares them.

mod common;

use std::io::Write;
use std::path::Path;
use std::process::Output;

use common::{host_sim_in, scratch};

/// A job line of `id` submitted at `submit`, running `run` seconds on 4 processors.
fn job(id: u32, submit: u64, run: u64) -> String {
    format!("{id} {submit} 0 {run} 4 -1 -1 4 {run} -1 1 1 1 1 1 1 -1 -1\n")
}

/// Jobs 1 to `count`, a minute apart, each running an hour.
fn sorted(count: u32) -> String {
    (1..=count).map(|id| job(id, u64::from(id) * 60, 3600)).collect()
}

fn gzipped(text: &str) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(text.as_bytes()).unwrap();
    encoder.finish().unwrap()
}

/// Runs `run --trace trace.swf[.gz] --log run.log` with `extra` in a folder of its
/// own, once (`jobs_out` false) or twice (with `--jobs-out`): the output, and the
/// log's bytes if one was left.
fn run(name: &str, trace: &[u8], gzip: bool, extra: &[&str], jobs_out: bool) -> (Output, Option<Vec<u8>>) {
    let dir = scratch(&format!("one-pass-{name}-{}", if jobs_out { "two" } else { "one" }));
    let file = if gzip { "trace.swf.gz" } else { "trace.swf" };
    std::fs::write(dir.join(file), trace).unwrap();
    let mut args = vec!["run", "--trace", file, "--log", "run.log"];
    args.extend_from_slice(extra);
    if jobs_out {
        args.extend_from_slice(&["--jobs-out", "jobs.csv"]);
    }
    let output = host_sim_in(&dir, &args);
    assert!(!dir.join("run.log.tmp").exists(), "{name}: a staged log was left behind");
    let log = std::fs::read(dir.join("run.log")).ok();
    std::fs::remove_dir_all(&dir).unwrap();
    (output, log)
}

/// Both readings of `text` (plain and gzipped) give the same exit code, output and
/// log; the one-pass output.
fn same_both_ways(name: &str, text: &str, extra: &[&str]) -> (Output, Option<Vec<u8>>) {
    let mut first = None;
    for (gzip, bytes) in [(false, text.as_bytes().to_vec()), (true, gzipped(text))] {
        let (once, once_log) = run(name, &bytes, gzip, extra, false);
        let (twice, twice_log) = run(name, &bytes, gzip, extra, true);
        let say = |o: &Output| String::from_utf8_lossy(&o.stderr).into_owned();
        assert_eq!(once.status.code(), twice.status.code(), "{name}: {} / {}", say(&once), say(&twice));
        assert_eq!(say(&once), say(&twice), "{name}");
        assert_eq!(once.stdout, twice.stdout, "{name}");
        assert!(once_log == twice_log, "{name}: the logs differ");
        if !gzip {
            first = Some((once, once_log));
        }
    }
    first.unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn a_trace_read_once_gives_the_log_and_summary_of_two_passes() {
    for extra in [&[][..], &["--machines", "3"], &["--machines", "64", "--limit", "50"]] {
        let (output, log) = same_both_ways("sorted", &format!("; MaxProcs: 64\n{}", sorted(200)), extra);
        assert!(output.status.success(), "{}", stderr(&output));
        assert!(log.is_some_and(|log| log.starts_with(b"ADMLOG")));
    }
    // Out of order within the look-ahead: sorted by the reading, either way.
    let mut lines: Vec<String> = (1..=300).map(|id| job(id, u64::from(id) * 60, 600)).collect();
    lines.swap(10, 250);
    lines.swap(0, 299);
    let (output, _) = same_both_ways("shuffled", &lines.concat(), &["--window", "1h"]);
    assert!(output.status.success(), "{}", stderr(&output));
}

#[test]
fn an_error_on_the_last_line_stops_the_run_and_leaves_no_log() {
    let text = format!("{}201 12000 0 3600 4 -1 -1 4\n", sorted(200));
    for extra in [&[][..], &["--limit", "5"]] {
        let (output, log) = same_both_ways("last-line", &text, extra);
        assert!(
            stderr(&output).contains(":201: 8 fields, an SWF job line has exactly 18"),
            "{}",
            stderr(&output)
        );
        assert!(!output.status.success() && output.stdout.is_empty() && log.is_none());
    }
    // A job number used twice names both lines.
    let text = format!("{}7 12000 0 3600 4 -1 -1 4 1 -1 1 1 1 1 1 1 -1 -1\n", sorted(200));
    let (output, log) = same_both_ways("duplicate", &text, &[]);
    assert!(
        stderr(&output).contains(":201: field 1 (job number): job 7 is already on line 7"),
        "{}",
        stderr(&output)
    );
    assert!(log.is_none());
}

#[test]
fn a_job_out_of_order_is_an_error_unless_past_the_jobs_taken() {
    let lookahead = u32::try_from(host_sim::swf::LOOKAHEAD).unwrap();
    // The last job is submitted before every job the look-ahead let go (5,000 of
    // them: more than the reading hands on at a time, 4,096).
    let text = format!("{}{}", sorted(lookahead + 5000), job(lookahead + 5001, 1, 60));
    let (output, log) = same_both_ways("late", &text, &[]);
    assert!(stderr(&output).contains("is before the submit time"), "{}", stderr(&output));
    assert!(log.is_none());
    let (output, log) = same_both_ways("late-limited", &text, &["--limit", "100"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(log.is_some());
    // A malformed line after it is the error: the first pass's errors come first.
    let (output, _) = same_both_ways("late-then-bad", &format!("{text}x\n"), &[]);
    assert!(stderr(&output).contains("1 fields, an SWF job line has exactly 18"), "{}", stderr(&output));
}

#[test]
fn a_failed_run_leaves_an_existing_log_as_it_was() {
    let dir = scratch("one-pass-existing");
    let trace = dir.join("bad.swf");
    std::fs::write(&trace, format!("{}bad\n", sorted(20))).unwrap();
    std::fs::write(dir.join("run.log"), b"earlier").unwrap();
    let output = host_sim_in(&dir, &["run", "--trace", "bad.swf", "--log", "run.log"]);
    assert!(!output.status.success());
    assert_eq!(std::fs::read(dir.join("run.log")).unwrap(), b"earlier");
    assert!(!Path::new(&dir.join("run.log.tmp")).exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
