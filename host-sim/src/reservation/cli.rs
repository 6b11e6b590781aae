//! The `reserve` and `reserve-sweep` subcommands.

use std::path::PathBuf;

use clap::Args;

use kernel::Tick;
use kernel::reservation::{Criterion, Fixing};

use super::mapping::{Estimates, Flex};
use super::report::{self, PAPER_FIFO, Summary};
use super::stream::simulate_stream;
use super::sweep;
use super::{Experiment, Input, ReserveError, simulate, simulate_recorded};
use crate::input::TraceArgs;
use crate::output::RunOutputArgs;
use crate::path_error::PathError;
use crate::record_log;
use crate::units::{DecimalError, Refused, parse_decimal, parse_milli};
use crate::window::{DurationError, parse_duration};
use crate::workload::Workload;
use replay::echo::echo;

/// What `--fix-at` does, as `reserve --help` and `whatif --help` both say it (the
/// kernel's `Fixing`: fixed at `a + floor(share * (s - a))` for a job accepted at `a`
/// with start `s`).
macro_rules! fix_at_help {
    () => {
        "Fix each accepted reservation, never to be moved again, once this share of its \
         waiting time has passed (from its acceptance to the start it was given then): \
         0, 0.25, 0.5 or 0.75"
    };
}
pub(crate) use fix_at_help;

/// Options shared by `reserve` and `reserve-sweep`.
#[derive(Clone, Debug, Args)]
#[command(mut_arg("trace", |a| a.help(concat!(crate::input::trace_help!(),
    ". Without it, nothing runs: reservations are made from a trace's jobs (the paper's is SDSC \
     SP2). Each job asks for its processor count (SWF field 5, else 8) of the pool's processors; a \
     job without one is left out and counted"))))]
pub struct ReserveInput {
    /// The trace input (required; the paper's is SDSC SP2): each job asks for its
    /// processor count of the pool's processors.
    #[command(flatten)]
    pub source: TraceArgs,
    /// Seeds every draw of the mapping (stream 2).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = crate::units::seed)]
    pub seed: u64,
    /// Window length: a whole number with a unit s, m, h, d or w; a bare number is
    /// seconds (ticks).
    #[arg(long, value_name = "DURATION", default_value = "15d", allow_hyphen_values = true, value_parser = window)]
    pub window: Tick,
    #[arg(
        long,
        value_name = "N",
        value_parser = clap::value_parser!(u32).range(1..),
        help = concat!(
            "Nodes of the pool, each one processor, at most 131072 (",
            crate::input::pool_rule_help!(),
            ")"
        )
    )]
    pub nodes: Option<u32>,
    /// Calendar slot length: a whole number with a unit s, m, h or d, as `sla --slot`
    /// takes it; a bare number is ticks (seconds).
    #[arg(long, value_name = "DURATION", default_value = "60", value_parser = slot_ticks, allow_hyphen_values = true)]
    pub slot: Tick,
}

/// `host-sim reserve`.
#[derive(Clone, Debug, Args)]
pub struct RunArgs {
    #[command(flatten)]
    pub input: ReserveInput,
    /// Order of the waiting queue: fifo, edf, lff, bjf or shuffle.
    #[arg(long, value_name = "NAME", default_value = "edf", allow_hyphen_values = true, value_parser = criterion)]
    pub criterion: Criterion,
    /// Load factor, any number above 0 with up to three decimals: submit times are
    /// divided by it, so 1.25 offers 25% more jobs per second (the paper's 1.0, 1.25,
    /// 1.5).
    #[arg(long, value_name = "NUMBER", default_value = "1.0", allow_hyphen_values = true, value_parser = load_factor)]
    pub load: u64,
    /// Flexible windows for half of the jobs (a fair coin per job): none, or short,
    /// medium or long, which widen the job's window past its run time Te by a
    /// Poisson-drawn share of Te with mean 25%, 50% or 100%.
    #[arg(long, value_name = "NAME", default_value = "none", allow_hyphen_values = true, value_parser = flex)]
    pub flex: Flex,
    #[arg(
        long,
        value_name = "SHARE",
        allow_hyphen_values = true,
        value_parser = fix_at,
        help = concat!(fix_at_help!(), "; without it, a reservation may be moved until it starts")
    )]
    pub fix_at: Option<Fixing>,
    /// Turn alternative offers on: a rejected request gets offers of later windows, and
    /// the user takes the first whose phi = shift / Te (how far it moves the window, as
    /// a share of the run time) is at most this, a number >= 0 with up to three
    /// decimals. Without it, no offers.
    #[arg(long, value_name = "NUMBER", allow_hyphen_values = true, value_parser = crate::units::milli)]
    pub offers: Option<u64>,
    /// Run-time model: accurate (jobs run exactly their estimate Te) or poisson80 (they
    /// run Te * f / 100 with f ~ Poisson(80): about 20% shorter on average; the few
    /// with f > 100 are cut at the end of their reservation).
    #[arg(long, value_name = "NAME", default_value = "accurate", allow_hyphen_values = true, value_parser = estimates)]
    pub estimates: Estimates,
    #[command(flatten)]
    pub output: RunOutputArgs,
    #[command(flatten)]
    pub jobs: crate::jobs_out::JobsOutArgs,
    /// Also run FIFO at loads 1.0, 1.25 and 1.5 and print it beside the paper's figures.
    #[arg(long)]
    pub compare_paper: bool,
}

