//! Seeded property tests of the reservation kernel: random requests, advances and
//! finishes, with the kernel's promises checked after every step.
//!
//! - The calendar is exactly the sum of what is held: every slot's free capacity is
//!   `m` minus the nodes of the waiting, running and ended reservations that overlap it
//!   (an ended job keeps the slot it ended in), so no slot is ever overcommitted.
//! - The kernel's waiting and running sets are exactly the accepted, unended jobs, as
//!   the decisions described them: every accepted reservation stays placed inside its
//!   window until it runs, starts at the start last announced, and runs inside its
//!   window. Fixed ones never move.
//! - A rejection leaves the state equal (`==`) to the state before it.
//! - Every offer, requested at once, is accepted with the offered start.
//! - Every request gets exactly the answer of a plain reference of Algorithms 1 and 2
//!   (`replay::model::reservation::reference`): the same start and the same moves, or
//!   the same reason and the same offers in the same order.
//!
//! To follow one case: `SEED=4 TRACE=1 cargo test -p admission-kernel --test
//! reservation_props -- --nocapture` prints its events and decisions.

mod support;

use support::Rng;

use std::collections::BTreeMap;

use replay::model::reservation::reference::{Answer, ReservationReference};

use kernel::Tick;
use kernel::calendar::SlotLength;
use kernel::reservation::{
    Config, Criterion, Decision, Event, Fixing, Outcome, RejectReason, Request, RequestKind,
    ReservationKernel,
};

type Kernel = ReservationKernel<48, 12, 12, 3>;
const HORIZON_SLOTS: u64 = 48;
const OFFERS: usize = 3;

/// What the decisions said about one accepted job.
#[derive(Clone, Copy, Debug)]
struct Job {
    nodes: u32,
    estimate: Tick,
    ready: Tick,
    deadline: Tick,
    planned: Tick,
    started: Option<Tick>,
    fixed: bool,
}

/// The test's own account of the run, built from the decisions alone.
struct World {
    kernel: Kernel,
    m: u32,
    slot: SlotLength,
    jobs: BTreeMap<u32, Job>,
    /// Ended jobs still holding slots: `(nodes, start, stop)`, slots
    /// `floor(start / len) .. ceil(stop / len)`.
    ghosts: Vec<(u32, Tick, Tick)>,
    next_job: u32,
    /// Small jobs in quick succession, to fill the waiting queue.
    busy: bool,
    early: u64,
    cut: u64,
    seen: BTreeMap<String, u32>,
}

impl World {
    fn new(rng: &mut Rng) -> Self {
        let m = 1 + rng.below(6) as u32;
        let slot_ticks = rng.pick(&[1, 3, 10]);
        let criterion = rng.pick(&[
            Criterion::Fifo,
            Criterion::Edf,
            Criterion::LeastFlexibleFirst,
            Criterion::BiggestJobFirst,
            Criterion::Shuffle,
        ]);
        let fixing = rng.pick(&[
            Fixing::Never,
            Fixing::AtAcceptance,
            Fixing::Quarter,
            Fixing::Half,
            Fixing::ThreeQuarters,
        ]);
        let offer_trials = rng.pick(&[0, 4, 16]);
        let config = Config { nodes: m, slot_ticks, criterion, fixing, offer_trials };
        Self {
            kernel: Kernel::new(config).unwrap(),
            m,
            slot: SlotLength::new(slot_ticks).unwrap(),
            jobs: BTreeMap::new(),
            ghosts: Vec::new(),
            next_job: 0,
            busy: rng.chance(33),
            early: 0,
            cut: 0,
            seen: BTreeMap::new(),
        }
    }

    fn unit(&self) -> Tick {
        self.slot.ticks()
    }

    fn now(&self) -> Tick {
        self.kernel.now()
    }

