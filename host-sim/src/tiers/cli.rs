//! The `tiers` and `tiers-sweep` subcommands.

use std::path::PathBuf;

use clap::Args;

use kernel::tiers::{Config, Policy};

use super::availability::{self, AlignArgs, Availability};
use super::faults::{ChangePlan, DEFAULT_FAULTS, Faults};
use super::metrics::Summary;
use super::testbed::{self, Mix};
use super::{Requests, Scenario, TiersError, sweep};
use crate::input::{Scanned, TraceArgs};
use crate::output::RunOutputArgs;
use crate::path_error::PathError;
use crate::progress;
use crate::workload::{INPUT_CRC, Workload};
use replay::format::Header;

mod values;
pub use values::{MixArg, Seeds};

/// Fault options shared by `tiers` and `tiers-sweep`.
#[derive(Clone, Debug, Args)]
pub struct FaultArgs {
    /// Mean available period of a desktop, seconds (exponential), at least 1.
    #[arg(long, value_name = "SECONDS", default_value_t = DEFAULT_FAULTS.up_mean_s,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub up_mean: u64,
    /// Mean unavailable period of a desktop, seconds (exponential); 0: desktops never leave.
    #[arg(long, value_name = "SECONDS", default_value_t = DEFAULT_FAULTS.down_mean_s)]
    pub down_mean: u64,
    /// Percent of desktop starts slowed by the owner's load, 0 to 100.
    #[arg(long, value_name = "PCT", default_value_t = DEFAULT_FAULTS.load_pct)]
    pub load_pct: u32,
    /// The owner's slowdown is a factor uniform in 1 .. 1 + this (up to three decimals).
    #[arg(long, value_name = "NUMBER", default_value = "1", value_parser = crate::units::milli)]
    pub load_max: u64,
}

impl FaultArgs {
    fn faults(&self) -> Result<Faults, TiersError> {
        if self.load_pct > 100 {
            return Err(TiersError::Usage(format!("--load-pct: {} is over 100", self.load_pct)));
        }
        Ok(Faults {
            up_mean_s: self.up_mean,
            down_mean_s: self.down_mean,
            load_pct: self.load_pct,
            load_max_milli: self.load_max,
        })
    }
}

/// `host-sim tiers`.
#[derive(Clone, Debug, Args)]
#[command(mut_arg("trace", |a| a.help(concat!(crate::input::trace_help!(),
    ". Without it, the paper's workload. Each job is one SLA of one node, its tier drawn by the mix: \
     its processor count is not used (the paper's jobs are single-node, and its SLA has no node \
     count), so a job of any width runs as one single-node job of the same run time, and the run \
     says on standard error how many were wider"))))]
pub struct RunArgs {
    /// Policy: no-qos (no tiers, no reservations: every job may go anywhere), qos
    /// (tiers and reservations) or qos-res (qos plus Algorithm 1 rescheduling and
    /// re-placement of lost jobs).
    #[arg(long, value_name = "NAME", default_value = "qos-res", value_parser = values::policy)]
    pub policy: Policy,
    /// Tier mix of Table 2: A, B, C or D.
    #[arg(long, value_name = "NAME", default_value = "A", value_parser = values::mix)]
    pub mix: MixArg,
    /// Seeds the workload, the run times, the owner load and the availability.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
    /// The trace input instead of the paper's workload: each job is one SLA of one node,
    /// its tier drawn by the mix. A job's size (its processor count, SWF field 5, else
    /// 8) is NOT used: the tiers kernel places every job on one node of one resource
    /// (the paper's jobs are single-node, and its SLA has no node count), so a job of
    /// any width runs as one single-node job of the same run time; their number is
    /// printed on standard error.
    #[command(flatten)]
    pub input: TraceArgs,
    /// With --trace: nodes of the high-confidence cluster (default 3; 0: no cluster).
    /// Without --trace, the paper's testbed runs, and this is refused.
    #[arg(long, value_name = "N")]
    pub reliable: Option<u32>,
    /// With --trace: single-node low-confidence desktops (default 9). Without
    /// --trace, the paper's testbed runs, and this is refused.
    #[arg(long, value_name = "N")]
    pub volunteer: Option<u32>,
    /// Desktop availability from a Failure Trace Archive event_trace.tab file instead
    /// of the seeded periods: columns separated by runs of tabs or spaces, `NULL`s,
    /// `#` comments and a line of column names as the archive ships them; its first
    /// nodes are the desktops. Without it, the seeded periods of --up-mean and
    /// --down-mean.
    #[arg(long, value_name = "FILE")]
    pub availability: Option<PathBuf>,
    #[command(flatten)]
    pub align: AlignArgs,
    /// Laxity threshold of the rescheduling (eq. 1, up to three decimals).
    #[arg(long, value_name = "NUMBER", default_value = "1", value_parser = crate::units::milli)]
    pub laxity: u64,
    #[command(flatten)]
    pub faults: FaultArgs,
    #[command(flatten)]
    pub output: RunOutputArgs,
    #[command(flatten)]
    pub jobs: crate::jobs_out::JobsOutArgs,
}

