//! A shortcut to Algorithm 1's answer that takes out and places again only the
//! entries the new reservation can disturb, and gives up (leaving the calendar as it
//! was) whenever it cannot prove the full algorithm's answer.
//!
//! # Settled entries
//! Call a movable waiting entry *settled* when no candidate start of its window
//! before its own start fits in the calendar of the running jobs, the fixed entries
//! and the movable entries before it in plan order. Under a criterion whose keys do
//! not depend on the time (all but least flexible first), this holds for every entry
//! that Algorithm 1 has placed, and stays true:
//! - adding a reservation to the calendar (an acceptance, a fix, an entry placed
//!   elsewhere) only takes room, so a start that did not fit still does not;
//! - time going forward only removes candidates, or replaces a window's first tick
//!   by a later one whose slots include those of a candidate that did not fit;
//! - a start or an on-time end changes no slot.
//!
//! Two things break it, and the plan marks the entries they may break
//! (`Plan::unsettled`): an early finish frees slots, which may let any entry waiting
//! then start earlier; and an admission that needed `fixqueue` places the new entry
//! after entries that come after it in plan order, so it may start later than its
//! settled place. The shortcut is not taken while a marked entry comes after the new
//! one in plan order (those before it are not placed again, settled or not). An entry
//! whose start is its window's first at the time (a strict reservation, always) is
//! not marked: no earlier start exists, then or later.
//!
//! # The shortcut
//! With every entry after the new one settled, let `S` be the movable entries after the new one
//! in plan order, and `R` the slots that the new one's first-fit search reads. The
//! full algorithm takes all of `S` out, places the new one, then each entry of `S`.
//! Here only the entries of `S` that meet `R` (`O`) are taken out: the others cannot
//! change what the search for the new one sees. Then, in plan order, each entry of
//! `O` is put back at its own start if that fits. That is exactly the full
//! algorithm's answer: before an entry of `S` the full algorithm's calendar is the
//! one it was settled against plus the new reservation, so no earlier start fits,
//! and its own start fits there if it fits here, where the entries of `S \ O` after
//! it are still held. An entry of `S \ O` meets neither `R` nor the new reservation,
//! so it stays too.
//!
//! If some entry `q` of `O` does not fit at its start, the full algorithm's calendar
//! before it differs from this one only outside `R`, where the new reservation is
//! not: so it does not fit there either, nor anywhere earlier (it is settled). When
//! its window has no later start (no slot boundary after its start's slot up to its
//! latest start: a strict reservation, say), it fails there, and the full algorithm
//! runs `fixqueue`: `q` back at its start, ahead of the new one, which is placed
//! again from `q`'s position. The shortcut does the same (the entries of `O` before
//! `q` already hold their own starts, as `fixqueue` leaves them) and goes on with the
//! entries of `O` after `q`; the argument above holds again from the new position.
//! If `q` could move to a later start instead, the shortcut takes everything back
//! and gives up.
//!
//! # Cost
//! One pass over the waiting queue with two comparisons per entry (no division, no
//! calendar operation), a sort of `O`, and one release and one reservation per entry
//! of `O`, besides the new one's search and one more search per `fixqueue`. The
//! attempt's working memory then holds the new entry and `O`, in plan order, with the
//! new one at position 0 (after each `fixqueue`, at the position of the entry it
//! swapped with), so that [`Plan::commit`] and [`Plan::withdraw`] work on it
//! unchanged. The test `the_shortcut_gives_the_full_algorithms_answer` compares the
//! two on random plans.

use super::{Attempt, Criterion, Plan, RejectReason, Reservation, Tick};
use crate::panic_free;