    fn random_request(&mut self, rng: &mut Rng, t: Tick) -> Request {
        let unit = self.unit();
        let job = if rng.chance(4) && !self.jobs.is_empty() {
            *self.jobs.keys().nth(rng.below(self.jobs.len() as u64) as usize).unwrap()
        } else {
            self.next_job += 1;
            self.next_job
        };
        let nodes = match rng.below(100) {
            0..=2 => 0,
            3..=5 => self.m + 1,
            _ if self.busy => 1,
            _ => 1 + rng.below(u64::from(self.m)) as u32,
        };
        let longest = if self.busy { unit } else { 6 * unit };
        let estimate = if rng.chance(3) { 0 } else { 1 + rng.below(longest) };
        let far = if rng.chance(5) { 40 * unit } else { 0 };
        let ready = t.saturating_sub(rng.below(2 * unit)) + rng.below(20 * unit) + far;
        let kind = rng.pick(&[RequestKind::Strict, RequestKind::RelaxedStart, RequestKind::Flexible]);
        let mut deadline = match kind {
            RequestKind::Strict => ready + estimate,
            RequestKind::Flexible => ready + estimate + 1 + rng.below(15 * unit),
            RequestKind::RelaxedStart => t + estimate + rng.below(25 * unit),
        };
        match rng.below(100) {
            // Too short for the estimate.
            0..=2 => deadline = deadline.saturating_sub(1),
            // A strict window with room to spare, a flexible one without.
            3..=4 if kind == RequestKind::Strict => deadline += 1,
            3..=4 if kind == RequestKind::Flexible => deadline = ready + estimate,
            _ => {}
        }
        let ready = if kind == RequestKind::RelaxedStart { rng.next() % 1000 } else { ready };
        Request { t, job, nodes, estimate, ready, deadline, kind, shuffle_key: rng.next() as u32 }
    }

    /// Runs one event through the kernel, checks its decisions one by one against the
    /// account, and returns the outcome and the decisions.
    fn step(&mut self, event: Event) -> (Outcome, Vec<Decision>) {
        let before_now = self.now();
        let mut decisions = Vec::new();
        let outcome = self.kernel.step(event, &mut |d| decisions.push(d));
        if std::env::var_os("TRACE").is_some() {
            eprintln!("{event:?} -> {outcome:?} {decisions:?}");
        }
        let t = event.time().unwrap_or(0).max(before_now);
        let mut last = before_now;
        for &d in &decisions {
            self.apply(d, &event, t, &mut last);
        }
        *self
            .seen
            .entry(format!("{outcome:?}").split(['{', '(']).next().unwrap().trim().to_string())
            .or_default() += 1;
        if let Outcome::Rejected { reason, .. } | Outcome::Refused(reason) = outcome {
            *self.seen.entry(reason.name().to_string()).or_default() += 1;
        }
        (outcome, decisions)
    }

