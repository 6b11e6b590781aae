//! The admission kernel: `M` machines with `Q`-deep EDD queues and an `L`-entry
//! level table, driven one event at a time.

use heapless::Vec;
use serde::{Deserialize, Serialize};

use crate::event::{Decision, Event, Outcome};
use crate::level::{Level, SLACK_ONE_MILLI};
use crate::machine::Machine;
use crate::types::{JobId, LevelId, MachineId, RejectReason, Tick};

/// The order in which machines are offered a job.
///
/// Variants are only ever added at the end: the discriminant is part of the log header.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Policy {
    /// Machines in index order; the first that passes the test takes the job (the
    /// thesis' rule, and the default).
    #[default]
    FirstFit,
}

/// Everything that shapes the kernel's decisions besides its capacities.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Config<const L: usize> {
    /// Machines in use, `1..=M`.
    pub machines: u16,
    pub policy: Policy,
    /// The service levels; a submit names one by index.
    pub levels: Vec<Level, L>,
}

/// Why a configuration cannot build a kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum ConfigError {
    NoMachines,
    TooManyMachines {
        requested: u16,
        capacity: usize,
    },
    NoLevels,
    /// Level `index` has a slack factor below one.
    SlackBelowOne {
        index: usize,
    },
}

impl core::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            Self::NoMachines => write!(f, "at least one machine is needed"),
            Self::TooManyMachines { requested, capacity } => {
                write!(f, "{requested} machines asked for, the kernel was built for at most {capacity}")
            }
            Self::NoLevels => write!(f, "at least one service level is needed"),
            Self::SlackBelowOne { index } => write!(f, "level {index} has a slack factor below 1"),
        }
    }
}

/// The admission kernel. See the crate documentation for the rules it follows.
#[derive(Clone, Debug)]
pub struct Kernel<const M: usize, const Q: usize, const L: usize> {
    config: Config<L>,
    machines: [Machine<Q>; M],
    now: Tick,
}

impl<const M: usize, const Q: usize, const L: usize> Kernel<M, Q, L> {
    /// A kernel at time zero with every queue empty.
    pub fn new(config: Config<L>) -> Result<Self, ConfigError> {
        const { assert!(M > 0 && M <= MachineId::MAX as usize, "machine capacity out of range") };
        const { assert!(L > 0 && L <= LevelId::MAX as usize + 1, "level capacity out of range") };
        if config.machines == 0 {
            return Err(ConfigError::NoMachines);
        }
        if usize::from(config.machines) > M {
            return Err(ConfigError::TooManyMachines { requested: config.machines, capacity: M });
        }
        if config.levels.is_empty() {
            return Err(ConfigError::NoLevels);
        }
        if let Some(index) = config.levels.iter().position(|l| l.slack_milli < SLACK_ONE_MILLI) {
            return Err(ConfigError::SlackBelowOne { index });
        }
        Ok(Self { config, machines: core::array::from_fn(|_| Machine::new()), now: 0 })
    }

    pub fn config(&self) -> &Config<L> {
        &self.config
    }

    /// The time of the last event.
    pub fn now(&self) -> Tick {
        self.now
    }

    /// The machines in use, in index order.
    pub fn machines(&self) -> &[Machine<Q>] {
        self.machines.get(..usize::from(self.config.machines)).unwrap_or(&[])
    }

    /// Handles one event, hands every decision it causes to `sink` in order, and
    /// summarises the result.
    pub fn step<S: FnMut(Decision) + ?Sized>(&mut self, event: Event, sink: &mut S) -> Outcome {
        match event {
            Event::Submit { t, job, p, level } => self.submit(t, job, p, level, sink),
            Event::Advance { t } => {
                if t < self.now {
                    return Outcome::Refused(RejectReason::TimeWentBackwards);
                }
                self.advance(t, sink);
                Outcome::Advanced
            }
            Event::Reset => {
                self.machines.iter_mut().for_each(Machine::reset);
                self.now = 0;
                Outcome::Reset
            }
        }
    }

    fn advance<S: FnMut(Decision) + ?Sized>(&mut self, t: Tick, sink: &mut S) {
        let in_use = usize::from(self.config.machines);
        for (id, machine) in (0..).zip(self.machines.iter_mut().take(in_use)) {
            machine.advance(id, t, sink);
        }
        self.now = t;
    }

    fn submit<S: FnMut(Decision) + ?Sized>(
        &mut self,
        t: Tick,
        job: JobId,
        p: Tick,
        level: LevelId,
        sink: &mut S,
    ) -> Outcome {
        if t < self.now {
            return reject(job, RejectReason::TimeWentBackwards, sink);
        }
        self.advance(t, sink);
        if p == 0 {
            return reject(job, RejectReason::ZeroProcessingTime, sink);
        }
        let Some(level) = self.config.levels.get(usize::from(level)) else {
            return reject(job, RejectReason::UnknownLevel, sink);
        };
        let Some(deadline) = level.deadline(t, p) else {
            return reject(job, RejectReason::Overflow, sink);
        };
        match self.place(t, job, p, deadline, sink) {
            Ok(machine) => Outcome::Accepted { machine },
            Err(reason) => reject(job, reason, sink),
        }
    }

    /// Offers the job to the machines in policy order and admits it on the first
    /// that passes the test and has room.
    fn place<S: FnMut(Decision) + ?Sized>(
        &mut self,
        t: Tick,
        job: JobId,
        p: Tick,
        deadline: Tick,
        sink: &mut S,
    ) -> Result<MachineId, RejectReason> {
        let Policy::FirstFit = self.config.policy;
        let in_use = usize::from(self.config.machines);
        let mut full_seen = false;
        for (id, machine) in (0..).zip(self.machines.iter_mut().take(in_use)) {
            let Some(index) = machine.admission_test(t, p, deadline) else {
                continue;
            };
            let Ok(displaced) = machine.admit(index, job, p, deadline) else {
                full_seen = true;
                continue;
            };
            let preempted = displaced.filter(|d| d.processed).map(|d| d.job);
            sink(Decision::Accept { job, machine: id, deadline, preempted });
            if index == 0 {
                if let Some(old) = displaced {
                    sink(Decision::Preempt { t, job: old.job, machine: id });
                }
                sink(Decision::Start { t, job, machine: id });
            }
            return Ok(id);
        }
        Err(if full_seen { RejectReason::QueueFull } else { RejectReason::NoFeasibleMachine })
    }
}

fn reject<S: FnMut(Decision) + ?Sized>(job: JobId, reason: RejectReason, sink: &mut S) -> Outcome {
    sink(Decision::Reject { job, reason });
    Outcome::Rejected(reason)
}
