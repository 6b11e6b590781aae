//! A tiers job's fate: accepted on a resource or rejected with its reason, its last
//! start, its end, its losses (interruptions) and its moves and re-placements.

use kernel::tiers::{Decision, Event};

use super::{Diffed, Fates};
use crate::contract::Tiers;

impl Diffed for Tiers {
    const PLACE: &'static str = "resource";

    fn follow_event(fates: &mut Fates, event: &Event) {
        match *event {
            Event::Submit(request) => {
                fates.job(request.job);
            }
            Event::Reset => fates.reset(),
            Event::Advance { .. } | Event::Finish { .. } | Event::Leave { .. } | Event::Return { .. } => {}
        }
    }

    fn follow_decision(fates: &mut Fates, decision: &Decision) {
        match *decision {
            Decision::Accept { job, resource, start } => {
                let fate = fates.accept(job);
                fate.place = Some(u32::from(resource));
                fate.start = Some(start);
            }
            Decision::Reject { job, reason } => fates.reject(job, reason.name()),
            Decision::Move { job, resource, start, .. } | Decision::Replace { job, resource, start } => {
                let fate = fates.job(job);
                fate.moves += 1;
                fate.place = Some(u32::from(resource));
                fate.start = Some(start);
            }
            Decision::Start { t, job } => fates.job(job).start = Some(t),
            Decision::End { t, job, .. } => fates.job(job).completion = Some(t),
            Decision::Lost { job, .. } => fates.job(job).interruptions += 1,
            Decision::Violate { .. } => {}
        }
    }
}