impl<const H: usize, const W: usize, const RUN: usize> Plan<H, W, RUN> {
    /// The shortcut for the last waiting entry at `now`: `Some` answer of the full
    /// algorithm, with the calendar and `a` as it would leave them, or `None` with the
    /// calendar as it was.
    pub(super) fn attempt_lazy(
        &mut self,
        now: Tick,
        criterion: Criterion,
        a: &mut Attempt<W>,
    ) -> Option<Result<Tick, RejectReason>> {
        if !self.may_shortcut(now, criterion) {
            return None;
        }
        if let Some(start) = self.place_at_once(a, now) {
            return Some(Ok(start));
        }
        self.gather(now, criterion, a)?;
        let len = a.order.len();
        self.release_committed(a, 1, len);
        let mut bumped = false;
        loop {
            // Every position before `a.at` holds its own start, every one after it
            // is out of the calendar.
            if let Err((_, reason)) = self.place_first(now, a) {
                self.restore_committed(a, a.at.saturating_add(1), len);
                return Some(Err(reason));
            }
            let Some(q) = self.put_back_after_new(a) else { break };
            if self
                .entry(a, q)
                .is_none_or(|(_, r)| self.slot.slot_of(r.start) < self.slot.slot_of(r.latest_start()))
            {
                // It would move to a later start: the full algorithm decides.
                self.take_back(a, a.at, q);
                self.restore_committed(a, a.at.saturating_add(1), len);
                return None;
            }
            // `fixqueue`: it keeps its own start, ahead of the new one.
            self.take_back(a, a.at, a.at.saturating_add(1));
            self.restore_committed(a, q, q.saturating_add(1));
            panic_free::swap(a.order.as_mut_slice(), a.at, q);
            (a.at, bumped) = (q, true);
        }
        if bumped {
            self.mark_new(now, a.new_start);
        }
        Some(Ok(a.new_start))
    }

    /// Puts the entries after the new one (at `a.at`) back at their own starts, in
    /// plan order, up to the first that no longer fits there: `Some` its position,
    /// with those before it held, or `None` with all of them held.
    fn put_back_after_new(&mut self, a: &Attempt<W>) -> Option<usize> {
        for pos in a.at.saturating_add(1)..a.order.len() {
            let Some((_, r)) = self.entry(a, pos) else { continue };
            if self.reserve(r.start, &r).is_err() {
                return Some(pos);
            }
        }
        None
    }

    /// Marks the new (last) entry unsettled, placed at `start` after entries that
    /// come after it in plan order, unless `start` is its window's first at `now`:
    /// no earlier start exists then, now or later.
    pub(super) fn mark_new(&mut self, now: Tick, start: Tick) {
        let new = self.waiting.len().saturating_sub(1);
        let first = self.waiting.get(new).map(|r| r.earliest_start(now));
        if let (Some(u), false) = (self.unsettled.get_mut(new), first == Some(start)) {
            *u = true;
        }
    }

    /// Marks every entry waiting at `now` unsettled (slots were freed), but those at
    /// their window's first start, which nothing can make earlier.
    pub(super) fn unsettle_waiting(&mut self, now: Tick) {
        for (r, u) in self.waiting.iter().zip(self.unsettled.iter_mut()) {
            *u |= r.start != r.earliest_start(now);
        }
    }

    /// Admits the new (last) entry as [`Self::attempt`] would when the common case of
    /// [`Self::place_at_once`] holds, with no working memory: `Some` start, with the
    /// calendar holding it and nothing else moved (a commit would change nothing but
    /// the new entry's start), or `None` with the calendar as it was.
    pub(in crate::reservation) fn admit_at_once(&mut self, now: Tick, criterion: Criterion) -> Option<Tick> {
        if !self.may_shortcut(now, criterion) {
            return None;
        }
        self.reserve_first_start(now)
    }

    /// Whether the shortcut may be tried: the criterion's keys do not change with time
    /// and every movable entry after the new one in plan order is settled.
    fn may_shortcut(&self, now: Tick, criterion: Criterion) -> bool {
        criterion != Criterion::LeastFlexibleFirst && !self.unsettled_after_new(now, criterion)
    }

    /// Reserves the new (last) entry at the first start of its window if it fits there.
    fn reserve_first_start(&mut self, now: Tick) -> Option<Tick> {
        let n = *self.waiting.last()?;
        let lo = n.earliest_start(now);
        if lo > n.latest_start() {
            return None;
        }
        self.reserve(lo, &n).ok()?;
        Some(lo)
    }

    /// Whether a movable entry after the new (last) one in plan order may be
    /// unsettled. An entry before it is not placed again, settled or not.
    fn unsettled_after_new(&self, now: Tick, criterion: Criterion) -> bool {
        if !self.unsettled.contains(&true) {
            return false;
        }
        let new = self.waiting.len().saturating_sub(1);
        let Some(key) = self.waiting.get(new).map(|n| criterion.key(n, now)) else { return false };
        let entries = self.waiting.iter().zip(self.unsettled.iter()).take(new);
        entries.filter(|&(r, &unsettled)| unsettled && !r.fixed).any(|(r, _)| criterion.key(r, now) > key)
    }

