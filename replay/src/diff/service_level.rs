//! A service-level job's fate: accepted on a machine or rejected with its reason, its
//! first start, its completion, and how often an accept preempted it.

use kernel::service_level::{Decision, Event};

use super::{Diffed, Fates};
use crate::contract::ServiceLevel;

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
                fates.accept(job).place = Some(u32::from(machine));
            }
            Decision::Reject { job, reason } => fates.reject(job, reason.name()),
            Decision::Start { t, job, .. } => {
                fates.job(job).start.get_or_insert(t);
            }
            Decision::Complete { t, job, .. } => fates.job(job).completion = Some(t),
            Decision::Preempt { .. } => {}
        }
    }
}