/// `host-sim tiers-sweep`.
#[derive(Debug, Args)]
pub struct SweepArgs {
    /// Directory for tiers_runs.csv, tiers_cells.csv and tiers.json.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Seeds of each cell's repetitions, as `run --seeds` takes them: `A..B` (both
    /// included; the paper's five are `1..5`) or a list `1,5,9`. A bare number, which
    /// this option read as a count before, is refused with the range to write.
    #[arg(long, value_name = "A..B|LIST", default_value = "1..5", value_parser = values::seeds)]
    pub seeds: Seeds,
    #[command(flatten)]
    pub faults: FaultArgs,
    #[command(flatten)]
    pub plots: crate::plot::PlotArgs,
    #[command(flatten)]
    pub shard: crate::shard::ShardArgs,
}

/// The options of `host-sim tiers` that need no input, checked (their errors come
/// before any of the trace's).
#[derive(Clone, Copy, Debug)]
pub struct Parsed {
    pub policy: Policy,
    pub mix: Mix,
    pub faults: Faults,
    pub laxity_milli: u64,
}

impl Parsed {
    pub fn new(args: &RunArgs) -> Result<Self, TiersError> {
        Ok(Self {
            policy: args.policy,
            mix: args.mix.mix,
            faults: args.faults.faults()?,
            laxity_milli: args.laxity,
        })
    }
}

/// Builds the scenario `host-sim tiers` runs, and the header of its log (see
/// [`header`]), with the availability file as it was read.
pub fn scenario(args: &RunArgs) -> Result<(Scenario, Header, Option<Availability>), TiersError> {
    let parsed = Parsed::new(args)?;
    let scanned = args.input.scan()?;
    if let Some(scanned) = &scanned {
        scanned.workload.check_count(scanned.jobs, args.input.allow_empty)?;
    }
    built(args, parsed, scanned)
}

/// [`scenario`] over `scanned`: the traces as read, or a stand-in for them (a trace
/// read once, [`super::once`]).
pub fn built(
    args: &RunArgs,
    parsed: Parsed,
    scanned: Option<Scanned>,
) -> Result<(Scenario, Header, Option<Availability>), TiersError> {
    let Parsed { policy, mix, faults, .. } = parsed;
    let mut scenario = match scanned {
        None => {
            testbed::refuse_sizes_without_trace(args.reliable, args.volunteer)?;
            Scenario::paper(policy, mix, args.seed, faults)
        }
        Some(scanned) => {
            let resources = testbed::trace_resources(args.reliable, args.volunteer)?;
            // The seeded changes end a day past the latest deadline, which the run
            // finds as it streams the trace.
            let changes = ChangePlan::Seeded { until: None };
            let requests = Requests::Trace { scanned: Box::new(scanned), mix };
            Scenario { config: Config::new(policy), resources, requests, changes, faults, seed: args.seed }
        }
    };
    scenario.config.laxity_threshold_milli = parsed.laxity_milli;
    let read = match &args.availability {
        Some(path) => Some(availability::load(path, &args.align, &mut scenario)?),
        None => {
            availability::refuse_without_file(&args.align)?;
            None
        }
    };
    let workload = match &scenario.requests {
        Requests::Trace { scanned, .. } => Some(&scanned.workload),
        Requests::Listed(_) => None,
    };
    let header = header(args, &scenario, mix, read.as_ref(), workload);
    Ok((scenario, header, read))
}

