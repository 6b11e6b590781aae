//! `cargo xtask corpus`: every model on every generated trace shape ([`shapes`]),
//! each log re-verified, with a table of requests, acceptances, wall time and peak
//! memory. `verify` runs it on the small shapes; `--large` adds the million-job file
//! (kept out of verify until verification is linear in the log's length), and
//! `--shared` adds the shared traces to the table.
//!
//! The files are written under `target/xtask/corpus/` from a seed (never committed);
//! a file already there with the same bytes is left as it is.

pub mod shapes;

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::cmd::{Result, host_sim_bin, render, replay_bin, shared_traces, target_dir};
use shapes::{SHAPES, Shape};

/// One model's run on one file, as the table shows it.
#[derive(Debug)]
pub(crate) struct Row {
    pub file: String,
    pub label: &'static str,
    pub requests: u64,
    pub accepted: u64,
    pub run: Duration,
    pub verify: Duration,
    /// Peak resident memory of the run and of its verification (GNU time's).
    pub peak_mib: Option<f64>,
    pub verify_peak_mib: Option<f64>,
}

/// A model's run as the traces step lists them: label, subcommand, options.
pub type Run = (&'static str, &'static str, &'static [&'static str]);

/// The whole corpus: written, run by every model (`runs`, the traces step's
/// `TRACE_RUNS`), verified, reported.
pub fn corpus(large: bool, shared: bool, runs: &[Run]) -> Result {
    let dir = target_dir().join("xtask/corpus");
    fs::create_dir_all(&dir).map_err(|e| format!("corpus: cannot create {}: {e}", dir.display()))?;
    let mut files: Vec<(PathBuf, &[&str])> = Vec::new();
    for shape in SHAPES.iter().filter(|s| large || !s.large) {
        files.push((write(&dir, shape)?, shape.options));
    }
    if shared && let Some(traces) = shared_traces("corpus")? {
        files.extend(traces.into_iter().map(|t| (t, &[][..])));
    }
    let (mut rows, mut failures) = (Vec::new(), Vec::new());
    let mut record = |result: Result<Row>| match result {
        Ok(row) => rows.push(row),
        Err(e) => failures.push(e),
    };
    for (file, options) in &files {
        for &(label, subcommand, model_options) in runs {
            record(one(&dir, ("--trace", file), label, subcommand, &[model_options, options].concat()));
        }
    }
    // A Failure Trace Archive file, read by tiers on the paper's workload.
    let fta = dir.join("desktops.tab");
    write_bytes(&fta, shapes::fta_text().as_bytes())?;
    record(one(&dir, ("--availability", &fta), "tiers", "tiers", &[]));
    print!("{}", table(&rows));
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "corpus: {} of {} runs failed:\n{}",
            failures.len(),
            rows.len() + failures.len(),
            failures.join("\n")
        ))
    }
}

/// Writes `shape`'s file into `dir` unless the same bytes are there; returns its path.
pub(crate) fn write(dir: &Path, shape: &Shape) -> Result<PathBuf> {
    let gzip = shape.large;
    let path = dir.join(format!("{}.swf{}", shape.name, if gzip { ".gz" } else { "" }));
    if gzip && path.is_file() {
        // The large file takes seconds to make; its generator is versioned by its name.
        return Ok(path);
    }
    let text = shape.text();
    if !gzip && fs::read(&path).is_ok_and(|old| old == text.as_bytes()) {
        return Ok(path);
    }
    let bytes = if gzip {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        encoder
            .write_all(text.as_bytes())
            .and_then(|()| encoder.finish())
            .map_err(|e| format!("corpus: gzip: {e}"))?
    } else {
        text.into_bytes()
    };
    write_bytes(&path, &bytes)?;
    Ok(path)
}

