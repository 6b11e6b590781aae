//! Arbitrary request, advance, finish and reset sequences into a small reservation
//! kernel (`ReservationKernel<48, 12, 12, 3>`), checked after every step:
//!
//! - every request gets the answer of the plain reference of Algorithms 1 and 2
//!   (`replay::model::reservation::reference`): the same start and moves, or the
//!   same reason and offers;
//! - a rejection leaves the state exactly as the same time's `Advance` leaves it;
//! - admission never breaks an accepted reservation: every job accepted and not ended
//!   is still waiting or running, its start (the last `Accept` or `Replan`) inside
//!   its window and not in the past while it waits, a fixed one never moved;
//! - no slot is overcommitted: the waiting and running reservations that overlap a
//!   slot hold at most `m` nodes, and the calendar has at most `m` minus that free.
//!
//! The same checks (and more: exact calendar accounting, offers re-requested) run as
//! ordinary tests over a fixed seeded set of cases in
//! `kernel/tests/reservation_props.rs`, against the same reference file.

#![no_main]

use std::collections::BTreeMap;

use arbitrary::Arbitrary;
use kernel::Tick;
use kernel::reservation::{
    Config, Criterion, Decision, Event, Fixing, Outcome, Request, RequestKind, ReservationKernel,
};
use libfuzzer_sys::fuzz_target;
use replay::model::reservation::reference::{Answer, Reference};

type Kernel = ReservationKernel<48, 12, 12, 3>;

#[derive(Arbitrary, Debug)]
struct Input {
    /// `1 + nodes % 6` nodes.
    nodes: u8,
    /// `1 + slot % 5` ticks a slot.
    slot: u8,
    criterion: u8,
    fixing: u8,
    offer_trials: u8,
    steps: Vec<Step>,
}

/// Times are steps forward from the kernel's clock, small enough to stay near the
/// 48-slot horizon but sometimes past it.
#[derive(Arbitrary, Debug, Clone, Copy)]
enum Step {
    Request { dt: u8, job: u8, nodes: u8, estimate: u8, ready: u8, room: u8, kind: u8, key: u8 },
    Advance { dt: u8 },
    Finish { dt: u8, job: u8 },
    Reset,
}

const CRITERIA: [Criterion; 5] = Criterion::ALL;
const FIXINGS: [Fixing; 5] = Fixing::ALL;
const KINDS: [RequestKind; 3] = [RequestKind::Strict, RequestKind::RelaxedStart, RequestKind::Flexible];

/// What the decisions said about an accepted job that has not ended.
#[derive(Clone, Copy, Debug)]
struct Held {
    ready: Tick,
    deadline: Tick,
    estimate: Tick,
    start: Tick,
    fixed: bool,
}

fuzz_target!(|input: Input| {
    let m = 1 + u32::from(input.nodes % 6);
    let config = Config {
        nodes: m,
        slot_ticks: 1 + Tick::from(input.slot % 5),
        criterion: CRITERIA[usize::from(input.criterion) % CRITERIA.len()],
        fixing: FIXINGS[usize::from(input.fixing) % FIXINGS.len()],
        offer_trials: u16::from(input.offer_trials % 8),
    };
    let mut kernel = Kernel::new(config).expect("2 m <= 12");
    let mut held: BTreeMap<u32, Held> = BTreeMap::new();
    for (index, step) in input.steps.iter().enumerate() {
        let now = kernel.now();
        let context = format!("step {index}: {step:?}");
        match *step {
            Step::Request { dt, job, nodes, estimate, ready, room, kind, key } => {
                let t = now + Tick::from(dt % 16);
                let ready = t + Tick::from(ready % 64) - Tick::from(ready % 3).min(t);
                let estimate = Tick::from(estimate % 40);
                let q = Request {
                    t,
                    job: u32::from(job % 16),
                    nodes: u32::from(nodes) % (m + 2),
                    estimate,
                    ready,
                    deadline: ready + estimate + Tick::from(room % 48),
                    kind: KINDS[usize::from(kind) % KINDS.len()],
                    shuffle_key: u32::from(key),
                };
                step_into(&mut kernel, &mut held, Event::Advance { t }, &context);
                let before = kernel.clone();
                let reference = Reference::of(&kernel).request(&q);
                let (outcome, decisions) = step_into(&mut kernel, &mut held, Event::Request(q), &context);
                if let Outcome::Rejected { reason, .. } = outcome {
                    assert!(kernel == before, "{context}: a rejection ({reason}) changed the state");
                }
                let answer = Answer::of(outcome, &decisions)
                    .unwrap_or_else(|| panic!("{context}: {outcome:?} for a request"));
                assert_eq!(answer, reference, "{context}: the kernel and the reference disagree");
            }
            Step::Advance { dt } => {
                step_into(&mut kernel, &mut held, Event::Advance { t: now + Tick::from(dt) }, &context);
            }
            Step::Finish { dt, job } => {
                let event = Event::Finish { t: now + Tick::from(dt % 32), job: u32::from(job % 16) };
                step_into(&mut kernel, &mut held, event, &context);
            }
            Step::Reset => {
                step_into(&mut kernel, &mut held, Event::Reset, &context);
                held.clear();
            }
        }
        check(&kernel, &held, m, &context);
    }
});

