//! The admission kernel: `M` machines with `Q`-deep EDD queues and an `L`-entry
//! level table, driven one event at a time.

use heapless::Vec;
use serde::{Deserialize, Serialize};

use super::event::{Decision, Event, Outcome};
use super::level::{Level, SLACK_ONE_MILLI};
use super::machine::Machine;
use super::queue::Tail;
use super::types::{LevelId, MachineId, RejectReason};
use crate::contract;
use crate::types::{JobId, Tick};

mod due;
#[cfg(debug_assertions)]
mod invariants;

/// Which machine takes a job that more than one machine could take.
///
/// A machine is *feasible* for a job when it passes the admission test and has room
/// in its queue. Every policy admits the job on exactly one feasible machine, or
/// rejects it when there is none; they differ only in which. Scores are whole ticks
/// and ties go to the lowest machine index. The exact rules and their costs are in
/// the crate documentation, "Policies".
///
/// Variants are only ever added at the end: the discriminant is part of the log header.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Policy {
    /// Machines in index order; the first feasible one takes the job (the thesis'
    /// rule, and the default).
    #[default]
    FirstFit,
    /// The feasible machine with the least slack left after admission (see
    /// [`EddQueue::slack_after`](super::queue::EddQueue::slack_after)).
    BestFit,
    /// The feasible machine with the most slack left after admission.
    WorstFit,
    /// The feasible machine with the least remaining work before admission (the
    /// projected finish of its last queued job minus now; zero when idle).
    LeastLoaded,
    /// Machines in cyclic order starting after the last machine that admitted a job
    /// (at machine 0 after a reset or at the start); the first feasible one takes it.
    RoundRobin,
}

impl Policy {
    /// Every policy, in discriminant order.
    pub const ALL: [Self; 5] =
        [Self::FirstFit, Self::BestFit, Self::WorstFit, Self::LeastLoaded, Self::RoundRobin];

    /// The policy's name on command lines and in scenario files (`first-fit`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            Self::FirstFit => "first-fit",
            Self::BestFit => "best-fit",
            Self::WorstFit => "worst-fit",
            Self::LeastLoaded => "least-loaded",
            Self::RoundRobin => "round-robin",
        }
    }

    /// The policy called `name` (as [`Self::name`] writes it).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.name() == name)
    }
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
pub struct ServiceLevelKernel<const M: usize, const Q: usize, const L: usize> {
    config: Config<L>,
    machines: [Machine<Q>; M],
    /// Per machine, when its head completes (`Tick::MAX` when idle), and its
    /// queue's [`Tail`]: copies kept side by side, so that an advance finds the
    /// machines with a completion due, and most admission tests are settled, in a
    /// few cache lines rather than a read of every machine's queue. Refreshed
    /// ([`Self::mark`]) whenever a machine's queue changes.
    due: [Tick; M],
    /// At most the earliest of `due` over the machines in use (exactly it after an
    /// advance that ran any machine): an advance to an earlier time has nothing to
    /// run and skips the scan of `due` (most submits on HPC2N with 64 machines).
    earliest: Tick,
    tails: [Tail; M],
    now: Tick,
    /// The machine that admitted the last job since the start or the last reset:
    /// where [`Policy::RoundRobin`] resumes. Kept (and reset) under every policy.
    last_admitting: Option<MachineId>,
}

impl<const M: usize, const Q: usize, const L: usize> contract::Kernel for ServiceLevelKernel<M, Q, L> {
    #[cfg(debug_assertions)]
    fn check_invariants(&self) {
        self.assert_invariants();
    }

    const MODEL: &'static str = "service_level";
    type Config = Config<L>;
    type Event = Event;
    type Decision = Decision;
    type Outcome = Outcome;
    const CAPACITIES: &'static [(&'static str, usize)] =
        &[("machines (M)", M), ("queue entries (Q)", Q), ("service levels (L)", L)];

    fn config(&self) -> &Config<L> {
        &self.config
    }

    fn dispatch<S: FnMut(Decision) + ?Sized>(&mut self, event: Event, sink: &mut S) -> Outcome {
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
                self.due = [Tick::MAX; M];
                self.earliest = Tick::MAX;
                self.tails = [Tail::EMPTY; M];
                self.now = 0;
                self.last_admitting = None;
                Outcome::Reset
            }
        }
    }
}

