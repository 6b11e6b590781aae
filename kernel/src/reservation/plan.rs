//! The plan: the calendar, the waiting queue and the running set, and the paper's
//! Algorithm 1, admission with re-planning and `fixqueue`.
//!
//! # Algorithm 1, as implemented
//! The new reservation is appended to the waiting queue, the queue is sorted by the
//! criterion into a *plan order*, and from the new one's position `k` onward every
//! movable (not fixed) reservation is taken out of the calendar and placed again,
//! first fit, in plan order. Reservations before `k`, fixed ones and running ones stay.
//! If the reservation at position `q > k` cannot be placed, `fixqueue`: the placements
//! of positions `k..q` are taken back, every reservation before `q` returns to its
//! previous start, the new one and the one at `q` swap places, and placing resumes
//! at `q` with the new one. If the new one cannot be placed, every reservation is put
//! back where it was and the request is rejected. A reservation therefore only ever
//! moves to a start that is free and inside its window: admission never breaks one.
//!
//! [`Plan::attempt`] first tries the shortcut of `plan/lazy.rs`, which reaches this
//! algorithm's answer without taking out the entries the new one cannot disturb, and
//! runs the algorithm as written ([`Plan::attempt_full`]) when it cannot.
//!
//! # Cost
//! The position of the new reservation only moves forward, so one admission places at
//! most `3 W` reservations: each failed position is placed twice (once failing, once
//! after the swap) and each other position once per pass that reaches it, at most
//! twice. A placement is one [`Calendar::fits`], one [`Calendar::earliest`] and one
//! reservation; taking one back is a release. Each is `O(64 + n / 64)` for a run of `n`
//! slots (the search that per obstacle met; see [`crate::calendar`]). With the sort,
//! an admission costs `O(W log W)` and at most `3 W` such placements and releases, or
//! `W - k` when the first pass succeeds.
//!
//! # Undo, not copy
//! Nothing is copied to be restored: every placement of the attempt is taken back and
//! every previous reservation re-made, so a rejected request leaves the
//! calendar exactly as it was (the property tests compare the whole state with `==`).
//! The working memory of an attempt, `Attempt`, lives on the caller's stack:
//! `10 W + 24` bytes (the plan order as `u16` indices and a trial start per entry),
//! one per request, which the offers reuse; a request admitted at once at its
//! window's first start (`Plan::admit_at_once`, see `plan/lazy.rs`) needs none.

use heapless::Vec;

use super::criteria::Criterion;
use super::request::{RejectReason, Reservation, Running};
use crate::calendar::{Calendar, CalendarError, SlotLength};
use crate::panic_free;
use crate::types::{JobId, Tick};

mod lazy;

/// The kernel's reservations and the calendar that holds them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan<const H: usize, const W: usize, const RUN: usize> {
    calendar: Calendar<H>,
    /// Accepted reservations that have not started, in acceptance order.
    waiting: Vec<Reservation, W>,
    /// Started reservations, in start order.
    running: Vec<Running, RUN>,
    slot: SlotLength,
    /// Beside each waiting entry: whether it may be *unsettled*, a start of its window
    /// before its own free in the calendar of what comes before it in plan order (see
    /// `plan/lazy.rs`). An early finish, which frees slots, marks every entry waiting
    /// then; an admission that needed `fixqueue` marks the new one.
    unsettled: Vec<bool, W>,
}

/// The working memory of one admission attempt.
#[derive(Debug)]
pub(super) struct Attempt<const W: usize> {
    /// Indices into the waiting queue, in plan order.
    order: Vec<u16, W>,
    /// The start each waiting entry has in the attempt (its current start until
    /// it is placed again).
    trial: [Tick; W],
    /// The new reservation's position in `order`.
    at: usize,
    /// The new reservation's start once placed.
    new_start: Tick,
}

impl<const W: usize> Attempt<W> {
    pub(super) const fn new() -> Self {
        const { assert!(W > 0 && W <= 1 << 16, "the waiting capacity must fit u16 indices") };
        Self { order: Vec::new(), trial: [0; W], at: 0, new_start: 0 }
    }

