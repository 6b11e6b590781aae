//! A tiers job's fate: accepted on a resource or rejected with its reason, its last
//! start, its end, its losses (interruptions) and its moves and re-placements.

use kernel::tiers::{Decision, Event};

use super::{Answer, Diffed, Fates};
use crate::contract::Tiers;
use crate::verify::ModelCounts;

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
                let fate = fates.job(job);
                fate.answer = Answer::Accepted;
                fate.place = Some(u32::from(resource));
                fate.start = Some(start);
            }
            Decision::Reject { job, reason } => fates.job(job).answer = Answer::Rejected(reason.name()),
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

    fn measures(counts: &ModelCounts, out: &mut Vec<(String, u128)>) {
        if let ModelCounts::Tiers(c) = counts {
            let [min, q1, median, q3, max] = c.bronze_wait;
            let own = [
                ("moved", c.moves),
                ("re-placed", c.replaced),
                ("lost", c.lost),
                ("violated Gold", c.violated_gold),
                ("violated Silver", c.violated_silver),
                ("Bronze dropped", c.bronze_dropped),
                ("Bronze wait min", min),
                ("Bronze wait q1", q1),
                ("Bronze wait median", median),
                ("Bronze wait q3", q3),
                ("Bronze wait max", max),
            ];
            out.extend(own.into_iter().map(|(name, value)| (name.to_owned(), u128::from(value))));
        }
    }
}
