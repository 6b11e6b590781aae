//! An accept-all job's fate: accepted, or rejected as late.

use kernel::accept_all::{Decision, Event};

use super::{Diffed, Fates};
use crate::contract::AcceptAll;

impl Diffed for AcceptAll {
    const PLACE: &'static str = "";

    fn follow_event(fates: &mut Fates, event: &Event) {
        let Event::Submit { job, .. } = *event;
        fates.job(job);
    }

    fn follow_decision(fates: &mut Fates, decision: &Decision) {
        match *decision {
            Decision::Accept { job, t } => fates.accept(job).start = Some(t),
            Decision::Reject { job, reason, .. } => fates.reject(job, reason.name()),
        }
    }
}
