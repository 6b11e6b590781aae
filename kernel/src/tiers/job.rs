//! A tiers job and where it may go: the accepted job's record, its laxity (eq. 1), a
//! placement in the calendars, and the scopes of resource groups that admission,
//! moves and re-placements may use (the paper's Figure 3). Plain data and pure
//! functions, below the kernel and its placement, rescheduling and fault handling.

use super::types::{Group, Policy, Tier};
use crate::calendar::Slot;
use crate::types::{JobId, Tick};

/// An accepted job that has not finished, been dropped or been lost for good.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job {
    pub job: JobId,
    /// Acceptance number: ties in every order end in it.
    pub seq: u64,
    pub tier: Tier,
    /// Run time on a resource of speed 1000.
    pub work: Tick,
    pub submitted: Tick,
    /// The window `[ready, deadline]` (for Bronze, submission and internal deadline).
    pub ready: Tick,
    pub deadline: Tick,
    pub resource: u8,
    /// The planned start while waiting; the actual start once running.
    pub start: Tick,
    /// The estimated run time on `resource`.
    pub estimate: Tick,
    /// The calendar slots held on `resource`: `first_slot .. first_slot + slots`.
    pub first_slot: Slot,
    pub slots: u64,
    pub running: bool,
    /// A `Violate` was emitted for it.
    pub violated: bool,
    /// How many times rescheduling moved it.
    pub moves: u16,
}

/// Where a job can go: the groups tried, in order; `None` is the end of the list.
pub(super) type Scopes = [Option<Scope>; 2];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Scope {
    Any,
    Only(Group),
}

/// A placement found in the calendars.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Place {
    pub(super) resource: u8,
    pub(super) start: Tick,
    pub(super) estimate: Tick,
    pub(super) first_slot: Slot,
    pub(super) slots: u64,
}

/// Eq. 1 in thousandths: `(window - estimate) * 1000 / estimate`, saturating.
pub fn laxity_milli(job: &Job) -> u64 {
    let window = job.deadline.saturating_sub(job.ready);
    let spare = window.saturating_sub(job.estimate);
    spare.saturating_mul(1000).checked_div(job.estimate).unwrap_or(u64::MAX)
}

/// Where a new SLA may be placed (the paper's Figure 3, steps 1, 2-3 and 5).
pub(super) const fn admission_scopes(policy: Policy, tier: Tier) -> Scopes {
    if !policy.tiered() {
        return [Some(Scope::Any), None];
    }
    match tier {
        Tier::Gold => [Some(Scope::Only(Group::High)), None],
        Tier::Silver => [Some(Scope::Only(Group::High)), Some(Scope::Only(Group::Low))],
        Tier::Bronze => [Some(Scope::Only(Group::Low)), None],
    }
}

/// Where an accepted job on a resource of `group` may be moved or re-placed (Figure 3,
/// steps 4a-4c and 6): Gold never; Silver from high-confidence to high- or
/// low-confidence, from low-confidence only to low-confidence; Bronze only among
/// low-confidence ones. Without tiers, anywhere.
pub(super) const fn move_scopes(policy: Policy, tier: Tier, group: Group) -> Scopes {
    if !policy.tiered() {
        return [Some(Scope::Any), None];
    }
    match (tier, group) {
        (Tier::Gold, _) => [None, None],
        (Tier::Silver, Group::High) => [Some(Scope::Only(Group::High)), Some(Scope::Only(Group::Low))],
        (Tier::Silver, Group::Low) | (Tier::Bronze, _) => [Some(Scope::Only(Group::Low)), None],
    }
}

pub(super) fn set_place(job: &mut Job, place: &Place) {
    job.resource = place.resource;
    job.start = place.start;
    job.estimate = place.estimate;
    job.first_slot = place.first_slot;
    job.slots = place.slots;
}
