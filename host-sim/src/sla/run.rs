//! The run loop: job sets or a trace's requests into [`kernel::sla::Event`]s, the
//! decisions back into starts, and the measures of each set.
//!
//! One loop ([`run_requests`]) runs every set from an iterator of requests in the
//! order they are submitted: a generated set's or a log's held in memory
//! ([`run_set`]), or a trace's streamed from its file ([`super::stream`]). It holds
//! only what is live: the kernel's batch, and the requests submitted and not yet
//! summed ([`super::ledger`]). Each request is summed ([`super::metrics::Tally`]) once
//! it and every request before it in request order are decided, so the measures are
//! those of the whole set to the bit; the price `k` is known before the first request.
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
use kernel::sla::{Config, Decision, Event, RejectReason, Request};
use replay::engine::sla::SlaStepper;

use super::ledger::Ledger;
use super::mapping::Sla;
use super::metrics::{self, Summary, Tally};

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
        Self::value(text).map_err(|e| format!("--batch: {e}"))
    }

    /// [`Batch::parse`] without the option's name: why `text` is no batch mode.
    pub fn value(text: &str) -> Result<Self, String> {
        let text = text.trim();
        if text == "0" {
            return Ok(Self::Every(0));
        }
        match crate::window::parse_window(text) {
            Ok(None) => Ok(Self::Whole),
            Ok(Some(ticks)) => Ok(Self::Every(ticks)),
            Err(e) => Err(format!("{e} (give all, 0, or a duration such as 1h)")),
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

/// `B`, the most requests a batch of `kernel` holds ([`kernel::contract::Kernel::CAPACITIES`]).
fn batch_capacity(kernel: &SlaStepper) -> usize {
    let batch = kernel.capacities().iter().find(|&&(what, _)| what == "batch (B)");
    batch.map_or(usize::MAX, |&(_, b)| b)
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
    /// Rejections by reason, in [`RejectReason::ALL`]'s order.
    pub rejected: [u64; 7],
    pub summary: Summary,
    pub events: u64,
    pub decisions: u64,
}

/// What the CPU utilisation of a set divides by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Capacity {
    /// `m` times a frame known beforehand (a generated set's), in node-ticks.
    NodeTicks(u128),
    /// `nodes` times the span from the set's earliest `TS` to its latest `TF` (a
    /// trace's, [`super::metrics::Tally::span`]).
    Span { nodes: u32 },
}

/// What the loop is told of a set before its first request.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SetTerms {
    pub batch: Batch,
    /// `k` of all the set's requests ([`metrics::price_k`]).
    pub price_k: f64,
    pub capacity: Capacity,
}

fn request(sla: &Sla) -> Request {
    Request { job: sla.job, ts: sla.terms.ts, tf: sla.terms.tf, td: sla.terms.td, ncpu: sla.terms.ncpu }
}

/// Runs one set held whole on `kernel` (reset first), handing each event and its
/// decisions to `observe` and each request and its start, in request order, to
/// `settle`. Online, the requests are submitted in (submit, request order).
pub fn run_set(
    kernel: &mut SlaStepper,
    input: &Input,
    batch: Batch,
    observe: &mut dyn FnMut(&Event, &[Decision]),
    settle: &mut dyn FnMut(&Sla, Option<Tick>),
) -> SetOutcome {
    let mut price = metrics::Price::default();
    input.requests.iter().for_each(|r| price.add(&r.terms));
    let set = SetTerms { batch, price_k: price.k(), capacity: Capacity::NodeTicks(input.capacity) };
    let mut order: Vec<(u64, Sla)> = input.requests.iter().enumerate().map(|(i, r)| (i as u64, *r)).collect();
    if let Batch::Every(_) = batch {
        order.sort_by_key(|&(i, r)| (r.submit, i));
    }
    let requests = order.into_iter().map(Ok::<_, std::convert::Infallible>);
    match run_requests(kernel, requests, set, observe, settle) {
        Ok(out) => out,
        Err(never) => match never {},
    }
}

/// The run loop: one set's `requests` on `kernel` (reset first), each with its place
/// in request order, given in the order they are submitted (any for a whole set; by
/// submit time online). Events and their decisions go to `observe`, each request and
/// its start to `settle` once summed, in request order. Jobs are paired with
/// decisions by job number; the requests of a set have distinct numbers. Stops at
/// the first error of `requests`.
pub fn run_requests<E>(
    kernel: &mut SlaStepper,
    requests: impl Iterator<Item = Result<(u64, Sla), E>>,
    set: SetTerms,
    observe: &mut dyn FnMut(&Event, &[Decision]),
    settle: &mut dyn FnMut(&Sla, Option<Tick>),
) -> Result<SetOutcome, E> {
    let mut runner = Runner {
        capacity: batch_capacity(kernel),
        kernel,
        observe,
        settle,
        ledger: Ledger::default(),
        tally: Tally::new(set.price_k),
        out: SetOutcome { rejected: [0; 7], summary: Summary::default(), events: 0, decisions: 0 },
        decisions: Vec::with_capacity(64),
        pending: 0,
    };
    runner.feed(Event::Reset { t: 0 });
    match set.batch {
        Batch::Whole => {
            for item in requests {
                let (seq, r) = item?;
                runner.submit(0, seq, r);
            }
            runner.feed(Event::Plan { t: 0 });
        }
        Batch::Every(length) => online(requests, length, &mut runner)?,
    }
    let Runner { mut ledger, mut tally, settle, mut out, .. } = runner;
    ledger.drain(&mut |r, start| {
        tally.add(&r.terms, start);
        settle(&r, start);
    });
    let capacity = match set.capacity {
        Capacity::NodeTicks(c) => c,
        Capacity::Span { nodes } => u128::from(nodes) * u128::from(tally.span()),
    };
    out.summary = tally.summary(capacity);
    Ok(out)
}