    /// The common case: the new (last) entry fits at the first start of its window in
    /// the calendar as it is, with every entry after it still held. Then that is its
    /// first fit once they are taken out too, and every one of them fits again where
    /// it was (they all fit together now) and, settled, nowhere earlier: nothing
    /// moves. `a` then holds the new entry alone.
    fn place_at_once(&mut self, a: &mut Attempt<W>, now: Tick) -> Option<Tick> {
        let new = self.waiting.len().checked_sub(1)?;
        let index = u16::try_from(new).ok()?;
        // `W <= 2^16` (see `Attempt::new`): the index fits, and the trial slot exists.
        a.trial.get(new)?;
        let lo = self.reserve_first_start(now)?;
        if let Some(trial) = a.trial.get_mut(new) {
            *trial = lo;
        }
        a.order.clear();
        a.at = 0;
        // The order has room for `W >= 1` entries.
        let _ = a.order.push(index);
        a.new_start = lo;
        Some(lo)
    }

    /// Fills `a` with the new entry and, in plan order after it, the movable entries
    /// that come after it in plan order and meet the slots its search reads. `None`
    /// when the queue is empty.
    fn gather(&self, now: Tick, criterion: Criterion, a: &mut Attempt<W>) -> Option<()> {
        let new = self.waiting.len().checked_sub(1)?;
        let n = *self.waiting.get(new)?;
        let (low, high) = self.search_ticks(&n, now);
        let key = criterion.key(&n, now);
        a.order.clear();
        a.at = 0;
        a.order.push(u16::try_from(new).ok()?).ok()?;
        *a.trial.get_mut(new)? = n.start;
        for (index, r) in (0u16..).zip(self.waiting.iter().take(new)) {
            // The slots `floor(s / len) .. ceil(e / len)` meet `[low, high)` (both
            // slot boundaries) exactly when `s < high` and `e > low`.
            if r.fixed || r.start >= high || r.end() <= low || criterion.key(r, now) < key {
                continue;
            }
            // At most `W` entries, the order's capacity.
            let _ = a.order.push(index);
            if let Some(trial) = a.trial.get_mut(usize::from(index)) {
                *trial = r.start;
            }
        }
        let waiting = &self.waiting;
        let rest = a.order.get_mut(1..).unwrap_or(&mut []);
        panic_free::sort_by_key(rest, |&i| waiting.get(usize::from(i)).map(|r| criterion.key(r, now)));
        Some(())
    }

    /// The ticks `[low, high)`, both slot boundaries, that hold every slot the
    /// first-fit search for `r` at `now` reads (see [`Plan::place`]): from the slot of
    /// its earliest start to the end of a run that starts in the slot of its latest.
    /// Wider is never wrong, only slower, so an overflow widens it to the end of time.
    fn search_ticks(&self, r: &Reservation, now: Tick) -> (Tick, Tick) {
        let (lo, hi) = (r.earliest_start(now), r.latest_start());
        let len = self.slot.ticks();
        let low = lo.saturating_sub(lo.checked_rem(len).unwrap_or(0));
        let (_, n) = self.slot.span(0, r.estimate);
        let first_run = self.slot.slot_at_or_after(lo.saturating_add(r.estimate));
        let last_run = self.slot.slot_of(hi).saturating_add(n);
        let high = self.slot.start_of(first_run.max(last_run).saturating_add(1)).unwrap_or(Tick::MAX);
        (low, high)
    }

