//! `reserve` and `tiers` read a trace once where they can (a log that is a regular
//! file; for `reserve`, a pool whose size is known before the trace is read), and
//! twice otherwise, as `run` does (`service_level_one_pass.rs`; `run` is here too
//! where a case concerns all three). Both readings must give the same
//! log bytes, the same output and the same errors: each case here runs both, two
//! passes forced by a log that is a FIFO (which cannot be written over, so that the
//! header must be known first), read as it is written, and compares them.
#![cfg(target_os = "linux")]

mod common;

use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::process::{Command, Output};

use common::scratch;

/// A job line of `id` submitted at `submit`, running `run` seconds on `procs`
/// processors (requested time `run`).
fn job(id: u32, submit: u64, run: u64, procs: u32) -> String {
    format!("{id} {submit} 0 {run} {procs} -1 -1 {procs} {run} -1 1 1 1 1 1 1 -1 -1\n")
}

/// Jobs 1 to `count`, two minutes apart, each running 1 to 4 hours on 1 to 16
/// processors.
fn jobs(count: u32) -> String {
    (1..=count)
        .map(|id| job(id, u64::from(id) * 120, 3600 * u64::from(1 + id % 4), 1 + id * 7 % 16))
        .collect()
}

fn gzipped(text: &str) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(text.as_bytes()).unwrap();
    encoder.finish().unwrap()
}

/// The runs so far, which number their folders.
static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// `O_NONBLOCK` on Linux: opening a FIFO to write fails at once, rather than
/// waiting, when no one has it open to read.
const O_NONBLOCK: i32 = 0o4000;

