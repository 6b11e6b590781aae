//! Faults: a low-confidence resource leaves (its jobs are lost, then re-placed inside
//! their windows or dropped with a violation) and returns.

use super::event::{Decision, Outcome, Violation};
use super::job::{move_scopes, set_place};
use super::kernel::TiersKernel;
use super::types::{Group, RejectReason, Tier};
use crate::calendar::Slot;
use crate::types::Tick;

impl<const R: usize, const H: usize, const J: usize> TiersKernel<R, H, J> {
    /// `Leave`: a present low-confidence resource goes, and every job on it, running
    /// or waiting, is lost ([`Self::lose`]).
    pub(super) fn leave<S>(&mut self, t: Tick, resource: u8, sink: &mut S) -> Outcome
    where
        S: FnMut(Decision) + ?Sized,
    {
        let r = usize::from(resource);
        let Some(group) = self.resources.get(r).map(|x| x.group) else {
            return Outcome::Refused(RejectReason::UnknownResource);
        };
        if group == Group::High || !self.available(r) {
            return Outcome::Refused(RejectReason::BadAvailability);
        }
        self.advance(t, sink);
        if let Some(a) = self.available.get_mut(r) {
            *a = false;
        }
        if let Some(count) = self.running.get_mut(r) {
            *count = 0;
        }
        // A lost job is re-placed on another resource (this one is gone) or removed:
        // either way, the next job on this one comes after its index.
        let mut from = 0;
        while let Some(index) = self.jobs.first_on(resource, from) {
            self.lose(index, t, group, sink);
            from = index;
        }
        self.start_due(t, sink);
        Outcome::Availability
    }

    /// A job whose resource left: re-placed if the policy allows, else dropped.
    fn lose<S: FnMut(Decision) + ?Sized>(&mut self, index: usize, t: Tick, group: Group, sink: &mut S) {
        let Some(old) = self.jobs.get(index).copied() else { return };
        sink(Decision::Lost { t, job: old.job, running: old.running });
        self.release(&old, old.first_slot);
        let replace = self.config.policy.reschedules() || old.tier == Tier::Bronze;
        let scopes = move_scopes(self.config.policy, old.tier, group);
        let found = if replace { self.place(old.work, old.ready, old.deadline, scopes) } else { None };
        if let Some(place) = found.filter(|p| self.hold(p).is_ok()) {
            self.jobs.edit(index, |j| {
                set_place(j, &place);
                j.running = false;
            });
            sink(Decision::Replace { job: old.job, resource: place.resource, start: place.start });
        } else {
            let _ = self.jobs.remove(index);
            sink(Decision::Violate { t, job: old.job, why: Violation::Lost });
        }
    }

    /// `Return`: a resource that left is present again, and due jobs may start on it.
    pub(super) fn back<S>(&mut self, t: Tick, resource: u8, sink: &mut S) -> Outcome
    where
        S: FnMut(Decision) + ?Sized,
    {
        let r = usize::from(resource);
        if r >= self.resources.len() {
            return Outcome::Refused(RejectReason::UnknownResource);
        }
        if self.available(r) {
            return Outcome::Refused(RejectReason::BadAvailability);
        }
        self.advance(t, sink);
        if let Some(a) = self.available.get_mut(r) {
            *a = true;
        }
        // Its nodes are free again: a waiting job may start on them, or move there.
        self.quiet = None;
        self.frees.log(0, Slot::MAX);
        self.start_due(t, sink);
        Outcome::Availability
    }
}