    fn apply(&mut self, d: Decision, event: &Event, t: Tick, last: &mut Tick) {
        let kind = match d {
            Decision::Accept { .. } => "Accept",
            Decision::Reject { .. } => "Reject",
            Decision::Offer { .. } => "Offer",
            Decision::Replan { .. } => "Replan",
            Decision::Fix { .. } => "Fix",
            Decision::Start { .. } => "Start",
            Decision::End { cut: true, .. } => "End cut",
            Decision::End { early: true, .. } => "End early",
            Decision::End { .. } => "End on time",
        };
        *self.seen.entry(kind.to_string()).or_default() += 1;
        let mut at = |time: Tick| {
            assert!(time >= *last && time <= t, "{d:?} out of time order ({last}..={t})");
            *last = time;
        };
        match d {
            Decision::Accept { job, start } => {
                let Event::Request(q) = *event else { panic!("{d:?} without a request") };
                assert_eq!(q.job, job);
                let ready = if q.kind == RequestKind::RelaxedStart { q.t } else { q.ready };
                let j = Job {
                    nodes: q.nodes,
                    estimate: q.estimate,
                    ready,
                    deadline: q.deadline,
                    planned: start,
                    started: None,
                    fixed: false,
                };
                assert!(start >= ready.max(t) && start + q.estimate <= q.deadline, "{d:?} outside {q:?}");
                assert!(self.jobs.insert(job, j).is_none(), "{d:?}: job already held");
            }
            Decision::Replan { job, start } => {
                let j = self.jobs.get_mut(&job).expect("replan of an unknown job");
                assert!(j.started.is_none() && !j.fixed, "{d:?} moved a started or fixed job");
                assert!(start >= j.ready.max(t) && start + j.estimate <= j.deadline, "{d:?} outside {j:?}");
                j.planned = start;
            }
            Decision::Fix { t: time, job } => {
                at(time);
                let j = self.jobs.get_mut(&job).expect("fix of an unknown job");
                assert!(j.started.is_none() && !j.fixed && time < j.planned, "{d:?} for {j:?}");
                j.fixed = true;
            }
            Decision::Start { t: time, job } => {
                at(time);
                let j = self.jobs.get_mut(&job).expect("start of an unknown job");
                assert!(j.started.is_none() && time == j.planned, "{d:?} for {j:?}");
                assert!(time >= j.ready && time + j.estimate <= j.deadline, "{d:?} outside its window {j:?}");
                j.started = Some(time);
            }
            Decision::End { t: time, job, early, cut } => {
                at(time);
                let j = self.jobs.remove(&job).expect("end of an unknown job");
                let start = j.started.expect("end of a job that never started");
                let end = start + j.estimate;
                assert!(time >= start && time <= end && time <= j.deadline, "{d:?} for {j:?}");
                assert_eq!(early, time < end, "{d:?}");
                assert!(!cut || (time == end && !early), "{d:?}");
                if cut {
                    assert!(t > end, "{d:?} cut before time passed its end");
                    self.cut += 1;
                } else {
                    let Event::Finish { job: finished, .. } = *event else {
                        panic!("{d:?} without a finish")
                    };
                    assert_eq!(finished, job);
                }
                self.early += u64::from(early);
                self.ghosts.push((j.nodes, start, time));
            }
            Decision::Reject { job, .. } | Decision::Offer { job, .. } => {
                let Event::Request(q) = *event else { panic!("{d:?} without a request") };
                assert_eq!(q.job, job);
            }
        }
    }

    /// The kernel's state is exactly the account: the same jobs in the same places,
    /// and a calendar that holds exactly their nodes.
    fn check_state(&mut self, context: &str) {
        let now = self.now();
        let plan = self.kernel.plan();
        let waiting: BTreeMap<_, _> = plan.waiting().iter().map(|r| (r.job, *r)).collect();
        let running: BTreeMap<_, _> = plan.running().iter().map(|r| (r.job, *r)).collect();
        assert_eq!(waiting.len() + running.len(), self.jobs.len(), "{context}: held jobs");
        for (job, j) in &self.jobs {
            match j.started {
                None => {
                    let r = waiting.get(job).unwrap_or_else(|| panic!("{context}: job {job} is not waiting"));
                    assert_eq!(
                        (r.start, r.fixed, r.ready, r.deadline),
                        (j.planned, j.fixed, j.ready, j.deadline)
                    );
                    assert_eq!((r.nodes, r.estimate), (j.nodes, j.estimate));
                    assert!(r.start > now && r.start >= r.ready, "{context}: {r:?} at {now}");
                    assert!(r.start + r.estimate <= r.deadline, "{context}: {r:?}");
                }
                Some(start) => {
                    let r = running.get(job).unwrap_or_else(|| panic!("{context}: job {job} is not running"));
                    assert_eq!((r.start, r.end, r.nodes), (start, start + j.estimate, j.nodes), "{context}");
                    assert!(r.end >= now, "{context}: {r:?} should have been cut by {now}");
                }
            }
        }
        let calendar = plan.calendar();
        let (base, end) = (calendar.base(), calendar.end());
        assert_eq!(base, self.slot.slot_of(now), "{context}: horizon base");
        self.ghosts.retain(|&(_, _, stop)| self.slot.slot_at_or_after(stop) > base);
        let held = self
            .jobs
            .values()
            .map(|j| {
                let start = j.started.unwrap_or(j.planned);
                (j.nodes, start, start + j.estimate)
            })
            .chain(self.ghosts.iter().copied());
        let mut used = vec![0u32; (end - base) as usize];
        for (nodes, start, stop) in held {
            let (first, n) = self.slot.span(start, stop);
            for slot in first.max(base)..(first + n).min(end) {
                used[(slot - base) as usize] += nodes;
            }
        }
        for (slot, &used) in (base..).zip(&used) {
            assert!(used <= self.m, "{context}: slot {slot} overcommitted: {used} > {}", self.m);
            assert_eq!(calendar.free(slot), Some(self.m - used), "{context}: slot {slot}");
        }
        assert_eq!(
            (self.kernel.counters().early, self.kernel.counters().cut),
            (self.early, self.cut),
            "{context}"
        );
    }