/// The loop's state while a set runs.
struct Runner<'a> {
    kernel: &'a mut SlaStepper,
    observe: &'a mut dyn FnMut(&Event, &[Decision]),
    settle: &'a mut dyn FnMut(&Sla, Option<Tick>),
    /// The requests submitted and not yet summed.
    ledger: Ledger,
    tally: Tally,
    out: SetOutcome,
    decisions: Vec<Decision>,
    /// Requests queued in the kernel's batch.
    pending: usize,
    /// `B`.
    capacity: usize,
}

impl Runner<'_> {
    /// Submits request `seq` (its place in request order) at `t`.
    fn submit(&mut self, t: Tick, seq: u64, r: Sla) {
        self.ledger.submit(seq, r);
        self.feed(Event::Submit { t, request: request(&r) });
    }

    fn feed(&mut self, event: Event) {
        // A batch that holds `B` requests is planned before the next submit joins it.
        if let Event::Submit { t, .. } = event
            && self.pending >= self.capacity
        {
            self.step(Event::Plan { t });
            self.pending = 0;
        }
        match self.step(event) {
            kernel::sla::Outcome::Queued => self.pending += 1,
            kernel::sla::Outcome::Planned { .. } | kernel::sla::Outcome::Reset { .. } => self.pending = 0,
            _ => {}
        }
    }

    /// Decides one event, shows it to `observe`, counts it, and sums the requests it
    /// settles.
    fn step(&mut self, event: Event) -> kernel::sla::Outcome {
        self.decisions.clear();
        let outcome = self.kernel.step(event, &mut self.decisions);
        (self.observe)(&event, &self.decisions);
        self.out.events += 1;
        self.out.decisions += self.decisions.len() as u64;
        for d in &self.decisions {
            match *d {
                Decision::Accept { job, start } => self.ledger.decide(job, Some(start)),
                Decision::Reject { job, reason } => {
                    let at = RejectReason::ALL.iter().position(|&r| r == reason).unwrap_or(0);
                    self.out.rejected[at] += 1;
                    self.ledger.decide(job, None);
                }
            }
        }
        let (tally, settle) = (&mut self.tally, &mut self.settle);
        self.ledger.settle(&mut |r, start| {
            tally.add(&r.terms, start);
            settle(&r, start);
        });
        outcome
    }
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

/// The most requests one batch gathers online, from the submit times of a set's
/// requests in the order they are submitted (by submit time): what [`largest_batch`]
/// gives, counting one interval at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Largest {
    batch: Batch,
    /// The interval being counted, and its requests so far.
    interval: Option<Tick>,
    count: usize,
    most: usize,
}

impl Largest {
    pub const fn new(batch: Batch) -> Self {
        Self { batch, interval: None, count: 0, most: 0 }
    }

    /// The next request's submit time (none earlier than the last).
    pub fn add(&mut self, submit: Tick) {
        match self.batch {
            Batch::Whole => self.most += 1,
            Batch::Every(0) => self.most = 1,
            Batch::Every(length) => {
                let interval = submit / length;
                if self.interval != Some(interval) {
                    (self.interval, self.count) = (Some(interval), 0);
                }
                self.count += 1;
                self.most = self.most.max(self.count);
            }
        }
    }

    pub const fn most(&self) -> usize {
        self.most
    }
}

/// The online events of `requests` (in submit order, each with its place in request
/// order): each submitted at its submit time; planned every `length` ticks, or alone
/// at its submit when `length` is 0.
fn online<E>(
    requests: impl Iterator<Item = Result<(u64, Sla), E>>,
    length: Tick,
    runner: &mut Runner<'_>,
) -> Result<(), E> {
    let mut due: Option<Tick> = None;
    for item in requests {
        let (seq, r) = item?;
        if let Some(at) = due
            && r.submit >= at
        {
            runner.feed(Event::Plan { t: at });
            due = None;
        }
        runner.submit(r.submit, seq, r);
        if length == 0 {
            runner.feed(Event::Plan { t: r.submit });
        } else if due.is_none() {
            due = Some((r.submit / length).saturating_add(1).saturating_mul(length));
        }
    }
    if let Some(at) = due {
        runner.feed(Event::Plan { t: at });
    }
    Ok(())
}

/// The kernel's configuration for a run.
pub fn config(nodes: u32, slot_ticks: Tick, step_ticks: Tick, order: kernel::sla::Order) -> Config {
    Config { nodes, slot_ticks, step_ticks, ticks_per_hour: super::generator::TICKS_PER_HOUR, order }
}
