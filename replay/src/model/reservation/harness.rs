//! One decoder from arbitrary bytes to a small reservation case, and one check of a
//! case, so that libFuzzer's inputs (`fuzz/fuzz_targets/reservation.rs`) and the seeded
//! random bytes of `replay/tests/reservation_props.rs` explore the same space with the
//! same checks.
//!
//! Every byte string decodes (missing bytes read as zero). A case is a pool of one to
//! six nodes, short slots, any criterion, fixing and number of offer trials, and up to
//! [`MAX_STEPS`] requests, advances, finishes and resets. Times are ticks after the
//! kernel's clock, small enough to stay near the 48-slot horizon but sometimes past it;
//! job numbers are few, so that requests reuse them and finishes find them; some
//! requests ask for no nodes or more than the pool.

use std::collections::BTreeMap;
use std::fmt;

use kernel::Tick;
use kernel::reservation::{
    Config, ConfigError, Criterion, Decision, Event, Fixing, Outcome, Request, RequestKind, ReservationKernel,
};

use super::reference::{Answer, ReservationReference};
use crate::model::bytes::Bytes;

/// The kernel a case runs on.
pub type CaseKernel = ReservationKernel<48, 12, 12, 3>;
/// Steps decoded at most.
pub const MAX_STEPS: usize = 200;

/// One step of a case, its times counted from the kernel's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A request at `dt` after the clock (an `Advance` to that time first), ready
    /// `ahead` after it less `back` (not before 0), its deadline `room` past the
    /// earliest end.
    Request {
        dt: Tick,
        job: u32,
        nodes: u32,
        estimate: Tick,
        ahead: Tick,
        back: Tick,
        room: Tick,
        kind: RequestKind,
        key: u32,
    },
    Advance {
        dt: Tick,
    },
    Finish {
        dt: Tick,
        job: u32,
    },
    Reset,
}

/// A scenario: a configuration and the steps to feed it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReservationCase {
    pub config: Config,
    pub steps: Vec<Step>,
}

const CRITERIA: [Criterion; 5] = Criterion::ALL;
const FIXINGS: [Fixing; 5] = Fixing::ALL;
const KINDS: [RequestKind; 3] = [RequestKind::Strict, RequestKind::RelaxedStart, RequestKind::Flexible];

fn request(b: &mut Bytes<'_>, pool: u32) -> Step {
    let dt = Tick::from(b.below(16));
    let job = u32::from(b.below(16));
    // Now and then no nodes, or more than the pool.
    let nodes = u32::from(b.next()) % (pool + 2);
    let estimate = Tick::from(b.below(40));
    let ready = b.next();
    let room = Tick::from(b.below(48));
    let kind = KINDS[usize::from(b.below(3))];
    let key = u32::from(b.next());
    Step::Request {
        dt,
        job,
        nodes,
        estimate,
        ahead: Tick::from(ready % 64),
        back: Tick::from(ready % 3),
        room,
        kind,
        key,
    }
}

/// Decodes a case from any bytes.
pub fn case_from_bytes(bytes: &[u8]) -> ReservationCase {
    let mut b = Bytes(bytes);
    let nodes = 1 + u32::from(b.below(6));
    let slot_ticks = 1 + Tick::from(b.below(5));
    let criterion = CRITERIA[usize::from(b.below(5))];
    let fixing = FIXINGS[usize::from(b.below(5))];
    let offer_trials = u16::from(b.below(8));
    let config = Config { nodes, slot_ticks, criterion, fixing, offer_trials };
    let mut steps = Vec::new();
    while steps.len() < MAX_STEPS && !b.is_empty() {
        let step = match b.next() % 16 {
            0..=8 => request(&mut b, nodes),
            9..=12 => Step::Advance { dt: Tick::from(b.next()) },
            13 | 14 => Step::Finish { dt: Tick::from(b.below(32)), job: u32::from(b.below(16)) },
            _ => Step::Reset,
        };
        steps.push(step);
    }
    ReservationCase { config, steps }
}

