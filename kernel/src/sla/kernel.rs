//! The SLA kernel: one slot calendar of the machine's nodes and the pending batch,
//! driven one event at a time.

use heapless::Vec;

use super::event::{Decision, Event, Outcome};
use super::types::{Config, ConfigError, Priority, RejectReason, Request};
use crate::calendar::{Calendar, CalendarError, Slot, SlotLength};
use crate::contract;
use crate::panic_free;
use crate::types::Tick;

#[cfg(debug_assertions)]
mod invariants;

/// A request waiting in the batch for the next plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pending {
    pub request: Request,
    /// The order's sort key (the priority, negated for `max`).
    pub key: Priority,
    /// Its submit index: requests queued since the last reset before it. Ties end here.
    pub index: u64,
}

/// The SLA kernel: a calendar of `H` slots and a pending batch of at most `B` requests.
/// See the [module documentation](super).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlaKernel<const H: usize, const B: usize> {
    config: Config,
    slot: SlotLength,
    /// `Δt` in slots.
    step_slots: u64,
    calendar: Calendar<H>,
    pending: Vec<Pending, B>,
    now: Tick,
    /// The submit index the next queued request gets.
    next_index: u64,
}

impl<const H: usize, const B: usize> contract::Kernel for SlaKernel<H, B> {
    #[cfg(debug_assertions)]
    fn check_invariants(&self) {
        self.assert_invariants();
    }

    const MODEL: &'static str = "sla";
    type Config = Config;
    type Event = Event;
    type Decision = Decision;
    type Outcome = Outcome;
    const CAPACITIES: &'static [(&'static str, usize)] = &[("calendar slots (H)", H), ("batch (B)", B)];

    fn config(&self) -> &Config {
        &self.config
    }

    fn dispatch<S: FnMut(Decision) + ?Sized>(&mut self, event: Event, sink: &mut S) -> Outcome {
        match event {
            Event::Reset { t } => self.reset(t, sink),
            _ if event.time() < self.now => {
                let reason = RejectReason::TimeWentBackwards;
                if let Event::Submit { request, .. } = event {
                    sink(Decision::Reject { job: request.job, reason });
                    return Outcome::Rejected(reason);
                }
                Outcome::Refused(reason)
            }
            Event::Submit { t, request } => {
                self.bring_to(t);
                self.submit(request, sink)
            }
            Event::Plan { t } => {
                self.bring_to(t);
                self.plan(sink)
            }
        }
    }
}

impl<const H: usize, const B: usize> SlaKernel<H, B> {
    /// A kernel at time zero with every slot free and an empty batch.
    pub fn new(config: Config) -> Result<Self, ConfigError> {
        const {
            assert!(H > 0, "the calendar needs at least one slot");
            assert!(B > 0 && B <= u32::MAX as usize, "the batch holds 1 to 2^32 - 1 requests");
        };
        // The pool and slot checks every calendar-based kernel makes (reservation, tiers,
        // sla); each returns its own `ConfigError`.
        if config.nodes == 0 {
            return Err(ConfigError::NoNodes);
        }
        let Some(slot) = SlotLength::new(config.slot_ticks) else {
            return Err(ConfigError::ZeroSlotLength);
        };
        let bad_step = ConfigError::BadStep { step_ticks: config.step_ticks, slot_ticks: config.slot_ticks };
        if config.step_ticks == 0 || config.step_ticks.checked_rem(config.slot_ticks) != Some(0) {
            return Err(bad_step);
        }
        let step_slots = config.step_ticks.checked_div(config.slot_ticks).ok_or(bad_step)?;
        if config.ticks_per_hour == 0 {
            return Err(ConfigError::ZeroTicksPerHour);
        }
        Ok(Self {
            config,
            slot,
            step_slots,
            calendar: Calendar::new(config.nodes),
            pending: Vec::new(),
            now: 0,
            next_index: 0,
        })
    }

    pub const fn config(&self) -> &Config {
        &self.config
    }

    pub const fn now(&self) -> Tick {
        self.now
    }

    /// The requests waiting for the next plan, in submit order.
    pub fn pending(&self) -> &[Pending] {
        &self.pending
    }

    /// The free nodes of each slot of the horizon.
    pub const fn calendar(&self) -> &Calendar<H> {
        &self.calendar
    }

    /// [`contract::Kernel::step`], callable without the trait in scope.
    pub fn step<S: FnMut(Decision) + ?Sized>(&mut self, event: Event, sink: &mut S) -> Outcome {
        contract::Kernel::step(self, event, sink)
    }

    /// Time moves to `t` (not before now); the calendar forgets the slots before `t`'s.
    fn bring_to(&mut self, t: Tick) {
        self.now = t;
        self.calendar.advance_to(self.slot.slot_of(t));
    }