/// Steps the kernel and follows its decisions in `held`.
fn step_into(
    kernel: &mut Kernel,
    held: &mut BTreeMap<u32, Held>,
    event: Event,
    context: &str,
) -> (Outcome, Vec<Decision>) {
    let mut decisions = Vec::new();
    let outcome = kernel.step(event, &mut |d| decisions.push(d));
    let request = match event {
        Event::Request(q) => Some(q),
        _ => None,
    };
    for decision in &decisions {
        match *decision {
            Decision::Accept { job, start } => {
                let q =
                    request.filter(|q| q.job == job).unwrap_or_else(|| panic!("{context}: accept of {job}"));
                let ready = if q.kind == RequestKind::RelaxedStart { q.t } else { q.ready };
                let entry = Held { ready, deadline: q.deadline, estimate: q.estimate, start, fixed: false };
                assert!(held.insert(job, entry).is_none(), "{context}: job {job} accepted twice");
            }
            Decision::Replan { job, start } => {
                let h = held.get_mut(&job).unwrap_or_else(|| panic!("{context}: replan of {job}, not held"));
                assert!(!h.fixed, "{context}: fixed job {job} moved");
                h.start = start;
            }
            Decision::Fix { job, .. } => {
                held.get_mut(&job).unwrap_or_else(|| panic!("{context}: fix of {job}, not held")).fixed =
                    true;
            }
            Decision::Start { t, job } => {
                let h = held.get_mut(&job).unwrap_or_else(|| panic!("{context}: start of {job}, not held"));
                assert_eq!(t, h.start, "{context}: job {job} started away from its planned start");
                h.fixed = true;
            }
            Decision::End { job, .. } => {
                held.remove(&job).unwrap_or_else(|| panic!("{context}: end of {job}, not held"));
            }
            Decision::Reject { .. } | Decision::Offer { .. } => {}
        }
    }
    (outcome, decisions)
}

/// Every held job is still in the kernel, inside its window; no slot overcommitted.
fn check(kernel: &Kernel, held: &BTreeMap<u32, Held>, m: u32, context: &str) {
    let plan = kernel.plan();
    let now = kernel.now();
    for (&job, h) in held {
        assert!(
            h.start >= h.ready && h.start + h.estimate <= h.deadline,
            "{context}: job {job} placed at {} outside [{}, {}]",
            h.start,
            h.ready,
            h.deadline
        );
        if let Some(w) = plan.waiting().iter().find(|w| w.job == job) {
            assert_eq!(w.start, h.start, "{context}: job {job} waits at another start than announced");
            assert!(w.start >= now, "{context}: job {job} waits for a start in the past");
        } else {
            let r = plan.running().iter().find(|r| r.job == job);
            let r = r.unwrap_or_else(|| panic!("{context}: accepted job {job} was dropped"));
            assert_eq!(r.start, h.start, "{context}: job {job} runs from another start");
        }
    }
    let slot = plan.slot();
    let calendar = plan.calendar();
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
        assert!(used <= u64::from(m), "{context}: slot {a} holds {used} of {m} nodes");
        if let Some(free) = calendar.free(a) {
            assert!(
                u64::from(free) <= u64::from(m) - used,
                "{context}: slot {a} has {free} free, {used} held"
            );
        }
    }
}
