//! Service-level records as job facts: a job runs on the machine its accept names,
//! in pieces between its starts and its preemptions.

use kernel::Tick;
use kernel::service_level::{Decision, Event};

use super::{Class, Fact, Request, Tabled};
use crate::contract::ServiceLevel;
use crate::format::Header;

impl Tabled for ServiceLevel {
    fn places(header: &Header) -> Vec<u32> {
        vec![1; header.service_level().map_or(0, |part| usize::from(part.machines))]
    }

    fn event_facts(header: &Header, event: &Event, facts: &mut dyn FnMut(Fact)) {
        match *event {
            Event::Submit { t, job, p, level } => {
                let levels = header.service_level().map_or(&[][..], |part| part.levels.as_slice());
                let deadline = levels.get(usize::from(level)).and_then(|l| l.deadline(t, p));
                let class = Class::Level(level);
                facts(Fact::Submit(Request { t, job, class, size: 1, work: p, ready: Some(t), deadline }));
            }
            Event::Reset => facts(Fact::Window),
            Event::Advance { .. } => {}
        }
    }

    fn decision_facts(_: Tick, decision: &Decision, facts: &mut dyn FnMut(Fact)) {
        facts(match *decision {
            Decision::Accept { job, machine, .. } => Fact::Accept { job, place: Some(u32::from(machine)) },
            Decision::Reject { job, reason } => Fact::Reject { job, reason: reason.name() },
            Decision::Start { t, job, machine } => Fact::Run { job, t, place: Some(u32::from(machine)) },
            Decision::Preempt { t, job, .. } => Fact::Stop { job, t, why: "preempted" },
            Decision::Complete { t, job, .. } => Fact::Finish { job, t, late: false },
        });
    }
}