/// `host-sim reserve-sweep`.
#[derive(Debug, Args)]
pub struct SweepArgs {
    #[command(flatten)]
    pub input: ReserveInput,
    /// Write fig2.csv ... fig7.csv (and the figures as SVG) here.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    #[command(flatten)]
    pub plots: crate::plot::PlotArgs,
    #[command(flatten)]
    pub shard: crate::shard::ShardArgs,
}

fn usage(text: String) -> ReserveError {
    ReserveError::Usage(text)
}

pub fn parse_criterion(text: &str) -> Result<Criterion, ReserveError> {
    criterion(text).map_err(|e| usage(format!("--criterion: {e}")))
}

/// `--criterion`: the waiting queue's order by name.
fn criterion(text: &str) -> Result<Criterion, Refused> {
    use Criterion::{BiggestJobFirst, Edf, Fifo, LeastFlexibleFirst, Shuffle};
    [Fifo, Edf, LeastFlexibleFirst, BiggestJobFirst, Shuffle]
        .into_iter()
        .find(|c| c.name() == text)
        .ok_or_else(|| Refused(format!("{} is not fifo, edf, lff, bjf or shuffle", echo(text))))
}

/// `--flex`: the reservations' flexibility by name.
fn flex(text: &str) -> Result<Flex, Refused> {
    Flex::parse(text).ok_or_else(|| Refused(format!("{} is not none, short, medium or long", echo(text))))
}

/// `--window`: the window length in ticks.
fn window(text: &str) -> Result<Tick, Refused> {
    parse_duration(text).map_err(Refused::of)
}

/// `--load`: the load factor in thousandths, above 0; the words of [`parse_load`]
/// after its `--load: `.
fn load_factor(text: &str) -> Result<u64, Refused> {
    parse_load(text).map_err(|e| Refused(without_option(&e.to_string(), "--load")))
}

/// `--fix-at`: the share of the wait after which a reservation is fixed.
fn fix_at(text: &str) -> Result<Fixing, Refused> {
    parse_fixing(Some(text)).map_err(|e| Refused(without_option(&e.to_string(), "--fix-at")))
}

/// A message of `option`'s own check without the `option: ` that `main` puts back.
fn without_option(message: &str, option: &str) -> String {
    message.strip_prefix(option).and_then(|m| m.strip_prefix(": ")).unwrap_or(message).to_owned()
}

/// `--estimates`: the run-time estimates by name.
fn estimates(text: &str) -> Result<Estimates, Refused> {
    Estimates::parse(text).ok_or_else(|| Refused(format!("{} is not accurate or poisson80", echo(text))))
}

pub fn parse_fixing(text: Option<&str>) -> Result<Fixing, ReserveError> {
    match text.map(|t| (t, parse_milli(t))) {
        None => Ok(Fixing::Never),
        Some((_, Some(0))) => Ok(Fixing::AtAcceptance),
        Some((_, Some(250))) => Ok(Fixing::Quarter),
        Some((_, Some(500))) => Ok(Fixing::Half),
        Some((_, Some(750))) => Ok(Fixing::ThreeQuarters),
        Some((t, _)) => Err(usage(format!("--fix-at: {} is not 0, 0.25, 0.5 or 0.75", echo(t)))),
    }
}

