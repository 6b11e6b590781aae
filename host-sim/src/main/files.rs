//! The files a subcommand reads and writes, checked before anything is read: an
//! output that is an input or another output is refused
//! ([`replay::staged::distinct`]), and so is a trace given twice. Every input takes
//! part: traces, the scenario file (`--config`), availability files, the sweep a
//! `criteria` reads, logs. An output folder (`--out DIR` of the grids) must be a
//! folder, and each file written there is checked as an output; where the names of
//! its figures depend on the run, an input named `*.svg` in it is refused. Behind all
//! this, `distinct` registers the inputs and [`replay::staged::write`] never replaces
//! one, whatever path it is given.

use std::path::{Path, PathBuf};

use host_sim::error::CliError;
use host_sim::input::TraceArgs;
use host_sim::model::ModelCommand;
use host_sim::plot::PlotArgs;
use host_sim::{reservation::contract as reservation, service_level::contract as service_level};
use host_sim::{sla::contract as sla, tiers::contract as tiers};
use replay::staged::{self, paths::Named};

use super::Command;

/// What `sweep --out` writes (and its figures).
const SWEEP: &[&str] = &["sweep.csv", "sweep.json"];
/// What `compare --out` writes.
const COMPARE: &[&str] = &[
    "compare.csv",
    "compare.json",
    "compare.svg",
    "compare_wait.svg",
    "compare_slowdown.svg",
    "compare_utilisation.svg",
];
/// What `reserve-sweep --out` writes (and its figures).
const RESERVE: &[&str] = &["fig2.csv", "fig3.csv", "fig4.csv", "fig5.csv", "fig6.csv", "fig7.csv"];
/// What `cv-sweep --out` writes (and its figures).
const CV: &[&str] = &["cv.csv", "cv-summary.csv"];
/// What `tiers-sweep --out` writes (and its figures).
const TIERS: &[&str] = &["tiers_runs.csv", "tiers_cells.csv", "tiers.json"];
/// What `sla-sweep --out` writes (and its figures).
const SLA: &[&str] = &[
    "sla_points.csv",
    "sla_fig3.csv",
    "sla_fig4.csv",
    "sla_fig7.csv",
    "sla_fig8.csv",
    "sla_table1.csv",
    "sla_table2.csv",
    "sla_families.csv",
    "sla.json",
];
/// What `criteria` writes (and its figures), in SWEEP_DIR or --out.
const CRITERIA: &[&str] = &["criteria.csv"];

/// A path and the option that gave it.
type Owned = (&'static str, PathBuf);

/// The files of one command line.
#[derive(Default)]
struct Files {
    inputs: Vec<Owned>,
    traces: Vec<Owned>,
    outputs: Vec<Owned>,
    folders: Vec<Owned>,
    /// The output folders that get figures (`*.svg`, named by what the run finds).
    figures: Vec<Owned>,
}

impl Files {
    fn input(mut self, option: &'static str, path: Option<&Path>) -> Self {
        self.inputs.extend(path.map(|p| (option, p.to_owned())));
        self
    }

    fn traces(mut self, source: &TraceArgs) -> Self {
        self.traces.extend(source.trace.iter().map(|p| ("--trace", p.clone())));
        self
    }

    fn output(mut self, option: &'static str, path: Option<&Path>) -> Self {
        self.outputs.extend(path.map(|p| (option, p.to_owned())));
        self
    }

    /// An output folder and the files written in it.
    fn folder(mut self, option: &'static str, dir: Option<&Path>, names: &[&str]) -> Self {
        if let Some(dir) = dir {
            self.outputs.extend(names.iter().map(|name| (option, dir.join(name))));
            self.folders.push((option, dir.to_owned()));
        }
        self
    }

    /// An output folder that gets figures too, when `plots` are on.
    fn figures(mut self, option: &'static str, dir: Option<&Path>, names: &[&str], plots: PlotArgs) -> Self {
        if let Some(dir) = dir.filter(|_| plots.enabled()) {
            self.figures.push((option, dir.to_owned()));
        }
        self.folder(option, dir, names)
    }
}

/// Checks `command`'s files; `run` is the subcommand `host-sim` alone runs, and
/// `scenario` the `--config` file read.
pub fn check(
    command: Option<&Command>,
    run: &host_sim::service_level::cli::RunArgs,
    scenario: Option<&Path>,
) -> Result<(), CliError> {
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
    staged::distinct(&inputs, &named(&files.outputs)).map_err(|clash| CliError::Usage(clash.to_string()))
}

fn named(list: &[Owned]) -> Vec<Named<'_>> {
    list.iter().map(|(option, path)| (*option, path.as_path())).collect()
}

/// Every file option of `command`.
fn listed(command: Option<&Command>, run: &host_sim::service_level::cli::RunArgs) -> Files {
    let new = Files::default();
    match command {
        None => run_files(run),
        Some(Command::Model(ModelCommand::ServiceLevel(command))) => service_level(command),
        Some(Command::Model(ModelCommand::Reservation(command))) => match command {
            reservation::Command::Reserve(args) => {
                new.traces(&args.input.source).output("--log", args.output.log.as_deref())
            }
            reservation::Command::ReserveSweep(args) => {
                new.traces(&args.input.source).figures("--out", Some(&args.out), RESERVE, args.plots)
            }
        },
        Some(Command::Model(ModelCommand::Tiers(command))) => match command {
            tiers::Command::Tiers(args) => new
                .traces(&args.input)
                .input("--availability", args.availability.as_deref())
                .output("--log", args.output.log.as_deref()),
            tiers::Command::TiersSweep(args) => new.figures("--out", Some(&args.out), TIERS, args.plots),
        },
        Some(Command::Model(ModelCommand::Sla(command))) => match command {
            sla::Command::Sla(args) => new.traces(&args.input).output("--log", args.output.log.as_deref()),
            sla::Command::SlaSweep(args) => new.figures("--out", Some(&args.out), SLA, args.plots),
        },
        Some(Command::Config(_)) => new,
        Some(Command::Compare(args)) => {
            new.traces(&args.source).folder("--out", args.out.as_deref(), COMPARE)
        }
        Some(Command::Whatif(args)) => {
            new.input("LOG", Some(&args.input)).output("--log", args.output.log.as_deref())
        }
    }
}

/// The service level's subcommands' files.
fn service_level(command: &service_level::Command) -> Files {
    let new = Files::default();
    match command {
        service_level::Command::Run(args) => run_files(args),
        service_level::Command::Sweep(args) => {
            new.traces(&args.input.source).figures("--out", args.out.as_deref(), SWEEP, args.plots)
        }
        service_level::Command::Criteria(args) => {
            let out = args.out.as_deref().unwrap_or(&args.sweep_dir);
            let sweep = args.sweep_dir.join("sweep.csv");
            new.input("SWEEP_DIR", Some(&sweep)).figures("--out", Some(out), CRITERIA, args.plots)
        }
        service_level::Command::Optimum(args) => {
            new.traces(&args.input.source).output("--out", args.out.as_deref())
        }
        service_level::Command::CvSweep(args) => {
            new.traces(&args.input.source).figures("--out", Some(&args.out), CV, args.plots)
        }
    }
}

/// `run`'s files: its traces; its log, per-job CSV and record stream.
fn run_files(args: &host_sim::service_level::cli::RunArgs) -> Files {
    Files::default()
        .traces(&args.input.source)
        .output("--log", args.output.log.as_deref())
        .output("--jobs-out", args.jobs_out.as_deref())
        .output("--stream-out", args.stream_out.as_deref())
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
