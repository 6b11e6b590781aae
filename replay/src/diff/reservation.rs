//! A reservation's fate: accepted or rejected with its reason, its start (planned,
//! replanned, then taken), its end, its replans and the offers made to it.

use kernel::reservation::{Decision, Event};

use super::{Diffed, Fates};
use crate::contract::Reservation;

impl Diffed for Reservation {
    const PLACE: &'static str = "";

    fn follow_event(fates: &mut Fates, event: &Event) {
        match *event {
            Event::Request(request) => {
                fates.job(request.job);
            }
            Event::Reset => fates.reset(),
            Event::Advance { .. } | Event::Finish { .. } => {}
        }
    }

    fn follow_decision(fates: &mut Fates, decision: &Decision) {
        match *decision {
            Decision::Accept { job, start } => fates.accept(job).start = Some(start),
            Decision::Reject { job, reason } => fates.reject(job, reason.name()),
            Decision::Offer { job, .. } => fates.job(job).offers += 1,
            Decision::Replan { job, start } => {
                let fate = fates.job(job);
                fate.moves += 1;
                fate.start = Some(start);
            }
            Decision::Start { t, job } => fates.job(job).start = Some(t),
            Decision::End { t, job, .. } => fates.job(job).completion = Some(t),
            Decision::Fix { .. } => {}
        }
    }
}