pub(crate) fn parse_load(text: &str) -> Result<u64, ReserveError> {
    match parse_decimal(text) {
        Ok(0) => Err(usage(format!(
            "--load: {} is zero; a load factor is above 0 (1.0 is the trace as recorded)",
            echo(text)
        ))),
        Ok(load) => Ok(load),
        Err(DecimalError::Negative(_)) => Err(usage(format!(
            "--load: {} is negative; a load factor is above 0 (1.0 is the trace as recorded)",
            echo(text)
        ))),
        Err(e) => Err(usage(format!("--load: {e}"))),
    }
}

/// The workload, its processor counts and its pool size.
#[derive(Debug)]
pub struct Loaded {
    pub workload: Workload,
    pub nodes: u32,
}

pub fn load(input: &ReserveInput) -> Result<Loaded, ReserveError> {
    let Some(trace) = input.source.read()? else {
        return Err(usage("--trace is required: reservations are made from a trace's jobs".into()));
    };
    trace.workload.check_not_empty(input.source.allow_empty)?;
    trace.workload.check_sized("reserve", input.source.allow_empty).map_err(usage)?;
    let nodes = input.nodes.unwrap_or_else(|| trace.pool_size(&trace.workload.jobs));
    Ok(Loaded { workload: trace.workload, nodes })
}

/// The trace's name as the summary gives it: its path, or the merged paths.
fn trace_name(source: &TraceArgs) -> String {
    source.trace.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(" + ")
}

fn base_experiment(input: &ReserveInput, nodes: u32) -> Result<Experiment, ReserveError> {
    let window_ticks = input.window;
    if input.slot > window_ticks {
        return Err(usage(format!(
            "--slot {} s is longer than --window {} s: a window holds at least one slot",
            input.slot, window_ticks
        )));
    }
    Ok(Experiment { seed: input.seed, slot_ticks: input.slot, window_ticks, ..Experiment::paper(nodes) })
}

/// `--slot` in ticks, from a duration as every model's `--slot` takes it.
fn slot_ticks(text: &str) -> Result<Tick, String> {
    match parse_duration(text) {
        Err(DurationError::Zero(_)) => Err("a slot is at least one second".into()),
        other => other.map_err(|e| e.to_string()),
    }
}

pub fn reserve(args: &RunArgs) -> Result<(), ReserveError> {
    if !args.compare_paper {
        return reserve_streamed(args);
    }
    let loaded = load(&args.input)?;
    let experiment = experiment(args, loaded.nodes)?;
    let input = Input { jobs: &loaded.workload.jobs };
    let trace = trace_name(&args.input.source);
    let outcome = match &args.output.log {
        Some(path) => {
            let header = super::log::header(&experiment, &loaded.workload);
            record_log::write(path, &header, |record| simulate_recorded(&input, &experiment, Some(record)))?
        }
        None => simulate(&input, &experiment)?,
    };
    print_summary(&trace, &loaded.workload, &outcome, args.output.json)?;
    if args.compare_paper {
        compare_paper(&input, &experiment, args.output.json)?;
    }
    Ok(())
}

/// `reserve` without `--compare-paper` (which runs the trace again, and reads it
/// whole): a run fed from the trace's stream ([`super::stream`]), in memory that does
/// not grow with the trace. The trace is read once when the pool's size is known
/// before it is read ([`super::once`] says when), else twice: a first pass for the
/// header, the checks and the pool size, then the run. With `--limit`, the pool and
/// the check of processor counts take the widest of the first jobs in submit order,
/// which the first pass (in file order, of every job) does not give: their stream,
/// read once more, does.
fn reserve_streamed(args: &RunArgs) -> Result<(), ReserveError> {
    let source = &args.input.source;
    let log = args.output.log.as_deref();
    if let Some(done) = super::once::reserve(source, args.input.nodes, log, |n| experiment(args, n).ok()) {
        let (workload, outcome) = done?;
        return print_summary(&trace_name(&args.input.source), &workload, &outcome, args.output.json);
    }
    let Some(scanned) = args.input.source.scan()? else {
        return Err(usage("--trace is required: reservations are made from a trace's jobs".into()));
    };
    let allow_empty = args.input.source.allow_empty;
    scanned.workload.check_count(scanned.jobs, allow_empty)?;
    let widest = match args.input.source.limit {
        Some(_) => scanned.jobs()?.try_fold(0, |widest, job| job.map(|j| widest.max(j.procs)))?,
        None => scanned.widest,
    };
    scanned.workload.check_sized_count("reserve", allow_empty, scanned.jobs, widest > 0).map_err(usage)?;
    let nodes = args
        .input
        .nodes
        .unwrap_or_else(|| crate::input::pool_size_widest(scanned.max_procs, scanned.max_nodes, widest));
    let experiment = experiment(args, nodes)?;
    let jobs = scanned.jobs()?;
    let outcome = match &args.output.log {
        Some(path) => {
            let header = super::log::header(&experiment, &scanned.workload);
            record_log::write(path, &header, |record| simulate_stream(jobs, &experiment, Some(record)))?
        }
        None => simulate_stream(jobs, &experiment, None)?,
    };
    print_summary(&trace_name(&args.input.source), &scanned.workload, &outcome, args.output.json)
}

