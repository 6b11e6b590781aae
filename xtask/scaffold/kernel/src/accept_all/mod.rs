//! The smallest model: every request is accepted at once, and the only rule is that
//! time does not go back (a request earlier than the last one decided is rejected).
//! It is the example of ARCHITECTURE.md's recipe for adding a model: `cargo xtask
//! scaffold` adds it, and nothing else, to a copy of the workspace.
//!
//! The kernel holds no list, so it has no capacity: [`Kernel::CAPACITIES`] is empty.

use serde::{Deserialize, Serialize};

use crate::contract::Kernel;
use crate::types::{JobId, Tick};

/// The configuration: nothing to choose.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Config {}

/// What goes in: a request for `job` at time `t`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Event {
    Submit { t: Tick, job: JobId },
}

impl Event {
    pub const fn time(&self) -> Tick {
        match *self {
            Self::Submit { t, .. } => t,
        }
    }
}

/// What comes out: one answer per request, at its time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Decision {
    Accept { t: Tick, job: JobId },
    Reject { t: Tick, job: JobId, reason: RejectReason },
}

/// Why a request is rejected.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum RejectReason {
    /// The request is earlier than the last one decided.
    Late,
}

impl RejectReason {
    pub const fn name(self) -> &'static str {
        match self {
            Self::Late => "late",
        }
    }
}

impl core::fmt::Display for RejectReason {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// What a step did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Accepted,
    Rejected(RejectReason),
}

/// The state machine: the time of the last request decided, and how many it accepted.
#[derive(Clone, Debug, Default)]
pub struct AcceptAllKernel {
    config: Config,
    now: Tick,
    accepted: u64,
}

impl Kernel for AcceptAllKernel {
    const MODEL: &'static str = "accept_all";
    const CAPACITIES: &'static [(&'static str, usize)] = &[];

    type Config = Config;
    type Event = Event;
    type Decision = Decision;
    type Outcome = Outcome;

    fn config(&self) -> &Config {
        &self.config
    }

    fn dispatch<S: FnMut(Decision) + ?Sized>(&mut self, event: Event, sink: &mut S) -> Outcome {
        let Event::Submit { t, job } = event;
        if t < self.now {
            let reason = RejectReason::Late;
            sink(Decision::Reject { t, job, reason });
            return Outcome::Rejected(reason);
        }
        self.now = t;
        self.accepted = self.accepted.saturating_add(1);
        sink(Decision::Accept { t, job });
        Outcome::Accepted
    }
}

impl AcceptAllKernel {
    pub const fn new(config: Config) -> Self {
        Self { config, now: 0, accepted: 0 }
    }

    /// The time of the last request accepted.
    pub const fn now(&self) -> Tick {
        self.now
    }

    pub const fn accepted(&self) -> u64 {
        self.accepted
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_request_in_time_order_is_accepted_and_a_late_one_rejected() {
        let mut kernel = AcceptAllKernel::new(Config {});
        let mut seen = [None; 3];
        for (i, t) in [5, 9, 7].into_iter().enumerate() {
            kernel.step(Event::Submit { t, job: i as u32 }, &mut |d| seen[i] = Some(d));
        }
        assert_eq!(seen[0], Some(Decision::Accept { t: 5, job: 0 }));
        assert_eq!(seen[1], Some(Decision::Accept { t: 9, job: 1 }));
        assert_eq!(seen[2], Some(Decision::Reject { t: 7, job: 2, reason: RejectReason::Late }));
        assert_eq!((kernel.now(), kernel.accepted()), (9, 2));
    }

    #[test]
    fn the_state_is_two_words_and_the_config() {
        assert_eq!(core::mem::size_of::<AcceptAllKernel>(), 16);
    }
}
