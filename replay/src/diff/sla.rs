//! An SLA job's fate: accepted or rejected with its reason, its start, and its
//! completion (start plus the request's duration, which the paper takes as exact).

use kernel::sla::{Decision, Event};

use super::{Diffed, Fates};
use crate::contract::Sla;

impl Diffed for Sla {
    const PLACE: &'static str = "";

    fn follow_event(fates: &mut Fates, event: &Event) {
        match *event {
            Event::Submit { request, .. } => {
                fates.job(request.job).duration = Some(request.td);
            }
            Event::Reset { .. } => fates.reset(),
            Event::Plan { .. } => {}
        }
    }

    fn follow_decision(fates: &mut Fates, decision: &Decision) {
        match *decision {
            Decision::Accept { job, start } => {
                let fate = fates.accept(job);
                fate.start = Some(start);
                fate.completion = fate.duration.and_then(|td| start.checked_add(td));
            }
            Decision::Reject { job, reason } => fates.reject(job, reason.name()),
        }
    }
}
