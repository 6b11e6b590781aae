//! Reservation records as job facts: a reservation holds `nodes` of the pool from its
//! start to its end; the pool is counted, not named.

use kernel::Tick;
use kernel::reservation::{Decision, Event};

use super::{Class, Fact, Request, Tabled};
use crate::contract::Reservation;
use crate::export::kind_name;
use crate::format::Header;

impl Tabled for Reservation {
    fn places(header: &Header) -> Vec<u32> {
        vec![header.reservation().map_or(0, |part| part.config.nodes)]
    }

    fn event_facts(_: &Header, event: &Event, facts: &mut dyn FnMut(Fact)) {
        match *event {
            Event::Request(r) => facts(Fact::Submit(Request {
                t: r.t,
                job: r.job,
                class: Class::Name(kind_name(r.kind)),
                size: r.nodes,
                work: r.estimate,
                ready: Some(r.ready),
                deadline: Some(r.deadline),
            })),
            Event::Reset => facts(Fact::Window),
            Event::Advance { .. } | Event::Finish { .. } => {}
        }
    }

    fn decision_facts(_: Tick, decision: &Decision, facts: &mut dyn FnMut(Fact)) {
        match *decision {
            Decision::Accept { job, .. } => facts(Fact::Accept { job, place: None }),
            Decision::Reject { job, reason } => facts(Fact::Reject { job, reason: reason.name() }),
            Decision::Start { t, job } => facts(Fact::Run { job, t, place: None }),
            Decision::End { t, job, .. } => facts(Fact::Finish { job, t, late: false }),
            Decision::Offer { .. } | Decision::Replan { .. } | Decision::Fix { .. } => {}
        }
    }
}