/// What broke.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The case does not describe a kernel of its shape.
    Config(ConfigError),
    /// A check failed after step `step` of the case (`input`).
    Step { step: usize, input: Step, what: String },
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Config(e) => write!(f, "bad case configuration: {e}"),
            Self::Step { step, input, what } => write!(f, "step {step}: {input:?}: {what}"),
        }
    }
}

impl std::error::Error for Failure {}

/// What a case reached, so that the seeded tests can show every branch is reached.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CaseStats {
    pub accepted: u64,
    pub rejected: u64,
    pub offers: u64,
    pub replans: u64,
    pub fixes: u64,
    pub starts: u64,
    pub ends: u64,
}

/// What the decisions said about an accepted job that has not ended.
#[derive(Clone, Copy, Debug)]
struct Held {
    ready: Tick,
    deadline: Tick,
    estimate: Tick,
    start: Tick,
    fixed: bool,
}

/// Runs a case through [`CaseKernel`], checking after every step that:
///
/// - every request gets the answer of the plain [`ReservationReference`] (the same start and
///   moves, or the same reason and offers);
/// - a rejection leaves the state exactly as the same time's `Advance` leaves it;
/// - admission never breaks an accepted reservation: every job accepted and not ended
///   is still waiting or running, its start (the last `Accept` or `Replan`) inside its
///   window and not in the past while it waits, a fixed one never moved;
/// - no slot is overcommitted: the waiting and running reservations that overlap a
///   slot hold at most `m` nodes, and the calendar has at most `m` minus that free.
pub fn check_case(case: &ReservationCase) -> Result<CaseStats, Failure> {
    let kernel = CaseKernel::new(case.config).map_err(Failure::Config)?;
    let mut run = Run { kernel, held: BTreeMap::new(), stats: CaseStats::default() };
    for (step, &input) in case.steps.iter().enumerate() {
        let fail = |what| Failure::Step { step, input, what };
        run.step(input).map_err(fail)?;
        run.check(case.config.nodes).map_err(fail)?;
    }
    Ok(run.stats)
}

/// A case's kernel, what its decisions promised so far, and what it reached.
struct Run {
    kernel: CaseKernel,
    held: BTreeMap<u32, Held>,
    stats: CaseStats,
}

impl Run {
    fn step(&mut self, input: Step) -> Result<(), String> {
        let now = self.kernel.now();
        match input {
            Step::Request { dt, job, nodes, estimate, ahead, back, room, kind, key } => {
                let t = now + dt;
                let ready = t + ahead - back.min(t);
                let deadline = ready + estimate + room;
                let q = Request { t, job, nodes, estimate, ready, deadline, kind, shuffle_key: key };
                self.request(q)?;
            }
            Step::Advance { dt } => {
                self.step_into(Event::Advance { t: now + dt })?;
            }
            Step::Finish { dt, job } => {
                self.step_into(Event::Finish { t: now + dt, job })?;
            }
            Step::Reset => {
                self.step_into(Event::Reset)?;
                self.held.clear();
            }
        }
        Ok(())
    }

    /// An advance to the request's time, then the request, compared with the reference.
    fn request(&mut self, q: Request) -> Result<(), String> {
        self.step_into(Event::Advance { t: q.t })?;
        let before = self.kernel.clone();
        let reference = ReservationReference::of(&self.kernel).request(&q);
        let (outcome, decisions) = self.step_into(Event::Request(q))?;
        if let Outcome::Rejected { reason, .. } = outcome {
            self.stats.rejected += 1;
            if self.kernel != before {
                return Err(format!("a rejection ({reason}) changed the state"));
            }
        } else {
            self.stats.accepted += 1;
        }
        let answer = Answer::of(outcome, &decisions).ok_or_else(|| format!("{outcome:?} for a request"))?;
        if answer != reference {
            return Err(format!(
                "the kernel and the reference disagree: the kernel {answer:?}, the reference {reference:?}"
            ));
        }
        Ok(())
    }