/// Writes `bytes` to `path` through `PATH.tmp`, unless the same bytes are there.
fn write_bytes(path: &Path, bytes: &[u8]) -> Result {
    if fs::read(path).is_ok_and(|old| old == bytes) {
        return Ok(());
    }
    let tmp = path.with_extension("tmp");
    fs::write(&tmp, bytes)
        .and_then(|()| fs::rename(&tmp, path))
        .map_err(|e| format!("corpus: cannot write {}: {e}", path.display()))
}

/// One model on one file: the run (under GNU time when installed, for the peak) and
/// the log's verification.
pub(crate) fn one(
    dir: &Path,
    (flag, file): (&str, &Path),
    label: &'static str,
    subcommand: &str,
    options: &[&str],
) -> Result<Row> {
    let name = file.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let log = dir.join(format!("{name}.{label}.log"));
    let peak_file = dir.join(format!("{name}.{label}.peak"));
    let gnu_time = Path::new("/usr/bin/time").is_file();
    let measured = |program: PathBuf| {
        if gnu_time {
            let mut time = Command::new("/usr/bin/time");
            time.args(["-f", "%M", "-o"]).arg(&peak_file).arg(program);
            time
        } else {
            Command::new(program)
        }
    };
    let mut sim = measured(host_sim_bin());
    sim.arg(subcommand).arg(flag).arg(file).args(options).arg("--log").arg(&log);
    let (run, _) = timed(&mut sim, &format!("{name} ({label})"))?;
    let peak_mib = gnu_time.then(|| peak(&peak_file)).flatten();
    let (verify, summary) =
        timed(measured(replay_bin()).arg("verify").arg(&log), &format!("{name} ({label}) verify"))?;
    let verify_peak_mib = gnu_time.then(|| peak(&peak_file)).flatten();
    let count = |word: &str| -> Option<u64> {
        let at = summary.find(&format!(" {word}"))?;
        summary[..at].rsplit(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
    };
    let (accepted, rejected) = (count("accepted"), count("rejected"));
    let (Some(accepted), Some(rejected)) = (accepted, rejected) else {
        return Err(format!("{name} ({label}): no counts in the verify summary: {summary}"));
    };
    Ok(Row {
        file: name,
        label,
        requests: accepted + rejected,
        accepted,
        run,
        verify,
        peak_mib,
        verify_peak_mib,
    })
}

/// Runs `cmd` with its output captured; its standard output, and its wall time.
pub(crate) fn timed(cmd: &mut Command, what: &str) -> Result<(Duration, String)> {
    let start = Instant::now();
    let output = cmd
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("{what}: cannot start {}: {e}", render(cmd)))?;
    let wall = start.elapsed();
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        return Err(format!("{what}: `{}` exited with {}: {}", render(cmd), output.status, stderr.trim()));
    }
    Ok((wall, String::from_utf8_lossy(&output.stdout).into_owned()))
}

/// The peak resident set GNU time wrote, in MiB.
fn peak(path: &Path) -> Option<f64> {
    let text = fs::read_to_string(path).ok()?;
    let kib: f64 = text.lines().last()?.trim().parse().ok()?;
    Some(kib / 1024.0)
}

fn table(rows: &[Row]) -> String {
    let mib = |p: Option<f64>| p.map_or_else(|| "-".to_owned(), |p| format!("{p:.1}"));
    let mut text = format!(
        "{:<34} {:<11} {:>9} {:>9} {:>8} {:>8} {:>8} {:>8}\n",
        "file", "model", "requests", "accepted", "run s", "verify s", "run MiB", "ver. MiB"
    );
    for r in rows {
        text.push_str(&format!(
            "{:<34} {:<11} {:>9} {:>9} {:>8.2} {:>8.2} {:>8} {:>8}\n",
            r.file,
            r.label,
            r.requests,
            r.accepted,
            r.run.as_secs_f64(),
            r.verify.as_secs_f64(),
            mib(r.peak_mib),
            mib(r.verify_peak_mib)
        ));
    }
    text
}
