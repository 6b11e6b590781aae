//! The reservation kernel: a pool of nodes, its calendar and reservations, driven one
//! event at a time.

use serde::{Deserialize, Serialize};

use super::criteria::{Criterion, Fixing};
use super::event::{Decision, Event, Outcome};
use super::offers;
use super::plan::{Attempt, Plan};
use super::request::{RejectReason, Request, Reservation};
use crate::calendar::SlotLength;
use crate::contract;
use crate::types::{JobId, Tick};

mod due;
#[cfg(debug_assertions)]
mod invariants;

use due::{due_of, earliest_due};

/// Everything that shapes the kernel's decisions besides its capacities.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Config {
    /// `m`, the nodes of the pool; at least 1, and `2 m <= RUN` (see [`ConfigError`]).
    pub nodes: u32,
    /// The length of a calendar slot in ticks; at least 1.
    pub slot_ticks: Tick,
    /// The order of the waiting queue for re-planning.
    pub criterion: Criterion,
    /// When waiting reservations are frozen in place.
    pub fixing: Fixing,
    /// At most this many alternative windows are tested per rejection (each test is
    /// an admission attempt); 0 turns offers off.
    pub offer_trials: u16,
}

impl Config {
    /// A pool of `nodes` nodes with `slot_ticks`-tick slots, EDF (the paper's best
    /// criterion), no fixing before the start, and up to 16 offer tests.
    pub const fn new(nodes: u32, slot_ticks: Tick) -> Self {
        Self { nodes, slot_ticks, criterion: Criterion::Edf, fixing: Fixing::Never, offer_trials: 16 }
    }
}

/// Why a configuration cannot build a kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum ConfigError {
    NoNodes,
    ZeroSlotLength,
    /// The running set must hold `2 m` jobs: the jobs that contain the current tick
    /// (at most `m`, one node each at least) and the jobs whose reservation ends exactly
    /// now and may still report an on-time finish (at most `m` more).
    RunningTooSmall {
        nodes: u32,
        capacity: usize,
    },
}

impl core::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            Self::NoNodes => write!(f, "the pool needs at least one node"),
            Self::ZeroSlotLength => write!(f, "a slot must be at least one tick long"),
            Self::RunningTooSmall { nodes, capacity } => {
                write!(f, "{nodes} nodes need room for 2 x {nodes} running jobs, the kernel has {capacity}")
            }
        }
    }
}

/// What the kernel counts. Only ends change these, so a rejection leaves them equal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Counters {
    /// Jobs that finished before the end of their reservation.
    pub early: u64,
    /// Jobs that ran past their estimate and were cut at the end of their reservation.
    pub cut: u64,
}

/// The reservation kernel: `H` calendar slots, `W` waiting reservations, `RUN` running
/// ones, up to `OFFERS` offers per rejection. See the [module documentation](super).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReservationKernel<const H: usize, const W: usize, const RUN: usize, const OFFERS: usize> {
    config: Config,
    plan: Plan<H, W, RUN>,
    now: Tick,
    /// The acceptance number the next accepted request gets.
    next_seq: u64,
    counters: Counters,
    /// The earliest instant at which a cut, a fix or a start can fall due: the least
    /// of the running jobs' ends, the waiting entries' starts and the fix times of
    /// those still to be fixed (see [`earliest_due`]), `Tick::MAX` with none. Kept
    /// equal to that function of the plan after every event, so that an event before
    /// it skips the scan of both sets.
    due: Tick,
}

