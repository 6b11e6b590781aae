//! A reservation's fate: accepted or rejected with its reason, its start (planned,
//! replanned, then taken), its end, its replans and the offers made to it.

use kernel::reservation::{Decision, Event};

use super::{Answer, Diffed, Fates};
use crate::contract::Reservation;
use crate::verify::ModelCounts;

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
            Decision::Accept { job, start } => {
                let fate = fates.job(job);
                fate.answer = Answer::Accepted;
                fate.start = Some(start);
            }
            Decision::Reject { job, reason } => fates.job(job).answer = Answer::Rejected(reason.name()),
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

    fn measures(counts: &ModelCounts, out: &mut Vec<(String, u128)>) {
        if let ModelCounts::Reservation(c) = counts {
            let own = [
                ("offers", c.offers),
                ("replans", c.replans),
                ("fixes", c.fixes),
                ("started", c.starts),
                ("ended early", c.early),
                ("cut", c.cut),
            ];
            out.extend(own.into_iter().map(|(name, value)| (name.to_owned(), u128::from(value))));
        }
    }
}
