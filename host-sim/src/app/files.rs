//! The files a subcommand reads and writes (each model's subcommands' from its
//! [`crate::model::HostModel::files`]), checked before anything is read: an
//! output that is an input or another output is refused
//! ([`replay::staged::distinct`]), and so is a trace given twice. Every input takes
//! part: traces, the scenario file (`--config`), availability files, the sweep a
//! `criteria` reads, logs. An output folder (`--out DIR` of the grids) must be a
//! folder, and each file written there is checked as an output; where the names of
//! its figures depend on the run, an input named `*.svg` in it is refused. Behind all
//! this, `distinct` registers the inputs and [`replay::staged::write`] never replaces
//! one, whatever path it is given.

use std::path::Path;

use crate::error::CliError;
use crate::files::{Files, Owned};
use replay::staged::{self, paths::Named};

use super::Command;

/// What `compare --out` writes.
const COMPARE: &[&str] = &[
    "compare.csv",
    "compare.json",
    "compare.svg",
    "compare_wait.svg",
    "compare_slowdown.svg",
    "compare_utilisation.svg",
];

/// The inputs a run holds ([`replay::staged::inputs::protect`]), released when it
/// ends: a process that runs many command lines may later write where one read.
#[derive(Debug, Default)]
pub struct Held(Vec<Owned>);

impl Drop for Held {
    fn drop(&mut self) {
        staged::inputs::release(&named(&self.0));
    }
}

/// Checks `command`'s files; `run` is the subcommand `host-sim` alone runs, and
/// `scenario` the `--config` file read. The inputs are held until what it gives is
/// dropped.
pub fn check(
    command: Option<&Command>,
    run: &crate::service_level::cli::RunArgs,
    scenario: Option<&Path>,
) -> Result<Held, CliError> {
    let files = listed(command, run).input("--config", scenario);
    for (option, dir) in &files.folders {
        not_a_file(option, dir)?;
    }
    let traces = named(&files.traces);
    if let Some(((_, first), (_, second))) = staged::repeated(&traces) {
        return Err(CliError::Usage(format!(
            "--trace {} and --trace {} name the same file; give each trace once",
            first.display(),
            second.display()
        )));
    }
    let inputs = [traces, named(&files.inputs)].concat();
    for (option, dir) in &files.figures {
        no_figure_over(option, dir, &inputs)?;
    }
    staged::distinct(&inputs, &named(&files.outputs)).map_err(|clash| CliError::Usage(clash.to_string()))?;
    Ok(Held([files.traces.as_slice(), &files.inputs].concat()))
}

fn named(list: &[Owned]) -> Vec<Named<'_>> {
    list.iter().map(|(option, path)| (*option, path.as_path())).collect()
}

/// Every file option of `command`.
fn listed(command: Option<&Command>, run: &crate::service_level::cli::RunArgs) -> Files {
    let new = Files::default();
    match command {
        None => crate::service_level::contract::run_files(run),
        Some(Command::Model(command)) => command.files(),
        Some(Command::Config(_)) => new,
        Some(Command::Compare(args)) => {
            new.traces(&args.source).folder("--out", args.out.as_deref(), COMPARE)
        }
        Some(Command::Whatif(args)) => {
            new.input("LOG", Some(&args.input)).output("--log", args.output.log.as_deref())
        }
        // The parts are read, and the sweep's own files checked, by the command line
        // the merge runs.
        Some(Command::Merge(_)) => new,
        Some(Command::Slurm(args)) => new.folder("--out", Some(&args.out), crate::shard::slurm::FILES),
    }
}

/// Refuses an output folder that is a file, or lies under one.
fn not_a_file(option: &str, dir: &Path) -> Result<(), CliError> {
    let existing = dir.ancestors().filter(|a| !a.as_os_str().is_empty()).find(|a| a.exists());
    match existing {
        Some(found) if !found.is_dir() => {
            let what = if found == dir { String::new() } else { format!(" (under {})", found.display()) };
            Err(CliError::Usage(format!(
                "{option} {} names a folder to write in{what}, and {} is a file; name a folder",
                dir.display(),
                found.display()
            )))
        }
        _ => Ok(()),
    }
}

/// Refuses an input that is a figure's name (`*.svg`) in folder `dir`, where the run
/// writes figures whose names depend on what it finds.
fn no_figure_over(option: &str, dir: &Path, inputs: &[Named]) -> Result<(), CliError> {
    let Ok(folder) = std::fs::canonicalize(dir) else { return Ok(()) };
    for &(input, path) in inputs {
        let real = staged::paths::follow_links(path).unwrap_or_else(|_| path.to_owned());
        let is_figure = real.extension().is_some_and(|e| e == "svg");
        let parent = real.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        if is_figure && std::fs::canonicalize(parent).is_ok_and(|p| p == folder) {
            return Err(CliError::Usage(format!(
                "{option} {} gets the figures (*.svg) and {input} {} is one of its files: an output never \
                 replaces an input; move the input, name another folder, or give --no-plots",
                dir.display(),
                path.display()
            )));
        }
    }
    Ok(())
}