    /// Places the entry at position `a.at` (the new one), as the full algorithm's
    /// first step does.
    fn place_first(&mut self, now: Tick, a: &mut Attempt<W>) -> Result<(), (usize, RejectReason)> {
        let at = a.at;
        let (index, r) = self.entry(a, at).ok_or((at, RejectReason::NoRoom))?;
        let start = self.place(&r, now).map_err(|reason| (at, reason))?;
        self.reserve(start, &r).map_err(|_| (at, RejectReason::NoRoom))?;
        if let Some(trial) = a.trial.get_mut(index) {
            *trial = start;
        }
        a.new_start = start;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::Plan;
    use super::*;
    use crate::calendar::SlotLength;
    use crate::reservation::RequestKind;

    type P = Plan<96, 24, 64>;

    /// xorshift64*, enough to draw test cases.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) % n.max(1)
        }
    }

    fn reservation(rng: &mut Rng, seq: u64, now: Tick, m: u32) -> Reservation {
        let estimate = 1 + rng.below(60);
        let ready = now + rng.below(120);
        let spare = if rng.below(2) == 0 { 0 } else { 1 + rng.below(80) };
        let kind = if spare == 0 { RequestKind::Strict } else { RequestKind::Flexible };
        Reservation {
            job: u32::try_from(seq).unwrap(),
            seq,
            nodes: 1 + u32::try_from(rng.below(u64::from(m))).unwrap(),
            estimate,
            ready,
            deadline: ready + estimate + spare,
            kind,
            shuffle_key: u32::try_from(rng.below(1000)).unwrap(),
            start: ready.max(now),
            fix_at: Tick::MAX,
            fixed: false,
        }
    }

    /// Starts what is due at `now`, ends what has run out, and now and then ends a
    /// job early (which unsettles the queue) or fixes a waiting entry.
    fn advance(plan: &mut P, rng: &mut Rng, now: Tick) {
        while let Some(index) = plan.waiting().iter().position(|r| r.start <= now) {
            plan.start(index).unwrap();
        }
        while let Some(r) = plan.running().iter().find(|r| r.end <= now).copied() {
            plan.end(r.job, r.end).unwrap();
        }
        if rng.below(12) == 0
            && let Some(r) = plan.running().iter().find(|r| r.start < now).copied()
        {
            plan.end(r.job, now).unwrap();
        }
        let len = plan.waiting().len();
        if len > 0 && rng.below(10) == 0 {
            plan.waiting_mut(usize::try_from(rng.below(len as u64)).unwrap()).unwrap().fixed = true;
        }
    }

    /// Every attempt, with or without the shortcut, gives the same answer, the same
    /// trial starts and the same calendar; and the shortcut is taken often.
    #[test]
    fn the_shortcut_gives_the_full_algorithms_answer() {
        let (mut taken, mut bumped) = (0, 0u32);
        for seed in 1..=60u64 {
            let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
            let criterion = Criterion::ALL[usize::try_from(seed % 5).unwrap()];
            let m = 1 + u32::try_from(rng.below(6)).unwrap();
            let mut plan = P::new(m, SlotLength::new(10).unwrap());
            let mut now = 0;
            for seq in 0..400u64 {
                now += rng.below(8);
                plan.advance_calendar(now);
                advance(&mut plan, &mut rng, now);
                if plan.is_full() {
                    continue;
                }
                let r = reservation(&mut rng, seq, now, m);
                plan.push_waiting(r).unwrap();
                let mut full = plan.clone();
                let (mut a, mut b) = (Attempt::new(), Attempt::new());
                let before = plan.calendar().clone();
                let got = match plan.attempt_lazy(now, criterion, &mut a) {
                    Some(got) => {
                        taken += 1;
                        // The new one's position moved on: the shortcut ran `fixqueue`.
                        bumped += u32::from(a.order().next() != Some(plan.waiting().len() - 1));
                        got
                    }
                    None => {
                        assert_eq!(
                            plan.calendar(),
                            &before,
                            "seed {seed} request {seq}: a shortcut given up"
                        );
                        plan.attempt_full(now, criterion, &mut a)
                    }
                };
                let want = full.attempt_full(now, criterion, &mut b);
                assert_eq!(got, want, "seed {seed} request {seq}");
                assert_eq!(plan.calendar(), full.calendar(), "seed {seed} request {seq}");
                let mut moved_a = heapless::Vec::<(usize, Tick), 24>::new();
                let mut moved_b = moved_a.clone();
                match want {
                    Ok(start) => {
                        plan.commit(&a, |i, r| moved_a.push((i, r.start)).unwrap());
                        full.commit(&b, |i, r| moved_b.push((i, r.start)).unwrap());
                        assert_eq!(moved_a, moved_b, "seed {seed} request {seq}");
                        let last = plan.waiting().len() - 1;
                        plan.waiting_mut(last).unwrap().start = start;
                        full.waiting_mut(last).unwrap().start = start;
                    }
                    Err(_) => {
                        plan.pop_waiting();
                        full.pop_waiting();
                    }
                }
                assert_eq!(plan, full, "seed {seed} request {seq}");
            }
        }
        assert!(taken > 2_000, "the shortcut was taken {taken} times");
        assert!(bumped > 200, "the shortcut ran fixqueue {bumped} times");
    }
}
