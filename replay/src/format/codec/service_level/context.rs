//! The context of a block of service-level records: what the records so far tell
//! about the next one, moved past every record by one rule on both sides.

use kernel::log::Body;
use kernel::service_level::{Decision, Event, LevelId, MachineId};
use kernel::{JobId, Tick};

use super::super::reservation::ReservationContext;
use super::super::tag::START;

/// Machines whose last decision time and last started job are kept in the context;
/// decisions on other machines are encoded against a context of zeros.
pub const TRACKED_MACHINES: usize = 64;

/// One machine's part of the context.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct MachineContext {
    /// The time of its last Start, Preempt or Complete.
    pub(super) time: Tick,
    /// The job of its last Start.
    pub(super) started: JobId,
}

/// The last submit's fields.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct LastSubmit {
    pub(super) t: Tick,
    pub(super) job: JobId,
    pub(super) p: Tick,
    pub(super) level: LevelId,
}

/// What the records of a block so far tell about the next one.
#[derive(Clone, Debug)]
pub(super) struct Context {
    /// The time of the last Submit or Advance; 0 after a Reset.
    pub(super) now: Tick,
    pub(super) submit: LastSubmit,
    /// The machine of the last Accept, Start, Preempt or Complete.
    pub(super) machine: MachineId,
    pub(super) machines: [MachineContext; TRACKED_MACHINES],
    /// The last reservation request; its time is `now`.
    pub(super) reservation: ReservationContext,
}

impl Context {
    /// The context at the start of a block: all zeros.
    pub(super) fn new() -> Self {
        Self {
            now: 0,
            submit: LastSubmit::default(),
            machine: 0,
            machines: [MachineContext::default(); TRACKED_MACHINES],
            reservation: ReservationContext::default(),
        }
    }

    pub(super) fn machine(&self, machine: MachineId) -> MachineContext {
        self.machines.get(usize::from(machine)).copied().unwrap_or_default()
    }

    /// Moves the context past `body`; writer and reader call this after every record
    /// (the writer through the one method of the record's kind below).
    pub(super) fn update(&mut self, body: &Body) {
        match *body {
            Body::Event(Event::Submit { t, job, p, level }) => self.submitted(t, job, p, level),
            Body::Event(Event::Advance { t }) => self.now = t,
            Body::Event(Event::Reset) => self.reset(),
            Body::Decision(Decision::Accept { machine, .. }) => self.machine = machine,
            Body::Decision(Decision::Reject { .. }) => {}
            Body::Decision(Decision::Start { t, job, machine }) => self.started(t, job, machine),
            Body::Decision(Decision::Preempt { t, machine, .. } | Decision::Complete { t, machine, .. }) => {
                self.stopped(t, machine);
            }
            Body::ReservationEvent(event) => self.reservation.update(&event, &mut self.now),
            Body::ReservationDecision(_) => {}
            // Another model's log keeps its own context, in its own tag space.
            _ => {}
        }
    }

    /// Past a Submit.
    #[inline]
    pub(super) fn submitted(&mut self, t: Tick, job: JobId, p: Tick, level: LevelId) {
        self.now = t;
        self.submit = LastSubmit { t, job, p, level };
    }

    /// Past a Reset.
    pub(super) fn reset(&mut self) {
        self.now = 0;
        self.machines = [MachineContext::default(); TRACKED_MACHINES];
    }

    /// Past a Start.
    #[inline]
    pub(super) fn started(&mut self, t: Tick, job: JobId, machine: MachineId) {
        self.machine = machine;
        if let Some(m) = self.machines.get_mut(usize::from(machine)) {
            *m = MachineContext { time: t, started: job };
        }
    }

    /// Past a Preempt or a Complete.
    #[inline]
    pub(super) fn stopped(&mut self, t: Tick, machine: MachineId) {
        self.machine = machine;
        if let Some(m) = self.machines.get_mut(usize::from(machine)) {
            m.time = t;
        }
    }

    /// The job a Start, Preempt or Complete on `machine` is expected to name: for a
    /// Start the last submitted job (it preempts or starts on an idle machine), for
    /// a Preempt or Complete the job the machine last started.
    pub(super) fn expected_job(&self, kind: u8, machine: MachineId) -> JobId {
        if kind == START { self.submit.job } else { self.machine(machine).started }
    }
}
