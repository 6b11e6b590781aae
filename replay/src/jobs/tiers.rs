//! Tiers records as job facts: a job runs on one resource at a time; a move or a
//! re-placement changes it, a resource that leaves stops its piece, and a job that
//! cannot be placed again is lost.

use kernel::Tick;
use kernel::tiers::{Decision, Event, Tier, Violation};

use super::{Class, Fact, Request, Tabled};
use crate::contract::Tiers;
use crate::format::Header;

impl Tabled for Tiers {
    fn places(header: &Header) -> Vec<u32> {
        header.tiers().map_or_else(Vec::new, |part| part.resources.iter().map(|r| r.nodes).collect())
    }

    fn event_facts(_: &Header, event: &Event, facts: &mut dyn FnMut(Fact)) {
        match *event {
            Event::Submit(r) => facts(Fact::Submit(Request {
                t: r.t,
                job: r.job,
                class: Class::Name(r.tier.name()),
                size: 1,
                work: r.work,
                // Bronze has no window: its request's `ready` and `deadline` mean nothing.
                ready: (r.tier != Tier::Bronze).then_some(r.ready),
                deadline: (r.tier != Tier::Bronze).then_some(r.deadline),
            })),
            Event::Reset => facts(Fact::Window),
            Event::Advance { .. } | Event::Finish { .. } | Event::Leave { .. } | Event::Return { .. } => {}
        }
    }

    fn decision_facts(_: Tick, decision: &Decision, facts: &mut dyn FnMut(Fact)) {
        match *decision {
            Decision::Accept { job, resource, .. } => {
                facts(Fact::Accept { job, place: Some(u32::from(resource)) });
            }
            Decision::Reject { job, reason } => facts(Fact::Reject { job, reason: reason.name() }),
            Decision::Move { job, resource, .. } | Decision::Replace { job, resource, .. } => {
                facts(Fact::Place { job, place: u32::from(resource) });
            }
            Decision::Start { t, job } => facts(Fact::Run { job, t, place: None }),
            Decision::End { t, job, late } => facts(Fact::Finish { job, t, late }),
            Decision::Lost { t, job, .. } => facts(Fact::Stop { job, t, why: "lost" }),
            Decision::Violate { t, job, why: Violation::Lost } => facts(Fact::Lost { job, t }),
            Decision::Violate { why: Violation::Late, .. } => {}
        }
    }
}
