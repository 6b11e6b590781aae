//! Child processes measured from outside: wall time around the whole process, and
//! peak resident memory through GNU time (`/usr/bin/time -f %M`).
//!
//! Wall time and memory are taken in separate runs, so that the timed runs carry no
//! wrapper process and its start-up.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::cmd::{Result, render};

/// GNU time, which reports a child's peak resident set size (`%M`, in KiB).
const GNU_TIME: &str = "/usr/bin/time";

/// A program and its arguments, run as many times as needed.
#[derive(Clone, Debug)]
pub struct Job {
    pub program: PathBuf,
    pub args: Vec<OsString>,
}

impl Job {
    pub fn new(program: impl Into<PathBuf>) -> Self {
        Self { program: program.into(), args: Vec::new() }
    }

    pub fn arg(mut self, arg: impl Into<OsString>) -> Self {
        self.args.push(arg.into());
        self
    }

    pub fn command(&self) -> Command {
        let mut cmd = Command::new(&self.program);
        cmd.args(&self.args);
        cmd
    }
}

/// One finished run: its wall time and what it printed on stdout.
#[derive(Debug)]
pub struct Timed {
    pub wall: Duration,
    pub stdout: String,
}

/// Runs `job` once, stdout and stderr captured (so that no progress bar is drawn),
/// and times it from spawn to exit. A failure shows the child's stderr.
pub fn timed(job: &Job) -> Result<Timed> {
    let mut cmd = job.command();
    let start = Instant::now();
    let output =
        cmd.stdin(Stdio::null()).output().map_err(|e| format!("cannot start {}: {e}", render(&cmd)))?;
    let wall = start.elapsed();
    let stdout = checked(&cmd, output)?;
    Ok(Timed { wall, stdout })
}

fn checked(cmd: &Command, output: Output) -> Result<String> {
    if !output.status.success() {
        return Err(format!(
            "`{}` exited with {}:\n{}",
            render(cmd),
            output.status,
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// Whether GNU time is installed (Debian package `time`).
pub fn has_gnu_time() -> bool {
    Path::new(GNU_TIME).is_file()
}

/// The peak resident set size of one run of `job`, in MiB, or `None` without GNU time.
pub fn peak_rss_mib(job: &Job, scratch: &Path) -> Result<Option<f64>> {
    if !has_gnu_time() {
        return Ok(None);
    }
    let report = scratch.join("peak-rss.txt");
    let mut cmd = Command::new(GNU_TIME);
    cmd.args(["-f", "%M", "-o"]).arg(&report).arg(&job.program).args(&job.args).stdin(Stdio::null());
    let output = cmd.output().map_err(|e| format!("cannot start {}: {e}", render(&cmd)))?;
    checked(&cmd, output)?;
    let text = std::fs::read_to_string(&report).map_err(|e| format!("{}: {e}", report.display()))?;
    // GNU time may put a note before the figure (for example on a signal): take the last line.
    let kib: f64 = text
        .lines()
        .last()
        .and_then(|l| l.trim().parse().ok())
        .ok_or_else(|| format!("{}: no peak RSS in {text:?}", report.display()))?;
    Ok(Some(kib / 1024.0))
}
