//! Algorithm 1 (`qos-res` only): when a new job finds no room, one waiting job with
//! enough laxity is moved elsewhere inside its own window, and the new job takes its
//! slots; every trial placement is undone when no candidate moves.

use heapless::Vec;

use super::event::{Decision, Request};
use super::job::{Job, Place, Scope, admission_scopes, laxity_milli, move_scopes, set_place};
use super::kernel::TiersKernel;
use super::types::Tier;
use crate::panic_free;
use crate::types::Tick;

impl<const R: usize, const H: usize, const J: usize> TiersKernel<R, H, J> {
    /// Algorithm 1: make room for the new job by moving one waiting job whose slots lie
    /// in the new job's window, largest laxity first. On success the candidate has
    /// moved (a `Move` was emitted) and the new job's slots are held.
    pub(super) fn reschedule<S: FnMut(Decision) + ?Sized>(
        &mut self,
        request: &Request,
        ready: Tick,
        deadline: Tick,
        sink: &mut S,
    ) -> Option<Place> {
        let mut candidates: Vec<(u64, u64, u16), J> = Vec::new();
        let scopes = admission_scopes(self.config.policy, request.tier);
        let from = ready.max(self.now);
        // What the new job needs on each resource, worked out once per resource.
        let mut needs: [Option<Option<(Tick, u64)>>; R] = [None; R];
        for (index, j) in self.jobs.as_slice().iter().enumerate() {
            let resource = self.resources.get(usize::from(j.resource))?;
            let group = resource.group;
            let end = j.start.saturating_add(j.estimate);
            let eligible = !j.running
                && j.tier != Tier::Gold
                && j.tier.rank() <= request.tier.rank()
                && scopes.iter().flatten().any(|s| *s == Scope::Any || *s == Scope::Only(group))
                && j.start >= from
                && end <= deadline;
            if !eligible {
                continue;
            }
            // A candidate whose slots the new job cannot take is never moved
            // (`try_move`'s first test): left out before the ranking.
            let need = needs.get_mut(usize::from(j.resource))?;
            let need = *need.get_or_insert_with(|| self.run_on(resource, request.work));
            let Some((_, slots)) = need.filter(|&(estimate, slots)| fits_in(j, estimate, slots, deadline))
            else {
                continue;
            };
            if self.still_stuck(index, j, j.slots.saturating_sub(slots)) {
                continue;
            }
            let lax = laxity_milli(j);
            if lax > self.config.laxity_threshold_milli {
                let _ = candidates.push((lax, j.seq, u16::try_from(index).ok()?));
            }
        }
        // Highest laxity first, ties by submission order: distinct keys (a job's `seq`
        // is unique), so the one sorted order.
        panic_free::sort_by_key(&mut candidates, |&(lax, seq, _)| (core::cmp::Reverse(lax), seq));
        candidates
            .iter()
            .find_map(|&(_, _, index)| self.try_move(usize::from(index), request, deadline, sink))
    }

    /// Lines 12-17 of Algorithm 1 for one candidate; undoes everything on failure.
    fn try_move<S: FnMut(Decision) + ?Sized>(
        &mut self,
        index: usize,
        request: &Request,
        deadline: Tick,
        sink: &mut S,
    ) -> Option<Place> {
        let old = *self.jobs.get(index)?;
        let resource = *self.resources.get(usize::from(old.resource))?;
        let (estimate, slots) = self.run_on(&resource, request.work)?;
        if !fits_in(&old, estimate, slots, deadline) {
            return None;
        }
        let new =
            Place { resource: old.resource, start: old.start, estimate, first_slot: old.first_slot, slots };
        // Giving back the candidate's slots and holding the new job's (the first
        // `slots` of them, on the same resource) changes only the tail the new job
        // does not need: so only the tail is given back, and taken again on failure.
        // A waiting candidate holds every slot of its run, so this cannot fail.
        let tail = (old.first_slot.saturating_add(slots), old.slots.saturating_sub(slots));
        self.give_back(old.resource, tail);
        let scopes = move_scopes(self.config.policy, old.tier, resource.group);
        let Some(gap) = self.place(old.work, old.ready, old.deadline, scopes) else {
            if tail.1 > 0 {
                let _ = self.hold(&Place { first_slot: tail.0, slots: tail.1, ..new });
            }
            if self.within_horizon(&old) {
                self.jobs.set_stuck(index, self.frees.count(), tail.1);
            }
            return None;
        };
        let _ = self.hold(&gap);
        self.frees.log(tail.0, tail.0.saturating_add(tail.1));
        self.jobs.edit(index, |moved| {
            set_place(moved, &gap);
            moved.moves = moved.moves.saturating_add(1);
        })?;
        sink(Decision::Move { job: old.job, resource: gap.resource, start: gap.start, for_job: request.job });
        Some(new)
    }

    /// Whether job `index` (`j`) cannot move now, given back a tail of `tail` slots:
    /// it could not with a tail as long or longer, and no room was freed in its
    /// window since (see `frees.rs`).
    pub(super) fn still_stuck(&self, index: usize, j: &Job, tail: u64) -> bool {
        let Some((stamp, was)) = self.jobs.stuck(index) else { return false };
        let low = self.slot.slot_of(j.ready.max(self.now));
        // A run inside the window holds no slot past the deadline's (see `place`).
        let high = self.slot.slot_of(j.deadline).saturating_add(1);
        tail <= was && self.frees.none_in(stamp, low, high)
    }

    /// Whether `j`'s window ends inside the horizon seen from now: then every search
    /// for it read the whole window (a calendar is brought to the present for it),
    /// and the slots that later enter the horizon lie past it.
    fn within_horizon(&self, j: &Job) -> bool {
        let horizon = u64::try_from(H).unwrap_or(u64::MAX);
        let high = self.slot.slot_of(j.deadline).saturating_add(1);
        high <= self.slot.slot_of(self.now).saturating_add(horizon)
    }
}

/// Whether a new job of `estimate` holding `slots` slots, started at `old`'s start on
/// its resource, fits in `old`'s slots and ends by `deadline`.
fn fits_in(old: &Job, estimate: Tick, slots: u64, deadline: Tick) -> bool {
    slots <= old.slots && old.start.checked_add(estimate).is_some_and(|end| end <= deadline)
}