/// The header of the log of `scenario`: the kernel's configuration and resources,
/// the inputs (the trace's `workload`, or the paper's workload named by its mix and
/// seed; and the availability file, `read`) and the options that shaped the events
/// (mix, job limit, fault parameters, the availability's alignment) as settings.
pub fn header(
    args: &RunArgs,
    scenario: &Scenario,
    mix: Mix,
    read: Option<&Availability>,
    workload: Option<&Workload>,
) -> Header {
    // A scratch for the inputs and their settings, never written: the log's header
    // is the scenario's, below.
    let mut inputs = super::log::header(scenario);
    match workload {
        None => {
            let name = format!("tiers paper workload, mix {}, seed {}", mix.name, args.seed);
            inputs = inputs.with_input(&name, INPUT_CRC.checksum(name.as_bytes()));
        }
        Some(workload) => workload.stamp(&mut inputs),
    }
    if let Some(read) = read {
        inputs = read.stamp(inputs);
    }
    let mut header = super::log::header(scenario);
    header.inputs = inputs.inputs;
    for setting in inputs.settings {
        header.set(&setting.key, setting.value);
    }
    if args.availability.is_none() {
        header.set("up-mean", scenario.faults.up_mean_s);
        header.set("down-mean", scenario.faults.down_mean_s);
    }
    header.set("mix", mix.name);
    header
}

/// `host-sim tiers` over a trace read once ([`super::once`]), with the scenario
/// built on the trace's stand-in: `None` (nothing done) without a trace, where the
/// shared part does not apply, or where options that two passes refuse only after
/// the trace's errors (an availability file that cannot be read, alignment options
/// without one) would be refused, for the caller to read the trace twice.
fn once(args: &RunArgs) -> Option<Result<Done, TiersError>> {
    let stand_in = args.input.stand_in()?;
    let parsed = Parsed::new(args).ok()?;
    let (scenario, _, read) = built(args, parsed, Some(stand_in)).ok()?;
    let header =
        |scanned: &Scanned| header(args, &scenario, parsed.mix, read.as_ref(), Some(&scanned.workload));
    let done = super::once::run(&scenario, parsed.mix, &args.input, args.output.log.as_deref(), &header)?;
    Some(done.map(|(header, ran)| (scenario, read, header, ran)))
}

/// What a `tiers` run gives: its scenario, the availability file it read, its log
/// header, its summary and run.
type Done = (Scenario, Option<Availability>, Header, (Summary, super::Ran));

/// `host-sim tiers`: a trace read once where that gives what two passes give
/// (`once`), else twice.
pub fn run(args: &RunArgs) -> Result<(), TiersError> {
    let (scenario, read, header, (summary, ran)) = match once(args) {
        Some(done) => done?,
        None => {
            let (scenario, header, read) = scenario(args)?;
            let done = match &args.output.log {
                Some(path) => super::log::run_logged(&scenario, &header, path)?,
                None => scenario.run()?,
            };
            (scenario, read, header, done)
        }
    };
    if ran.wide > 0 {
        eprintln!(
            "host-sim: {} trace jobs use more than one processor; tiers runs each on one node (see --trace in `host-sim tiers --help`)",
            ran.wide
        );
    }
    let desktops = scenario.resources.iter().filter(|r| r.group == kernel::tiers::Group::Low).count();
    let report = read.map(|file| file.report(&ran.out, desktops));
    if let Some(warning) = report.as_ref().and_then(|r| r.warning.as_ref()) {
        eprintln!("warning: {warning}");
    }
    let named = (args.policy.name(), args.mix.text.as_str(), args.seed);
    print_summary(&summary, &ran.out, named, report, args.output.json.then_some(&header))
}