/// The experiment of a `reserve` run on a pool of `nodes`.
fn experiment(args: &RunArgs, nodes: u32) -> Result<Experiment, ReserveError> {
    Ok(Experiment {
        criterion: args.criterion,
        load_milli: args.load,
        flex: args.flex,
        fixing: args.fix_at.unwrap_or(Fixing::Never),
        estimates: args.estimates,
        offers_phi_milli: args.offers,
        ..base_experiment(&args.input, nodes)?
    })
}

/// `--compare-paper`: the paper's FIFO runs at its loads, after the summary.
fn compare_paper(input: &Input<'_>, experiment: &Experiment, json: bool) -> Result<(), ReserveError> {
    let io = |source| ReserveError::Io(PathError::stdout(source));
    let mut stdout = crate::output::stdout();
    let rows = PAPER_FIFO
        .iter()
        .map(|&(load_milli, _, _)| {
            simulate(input, &Experiment { criterion: Criterion::Fifo, load_milli, ..*experiment })
        })
        .collect::<Result<Vec<_>, _>>()?;
    // With --json the comparison goes to stderr, so that stdout stays one object.
    if json {
        report::write_paper_comparison(&rows, std::io::stderr().lock()).map_err(io)?;
    } else {
        std::io::Write::write_all(&mut stdout, b"\n").map_err(io)?;
        report::write_paper_comparison(&rows, &mut stdout).map_err(io)?;
    }
    Ok(())
}

/// One run's summary on standard output, as a table or (`json`) one JSON object.
pub fn print_summary(
    trace: &str,
    workload: &Workload,
    outcome: &super::Outcome,
    json: bool,
) -> Result<(), ReserveError> {
    let summary = Summary::new(trace, workload.hash_hex(), outcome);
    let io = |source| ReserveError::Io(PathError::stdout(source));
    let mut stdout = crate::output::stdout();
    if json {
        let header = super::log::header(&outcome.experiment, workload);
        report::write_json(&header, &summary, &mut stdout)
    } else {
        report::write_table(&summary, &mut stdout)
    }
        .map_err(io)
}

/// `host-sim reserve-sweep`: the grid run whole, or one shard of it (which writes only
/// its part), or the shards' parts joined; the figures and findings from the whole.
pub fn reserve_sweep(args: &SweepArgs) -> Result<(), ReserveError> {
    let loaded = load(&args.input)?;
    let base = base_experiment(&args.input, loaded.nodes)?;
    let grid = sweep::grid(&base);
    let Some(results) = sweep::part::outcomes(&args.shard, &args.out, &loaded.workload, &base, &grid)? else {
        return Ok(());
    };
    let tables = sweep::tables::write_figures(&args.out, &results)?;
    let path = || args.out.display().to_string();
    args.plots
        .write_figures(&args.out, || super::figures::write(&args.out, &tables))
        .map_err(|e| ReserveError::Io(PathError { path: path(), source: std::io::Error::other(e) }))?;
    let io = |source| ReserveError::Io(PathError::stdout(source));
    sweep::findings::write_findings(&results, crate::output::stdout()).map_err(io)?;
    eprintln!("host-sim: wrote fig2.csv ... fig7.csv to {}", args.out.display());
    Ok(())
}
