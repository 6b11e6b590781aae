//! The `sla` and `sla-sweep` subcommands.

use clap::Args;

use kernel::Tick;
use kernel::sla::Order;

use super::generator::{self, FRAME_TICKS, NODES, SLOT_TICKS};
use super::heuristic::{self, Spec};
use super::mapping::Sla;
use super::metrics;
use super::plan::{Outcome, Plan, Sets};
use super::run::{self, Batch, Input, SetOutcome};
use super::stream::{Survey, TraceSet};
use super::{SlaError, paper};
use crate::input::{Scanned, TraceArgs};
use crate::output::RunOutputArgs;
use crate::path_error::PathError;
use crate::progress;
use replay::echo::echo;

mod sweeping;
mod values;
pub use sweeping::{SweepArgs, run_sweep};
pub use values::Duration;

/// `host-sim sla`.
#[derive(Clone, Debug, Args)]
#[command(after_help = "Examples:\n  \
    host-sim sla --sets 100 --seed 1 --heuristic 'min(TF - 0.8*tD)' --json\n  \
    host-sim sla --trace ../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz --heuristic 'min(TF - 0.8*tD)' --batch 1h --log out/kth-sla.log")]
#[command(mut_arg("trace", |a| a.help(concat!(crate::input::trace_help!(),
    ". Without it, the generated sets. Each job is one request: TS = submit, tD = run time, NCPU = \
     its processor count (SWF field 5, else 8; a job without one is left out and counted), TF = TS \
     + tD * f with f uniform in [1, 7]"))))]
pub struct RunArgs {
    /// The priority heuristic, as the paper writes it: min(...) or max(...) of up to
    /// three terms among TS, TF, tD, NCPU, A, tT, tL (hours, nodes, CPU-hours; tT a
    /// fraction), weights with at most three decimals or inf, e.g. 'min(TF - 0.8*tD)',
    /// 'max(TS + 0.72*NCPU)', 'min(TF + 0.5*A + 2*tL)', 'min(tD - inf*NCPU)',
    /// 'min(TS)'; or `random` (a seeded random order).
    #[arg(long, value_name = "EXPR", default_value = "min(TF - 0.8*tD)", allow_hyphen_values = true,
          value_parser = values::heuristic)]
    pub heuristic: Spec,
    /// Generated job sets (the paper's 100), each a perfect fit of 64 nodes x 300 h;
    /// ignored with --trace.
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = sets)]
    pub sets: u64,
    /// Seeds the sets (set i on ChaCha8 stream 2^32 + i), the random order, and a
    /// trace's tightness draws.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = crate::units::seed)]
    pub seed: u64,
    /// The trace input instead of generated sets, mapped as TS = submit, tD = run
    /// time, NCPU = allocated (else requested) processors, TF = TS + tD * f with f
    /// uniform in [1, 7].
    #[command(flatten)]
    pub input: TraceArgs,
    #[arg(
        long,
        value_name = "N",
        value_parser = clap::value_parser!(u32).range(1..),
        help = concat!("With --trace: the machine's nodes, each one processor (", crate::input::pool_rule_help!(), ")")
    )]
    pub nodes: Option<u32>,
    /// When batches are planned: `all` (every request of a set, then one plan: the
    /// paper's), `0` (each request alone, at its submit), or a planning interval (s, m,
    /// h, d, e.g. 1h). Default: `all` for generated sets, `1h` for a trace.
    #[arg(long, value_name = "all|0|DURATION", allow_hyphen_values = true, value_parser = values::batch)]
    pub batch: Option<Batch>,
    /// Δt, the step between tried starts (s, m, h, d): a multiple of the slot.
    #[arg(long, value_name = "DURATION", default_value = DEFAULT_STEP, allow_hyphen_values = true,
          value_parser = values::duration)]
    pub step: Duration,
    /// The calendar's slot (s, m, h): every run occupies each slot it overlaps.
    #[arg(long, value_name = "DURATION", default_value = "6m", allow_hyphen_values = true,
          value_parser = values::duration)]
    pub slot: Duration,
    #[command(flatten)]
    pub output: RunOutputArgs,
    #[command(flatten)]
    pub jobs: crate::jobs_out::JobsOutArgs,
}