    /// The start the attempt gives waiting entry `index`.
    pub(super) fn start_of(&self, index: usize) -> Option<Tick> {
        self.trial.get(index).copied()
    }

    /// Waiting entry indices in plan order.
    pub(super) fn order(&self) -> impl Iterator<Item = usize> + '_ {
        self.order.iter().map(|&i| usize::from(i))
    }
}

impl<const W: usize> Default for Attempt<W> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const H: usize, const W: usize, const RUN: usize> Plan<H, W, RUN> {
    pub fn new(capacity: u32, slot: SlotLength) -> Self {
        const { assert!(RUN > 0, "the running set needs room for at least one job") };
        Self {
            calendar: Calendar::new(capacity),
            waiting: Vec::new(),
            running: Vec::new(),
            slot,
            unsettled: Vec::new(),
        }
    }

    pub fn calendar(&self) -> &Calendar<H> {
        &self.calendar
    }

    pub fn waiting(&self) -> &[Reservation] {
        &self.waiting
    }

    pub fn running(&self) -> &[Running] {
        &self.running
    }

    pub const fn slot(&self) -> SlotLength {
        self.slot
    }

    pub(super) fn reset(&mut self) {
        self.calendar.reset();
        self.waiting.clear();
        self.running.clear();
        self.unsettled.clear();
    }

    /// Whether `job` is waiting or running.
    pub fn holds(&self, job: JobId) -> bool {
        self.waiting.iter().any(|r| r.job == job) || self.running.iter().any(|r| r.job == job)
    }

    pub fn is_full(&self) -> bool {
        self.waiting.is_full()
    }

    /// Moves the calendar's horizon to start at the slot that contains `now`.
    pub(super) fn advance_calendar(&mut self, now: Tick) {
        self.calendar.advance_to(self.slot.slot_of(now));
    }

    /// The first-fit start of `r` in a plan made at `now`, given the calendar as it is:
    /// the earliest start in `[max(ready, now), deadline - estimate]` whose slots all
    /// have `r.nodes` free. The candidates are the window's first tick and then the slot
    /// boundaries after it: a start inside a slot uses the same slots as that slot's
    /// earliest candidate or more. `O(H)`.
    pub fn place(&self, r: &Reservation, now: Tick) -> Result<Tick, RejectReason> {
        let (lo, hi) = (r.earliest_start(now), r.latest_start());
        if lo > hi {
            return Err(RejectReason::WindowPassed);
        }
        let (first, n_first) = self.slot.span(lo, lo.saturating_add(r.estimate));
        match self.calendar.fits(first, n_first, r.nodes) {
            Ok(()) => return Ok(lo),
            // Every later start ends later: none fits in the horizon either.
            Err(CalendarError::OutOfHorizon) => return Err(RejectReason::BeyondHorizon),
            Err(_) => {}
        }
        let (from, to) = (first.saturating_add(1), self.slot.slot_of(hi));
        if from > to {
            return Err(RejectReason::NoRoom);
        }
        let (_, n) = self.slot.span(0, r.estimate);
        match self.calendar.earliest(from, to, r.nodes, n) {
            Ok(slot) => self.slot.start_of(slot).ok_or(RejectReason::NoRoom),
            Err(_) => Err(RejectReason::NoRoom),
        }
    }

    /// Appends a new reservation to the waiting queue; a full queue hands it back.
    pub(super) fn push_waiting(&mut self, r: Reservation) -> Result<(), Reservation> {
        self.waiting.push(r)?;
        // Both have the capacity `W` and the same length.
        let _ = self.unsettled.push(false);
        Ok(())
    }

    /// Removes the last waiting entry: the new reservation of a rejected request.
    pub(super) fn pop_waiting(&mut self) -> Option<Reservation> {
        self.unsettled.pop();
        self.waiting.pop()
    }

    pub(super) fn waiting_mut(&mut self, index: usize) -> Option<&mut Reservation> {
        self.waiting.get_mut(index)
    }