    /// A request at the current time: a rejection must leave the state as it was, and
    /// every offer must be accepted as offered.
    fn request(&mut self, q: Request, context: &str) {
        let before = self.kernel.clone();
        let reference = ReservationReference::of(&self.kernel).request(&q);
        let (outcome, decisions) = self.step(Event::Request(q));
        self.compare(&reference, outcome, &decisions, context);
        match outcome {
            Outcome::Accepted { start } => {
                assert_eq!(decisions.first(), Some(&Decision::Accept { job: q.job, start }))
            }
            Outcome::Rejected { reason, offers } => {
                assert_eq!(self.kernel, before, "{context}: a rejection ({reason}) changed the state");
                assert_eq!(decisions.first(), Some(&Decision::Reject { job: q.job, reason }));
                assert_eq!(decisions.len(), 1 + usize::from(offers), "{context}");
                assert!(usize::from(offers) <= OFFERS);
                assert!(offers == 0 || reason == RejectReason::NoRoom);
                for &offer in &decisions[1..] {
                    self.check_offer(q, offer, context);
                }
            }
            other => panic!("{context}: {other:?} for a request"),
        }
    }

    /// The kernel's answer is the reference's: the same start and the same moves, or
    /// the same reason and the same offers.
    fn compare(&self, reference: &Answer, outcome: Outcome, decisions: &[Decision], context: &str) {
        let answer =
            Answer::of(outcome, decisions).unwrap_or_else(|| panic!("{context}: {outcome:?} for a request"));
        assert_eq!(&answer, reference, "{context}: the kernel and the reference disagree");
    }

    fn check_offer(&mut self, q: Request, offer: Decision, context: &str) {
        let Decision::Offer { ready, deadline, start, .. } = offer else {
            panic!("{offer:?} is not an offer")
        };
        *self.seen.entry("offer".to_string()).or_default() += 1;
        let mut again = self.kernel.clone();
        let retry = Request { ready, deadline, ..q };
        let outcome = again.step(Event::Request(retry), &mut |_| {});
        assert_eq!(outcome, Outcome::Accepted { start }, "{context}: {offer:?} was not accepted as offered");
    }

    fn finish(&mut self, rng: &mut Rng) -> Event {
        let running: Vec<_> =
            self.jobs.iter().filter_map(|(&job, j)| Some((job, j.started? + j.estimate))).collect();
        if running.is_empty() || rng.chance(10) {
            return Event::Finish {
                t: self.now() + rng.below(3),
                job: rng.below(u64::from(self.next_job) + 2) as u32,
            };
        }
        let (job, end) = rng.pick(&running);
        let t = self.now() + rng.below(end.saturating_sub(self.now()) + 3);
        Event::Finish { t, job }
    }
}