/// `--step`'s default, which a message names when `--step` was left out.
const DEFAULT_STEP: &str = "6m";

/// `--batch`'s default for a trace: plan every hour.
const HOUR_TICKS: Tick = 3600;

/// The most generated sets a run makes (`--sets`).
const MAX_SETS: u64 = 100_000;

/// `--sets`: 1 to [`MAX_SETS`].
fn sets(text: &str) -> Result<u64, String> {
    crate::units::whole(text, 1, MAX_SETS)
}

/// The step must be whole slots; with `--step` left out, the slot is what is off.
fn check_step(args: &RunArgs, step: Tick, slot: Tick) -> Result<(), SlaError> {
    if step.is_multiple_of(slot) {
        return Ok(());
    }
    let (step_text, slot_text) = (echo(&args.step.text), echo(&args.slot.text));
    Err(SlaError::Usage(if args.step.text == DEFAULT_STEP {
        format!(
            "--slot: {slot_text} ({slot} s) does not divide the step (--step, by default {step_text}, {step} s); \
             give a slot that divides it, or a --step that is a multiple of the slot"
        )
    } else {
        format!("--step: {step_text} ({step} s) is not a multiple of the slot (--slot {slot_text}, {slot} s)")
    }))
}

/// What a run reads, before the kernel's configuration: its sets, the machine's
/// nodes, the batch mode, the largest batch it forms, the input's name and the trace
/// jobs left out.
struct Source {
    sets: Sets,
    nodes: u32,
    batch: Batch,
    largest: usize,
    name: String,
    left_out: u64,
}

/// Builds what `host-sim sla` runs from its options.
pub fn plan(args: &RunArgs) -> Result<Plan, SlaError> {
    let (spec, slot, step) = (args.heuristic, args.slot.ticks, args.step.ticks);
    if args.input.trace.is_empty() {
        check_generated(args, slot)?;
    }
    check_step(args, step, slot)?;
    // A scratch for the inputs and their settings, never written: the log's header
    // needs the configuration, which needs the input's nodes.
    let mut inputs_header =
        replay::format::Header::new(replay::format::Model::ServiceLevel(Default::default()));
    let source = match args.input.scan()? {
        None => generated(args, slot, &mut inputs_header)?,
        Some(scanned) => traced(args, scanned, &mut inputs_header)?,
    };
    inputs_header.set("batch", source.batch.setting());
    let order = spec.order(args.seed);
    let config = run::config(source.nodes, slot, step, order);
    let batch_capacity = replay::engine::sla::batch_for(source.largest);
    let mut header = super::log::header(config, batch_capacity, args.seed);
    header.inputs = inputs_header.inputs;
    header.host_version = crate::workload::HOST_VERSION.to_owned();
    for setting in inputs_header.settings {
        header.set(&setting.key, setting.value);
    }
    let Source { sets, batch, name, left_out, .. } = source;
    Ok(Plan { sets, config, batch, batch_capacity, header, source: name, left_out })
}

/// Generated sets are whole six-minute slots on 64 nodes: the options of traces
/// are refused.
fn check_generated(args: &RunArgs, slot: Tick) -> Result<(), SlaError> {
    if slot != SLOT_TICKS || args.nodes.is_some() || args.input.limit.is_some() {
        return Err(SlaError::Usage(
            "--slot, --nodes and --limit apply to traces; generated sets are whole six-minute slots on 64 nodes"
                .into(),
        ));
    }
    Ok(())
}