impl<const M: usize, const Q: usize, const L: usize> ServiceLevelKernel<M, Q, L> {
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
        Ok(Self {
            config,
            // One constant, repeated: an empty queue's entries are never written, so
            // the kernel is built without writing (and a host without faulting in) the
            // queues' memory, where `array::from_fn` made several copies of it: on 64
            // machines of 256 entries, 478 KiB each (`host-sim run`'s page faults
            // went from about 1,050 to 560 on a one-job trace).
            machines: [const { Machine::new() }; M],
            due: [Tick::MAX; M],
            earliest: Tick::MAX,
            tails: [Tail::EMPTY; M],
            now: 0,
            last_admitting: None,
        })
    }

    pub fn config(&self) -> &Config<L> {
        &self.config
    }

    /// The time of the last event.
    pub fn now(&self) -> Tick {
        self.now
    }

    /// The machine that admitted the last job since the start or the last reset
    /// (where [`Policy::RoundRobin`] resumes).
    pub fn last_admitting(&self) -> Option<MachineId> {
        self.last_admitting
    }

    /// The machines in use, in index order.
    pub fn machines(&self) -> &[Machine<Q>] {
        self.machines.get(..usize::from(self.config.machines)).unwrap_or(&[])
    }

    /// [`contract::Kernel::step`], callable without the trait in scope.
    pub fn step<S: FnMut(Decision) + ?Sized>(&mut self, event: Event, sink: &mut S) -> Outcome {
        contract::Kernel::step(self, event, sink)
    }

    /// Runs every machine with a completion due by `t` up to `t`, in index order (the
    /// order of their decisions). The others are run up to the current time only
    /// when they admit a job ([`Self::place`]): until then nothing can happen on
    /// them, and touching only the machines with something to complete keeps an
    /// advance from reading every queue's head at every submit.
    fn advance<S: FnMut(Decision) + ?Sized>(&mut self, t: Tick, sink: &mut S) {
        if t < self.earliest {
            // No machine has a completion due by `t`.
            self.now = t;
            return;
        }
        let in_use = usize::from(self.config.machines);
        for first in (0..in_use).step_by(64) {
            // The machines of this group with a completion due, one bit each, found
            // without a branch per machine. `due` says `Tick::MAX` for an idle
            // machine too: the machine's own head decides at `t = Tick::MAX`.
            let group = self.due.get(first..in_use.min(first.saturating_add(64))).unwrap_or(&[]);
            let mut due = due::due_by(group, t);
            while due != 0 {
                let index = first.saturating_add(due.trailing_zeros() as usize);
                due &= due.wrapping_sub(1);
                let Ok(id) = MachineId::try_from(index) else { continue };
                if let Some(machine) = self.machines.get_mut(index).filter(|m| m.completes_by(t)) {
                    machine.advance(id, t, sink);
                    self.mark(index);
                }
            }
        }
        // The machines run above have new head finishes: the earliest again, exactly.
        self.earliest = self.earliest_due();
        self.now = t;
    }

    /// The earliest head finish over the machines in use (`Tick::MAX` when all idle).
    fn earliest_due(&self) -> Tick {
        let in_use = usize::from(self.config.machines);
        self.due.get(..in_use).and_then(|d| d.iter().min().copied()).unwrap_or(Tick::MAX)
    }

    /// Copies machine `index`'s head finish and tail into `due` and `tails`.
    fn mark(&mut self, index: usize) {
        let Some(queue) = self.machines.get(index).map(Machine::queue) else { return };
        let (due, tail) = (queue.head_finish().unwrap_or(Tick::MAX), queue.tail());
        if let (Some(d), Some(tl)) = (self.due.get_mut(index), self.tails.get_mut(index)) {
            (*d, *tl) = (due, tail);
        }
        self.earliest = self.earliest.min(due);
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

    /// Chooses a feasible machine by the policy and admits the job there.
    fn place<S: FnMut(Decision) + ?Sized>(
        &mut self,
        t: Tick,
        job: JobId,
        p: Tick,
        deadline: Tick,
        sink: &mut S,
    ) -> Result<MachineId, RejectReason> {
        let (id, index) = self.choose(t, p, deadline)?;
        let machine = self.machines.get_mut(usize::from(id)).ok_or(RejectReason::NoFeasibleMachine)?;
        // Brought up to `t` (nothing completes: `advance` ran every machine that had
        // a completion due), so the job is queued at the current time and a displaced
        // head knows whether it ran.
        machine.advance(id, t, sink);
        // `choose` saw room on this machine, so the queue cannot hand the job back.
        let Ok(displaced) = machine.admit(index, job, p, deadline) else {
            return Err(RejectReason::QueueFull);
        };
        self.mark(usize::from(id));
        self.last_admitting = Some(id);
        let preempted = displaced.filter(|d| d.processed).map(|d| d.job);
        sink(Decision::Accept { job, machine: id, deadline, preempted });
        if index == 0 {
            if let Some(old) = displaced {
                sink(Decision::Preempt { t, job: old.job, machine: id });
            }
            sink(Decision::Start { t, job, machine: id });
        }
        Ok(id)
    }

    /// The machine the policy picks and the queue index the job takes there, or why
    /// no machine can take it: `QueueFull` when a machine passed the test but had no
    /// room, `NoFeasibleMachine` otherwise.
    fn choose(&self, t: Tick, p: Tick, deadline: Tick) -> Result<(MachineId, usize), RejectReason> {
        let policy = self.config.policy;
        let in_use = self.machines();
        let count = self.config.machines;
        // Round robin starts after the last admitting machine; the others at 0.
        let first = match (policy, self.last_admitting) {
            (Policy::RoundRobin, Some(last)) => last.checked_add(1).filter(|&n| n < count).unwrap_or(0),
            _ => 0,
        };
        let order = (first..count).chain(0..first);
        let mut full_seen = false;
        // The best candidate so far: (machine, index, score).
        let mut best: Option<(MachineId, usize, Tick)> = None;
        for id in order {
            let Some(machine) = in_use.get(usize::from(id)) else { continue };
            // The tail settles most tests without the queue's search.
            let tail = self.tails.get(usize::from(id)).copied().unwrap_or(Tail::EMPTY);
            let tested = match tail.test(p, deadline) {
                Some(true) => machine.queue().test_last(t, p, deadline),
                Some(false) => None,
                None => machine.admission_test(t, p, deadline),
            };
            let Some(index) = tested else { continue };
            if machine.queue().is_full() {
                full_seen = true;
                continue;
            }
            let queue = machine.queue();
            let (score, better): (Tick, fn(Tick, Tick) -> bool) = match policy {
                Policy::FirstFit | Policy::RoundRobin => return Ok((id, index)),
                Policy::BestFit => (queue.slack_after(t, index, p, deadline), |new, old| new < old),
                Policy::WorstFit => (queue.slack_after(t, index, p, deadline), |new, old| new > old),
                Policy::LeastLoaded => (queue.remaining_work(t), |new, old| new < old),
            };
            // Machines come in index order here, so keeping the first of equal scores
            // breaks ties by index.
            if best.is_none_or(|(_, _, old)| better(score, old)) {
                best = Some((id, index, score));
            }
        }
        match best {
            Some((id, index, _)) => Ok((id, index)),
            None if full_seen => Err(RejectReason::QueueFull),
            None => Err(RejectReason::NoFeasibleMachine),
        }
    }
}

fn reject<S: FnMut(Decision) + ?Sized>(job: JobId, reason: RejectReason, sink: &mut S) -> Outcome {
    sink(Decision::Reject { job, reason });
    Outcome::Rejected(reason)
}