    fn reset<S: FnMut(Decision) + ?Sized>(&mut self, t: Tick, sink: &mut S) -> Outcome {
        let mut dropped: u32 = 0;
        for p in &self.pending {
            sink(Decision::Reject { job: p.request.job, reason: RejectReason::Dropped });
            dropped = dropped.saturating_add(1);
        }
        self.pending.clear();
        self.calendar.reset();
        self.calendar.advance_to(self.slot.slot_of(t));
        self.now = t;
        self.next_index = 0;
        Outcome::Reset { dropped }
    }

    fn submit<S: FnMut(Decision) + ?Sized>(&mut self, request: Request, sink: &mut S) -> Outcome {
        let reason = if !request.valid(self.config.nodes) {
            RejectReason::Invalid
        } else {
            let index = self.next_index;
            let key = self.config.order.sort_key(&request, index, self.config.ticks_per_hour);
            match self.pending.push(Pending { request, key, index }) {
                Ok(()) => {
                    self.next_index = index.saturating_add(1);
                    return Outcome::Queued;
                }
                Err(_) => RejectReason::BatchFull,
            }
        };
        sink(Decision::Reject { job: request.job, reason });
        Outcome::Rejected(reason)
    }

    /// Sorts the batch by `(key, index)`, a unique key, then fits each request in turn.
    fn plan<S: FnMut(Decision) + ?Sized>(&mut self, sink: &mut S) -> Outcome {
        panic_free::sort_by_key(&mut self.pending, |p| (p.key, p.index));
        let (mut accepted, mut rejected) = (0u32, 0u32);
        // By index, copying one request at a time: the batch stays in place (moving it
        // out would put `B` requests on the stack) while the calendar changes.
        for i in 0..self.pending.len() {
            let Some(p) = self.pending.get(i).copied() else { break };
            let job = p.request.job;
            match self.fit(&p.request) {
                Ok(start) => {
                    accepted = accepted.saturating_add(1);
                    sink(Decision::Accept { job, start });
                }
                Err(reason) => {
                    rejected = rejected.saturating_add(1);
                    sink(Decision::Reject { job, reason });
                }
            }
        }
        self.pending.clear();
        Outcome::Planned { accepted, rejected }
    }

    /// The paper's single pass for one request at `now`: the first start `s = TS +
    /// k*Δt >= now` with `s + tD <= TF` whose slots all have `NCPU` nodes free is
    /// reserved.
    fn fit(&mut self, r: &Request) -> Result<Tick, RejectReason> {
        let step = self.config.step_ticks;
        // `valid` holds: `tD > 0`, `TS + tD <= TF`, so `latest >= TS`.
        let latest = r.tf.saturating_sub(r.td);
        let k0 = ceil_div(self.now.saturating_sub(r.ts), step);
        let first_start = k0.checked_mul(step).and_then(|d| r.ts.checked_add(d));
        let first_start = match first_start {
            Some(s) if s <= latest => s,
            _ => return Err(RejectReason::Late),
        };
        // Every start is `first_start` plus whole slots, so all occupy the same count.
        let (first_slot, n) = self.slot.span(first_start, first_start.saturating_add(r.td));
        let more = latest.saturating_sub(first_start).checked_div(step).unwrap_or(0);
        let last_slot = more.saturating_mul(self.step_slots).saturating_add(first_slot);
        let found = self.calendar.earliest_stepped(first_slot, last_slot, self.step_slots, r.ncpu, n);
        let slot = match found {
            Ok(slot) => slot,
            Err(CalendarError::NoRoom) if last_slot.saturating_add(n) <= self.calendar.end() => {
                return Err(RejectReason::NoRoom);
            }
            Err(CalendarError::NoRoom | CalendarError::OutOfHorizon) => return Err(RejectReason::Horizon),
            Err(CalendarError::BadRequest | CalendarError::OverRelease) => return Err(RejectReason::Invalid),
        };
        let k = slot.saturating_sub(first_slot).checked_div(self.step_slots).unwrap_or(0);
        let start = k.saturating_mul(step).saturating_add(first_start);
        self.calendar.reserve(slot, n, r.ncpu).map_err(|_| RejectReason::NoRoom)?;
        Ok(start)
    }

    /// The slots a start occupies, `floor(s / len) .. ceil((s + tD) / len)`, as the
    /// calendar rounds: `(first, count)`.
    pub const fn span(&self, start: Tick, td: Tick) -> (Slot, u64) {
        self.slot.span(start, start.saturating_add(td))
    }
}

/// `ceil(a / b)`, 0 for `b == 0` (never the case here: `Δt > 0`), with no panic path.
const fn ceil_div(a: u64, b: u64) -> u64 {
    match (a.checked_div(b), a.checked_rem(b)) {
        (Some(q), Some(0)) => q,
        (Some(q), Some(_)) => q.saturating_add(1),
        _ => 0,
    }
}
