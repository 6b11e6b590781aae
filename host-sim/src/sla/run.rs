//! The run loop: job sets or a trace's requests into [`kernel::sla::Event`]s, the
//! decisions back into starts, and the measures of each set; with [`Plan`] (what a run
//! is given) and [`Outcome`] (what it gives back), which both the subcommand
//! ([`super::cli`]) and the log ([`super::log`]) use, so that neither depends on the
//! other for them.
//!
//! - **Whole set** ([`Batch::Whole`], the paper's): `Reset { 0 }`, every request
//!   submitted at 0 in request order, one `Plan { 0 }`. Every set starts from an
//!   empty machine at time 0 (the kernel allows a reset to an earlier time).
//! - **Online** ([`Batch::Every`]): the requests are submitted at their submit times
//!   (the trace's submit, or `TS` for a generated set), in (submit, request order);
//!   with a planning interval `L > 0`, the batch collected in `[k L, (k + 1) L)` is
//!   planned at `(k + 1) L`, when the first request of a later interval arrives or
//!   after the last request; with `L = 0`, each request is planned at its submit,
//!   alone. A plan at `t` tries no start before `t`.
//! - **Batch capacity**: the engine's batch `B` is the smallest compiled size that
//!   holds the largest batch the input forms ([`largest_batch`] and
//!   `replay::engine::sla::batch_for`), so no request is rejected `batch_full` for a
//!   compiled size. Only a batch larger than the largest compiled size (65,536
//!   requests in one planning interval, or a whole set) is split: when `B` requests
//!   are pending, the batch is planned at once, at the time of the request that would
//!   not fit, and that request opens the next batch. Every request is decided.

use kernel::Tick;
use kernel::sla::{Config, Decision, Event, RejectReason, Request, SlaKernel};

use super::mapping::Sla;
use super::metrics::{self, Summary, Terms};

/// When batches are planned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Batch {
    /// Every request of a set, then one plan (the paper's).
    Whole,
    /// Online: plan every `L` ticks (`0`: each request alone, at its submit).
    Every(Tick),
}

impl Batch {
    /// `all` (the whole set), `0` (one request at a time), or a planning interval
    /// (`3600`, `90s`, `10m`, `1h`, `2d`).
    pub fn parse(text: &str) -> Result<Self, String> {
        let text = text.trim();
        if text == "0" {
            return Ok(Self::Every(0));
        }
        match crate::window::parse_window(text) {
            Ok(None) => Ok(Self::Whole),
            Ok(Some(ticks)) => Ok(Self::Every(ticks)),
            Err(e) => Err(format!("--batch: {e} (give all, 0, or a duration such as 1h)")),
        }
    }

    /// As the log's setting and the report write it: `all`, `0`, or seconds.
    pub fn setting(self) -> String {
        match self {
            Self::Whole => "all".to_owned(),
            Self::Every(t) => t.to_string(),
        }
    }
}

/// Anything that decides SLA events: the kernel of a compiled size, or the host's
/// engine.
pub trait Decide {
    fn decide(&mut self, event: Event, out: &mut Vec<Decision>) -> kernel::sla::Outcome;
    /// `B`: the most requests a batch holds.
    fn batch_capacity(&self) -> usize;
}

impl<const H: usize, const B: usize> Decide for SlaKernel<H, B> {
    fn decide(&mut self, event: Event, out: &mut Vec<Decision>) -> kernel::sla::Outcome {
        self.step(event, &mut |d| out.push(d))
    }

    fn batch_capacity(&self) -> usize {
        B
    }
}

/// One set's requests, as the run loop feeds them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    pub requests: Vec<Sla>,
    /// `m` times the frame, in node-ticks: what the CPU utilisation divides by.
    pub capacity: u128,
}

/// What one set's run gave.
#[derive(Clone, Debug, PartialEq)]
pub struct SetOutcome {
    /// `starts[i]`: the start of `requests[i]` when accepted.
    pub starts: Vec<Option<Tick>>,
    /// Rejections by reason, in [`RejectReason::ALL`]'s order.
    pub rejected: [u64; 7],
    pub summary: Summary,
    pub events: u64,
    pub decisions: u64,
}

/// What `host-sim sla` runs: its sets (one for a trace), the kernel's configuration,
/// the batch mode, and what identifies the input in a log header.
#[derive(Debug)]
pub struct Plan {
    pub inputs: Vec<Input>,
    pub config: Config,
    pub batch: Batch,
    /// The engine's `B`: the smallest compiled size that holds the largest batch.
    pub batch_capacity: u32,
    pub header: replay::format::Header,
    pub source: String,
    /// Trace jobs left out (no processor count).
    pub left_out: u64,
}

/// The whole run's outcome: every set's.
#[derive(Debug)]
pub struct Outcome {
    pub sets: Vec<SetOutcome>,
    pub mean: Summary,
}

fn request(sla: &Sla) -> Request {
    Request { job: sla.job, ts: sla.terms.ts, tf: sla.terms.tf, td: sla.terms.td, ncpu: sla.terms.ncpu }
}

