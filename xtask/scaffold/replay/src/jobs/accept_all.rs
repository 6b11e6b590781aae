//! Accept-all records as job facts: a request and its answer; nothing runs.

use kernel::Tick;
use kernel::accept_all::{Decision, Event};

use super::{Class, Fact, Request, Tabled};
use crate::contract::AcceptAll;
use crate::format::Header;

impl Tabled for AcceptAll {
    fn places(_: &Header) -> Vec<u32> {
        vec![1]
    }

    fn event_facts(_: &Header, event: &Event, facts: &mut dyn FnMut(Fact)) {
        let Event::Submit { t, job } = *event;
        let class = Class::None;
        facts(Fact::Submit(Request { t, job, class, size: 1, work: 0, ready: None, deadline: None }));
    }

    fn decision_facts(_: Tick, decision: &Decision, facts: &mut dyn FnMut(Fact)) {
        facts(match *decision {
            Decision::Accept { job, .. } => Fact::Accept { job, place: None },
            Decision::Reject { job, reason, .. } => Fact::Reject { job, reason: reason.name() },
        });
    }
}
