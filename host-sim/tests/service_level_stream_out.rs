//! `host-sim run --stream-out`: the device record stream of the run (docs/stream-format.md).
//! `replay import` makes it into a log whose blocks and footer are the `--log`'s byte
//! for byte and whose header names the same kernel; `replay verify` accepts it; asking
//! for it leaves the log's bytes as they were. (The `replay` binary belongs to another
//! package, so import and verify are called as the library they run.)

mod common;

use std::io::Cursor;
use std::path::{Path, PathBuf};

use common::{host_sim, scratch, stderr_of_failure, stdout};
use replay::format::{Header, LogReader};

/// The KTH SP2 trace, when `../shared/traces` is present.
fn kth() -> Option<PathBuf> {
    let trace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz");
    trace.exists().then_some(trace)
}

/// Runs `run` with `args`, its log at `dir/NAME.log` and its stream at
/// `dir/NAME.stream`; returns both files' bytes.
fn run_both(dir: &Path, name: &str, args: &[&str]) -> (Vec<u8>, Vec<u8>) {
    let log = dir.join(format!("{name}.log"));
    let stream = dir.join(format!("{name}.stream"));
    let outputs = ["--log", log.to_str().unwrap(), "--stream-out", stream.to_str().unwrap()];
    stdout(&host_sim(&[&["run"], args, &outputs[..]].concat()));
    assert!(!dir.join(format!("{name}.stream.tmp")).exists(), "the staged stream is renamed");
    (std::fs::read(log).unwrap(), std::fs::read(stream).unwrap())
}

/// The stream made into a log, as `replay import STREAM` does under the file name `name`.
fn import(name: &str, stream: &[u8]) -> Vec<u8> {
    let read = replay::stream::read(stream);
    assert!(read.losses.is_empty(), "{:?}", read.losses);
    assert!(read.end.is_some(), "the stream is closed with its end frame");
    let mut log = Vec::new();
    replay::import::write_log(&read, name, stream, &mut log).unwrap();
    log
}

/// A log's header frame (magic, version, kind, length, payload, checksum), and the rest.
fn split_header(log: &[u8]) -> (&[u8], &[u8]) {
    let length = u32::from_le_bytes(log[11..15].try_into().unwrap()) as usize;
    log.split_at(15 + length + 4)
}

fn header(log: &[u8]) -> Header {
    LogReader::new(Cursor::new(log)).unwrap().header().clone()
}

/// The stream imports to the log's records, frame for frame, under a header naming
/// the same kernel, and `replay verify` re-makes every decision.
fn check(dir: &Path, name: &str, args: &[&str]) {
    let (log, stream) = run_both(dir, name, args);
    let imported = import(&format!("{name}.stream"), &stream);
    let (log_header, log_rest) = split_header(&log);
    let (imported_header, imported_rest) = split_header(&imported);
    assert_eq!(log_rest, imported_rest, "{name}: the blocks and the footer differ");
    assert_ne!(log_header, imported_header, "the import's header names the stream, not the trace");
    let (ran, made) = (header(&log), header(&imported));
    assert_eq!(ran.model, made.model);
    assert_eq!((&ran.kernel_version, &ran.host_version), (&made.kernel_version, &made.host_version));
    let report = replay::verify::verify(LogReader::new(Cursor::new(imported)).unwrap()).unwrap();
    assert!(report.records > 0);
    // The log is the log `--log` alone writes (read in one pass there, twice here).
    let alone = dir.join(format!("{name}-alone.log"));
    stdout(&host_sim(&[&["run"], args, &["--log", alone.to_str().unwrap()][..]].concat()));
    assert_eq!(std::fs::read(alone).unwrap(), log, "{name}: --stream-out changed the log");
}

#[test]
fn a_synthetic_run_streams_its_log_records() {
    let dir = scratch("stream-synthetic");
    check(
        &dir,
        "synthetic",
        &["--jobs", "500", "--machines", "3", "--levels", "1,2,4", "--queue-capacity", "16"],
    );
}

#[test]
fn a_windowed_trace_run_streams_its_log_records() {
    let Some(trace) = kth() else {
        eprintln!("service_level_stream_out: ../shared/traces is absent; the trace runs are skipped");
        return;
    };
    let dir = scratch("stream-kth");
    let trace = trace.to_str().unwrap();
    check(&dir, "kth", &["--trace", trace, "--machines", "4", "--limit", "2000"]);
    let windowed =
        ["--trace", trace, "--machines", "2", "--limit", "3000", "--window", "7d", "--policy", "best-fit"];
    check(&dir, "kth-weeks", &windowed);
}

#[test]
fn the_stream_is_never_over_an_input_or_another_output() {
    let dir = scratch("stream-clash");
    let same = dir.join("same").to_str().unwrap().to_owned();
    let output = host_sim(&["run", "--jobs", "10", "--log", &same, "--stream-out", &same]);
    assert!(stderr_of_failure(&output).contains("--stream-out"));
    let jobs = dir.join("jobs.csv").to_str().unwrap().to_owned();
    let output = host_sim(&["run", "--jobs", "10", "--jobs-out", &jobs, "--stream-out", &jobs]);
    assert!(stderr_of_failure(&output).contains("--stream-out"));
    assert!(!Path::new(&same).exists() && !Path::new(&jobs).exists());
}

#[test]
fn a_stream_that_cannot_be_written_fails_the_run_by_its_name() {
    let dir = scratch("stream-unwritable");
    let stream = dir.join("no-such-folder").join("run.stream");
    let output = host_sim(&["run", "--jobs", "10", "--stream-out", stream.to_str().unwrap()]);
    // Named as given (not as its staged `.tmp`), with the folder that is missing.
    let err = stderr_of_failure(&output);
    let folder = dir.join("no-such-folder");
    assert!(
        err.contains(&format!("{}: the folder {} does not exist", stream.display(), folder.display())),
        "{err}"
    );
}