    /// Steps the kernel and follows its decisions in `held`.
    fn step_into(&mut self, event: Event) -> Result<(Outcome, Vec<Decision>), String> {
        let mut decisions = Vec::new();
        let outcome = self.kernel.step(event, &mut |d| decisions.push(d));
        let request = match event {
            Event::Request(q) => Some(q),
            _ => None,
        };
        for decision in &decisions {
            self.follow(request, *decision)?;
        }
        Ok((outcome, decisions))
    }

    fn follow(&mut self, request: Option<Request>, decision: Decision) -> Result<(), String> {
        let held = &mut self.held;
        let not_held = |what: &str, job: u32| format!("{what} of {job}, not held");
        match decision {
            Decision::Accept { job, start } => {
                let q = request.filter(|q| q.job == job).ok_or_else(|| format!("accept of {job}"))?;
                let ready = if q.kind == RequestKind::RelaxedStart { q.t } else { q.ready };
                let entry = Held { ready, deadline: q.deadline, estimate: q.estimate, start, fixed: false };
                if held.insert(job, entry).is_some() {
                    return Err(format!("job {job} accepted twice"));
                }
            }
            Decision::Replan { job, start } => {
                let h = held.get_mut(&job).ok_or_else(|| not_held("replan", job))?;
                if h.fixed {
                    return Err(format!("fixed job {job} moved"));
                }
                h.start = start;
                self.stats.replans += 1;
            }
            Decision::Fix { job, .. } => {
                held.get_mut(&job).ok_or_else(|| not_held("fix", job))?.fixed = true;
                self.stats.fixes += 1;
            }
            Decision::Start { t, job } => {
                let h = held.get_mut(&job).ok_or_else(|| not_held("start", job))?;
                if t != h.start {
                    return Err(format!("job {job} started at {t}, away from its planned start {}", h.start));
                }
                h.fixed = true;
                self.stats.starts += 1;
            }
            Decision::End { job, .. } => {
                held.remove(&job).ok_or_else(|| not_held("end", job))?;
                self.stats.ends += 1;
            }
            Decision::Offer { .. } => self.stats.offers += 1,
            Decision::Reject { .. } => {}
        }
        Ok(())
    }

    /// Every held job is still in the kernel, inside its window; no slot overcommitted.
    fn check(&self, m: u32) -> Result<(), String> {
        let plan = self.kernel.plan();
        let now = self.kernel.now();
        for (&job, h) in &self.held {
            if h.start < h.ready || h.start + h.estimate > h.deadline {
                return Err(format!("job {job} placed at {} outside [{}, {}]", h.start, h.ready, h.deadline));
            }
            if let Some(w) = plan.waiting().iter().find(|w| w.job == job) {
                if w.start != h.start {
                    return Err(format!("job {job} waits at {}, not at the announced {}", w.start, h.start));
                }
                if w.start < now {
                    return Err(format!("job {job} waits for a start in the past"));
                }
            } else {
                let r = plan.running().iter().find(|r| r.job == job);
                let r = r.ok_or_else(|| format!("accepted job {job} was dropped"))?;
                if r.start != h.start {
                    return Err(format!(
                        "job {job} runs from {}, not from the announced {}",
                        r.start, h.start
                    ));
                }
            }
        }
        self.check_slots(m)
    }

    fn check_slots(&self, m: u32) -> Result<(), String> {
        let plan = self.kernel.plan();
        let slot = plan.slot();
        let spans = plan
            .waiting()
            .iter()
            .map(|w| (w.start, w.end(), w.nodes))
            .chain(plan.running().iter().map(|r| (r.start, r.end, r.nodes)));
        let mut used: BTreeMap<u64, u64> = BTreeMap::new();
        for (start, end, nodes) in spans {
            let (first, n) = slot.span(start, end);
            for a in first..first + n {
                *used.entry(a).or_default() += u64::from(nodes);
            }
        }
        for (a, used) in used {
            if used > u64::from(m) {
                return Err(format!("slot {a} holds {used} of {m} nodes"));
            }
            if let Some(free) = plan.calendar().free(a)
                && u64::from(free) > u64::from(m) - used
            {
                return Err(format!("slot {a} has {free} free, {used} held"));
            }
        }
        Ok(())
    }
}