/// The generated sets of `--sets` and `--seed`, named in `header`.
fn generated(args: &RunArgs, slot: Tick, header: &mut replay::format::Header) -> Result<Source, SlaError> {
    check_generated(args, slot)?;
    let batch = args.batch.unwrap_or(Batch::Whole);
    let name = generator::describe(args.seed, args.sets);
    *header = header.clone().with_input(&name, crate::workload::INPUT_CRC.checksum(name.as_bytes()));
    header.host_version = crate::workload::HOST_VERSION.to_owned();
    header.set("sets", args.sets);
    let inputs: Vec<Input> = (0..args.sets)
        .map(|i| {
            let set = generator::generate(args.seed, i);
            Input { requests: set_requests(&set), capacity: u128::from(NODES) * u128::from(FRAME_TICKS) }
        })
        .collect();
    let largest = inputs.iter().map(|i| run::largest_batch(&i.requests, batch)).max().unwrap_or(0);
    let name = format!("{} generated sets, seed {}", args.sets, args.seed);
    Ok(Source { sets: Sets::Held(inputs), nodes: NODES, batch, largest, name, left_out: 0 })
}

/// The trace of `--trace` (its first `--limit` jobs) as one set of requests read as
/// a stream ([`super::stream`]), surveyed once and stamped in `header`.
fn traced(args: &RunArgs, scanned: Scanned, header: &mut replay::format::Header) -> Result<Source, SlaError> {
    let allow_empty = args.input.allow_empty;
    scanned.workload.check_count(scanned.jobs, allow_empty).map_err(|e| SlaError::Usage(e.to_string()))?;
    let batch = args.batch.unwrap_or(Batch::Every(HOUR_TICKS));
    let survey = Survey::of(scanned.jobs()?, args.seed, batch)?;
    let sized = survey.widest > 0;
    scanned.workload.check_sized_count("sla", allow_empty, scanned.jobs, sized).map_err(SlaError::Usage)?;
    scanned.workload.stamp(header);
    let nodes = args.nodes.unwrap_or_else(|| {
        crate::input::pool_size_widest(scanned.max_procs, scanned.max_nodes, survey.widest)
    });
    let name = scanned.workload.name.clone();
    let (largest, left_out) = (survey.largest, survey.left_out);
    let sets = Sets::Trace(Box::new(TraceSet::new(scanned, args.seed, nodes, survey)));
    Ok(Source { sets, nodes, batch, largest, name, left_out })
}

/// What a trace's CPU utilisation divides by: `nodes` times the span from the first
/// `TS` to the last `TF`, in node-ticks.
pub fn trace_capacity(requests: &[Sla], nodes: u32) -> u128 {
    let first = requests.iter().map(|r| r.terms.ts).min().unwrap_or(0);
    let last = requests.iter().map(|r| r.terms.tf).max().unwrap_or(0);
    u128::from(nodes) * u128::from(last.saturating_sub(first).max(1))
}

/// A generated set's requests, each submitted at its `TS` when the run is online.
pub fn set_requests(set: &generator::Set) -> Vec<Sla> {
    set.jobs
        .iter()
        .map(|j| Sla {
            job: j.id,
            submit: j.ts,
            terms: metrics::Terms { ts: j.ts, tf: j.tf, td: j.td, ncpu: j.ncpu },
        })
        .collect()
}

/// `host-sim sla`.
pub fn run(args: &RunArgs) -> Result<(), SlaError> {
    let plan = plan(args)?;
    if plan.left_out > 0 {
        eprintln!("host-sim: {} trace jobs without a processor count left out", plan.left_out);
    }
    let bar = progress::bar(plan.sets.len() as u64, "sets");
    let outcome = match &args.output.log {
        Some(path) => super::log::run_logged(&plan, path, &bar, &mut |_, _, _| {})?,
        None => super::log::run_plain(&plan, &bar, &mut |_, _, _| {})?,
    };
    bar.finish_and_clear();
    print_outcome(&plan, &outcome, args.output.json)
}

