//! SLA records as job facts: an accepted request runs exactly its `tD` from its
//! planned start on `NCPU` of the machine's nodes (the log has no start or end
//! records: the plan is the run). The nodes are counted, not named.

use kernel::Tick;
use kernel::sla::{Decision, Event};

use super::{Class, Fact, Request, Tabled};
use crate::contract::Sla;
use crate::format::Header;

impl Tabled for Sla {
    fn places(header: &Header) -> Vec<u32> {
        vec![header.sla().map_or(0, |part| part.config.nodes)]
    }

    fn event_facts(_: &Header, event: &Event, facts: &mut dyn FnMut(Fact)) {
        match *event {
            Event::Submit { t, request: r } => facts(Fact::Submit(Request {
                t,
                job: r.job,
                class: Class::None,
                size: r.ncpu,
                work: r.td,
                ready: Some(r.ts),
                deadline: Some(r.tf),
            })),
            Event::Reset { .. } => facts(Fact::Window),
            Event::Plan { .. } => {}
        }
    }

    fn decision_facts(_: Tick, decision: &Decision, facts: &mut dyn FnMut(Fact)) {
        match *decision {
            Decision::Accept { job, start } => {
                facts(Fact::Accept { job, place: None });
                facts(Fact::RunWhole { job, t: start });
            }
            Decision::Reject { job, reason } => facts(Fact::Reject { job, reason: reason.name() }),
        }
    }
}