impl<const H: usize, const W: usize, const RUN: usize, const OFFERS: usize> contract::Kernel
    for ReservationKernel<H, W, RUN, OFFERS>
{
    #[cfg(debug_assertions)]
    fn check_invariants(&self) {
        self.assert_invariants();
    }

    const MODEL: &'static str = "reservation";
    type Config = Config;
    type Event = Event;
    type Decision = Decision;
    type Outcome = Outcome;
    const CAPACITIES: &'static [(&'static str, usize)] = &[
        ("calendar slots (H)", H),
        ("waiting reservations (W)", W),
        ("running reservations (RUN)", RUN),
        ("offers per rejection (OFFERS)", OFFERS),
    ];

    fn config(&self) -> &Config {
        &self.config
    }

    // Every model's `dispatch` refuses time going backwards the same way; each keeps
    // its own `Event`, `Outcome` and `RejectReason`, so the lines are alike but not shared.
    fn dispatch<S: FnMut(Decision) + ?Sized>(&mut self, event: Event, sink: &mut S) -> Outcome {
        match event {
            Event::Request(request) => self.request(request, sink),
            Event::Advance { t } => {
                if t < self.now {
                    return Outcome::Refused(RejectReason::TimeWentBackwards);
                }
                self.advance(t, sink);
                Outcome::Advanced
            }
            Event::Finish { t, job } => self.finish(t, job, sink),
            Event::Reset => {
                self.plan.reset();
                self.now = 0;
                self.next_seq = 0;
                self.counters = Counters::default();
                self.due = Tick::MAX;
                Outcome::Reset
            }
        }
    }
}