/// Runs one set on `kernel` (reset first), handing each event and its decisions to
/// `observe`. Jobs are paired with decisions by job number; the requests of a set
/// have distinct numbers.
pub fn run_set(
    kernel: &mut dyn Decide,
    input: &Input,
    batch: Batch,
    observe: &mut dyn FnMut(&Event, &[Decision]),
) -> SetOutcome {
    let requests = &input.requests;
    let mut index = crate::workload::JobIdMap::default();
    index.reserve(requests.len());
    for (i, r) in requests.iter().enumerate() {
        index.insert(r.job, i);
    }
    let mut out = SetOutcome {
        starts: vec![None; requests.len()],
        rejected: [0; 7],
        summary: Summary::default(),
        events: 0,
        decisions: 0,
    };
    let mut decisions = Vec::with_capacity(64);
    let capacity = kernel.batch_capacity();
    let mut pending = 0usize;
    let mut feed = |event: Event| {
        decisions.clear();
        // A batch that holds `B` requests is planned before the next submit joins it.
        if let Event::Submit { t, .. } = event
            && pending >= capacity
        {
            feed_one(kernel, Event::Plan { t }, &mut decisions, observe, &mut out, &index);
            pending = 0;
            decisions.clear();
        }
        let outcome = feed_one(kernel, event, &mut decisions, observe, &mut out, &index);
        match outcome {
            kernel::sla::Outcome::Queued => pending += 1,
            kernel::sla::Outcome::Planned { .. } | kernel::sla::Outcome::Reset { .. } => pending = 0,
            _ => {}
        }
    };
    feed(Event::Reset { t: 0 });
    match batch {
        Batch::Whole => {
            for r in requests {
                feed(Event::Submit { t: 0, request: request(r) });
            }
            feed(Event::Plan { t: 0 });
        }
        Batch::Every(length) => online(requests, length, &mut feed),
    }
    let terms: Vec<Terms> = requests.iter().map(|r| r.terms).collect();
    out.summary = metrics::summarise(&terms, &out.starts, input.capacity);
    out
}

/// Decides one event, shows it to `observe` and counts it into `out`.
fn feed_one(
    kernel: &mut dyn Decide,
    event: Event,
    decisions: &mut Vec<Decision>,
    observe: &mut dyn FnMut(&Event, &[Decision]),
    out: &mut SetOutcome,
    index: &crate::workload::JobIdMap<usize>,
) -> kernel::sla::Outcome {
    let outcome = kernel.decide(event, decisions);
    observe(&event, decisions);
    record(out, index, decisions);
    outcome
}

/// The most requests one batch of `requests` gathers under `batch`: every request of
/// a whole set, the most submitted in one planning interval online (1 for one at a
/// time). Invalid requests are counted too, so it bounds the batch from above.
pub fn largest_batch(requests: &[Sla], batch: Batch) -> usize {
    match batch {
        Batch::Whole => requests.len(),
        Batch::Every(0) => usize::from(!requests.is_empty()),
        Batch::Every(length) => {
            let mut counts: std::collections::HashMap<Tick, usize> = std::collections::HashMap::new();
            for r in requests {
                *counts.entry(r.submit / length).or_insert(0) += 1;
            }
            counts.into_values().max().unwrap_or(0)
        }
    }
}

/// Counts one event and its `decisions` into `out`: the starts of accepted requests
/// (found through `index`) and the rejections by reason.
fn record(out: &mut SetOutcome, index: &crate::workload::JobIdMap<usize>, decisions: &[Decision]) {
    out.events += 1;
    out.decisions += decisions.len() as u64;
    for d in decisions {
        match *d {
            Decision::Accept { job, start } => {
                if let Some(&i) = index.get(&job) {
                    out.starts[i] = Some(start);
                }
            }
            Decision::Reject { reason, .. } => {
                let at = RejectReason::ALL.iter().position(|&r| r == reason).unwrap_or(0);
                out.rejected[at] += 1;
            }
        }
    }
}

/// The online events of `requests`: each submitted at its submit time, in (submit,
/// request order); planned every `length` ticks, or alone at its submit when `length`
/// is 0.
fn online(requests: &[Sla], length: Tick, feed: &mut dyn FnMut(Event)) {
    let mut order: Vec<usize> = (0..requests.len()).collect();
    order.sort_by_key(|&i| (requests[i].submit, i));
    let mut due: Option<Tick> = None;
    for i in order {
        let r = &requests[i];
        if let Some(at) = due
            && r.submit >= at
        {
            feed(Event::Plan { t: at });
            due = None;
        }
        feed(Event::Submit { t: r.submit, request: request(r) });
        if length == 0 {
            feed(Event::Plan { t: r.submit });
        } else if due.is_none() {
            due = Some((r.submit / length).saturating_add(1).saturating_mul(length));
        }
    }
    if let Some(at) = due {
        feed(Event::Plan { t: at });
    }
}

/// The kernel's configuration for a run.
pub fn config(nodes: u32, slot_ticks: Tick, step_ticks: Tick, order: kernel::sla::Order) -> Config {
    Config { nodes, slot_ticks, step_ticks, ticks_per_hour: super::generator::TICKS_PER_HOUR, order }
}