/// One run's summary on standard output, as text or (`json`: the run's log header,
/// for the core) one JSON object, with its policy, mix and seed as the options named
/// them, and the availability file's account when the run read one.
pub fn print_summary(
    summary: &Summary,
    out: &super::run::RunOutput,
    (policy, mix, seed): (&str, &str, u64),
    report: Option<availability::Report>,
    json: Option<&Header>,
) -> Result<(), TiersError> {
    if let Some(header) = json {
        let mut value = serde_json::to_value(summary).map_err(|e| TiersError::Usage(e.to_string()))?;
        if let Some(map) = value.as_object_mut() {
            map.insert("policy".into(), policy.into());
            map.insert("mix".into(), mix.to_uppercase().into());
            map.insert("seed".into(), seed.into());
            map.insert("events".into(), out.events.into());
            map.insert("decisions".into(), out.decisions.into());
            if let Some(report) = report {
                map.insert("availability".into(), report.json);
            }
        }
        let counts = crate::summary::Counts {
            submitted: summary.submitted,
            accepted: summary.accepted,
            rejected: summary.submitted.saturating_sub(summary.accepted),
        };
        let core = crate::summary::Core::new("tiers", header, Some(counts));
        let line = crate::summary::json_line(&core, &value).map_err(|source| TiersError::Io(PathError::stdout(source)))?;
        write_stdout(&line)
    } else {
        let mut text = text(summary, policy, mix, out.events, out.decisions);
        text.push_str(report.as_ref().map_or("", |r| r.line.as_str()));
        write_stdout(&text)
    }
}

/// Standard output through [`report::write_stdout`](crate::output::write_stdout).
fn write_stdout(text: &str) -> Result<(), TiersError> {
    crate::output::write_stdout(text).map_err(|source| TiersError::Io(PathError::stdout(source)))
}

fn text(s: &Summary, policy: &str, mix: &str, events: u64, decisions: u64) -> String {
    let (r, v, w) = (&s.rejected_pct, &s.violated_pct, &s.bronze_wait_s);
    format!(
        "tiers: policy {policy}, mix {mix}: {} SLAs, {} accepted ({events} events, {decisions} decisions)\n\
         rejected %: gold {} silver {} bronze {} all {}\n\
         violated %: gold {} silver {} all {}\n\
         rescheduled %: {} (moved once {}%, twice {}%, more {}%), re-placed {}, Bronze lost {}\n\
         Bronze wait s: min {} q1 {} median {} q3 {} max {}\n",
        s.submitted,
        s.accepted,
        r.gold,
        r.silver,
        r.bronze,
        r.all,
        v.gold,
        v.silver,
        v.all,
        s.rescheduled_pct,
        s.moved_once_pct,
        s.moved_twice_pct,
        s.moved_more_pct,
        s.replaced,
        s.bronze_lost,
        w.min,
        w.q1,
        w.median,
        w.q3,
        w.max
    )
}

/// `host-sim tiers-sweep`: the grid run whole, or one shard of it (which writes only
/// its part), or the shards' parts joined; the files, figures and statements from the
/// whole.
pub fn run_sweep(args: &SweepArgs) -> Result<(), TiersError> {
    let faults = args.faults.faults()?;
    let seeds = &args.seeds.0;
    let points = sweep::points(seeds);
    // The runs depend on their points and the fault options only: the workload is the
    // paper's, generated from each run's mix and seed.
    let name = "tiers paper workload";
    let input = crate::summary::InputRef {
        name: name.to_owned(),
        hash: format!("{:016x}", INPUT_CRC.checksum(name.as_bytes())),
    };
    let grid = crate::shard::Grid {
        identity: format!("tiers-sweep {seeds:?} {faults:?}"),
        inputs: vec![input],
        out: Some(&args.out),
    };
    let bar = progress::bar(0, "runs");
    let runs = crate::shard::rows(&args.shard, &grid, &points, sweep::cost, |mine| {
        bar.set_length(mine.len() as u64);
        sweep::run(mine, faults, &bar)
    });
    bar.finish_and_clear();
    let Some(runs) = runs? else { return Ok(()) };
    let cells = sweep::cells(runs, seeds.len());
    sweep::write(&args.out, &cells, seeds)?;
    let path = || args.out.display().to_string();
    args.plots
        .write_figures(&args.out, || super::figures::write(&args.out, &cells))
        .map_err(|e| TiersError::Io(PathError { path: path(), source: std::io::Error::other(e) }))?;
    let mut text = sweep::table(&cells);
    text.push_str("\nThe paper (§6.3) beside ours (A / B / C / D; calibrated on No-QoS A only):\n");
    for finding in sweep::statements(&cells) {
        text.push_str(&finding.line());
    }
    write_stdout(&text)
}
