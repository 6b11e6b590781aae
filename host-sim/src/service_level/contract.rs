//! The service-level model's side of the host contract ([`crate::model::HostModel`]):
//! its subcommands (`run`, `sweep`, and the analyses `criteria`, `optimum` and
//! `cv-sweep`), and its row of `compare` with its documented defaults.

use super::levels;
use super::sim::{self, RunConfig};
use crate::compare::{CompareError, Row};
use crate::error::CliError;
use crate::files::Files;
use crate::workload::Workload;

use crate::model::{HostModel, ServiceLevel};

use super::criteria::cli as criteria_cli;
use super::optimum::{cli as optimum_cli, grid};

/// The service level's subcommands, in `host-sim --help`'s order.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Simulate one configuration and print its metrics (the default). Each job is one
    /// unit of work on one machine: its processor count is not used (the thesis'
    /// model); `reserve` and `sla` use it, `tiers` does not.
    #[command(display_order = 0, allow_negative_numbers = true, after_help = EXAMPLE_RUN)]
    Run(super::cli::RunArgs),
    /// Run the thesis' grid of configurations in parallel and write CSV and JSON.
    #[command(display_order = 1, allow_negative_numbers = true, after_help = EXAMPLE_SWEEP)]
    Sweep(super::cli::SweepArgs),
    /// The thesis' criteria analysis of a sweep's output (degradations, groups, ranks).
    #[command(display_order = 4, after_help = EXAMPLE_CRITERIA)]
    Criteria(criteria_cli::CriteriaArgs),
    /// The exact offline optimum V* of each window (a mixed-integer program, HiGHS) beside
    /// the greedy run's income V: the true competitive factor V/V*.
    #[command(display_order = 5, allow_negative_numbers = true, after_help = EXAMPLE_OPTIMUM)]
    Optimum(optimum_cli::OptimumArgs),
    /// The true competitive factor V/V* over the thesis' grid, on sampled weeks of each
    /// trace: CSV, a summary and the cv figures.
    #[command(display_order = 6, allow_negative_numbers = true, after_help = EXAMPLE_CV_SWEEP)]
    CvSweep(grid::CvSweepArgs),
}

const EXAMPLE_RUN: &str = "Example: host-sim run --trace ../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz \
--machines 4 --levels 1,2,3,4,5 --seed 7 --policy best-fit --log out/kth.log --jobs-out out/kth-jobs.csv";
const EXAMPLE_SWEEP: &str = "Example: host-sim sweep --trace ../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz \
--policy first-fit,best-fit,worst-fit,least-loaded,round-robin --out out/kth-sweep";
const EXAMPLE_OPTIMUM: &str = "Example: host-sim optimum --trace ../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz \
--window 7d --windows 1 --slack 2 --time-limit 60 --out out/kth-optimum.csv";
const EXAMPLE_CV_SWEEP: &str = "Example: host-sim cv-sweep --trace ../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz \
--trace ../shared/traces/NASA-iPSC-1993-3.1-cln.swf.gz --weeks 4 --time-limit 10 --out out/cv";
const EXAMPLE_CRITERIA: &str = "Example: host-sim criteria out/kth-sweep --machine-counts 1,2,4";

/// What `sweep --out` writes (and its figures).
const SWEEP: &[&str] = &["sweep.csv", "sweep.json"];
/// What `cv-sweep --out` writes (and its figures).
const CV: &[&str] = &["cv.csv", "cv-summary.csv"];
/// What `criteria` writes (and its figures), in SWEEP_DIR or --out.
const CRITERIA: &[&str] = &["criteria.csv"];

/// `run`'s files (`host-sim` alone runs it): its traces; its log, per-job CSV and
/// record stream.
pub fn run_files(args: &super::cli::RunArgs) -> Files {
    Files::default()
        .traces(&args.input.source)
        .output("--log", args.output.log.as_deref())
        .output("--jobs-out", args.jobs_out.as_deref())
        .output("--stream-out", args.stream_out.as_deref())
}

impl HostModel for ServiceLevel {
    type Command = Command;
    const SAMPLE: &'static [&'static str] =
        &["run", "--machines", "2", "--levels", "1,2,3", "--seed", "3", "--alpha", "0.50"];

    fn dispatch(command: &Command) -> Result<(), CliError> {
        match command {
            Command::Run(args) => super::cli::run(args),
            Command::Sweep(args) => super::cli::sweep(args),
            Command::Criteria(args) => criteria_cli::criteria(args),
            Command::Optimum(args) => optimum_cli::optimum(args),
            Command::CvSweep(args) => grid::cv_sweep(args),
        }
    }

    fn files(command: &Command) -> Files {
        let new = Files::default();
        match command {
            Command::Run(args) => run_files(args),
            Command::Sweep(args) => {
                let files = new.traces(&args.input.source);
                crate::shard::files(files, &args.shard, args.out.as_deref(), SWEEP, args.plots)
            }
            Command::Criteria(args) => {
                let out = args.out.as_deref().unwrap_or(&args.sweep_dir);
                let sweep = args.sweep_dir.join("sweep.csv");
                new.input("SWEEP_DIR", Some(&sweep)).figures("--out", Some(out), CRITERIA, args.plots)
            }
            Command::Optimum(args) => {
                let files = new.traces(&args.input.source);
                let split = &args.split.shard;
                let files = split
                    .merge_parts
                    .iter()
                    .fold(files, |f, dir| f.input("--merge-parts", Some(&dir.join(crate::shard::PART))));
                match split.shard {
                    Some(_) => files.folder("--out", args.out.as_deref(), &[crate::shard::PART]),
                    None => files.output("--out", args.out.as_deref()),
                }
            }
            Command::CvSweep(args) => {
                let files = new.traces(&args.input.source);
                match args.split.plan {
                    Some(_) => files.folder("--out", Some(&args.out), &["plan.csv"]),
                    None => crate::shard::files(files, &args.split.shard, Some(&args.out), CV, args.plots),
                }
            }
        }
    }

    fn compare(workload: &Workload, _nodes: u32) -> Result<Row, CompareError> {
        let config = RunConfig::new(1, levels::build(&[2000], None).unwrap_or_default());
        let report = sim::run(&config, &workload.jobs, None)?;
        let m = &report.mean;
        Ok(Row {
            model: "run",
            after: "service levels (Lezama 2012)",
            requests: m.jobs_submitted as u64,
            accepted_pct: 100.0 - m.prj,
            utilisation_pct: m.me * 100.0,
            income: Some(m.g),
            income_unit: "G, price units",
            violations: 0,
            mean_wait_s: m.mwt,
            mean_bounded_slowdown: m.mbsd,
            configuration: "1 machine, sf = 2, one window".to_owned(),
            utilisation_of: "its 1 machine, ME".to_owned(),
        })
    }
}