fn run_case(seed: u64, steps: usize, seen: &mut BTreeMap<String, u32>) {
    let mut rng = Rng(seed);
    let mut world = World::new(&mut rng);
    for step in 0..steps {
        let context = format!("seed {seed}, step {step}");
        let now = world.now();
        let roll = if world.busy && rng.chance(60) { 0 } else { rng.below(100) };
        match roll {
            0..=44 => {
                // Bring time to the request first, so that its rejection can be
                // compared with the state just before it.
                let t = if world.busy { now } else { now + rng.below(3 * world.unit()) };
                world.step(Event::Advance { t });
                world.check_state(&context);
                let q = world.random_request(&mut rng, t);
                world.request(q, &context);
            }
            45..=74 => {
                world.step(Event::Advance { t: now + rng.below(5 * world.unit()) });
            }
            75..=94 => {
                let event = world.finish(&mut rng);
                let Event::Finish { job, .. } = event else { unreachable!() };
                let (outcome, decisions) = world.step(event);
                let finished = decisions
                    .iter()
                    .any(|d| matches!(d, Decision::End { job: j, cut: false, .. } if *j == job));
                assert_eq!(outcome == Outcome::Finished, finished, "{context}: {outcome:?} {decisions:?}");
            }
            95..=98 if now > 0 => {
                let before = world.kernel.clone();
                let t = now - 1 - rng.below(now);
                let event = match rng.below(3) {
                    0 => Event::Advance { t },
                    1 => Event::Finish { t, job: 1 },
                    _ => Event::Request(world.random_request(&mut rng, t)),
                };
                let (outcome, _) = world.step(event);
                let reason = RejectReason::TimeWentBackwards;
                assert!(
                    matches!(outcome, Outcome::Refused(r) | Outcome::Rejected { reason: r, .. } if r == reason)
                );
                assert_eq!(world.kernel, before, "{context}: a refused event changed the state");
            }
            _ => {
                assert_eq!(world.step(Event::Reset).0, Outcome::Reset);
                world.jobs.clear();
                world.ghosts.clear();
                (world.early, world.cut) = (0, 0);
            }
        }
        world.check_state(&context);
    }
    // Run everything out: every accepted reservation starts, inside its window, and ends.
    let far = world.now() + 2 * HORIZON_SLOTS * world.unit() + 1;
    world.step(Event::Advance { t: far });
    world.check_state(&format!("seed {seed}, drained"));
    assert!(world.jobs.is_empty(), "seed {seed}: left over {:?}", world.jobs);
    for (key, count) in world.seen {
        *seen.entry(key).or_default() += count;
    }
}

#[test]
fn the_kernel_keeps_its_promises() {
    let mut seen = BTreeMap::new();
    let only: Option<u64> = std::env::var("SEED").ok().map(|s| s.parse().unwrap());
    for seed in (0..400).filter(|s| only.is_none_or(|o| o == *s)) {
        run_case(seed, 150, &mut seen);
    }
    if std::env::var_os("TRACE").is_some() {
        eprintln!("{seen:?}");
    }
    // The cases reach every outcome and every reason the generator aims at.
    for key in [
        "Accepted",
        "Rejected",
        "Advanced",
        "Finished",
        "Refused",
        "Reset",
        "Replan",
        "Fix",
        "Start",
        "End cut",
        "End early",
        "End on time",
        "offer",
        "time_went_backwards",
        "zero_nodes",
        "too_many_nodes",
        "zero_estimate",
        "window_too_short",
        "kind_mismatch",
        "window_passed",
        "duplicate_job",
        "queue_full",
        "beyond_horizon",
        "no_room",
        "not_running",
    ] {
        let count = seen.get(key).copied().unwrap_or(0);
        assert!(count >= 20, "{key} seen {count} times: {seen:?}");
    }
}
