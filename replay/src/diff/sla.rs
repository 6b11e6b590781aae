//! An SLA job's fate: accepted or rejected with its reason, its start, and its
//! completion (start plus the request's duration, which the paper takes as exact).

use kernel::sla::{Decision, Event, RejectReason};

use super::{Answer, Diffed, Fates};
use crate::contract::Sla;
use crate::verify::ModelCounts;

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
                let fate = fates.job(job);
                fate.answer = Answer::Accepted;
                fate.start = Some(start);
                fate.completion = fate.duration.and_then(|td| start.checked_add(td));
            }
            Decision::Reject { job, reason } => {
                fates.job(job).answer = Answer::Rejected(reason.name());
            }
        }
    }

    fn measures(counts: &ModelCounts, out: &mut Vec<(String, u128)>) {
        if let ModelCounts::Sla(c) = counts {
            let own = [("requests", c.requests), ("plans", c.plans), ("job sets", c.sets)];
            out.extend(own.into_iter().map(|(name, value)| (name.to_owned(), u128::from(value))));
            for reason in RejectReason::ALL {
                out.push((format!("rejected {reason}"), u128::from(c.rejected_for(reason))));
            }
            out.push(("accepted node-ticks".to_owned(), c.node_ticks));
            out.push(("pending at end".to_owned(), u128::from(c.pending_at_end)));
        }
    }
}