    /// Algorithm 1 for the last waiting entry, at `now`. On success it returns the new
    /// reservation's start, and the calendar holds the attempt's placements (see
    /// [`Attempt::start_of`]), to be kept with [`Self::commit`] or taken back with
    /// [`Self::withdraw`]; on failure the calendar is as it was and the reason is the
    /// new reservation's.
    pub(super) fn attempt(
        &mut self,
        now: Tick,
        criterion: Criterion,
        a: &mut Attempt<W>,
    ) -> Result<Tick, RejectReason> {
        if let Some(result) = self.attempt_lazy(now, criterion, a) {
            return result;
        }
        self.attempt_full(now, criterion, a)
    }

    /// Algorithm 1 as written: every movable entry after the new one is taken out and
    /// placed again. The answer of [`Self::attempt`], which takes a shortcut to it when
    /// it can (see `plan/lazy.rs`).
    pub(super) fn attempt_full(
        &mut self,
        now: Tick,
        criterion: Criterion,
        a: &mut Attempt<W>,
    ) -> Result<Tick, RejectReason> {
        self.prepare(now, criterion, a);
        let len = a.order.len();
        self.release_committed(a, a.at.saturating_add(1), len);
        let first_at = a.at;
        loop {
            let Err((q, reason)) = self.place_from(now, a) else {
                if a.at != first_at {
                    // Placed after entries that come after it in plan order.
                    self.mark_new(now, a.new_start);
                }
                return Ok(a.new_start);
            };
            self.take_back(a, a.at, q);
            self.restore_committed(a, a.at.saturating_add(1), q.saturating_add(1));
            if q == a.at {
                self.restore_committed(a, q.saturating_add(1), len);
                return Err(reason);
            }
            // fixqueue: the one that failed keeps its old place, ahead of the new one.
            panic_free::swap(a.order.as_mut_slice(), a.at, q);
            a.at = q;
        }
    }

    /// Keeps a successful attempt: every waiting entry takes its trial start. `moved`
    /// is called, in plan order, for each entry whose start changed, with its index.
    pub(super) fn commit(&mut self, a: &Attempt<W>, mut moved: impl FnMut(usize, &Reservation)) {
        for index in a.order() {
            let (Some(r), Some(start)) = (self.waiting.get_mut(index), a.start_of(index)) else {
                continue;
            };
            if r.start != start {
                r.start = start;
                moved(index, r);
            }
        }
    }

    /// Takes a successful attempt back: the calendar is as it was before it.
    pub(super) fn withdraw(&mut self, a: &mut Attempt<W>) {
        let len = a.order.len();
        self.take_back(a, a.at, len);
        self.restore_committed(a, a.at.saturating_add(1), len);
    }

    /// Fills `a` for the last waiting entry: plan order, trial starts, its position.
    fn prepare(&self, now: Tick, criterion: Criterion, a: &mut Attempt<W>) {
        a.order.clear();
        for ((index, r), trial) in (0u16..).zip(self.waiting.iter()).zip(a.trial.iter_mut()) {
            // Both have the waiting queue's capacity, and `W <= 2^16` (see `Attempt::new`).
            let _ = a.order.push(index);
            *trial = r.start;
        }
        let waiting = &self.waiting;
        // Keys end in the acceptance number, so they are distinct and the order is the
        // one sorted order (any sort gives it); this sort has no panic path.
        panic_free::sort_by_key(a.order.as_mut_slice(), |&i| {
            waiting.get(usize::from(i)).map(|r| criterion.key(r, now))
        });
        let new = self.waiting.len().saturating_sub(1);
        let at = a.order().position(|i| i == new).unwrap_or(0);
        a.at = at;
    }

    /// The entry at plan position `pos`, with its waiting index.
    fn entry(&self, a: &Attempt<W>, pos: usize) -> Option<(usize, Reservation)> {
        let index = usize::from(*a.order.get(pos)?);
        Some((index, *self.waiting.get(index)?))
    }