impl<const H: usize, const W: usize, const RUN: usize, const OFFERS: usize>
    ReservationKernel<H, W, RUN, OFFERS>
{
    /// A kernel at time zero with every slot free.
    pub fn new(config: Config) -> Result<Self, ConfigError> {
        const {
            assert!(H > 0, "the calendar needs at least one slot");
            assert!(W > 0 && W <= 1 << 16, "the waiting capacity must be in 1..=2^16 (u16 plan indices)");
            assert!(RUN > 0, "the running set needs room for at least one job");
            assert!(OFFERS <= u8::MAX as usize, "offers are counted in a u8");
        };
        if config.nodes == 0 {
            return Err(ConfigError::NoNodes);
        }
        let Some(slot) = SlotLength::new(config.slot_ticks) else {
            return Err(ConfigError::ZeroSlotLength);
        };
        let needed = usize::try_from(config.nodes).ok().and_then(|m| m.checked_mul(2));
        if needed.is_none_or(|needed| needed > RUN) {
            return Err(ConfigError::RunningTooSmall { nodes: config.nodes, capacity: RUN });
        }
        Ok(Self {
            config,
            plan: Plan::new(config.nodes, slot),
            now: 0,
            next_seq: 0,
            counters: Counters::default(),
            due: Tick::MAX,
        })
    }

    pub const fn config(&self) -> &Config {
        &self.config
    }

    /// The time of the last event.
    pub const fn now(&self) -> Tick {
        self.now
    }

    /// The calendar, waiting and running reservations.
    pub const fn plan(&self) -> &Plan<H, W, RUN> {
        &self.plan
    }

    pub const fn counters(&self) -> Counters {
        self.counters
    }

    /// [`contract::Kernel::step`], callable without the trait in scope.
    pub fn step<S: FnMut(Decision) + ?Sized>(&mut self, event: Event, sink: &mut S) -> Outcome {
        contract::Kernel::step(self, event, sink)
    }

    fn request<S: FnMut(Decision) + ?Sized>(&mut self, request: Request, sink: &mut S) -> Outcome {
        let job = request.job;
        if request.t < self.now {
            return reject(job, RejectReason::TimeWentBackwards, sink);
        }
        self.advance(request.t, sink);
        let entry = match self.validate(&request) {
            Ok(entry) => entry,
            Err(reason) => return reject(job, reason, sink),
        };
        if self.plan.push_waiting(entry).is_err() {
            return reject(job, RejectReason::QueueFull, sink);
        }
        // The common case needs no working memory (its `W` trial starts cost a fill of
        // `8 W` bytes a request).
        if let Some(start) = self.plan.admit_at_once(self.now, self.config.criterion) {
            return self.accept(job, start, None, sink);
        }
        let mut attempt = Attempt::new();
        match self.plan.attempt(self.now, self.config.criterion, &mut attempt) {
            Ok(start) => self.accept(job, start, Some(&attempt), sink),
            Err(reason) => {
                sink(Decision::Reject { job, reason });
                let offers =
                    if reason == RejectReason::NoRoom { self.offers(job, &mut attempt, sink) } else { 0 };
                self.plan.pop_waiting();
                Outcome::Rejected { reason, offers }
            }
        }
    }

    /// The checks a request passes before it is planned, and its waiting entry.
    fn validate(&self, request: &Request) -> Result<Reservation, RejectReason> {
        let (ready, deadline) = request.window(self.config.nodes)?;
        let earliest = ready.max(self.now);
        if earliest.saturating_add(request.estimate) > deadline {
            return Err(RejectReason::WindowPassed);
        }
        if self.plan.holds(request.job) {
            return Err(RejectReason::DuplicateJob);
        }
        Ok(Reservation {
            job: request.job,
            seq: self.next_seq,
            nodes: request.nodes,
            estimate: request.estimate,
            ready,
            deadline,
            kind: request.kind,
            shuffle_key: request.shuffle_key,
            start: earliest,
            fix_at: Tick::MAX,
            fixed: false,
        })
    }

    /// Keeps a successful attempt (`None`: an admission at once, which moved nothing)
    /// for the new (last) waiting entry: `Accept`, then a
    /// `Replan` for every other entry that moved, in plan order, then whatever starts
    /// or is fixed now.
    fn accept<S: FnMut(Decision) + ?Sized>(
        &mut self,
        job: JobId,
        start: Tick,
        attempt: Option<&Attempt<W>>,
        sink: &mut S,
    ) -> Outcome {
        let new = self.plan.waiting().len().saturating_sub(1);
        sink(Decision::Accept { job, start });
        let mut replanned = false;
        if let Some(attempt) = attempt {
            self.plan.commit(attempt, |index, r| {
                if index != new {
                    replanned = true;
                    sink(Decision::Replan { job: r.job, start: r.start });
                }
            });
        }
        if let Some(r) = self.plan.waiting_mut(new) {
            r.start = start;
            r.fix_at = self.config.fixing.fix_at(self.now, start);
            self.due = self.due.min(due_of(r));
        }
        if replanned {
            // A moved entry may have held the earliest instant.
            self.due = earliest_due(&self.plan);
        }
        self.next_seq = self.next_seq.saturating_add(1);
        self.run_due(self.now, sink);
        Outcome::Accepted { start }
    }

    fn offers<S: FnMut(Decision) + ?Sized>(
        &mut self,
        job: JobId,
        attempt: &mut Attempt<W>,
        sink: &mut S,
    ) -> u8 {
        let limits = (OFFERS, self.config.offer_trials);
        offers::find(&mut self.plan, attempt, self.now, self.config.criterion, limits, |offer| {
            sink(Decision::Offer { job, ready: offer.ready, deadline: offer.deadline, start: offer.start });
        })
    }

    fn finish<S: FnMut(Decision) + ?Sized>(&mut self, t: Tick, job: JobId, sink: &mut S) -> Outcome {
        if t < self.now {
            return Outcome::Refused(RejectReason::TimeWentBackwards);
        }
        self.advance(t, sink);
        let Some(running) = self.plan.end(job, t) else {
            return Outcome::Refused(RejectReason::NotRunning);
        };
        if running.end == self.due {
            self.due = earliest_due(&self.plan);
        }
        let early = t < running.end;
        if early {
            self.counters.early = self.counters.early.saturating_add(1);
        }
        sink(Decision::End { t, job, early, cut: false });
        Outcome::Finished
    }

    fn advance<S: FnMut(Decision) + ?Sized>(&mut self, t: Tick, sink: &mut S) {
        self.run_due(t, sink);
        self.now = t;
        self.plan.advance_calendar(t);
    }
}

fn reject<S: FnMut(Decision) + ?Sized>(job: JobId, reason: RejectReason, sink: &mut S) -> Outcome {
    sink(Decision::Reject { job, reason });
    Outcome::Rejected { reason, offers: 0 }
}
