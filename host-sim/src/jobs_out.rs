//! `--jobs-out FILE.csv` of `reserve`, `tiers` and `sla`: the per-job table
//! (docs/records.md) of the run, made from its decision log by the very code `replay
//! export --format csv` runs, so the two are the same bytes. Without `--log`, the log
//! goes to a file of this process's own in the system's temporary folder, removed
//! once the table is written. (`run` writes its table from the run loop as it goes.)

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use clap::Args;
use replay::format::LogReader;

use crate::path_error::PathError;

/// The per-job table's option, as `reserve`, `tiers` and `sla` take it.
#[derive(Clone, Debug, Default, Args)]
pub struct JobsOutArgs {
    /// Write one CSV row per request here (docs/records.md: window, job, class,
    /// submit, size, work, ready, deadline, outcome, reason, start, finish, place,
    /// pieces, interruptions; absolute times), through FILE.tmp renamed once whole:
    /// the rows `replay export --format csv` writes from the run's log.
    #[arg(long, value_name = "FILE.csv")]
    pub jobs_out: Option<PathBuf>,
}

/// Runs `run` on `args`, then, where `jobs` names a table, writes it from the run's
/// log (`log` reaches the log option in `args`; a copy of `args` with a temporary log
/// is run where it names none).
pub fn around<A: Clone, E: From<PathError>>(
    args: &A,
    jobs: Option<&Path>,
    log: impl Fn(&mut A) -> &mut Option<PathBuf>,
    run: impl Fn(&A) -> Result<(), E>,
) -> Result<(), E> {
    let Some(jobs) = jobs else { return run(args) };
    let mut args = args.clone();
    let given = log(&mut args).clone();
    let path = given.clone().unwrap_or_else(|| {
        std::env::temp_dir().join(format!("host-sim-{}-jobs-out.log", std::process::id()))
    });
    *log(&mut args) = Some(path.clone());
    let ran = run(&args);
    let written = ran.and_then(|()| Ok(write(&path, jobs)?));
    if given.is_none() {
        let _ = std::fs::remove_file(&path);
    }
    written
}

/// The table of the log at `log`, written to `jobs` through `JOBS.tmp`.
fn write(log: &Path, jobs: &Path) -> Result<(), PathError> {
    let named = |path: &Path| {
        let path = path.display().to_string();
        move |source| PathError { path, source }
    };
    let reader = LogReader::open(log).map_err(|e| named(log)(std::io::Error::other(e.to_string())))?;
    replay::staged::write(jobs, |file, tmp| {
        let mut out = BufWriter::new(file);
        replay::jobs::export_csv(reader, &mut out)
            .map_err(|e| named(tmp)(std::io::Error::other(e.to_string())))?;
        out.flush().map_err(named(tmp))
    })
}