    /// Places the movable entries from the new one's position on, in plan order, and
    /// records their trial starts. Returns the first position that cannot be placed.
    fn place_from(&mut self, now: Tick, a: &mut Attempt<W>) -> Result<(), (usize, RejectReason)> {
        for pos in a.at..a.order.len() {
            let Some((index, r)) = self.entry(a, pos) else { continue };
            if r.fixed {
                continue;
            }
            let start = self.place(&r, now).map_err(|reason| (pos, reason))?;
            self.reserve(start, &r).map_err(|_| (pos, RejectReason::NoRoom))?;
            if let Some(trial) = a.trial.get_mut(index) {
                *trial = start;
            }
            if pos == a.at {
                a.new_start = start;
            }
        }
        Ok(())
    }

    /// Takes back the trial placements of plan positions `from..to` (movable entries),
    /// whose trial starts return to their current ones.
    fn take_back(&mut self, a: &mut Attempt<W>, from: usize, to: usize) {
        for pos in from..to {
            let Some((index, r)) = self.entry(a, pos) else { continue };
            let Some(trial) = a.trial.get_mut(index) else { continue };
            if !r.fixed {
                let _ = self.release(*trial, &r);
                *trial = r.start;
            }
        }
    }

    /// Takes the current reservations of the movable entries at `from..to` out of the
    /// calendar.
    fn release_committed(&mut self, a: &Attempt<W>, from: usize, to: usize) {
        for pos in from..to {
            if let Some((_, r)) = self.entry(a, pos).filter(|(_, r)| !r.fixed) {
                let _ = self.release(r.start, &r);
            }
        }
    }

    /// Puts the current reservations of the movable entries at `from..to` back. They
    /// held these slots before the attempt took them out, so this cannot fail.
    fn restore_committed(&mut self, a: &Attempt<W>, from: usize, to: usize) {
        for pos in from..to {
            if let Some((_, r)) = self.entry(a, pos).filter(|(_, r)| !r.fixed) {
                let _ = self.reserve(r.start, &r);
            }
        }
    }

    fn reserve(&mut self, start: Tick, r: &Reservation) -> Result<(), CalendarError> {
        let (first, n) = self.slot.span(start, start.saturating_add(r.estimate));
        self.calendar.reserve(first, n, r.nodes)
    }

    fn release(&mut self, start: Tick, r: &Reservation) -> Result<(), CalendarError> {
        let (first, n) = self.slot.span(start, start.saturating_add(r.estimate));
        self.calendar.release(first, n, r.nodes)
    }

    /// Moves the waiting entry at `index` to the running set. Its slots stay reserved.
    /// The running set has room: the kernel's configuration keeps `2 m <= RUN` (see
    /// [`super::Config`]).
    pub(super) fn start(&mut self, index: usize) -> Option<Running> {
        let r = *self.waiting.get(index)?;
        let running = Running { job: r.job, nodes: r.nodes, start: r.start, end: r.end() };
        self.running.push(running).ok()?;
        panic_free::remove(&mut self.waiting, index);
        panic_free::remove(&mut self.unsettled, index);
        Some(running)
    }

    /// Removes the running `job`, ending at `t`, and gives back the slots that its
    /// actual run `[start, t)` does not overlap: `ceil(t / len) .. ceil(end / len)`, or
    /// every slot of the reservation if it ran for no time at all. Returns the entry as
    /// it was.
    pub(super) fn end(&mut self, job: JobId, t: Tick) -> Option<Running> {
        let running = *self.running.iter().find(|r| r.job == job)?;
        let (ran_first, ran_slots) = self.slot.span(running.start, t);
        let first = ran_first.saturating_add(ran_slots);
        let last = self.slot.slot_at_or_after(running.end);
        if last > first {
            let _ = self.calendar.release(first, last.saturating_sub(first), running.nodes);
            // Freed slots may be an earlier start for any entry waiting now.
            self.unsettle_waiting(t);
        }
        self.running.retain(|r| r.job != job);
        Some(running)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_working_memory_of_an_attempt() {
        // 2 bytes of plan order and 8 of trial start per entry, and three words.
        assert_eq!(core::mem::size_of::<Attempt<256>>(), 10 * 256 + 24);
    }
}
