//! A service-level job's fate: accepted on a machine or rejected with its reason, its
//! first start, its completion, and how often an accept preempted it.

use kernel::service_level::{Decision, Event};

use super::{Answer, Diffed, Fates};
use crate::contract::ServiceLevel;
use crate::verify::ModelCounts;

impl Diffed for ServiceLevel {
    const PLACE: &'static str = "machine";

    fn follow_event(fates: &mut Fates, event: &Event) {
        match *event {
            Event::Submit { job, .. } => {
                fates.job(job);
            }
            Event::Reset => fates.reset(),
            Event::Advance { .. } => {}
        }
    }

    fn follow_decision(fates: &mut Fates, decision: &Decision) {
        match *decision {
            Decision::Accept { job, machine, preempted, .. } => {
                if let Some(preempted) = preempted {
                    fates.job(preempted).interruptions += 1;
                }
                let fate = fates.job(job);
                fate.answer = Answer::Accepted;
                fate.place = Some(u32::from(machine));
            }
            Decision::Reject { job, reason } => fates.job(job).answer = Answer::Rejected(reason.name()),
            Decision::Start { t, job, .. } => {
                fates.job(job).start.get_or_insert(t);
            }
            Decision::Complete { t, job, .. } => fates.job(job).completion = Some(t),
            Decision::Preempt { .. } => {}
        }
    }

    fn measures(counts: &ModelCounts, out: &mut Vec<(String, u128)>) {
        if let ModelCounts::ServiceLevel(c) = counts {
            out.push(("interruptions".to_owned(), u128::from(c.preemptions)));
        }
    }
}