/// Runs host-sim with `args` and `--log out.log` in a folder holding `files`, the
/// log a regular file (`two` false: one pass where it applies) or a FIFO read as
/// it is written (`two`: two passes): the output, and the log's bytes if any were
/// written. Neither leaves a staged file behind.
fn run(name: &str, files: &[(&str, &[u8])], args: &[&str], two: bool) -> (Output, Option<Vec<u8>>) {
    // Tests run at once, and cases share names: every run has a folder of its own.
    let run = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = scratch(&format!("one-pass-models-{run}-{}", if two { "two" } else { "one" }));
    for (file, bytes) in files {
        std::fs::write(dir.join(file), bytes).unwrap();
    }
    let log = dir.join("out.log");
    let reader = two.then(|| {
        assert!(Command::new("mkfifo").arg(&log).status().unwrap().success());
        let fifo = log.clone();
        std::thread::spawn(move || std::fs::read(fifo).unwrap())
    });
    let mut command = Command::new(env!("CARGO_BIN_EXE_host-sim"));
    let output = command.current_dir(&dir).args(args).args(["--log", "out.log"]).output().unwrap();
    let written = match reader {
        Some(reader) => {
            // A run that never opened the FIFO leaves the reader waiting: a writer
            // that opens it and goes releases it (and fails, harmlessly, when the
            // reader is gone already).
            drop(std::fs::OpenOptions::new().write(true).custom_flags(O_NONBLOCK).open(&log));
            Some(reader.join().unwrap()).filter(|bytes| !bytes.is_empty())
        }
        None => std::fs::read(&log).ok(),
    };
    assert!(!dir.join("out.log.tmp").exists(), "{name}: a staged log was left behind");
    std::fs::remove_dir_all(&dir).unwrap();
    (output, written)
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Both readings of `files` give the same exit code, output and (when it succeeds)
/// log; the one-pass output and log.
fn same_both_ways(name: &str, files: &[(&str, &[u8])], args: &[&str]) -> (Output, Option<Vec<u8>>) {
    let (once, once_log) = run(name, files, args, false);
    let (twice, twice_log) = run(name, files, args, true);
    assert_eq!(once.status.code(), twice.status.code(), "{name}: {} / {}", stderr(&once), stderr(&twice));
    assert_eq!(stderr(&once), stderr(&twice), "{name}");
    assert_eq!(once.stdout, twice.stdout, "{name}");
    // A failed run leaves no log; through a FIFO, what it wrote before it failed
    // went through (a regular file is staged, and left as it was).
    assert!(once_log == twice_log || !once.status.success(), "{name}: the logs differ");
    (once, once_log)
}

/// A successful run that wrote a log, both ways.
fn succeeds(name: &str, files: &[(&str, &[u8])], args: &[&str]) -> Output {
    let (output, log) = same_both_ways(name, files, args);
    assert!(output.status.success(), "{name}: {}", stderr(&output));
    assert!(log.is_some_and(|log| log.starts_with(b"ADMLOG")), "{name}: no log");
    output
}

/// A failed run that printed only `expected` (in its error) and left no log.
fn fails(name: &str, files: &[(&str, &[u8])], args: &[&str], expected: &str) {
    let (output, log) = same_both_ways(name, files, args);
    assert!(!output.status.success() && output.stdout.is_empty(), "{name}");
    assert!(stderr(&output).contains(expected), "{name}: {}", stderr(&output));
    assert!(log.is_none(), "{name}: a log was left");
}

#[test]
fn reserve_read_once_gives_the_log_and_summary_of_two_passes() {
    let text = format!("; MaxProcs: 64\n{}", jobs(400));
    let gz = gzipped(&text);
    let plain: &[(&str, &[u8])] = &[("t.swf", text.as_bytes())];
    for extra in [
        &[][..],
        &["--limit", "50"],
        &["--window", "1d", "--flex", "long", "--offers", "0.5", "--estimates", "poisson80", "--json"],
        &["--criterion", "fifo", "--load", "1.5", "--fix-at", "0.25"],
    ] {
        succeeds("reserve", plain, &[&["reserve", "--trace", "t.swf"], extra].concat());
    }
    succeeds("reserve-gz", &[("t.swf.gz", &gz)], &["reserve", "--trace", "t.swf.gz", "--window", "1d"]);
    // No size in the header: the pool is --nodes, or the widest job (two passes).
    let bare = jobs(300);
    for extra in [&["--nodes", "20"][..], &[], &["--limit", "7"]] {
        succeeds(
            "reserve-bare",
            &[("t.swf", bare.as_bytes())],
            &[&["reserve", "--trace", "t.swf"], extra].concat(),
        );
    }
    // A MaxProcs past the first job changes the pool: the one-pass run is made again.
    let late = format!("{}; MaxProcs: 32\n{}", jobs(10), &jobs(300)[jobs(10).len()..]);
    succeeds(
        "reserve-late",
        &[("t.swf", late.as_bytes())],
        &["reserve", "--trace", "t.swf", "--window", "1d"],
    );
    // One that contradicts an earlier one is refused, both ways, naming both lines.
    let contradicted = format!("; MaxProcs: 64\n{}; MaxProcs: 32\n", jobs(10));
    let args = ["reserve", "--trace", "t.swf", "--window", "1d"];
    fails("reserve-contradicted", &[("t.swf", contradicted.as_bytes())], &args, "t.swf:12");
    let merged: &[(&str, &[u8])] =
        &[("a.swf", text.as_bytes()), ("b.swf.gz", &gz), ("c.swf", bare.as_bytes())];
    let args = ["reserve", "--trace", "c.swf", "--trace", "a.swf", "--trace", "b.swf.gz", "--limit", "900"];
    succeeds("reserve-merged", merged, &args);
}

#[test]
fn tiers_read_once_gives_the_log_and_summary_of_two_passes() {
    let text = jobs(300);
    let files: &[(&str, &[u8])] = &[("t.swf", text.as_bytes())];
    for extra in [
        &[][..],
        &["--policy", "no-qos", "--mix", "B", "--json"],
        &["--policy", "qos", "--mix", "D", "--limit", "40", "--seed", "5"],
    ] {
        let output = succeeds("tiers", files, &[&["tiers", "--trace", "t.swf"], extra].concat());
        assert!(stderr(&output).contains("trace jobs use more than one processor"), "{}", stderr(&output));
    }
    let gz = gzipped(&text);
    let merged: &[(&str, &[u8])] = &[("a.swf", text.as_bytes()), ("b.swf.gz", &gz)];
    succeeds("tiers-merged", merged, &["tiers", "--trace", "a.swf", "--trace", "b.swf.gz", "--mix", "C"]);
}

#[test]
fn a_trace_error_anywhere_stops_both_and_leaves_no_log() {
    let head = format!("; MaxProcs: 64\n{}", jobs(200));
    let bad = format!("{head}201 12000 0 3600 4 -1 -1 4\n");
    let duplicate = format!("{head}{}", job(7, 30_000, 60, 2));
    for model in ["reserve", "tiers"] {
        let files: &[(&str, &[u8])] = &[("t.swf", bad.as_bytes())];
        let message = ":202: 8 fields, an SWF job line has exactly 18";
        fails(model, files, &[model, "--trace", "t.swf", "--limit", "5"], message);
        let files: &[(&str, &[u8])] = &[("t.swf", duplicate.as_bytes())];
        let message = ":202: field 1 (job number): job 7 is already on line 8";
        fails(model, files, &[model, "--trace", "t.swf"], message);
    }
}

#[test]
fn an_empty_input_is_an_error_or_a_warning_as_in_two_passes() {
    let comments = "; MaxProcs: 64\n; nothing else\n";
    let no_procs =
        format!("; MaxProcs: 64\n{}", (1..=20).map(|id| job(id, u64::from(id), 60, 0)).collect::<String>());
    for model in ["reserve", "tiers"] {
        let files: &[(&str, &[u8])] = &[("t.swf", comments.as_bytes())];
        fails(model, files, &[model, "--trace", "t.swf"], "no usable job");
        let (output, _) = same_both_ways(model, files, &[model, "--trace", "t.swf", "--allow-empty"]);
        assert!(stderr(&output).contains("warning"), "{}", stderr(&output));
    }
    let files: &[(&str, &[u8])] = &[("t.swf", no_procs.as_bytes())];
    fails("reserve-unsized", files, &["reserve", "--trace", "t.swf"], "no job has a processor count");
    let (output, _) =
        same_both_ways("reserve-unsized", files, &["reserve", "--trace", "t.swf", "--allow-empty"]);
    assert!(stderr(&output).contains("no job has a processor count"), "{}", stderr(&output));
}

#[test]
fn a_job_out_of_order_past_the_look_ahead_is_an_error_unless_past_the_jobs_taken() {
    let lookahead = u32::try_from(host_sim::swf::LOOKAHEAD).unwrap();
    let count = lookahead + 5000;
    let text = format!("; MaxProcs: 64\n{}{}", jobs(count), job(count + 1, 1, 60, 2));
    let files: &[(&str, &[u8])] = &[("t.swf", text.as_bytes())];
    for model in ["reserve", "tiers"] {
        fails(model, files, &[model, "--trace", "t.swf"], "is before the submit time");
        succeeds(model, files, &[model, "--trace", "t.swf", "--limit", "100"]);
    }
}

/// Merged traces, one with a job out of order past the look-ahead and earlier than
/// all its others, past `--limit`: two passes measure that trace's jobs from it, and
/// so, made again in two passes, does the one-pass run (`run` too, which measured
/// them from its first job taken before).
#[test]
fn jobs_taken_short_of_an_earlier_job_are_measured_as_two_passes_measure_them() {
    let count = u32::try_from(host_sim::swf::LOOKAHEAD).unwrap() + 5000;
    let late = format!("; MaxProcs: 64\n{}{}", jobs(count), job(count + 1, 1, 60, 2));
    let early = format!("; MaxProcs: 64\n{}", jobs(3000));
    let files: &[(&str, &[u8])] = &[("a.swf", early.as_bytes()), ("b.swf", late.as_bytes())];
    for model in ["run", "reserve", "tiers"] {
        succeeds(model, files, &[model, "--trace", "a.swf", "--trace", "b.swf", "--limit", "3000"]);
    }
}

/// A value the command line's parser refuses is refused before any input is read;
/// an option checked against the input (an availability file) after the trace's bad
/// line, in one pass as in two.
#[test]
fn options_refused_after_the_trace_keep_their_order() {
    let bad = format!("; MaxProcs: 64\n{}x\n", jobs(20));
    let files: &[(&str, &[u8])] = &[("t.swf", bad.as_bytes())];
    let args = ["reserve", "--trace", "t.swf", "--criterion", "nope"];
    fails("reserve-criterion", files, &args, "--criterion: `nope` is not fifo, edf, lff, bjf or shuffle");
    let args = ["tiers", "--trace", "t.swf", "--availability", "missing.tab"];
    fails("tiers-availability", files, &args, "1 fields, an SWF job line has exactly 18");
}