/// A run's outcome on standard output, as text or (`json`) one JSON object.
pub fn print_outcome(plan: &Plan, outcome: &Outcome, json: bool) -> Result<(), SlaError> {
    let rejected = reasons(&outcome.sets);
    if json {
        let mut income = serde_json::Map::new();
        for (key, value) in outcome.mean.income.entries() {
            income.insert(key.into(), value.into());
        }
        let value = serde_json::json!({
            "heuristic": heuristic::display(heuristic_spec(plan.config.order)),
            "sets": plan.sets.len(),
            "nodes": plan.config.nodes,
            "batch_ticks": match plan.batch {
                Batch::Whole => None,
                Batch::Every(ticks) => Some(ticks),
            },
            "step_ticks": plan.config.step_ticks,
            "slot_ticks": plan.config.slot_ticks,
            "requests": outcome.mean.requests,
            "accepted": outcome.mean.accepted,
            "cpu_utilisation": outcome.mean.cpu_utilisation,
            "sla_factor": outcome.mean.sla_factor,
            "income": income,
            "rejected": rejected,
            "events": outcome.sets.iter().map(|s| s.events).sum::<u64>(),
            "decisions": outcome.sets.iter().map(|s| s.decisions).sum::<u64>(),
        });
        let submitted = outcome.sets.iter().map(|s| s.summary.requests).sum();
        let accepted = outcome.sets.iter().map(|s| s.summary.accepted).sum();
        let rejected = outcome.sets.iter().map(|s| s.rejected.iter().sum::<u64>()).sum();
        let counts = crate::summary::Counts { submitted, accepted, rejected };
        let core = crate::summary::Core::new("sla", &plan.header, Some(counts));
        let line = crate::summary::json_line(&core, &value).map_err(|source| SlaError::Io(PathError::stdout(source)))?;
        write_stdout(&line)
    } else {
        write_stdout(&text(plan, outcome, &rejected))
    }
}

/// Standard output through [`report::write_stdout`](crate::output::write_stdout).
fn write_stdout(text: &str) -> Result<(), SlaError> {
    crate::output::write_stdout(text).map_err(|source| SlaError::Io(PathError::stdout(source)))
}

fn heuristic_spec(order: Order) -> Spec {
    match order {
        Order::Heuristic(h) => Spec::Heuristic(h),
        Order::Random { .. } => Spec::Random,
    }
}

fn reasons(sets: &[SetOutcome]) -> serde_json::Map<String, serde_json::Value> {
    let mut out = serde_json::Map::new();
    for (i, reason) in kernel::sla::RejectReason::ALL.iter().enumerate() {
        out.insert(reason.name().into(), sets.iter().map(|s| s.rejected[i]).sum::<u64>().into());
    }
    out
}

fn text(plan: &Plan, outcome: &Outcome, rejected: &serde_json::Map<String, serde_json::Value>) -> String {
    let m = &outcome.mean;
    let i = &m.income;
    let reasons: Vec<String> = rejected
        .iter()
        .filter(|(_, v)| v.as_u64().unwrap_or(0) > 0)
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    let per = if plan.sets.len() > 1 { " (means over the sets)" } else { "" };
    format!(
        "sla: {} on {}: {} nodes, batch {}, step {} s, slot {} s\n\
         requests {}, accepted {}; rejected: {}\n\
         CPU utilisation {:.2} %, SLA factor {:.2} %{per}\n\
         income (ceiling: jobs per set, the paper's about {}):\n\
         \x20 Rigid: SLA {:.1}  CPU {:.1}  Fair {:.1}\n\
         \x20 ASAP:  SLA {:.1}  CPU {:.1}  Fair {:.1}\n",
        heuristic::display(heuristic_spec(plan.config.order)),
        plan.source,
        plan.config.nodes,
        plan.batch.setting(),
        plan.config.step_ticks,
        plan.config.slot_ticks,
        m.requests,
        m.accepted,
        if reasons.is_empty() { "none".to_owned() } else { reasons.join(", ") },
        m.cpu_utilisation,
        m.sla_factor,
        paper::JOBS_PER_SET,
        i.rigid_sla,
        i.rigid_cpu,
        i.rigid_fair,
        i.asap_sla,
        i.asap_cpu,
        i.asap_fair,
    )
}
