//! The service-level records (v2, plus the reservation records of v3, which share
//! its tag space): a tag byte per record, then only what the context of the block so
//! far does not already say. `docs/log-format.md` ("Records", "Reservation records")
//! is the spec.
//!
//! The tag's low three bits are the kind (which event or decision, module `tag`), its
//! high five bits are small fields and flags. The context holds the last event's time,
//! the last submit, the machine of the last decision that named one, and per machine
//! the time of its last decision and the job it last started. From it the codec
//! predicts what most records repeat (the job an `Accept` answers, its deadline, the
//! job a `Complete` ends, a decision's machine) and stores only the exceptions, so
//! every record still round-trips exactly, whatever its values.
//!
//! Writer and reader run the same [`ServiceLevelCodec`]: the context moves after every
//! record by one rule (`Context::update`) on both sides, and starts afresh at every
//! block, so a block decodes on its own given the header's level table.
//!
//! The reservation kernel's records (module `reservation`) use tags that v2 left
//! malformed (a `Reset` with flags), so v2 blocks decode exactly as before; they are
//! dispatched from here because they share this context's event time.

use kernel::log::Body;
use kernel::service_level::{Decision, Event, Level, LevelId, MachineId, RejectReason};
use kernel::{JobId, Tick};

use self::context::Context;
use super::error::CodecError;
use super::reservation;
use super::tag::{ACCEPT, ADVANCE, COMPLETE, PREEMPT, REJECT, RESET, START, SUBMIT, tag};
use crate::format::varint::{self, Cursor};
use super::TagSpace;
use crate::format::ServiceLevelHeader;

pub(super) mod context;

pub use self::context::TRACKED_MACHINES;

// Flags: the tag's high five bits, `tag >> 3`.
/// Every kind that names a job: the job is not the predicted one, and follows (for
/// an Accept, the deadline follows too).
const EXPLICIT_JOB: u8 = 1 << 4;
/// Submit, bits 0 to 3: the level, or this value when a level byte follows.
const LEVEL_ESCAPE: u8 = 15;
/// Accept, bits 0 to 2: the machine, or this value when a varint machine follows.
const MACHINE_ESCAPE: u8 = 7;
/// Accept: a preempted job follows.
const PREEMPTED: u8 = 1 << 3;
/// Advance: the time is `Tick::MAX` (drain every queue), and nothing follows.
const DRAIN: u8 = 1;
/// Start, Preempt, Complete: the machine is not the last decision's, and follows.
const EXPLICIT_MACHINE: u8 = 1 << 2;
/// Reject, Start, Preempt, Complete: bits that must be clear.
const RESERVED: u8 = 1 << 3;

// Start, Preempt, Complete, bits 0 and 1: how the time is given.
/// The machine's last decision time.
const AT_MACHINE_TIME: u8 = 0;
/// The event's time.
const AT_EVENT_TIME: u8 = 1;
/// The machine's last decision time plus a varint.
const AFTER_MACHINE_TIME: u8 = 2;
/// The event's time moved by a zigzag varint (modulo 2^64).
const AROUND_EVENT_TIME: u8 = 3;

/// Encodes and decodes the records of a service-level or reservation log against the
/// context of their block.
#[derive(Clone, Debug)]
pub(super) struct ServiceLevelCodec {
    levels: Box<[Level]>,
    context: Context,
}

impl ServiceLevelCodec {
    /// A codec for a log whose header holds `levels`, at the start of a block.
    pub(super) fn new(levels: &[Level]) -> Self {
        Self { levels: levels.into(), context: Context::new() }
    }

    /// Forgets the context: the next record is the first of a block.
    pub(super) fn start_block(&mut self) {
        self.context = Context::new();
    }

    /// The deadline an `Accept` of the last submitted job gets from its level, if any.
    fn expected_deadline(&self) -> Option<Tick> {
        let submit = &self.context.submit;
        let level = self.levels.get(usize::from(submit.level))?;
        level.deadline(submit.t, submit.p)
    }

    /// Appends `body` to `out` (at most [`super::RECORD_MAX_BYTES`]), and moves the
    /// context past it as [`Context::update`] does, in the same arm: one dispatch on
    /// the record's kind, where a second would cost a mispredicted jump most records.
    pub(super) fn encode(&mut self, body: &Body, out: &mut Vec<u8>) {
        match *body {
            Body::Event(Event::Submit { t, job, p, level }) => {
                self.put_submit(t, job, p, level, out);
                self.context.submitted(t, job, p, level);
            }
            Body::Event(Event::Advance { t: Tick::MAX }) => {
                out.push(tag(ADVANCE, DRAIN));
                self.context.now = Tick::MAX;
            }
            Body::Event(Event::Advance { t }) => {
                out.push(tag(ADVANCE, 0));
                varint::put(out, varint::step(self.context.now, t));
                self.context.now = t;
            }
            Body::Event(Event::Reset) => {
                out.push(tag(RESET, 0));
                self.context.reset();
            }
            Body::Decision(Decision::Accept { job, machine, deadline, preempted }) => {
                self.put_accept(job, machine, deadline, preempted, out);
                self.context.machine = machine;
            }
            Body::Decision(Decision::Reject { job, reason }) => {
                let expected = self.context.submit.job;
                let explicit = if job == expected { 0 } else { EXPLICIT_JOB };
                out.push(tag(REJECT, reason_bits(reason) | explicit));
                put_job(explicit, expected, job, out);
            }
            Body::Decision(Decision::Start { t, job, machine }) => {
                self.put_run(START, t, job, machine, out);
                self.context.started(t, job, machine);
            }
            Body::Decision(Decision::Preempt { t, job, machine }) => {
                self.put_run(PREEMPT, t, job, machine, out);
                self.context.stopped(t, machine);
            }
            Body::Decision(Decision::Complete { t, job, machine }) => {
                self.put_run(COMPLETE, t, job, machine, out);
                self.context.stopped(t, machine);
            }
            Body::ReservationEvent(event) => {
                reservation::put_event(&event, self.context.now, &self.context.reservation, out);
                self.context.update(body);
            }
            Body::ReservationDecision(decision) => {
                reservation::put_decision(&decision, self.context.now, &self.context.reservation, out);
            }
            // Another model's records only exist in its own logs, with their own tag
            // space; here their tag is one no reader accepts.
            _ => out.push(u8::MAX),
        }
    }

    fn put_submit(&self, t: Tick, job: JobId, p: Tick, level: LevelId, out: &mut Vec<u8>) {
        let expected = self.context.submit.job.wrapping_add(1);
        let explicit = if job == expected { 0 } else { EXPLICIT_JOB };
        let level_bits = level.min(LEVEL_ESCAPE);
        out.push(tag(SUBMIT, level_bits | explicit));
        varint::put(out, varint::step(self.context.now, t));
        put_job(explicit, expected, job, out);
        varint::put(out, p);
        if level_bits == LEVEL_ESCAPE {
            out.push(level);
        }
    }

    fn put_accept(
        &self,
        job: JobId,
        machine: MachineId,
        deadline: Tick,
        preempted: Option<JobId>,
        out: &mut Vec<u8>,
    ) {
        let expected = self.context.submit.job;
        let explicit = job != expected || self.expected_deadline() != Some(deadline);
        let machine_bits = u8::try_from(machine).map_or(MACHINE_ESCAPE, |m| m.min(MACHINE_ESCAPE));
        let mut flags = machine_bits;
        if explicit {
            flags |= EXPLICIT_JOB;
        }
        if preempted.is_some() {
            flags |= PREEMPTED;
        }
        out.push(tag(ACCEPT, flags));
        if machine_bits == MACHINE_ESCAPE {
            varint::put(out, u64::from(machine));
        }
        if explicit {
            varint::put(out, varint::step32(expected, job));
            varint::put(out, deadline);
        }
        if let Some(preempted) = preempted {
            varint::put(out, varint::step32(job, preempted));
        }
    }

    /// A Start, Preempt or Complete: the machine, the time and the job, each only as
    /// far as the context does not predict it.
    fn put_run(&self, kind: u8, t: Tick, job: JobId, machine: MachineId, out: &mut Vec<u8>) {
        let context = &self.context;
        let expected = context.expected_job(kind, machine);
        let (mode, step) = time_mode(t, context.machine(machine).time, context.now);
        let mut flags = mode;
        if machine != context.machine {
            flags |= EXPLICIT_MACHINE;
        }
        if job != expected {
            flags |= EXPLICIT_JOB;
        }
        out.push(tag(kind, flags));
        if flags & EXPLICIT_MACHINE != 0 {
            varint::put(out, u64::from(machine));
        }
        if let Some(step) = step {
            varint::put(out, step);
        }
        put_job(flags & EXPLICIT_JOB, expected, job, out);
    }

    /// Decodes the record at `cursor`, which must be the next one of its block.
    pub(super) fn decode(&mut self, cursor: &mut Cursor<'_>) -> Result<Body, CodecError> {
        let tag = cursor.byte()?;
        let flags = tag >> 3;
        let body = match tag & 7 {
            SUBMIT => Body::Event(self.get_submit(flags, cursor)?),
            ADVANCE if flags == DRAIN => Body::Event(Event::Advance { t: Tick::MAX }),
            ADVANCE if flags == 0 => {
                Body::Event(Event::Advance { t: varint::add_step(self.context.now, cursor.u64()?) })
            }
            RESET if flags == 0 => Body::Event(Event::Reset),
            RESET if reservation::is_reservation(flags) => {
                match reservation::get(flags, self.context.now, &self.context.reservation, cursor)? {
                    reservation::Decoded::Event(event) => Body::ReservationEvent(event),
                    reservation::Decoded::Decision(decision) => Body::ReservationDecision(decision),
                }
            }
            ACCEPT => Body::Decision(self.get_accept(flags, cursor)?),
            REJECT if flags & RESERVED == 0 => {
                let reason = reason_of(flags & 7).ok_or(CodecError::Tag(tag))?;
                let job = get_job(flags, self.context.submit.job, cursor)?;
                Body::Decision(Decision::Reject { job, reason })
            }
            kind @ (START | PREEMPT | COMPLETE) if flags & RESERVED == 0 => {
                Body::Decision(self.get_run(kind, flags, cursor)?)
            }
            _ => return Err(CodecError::Tag(tag)),
        };
        self.context.update(&body);
        Ok(body)
    }

    fn get_submit(&self, flags: u8, cursor: &mut Cursor<'_>) -> Result<Event, CodecError> {
        let t = varint::add_step(self.context.now, cursor.u64()?);
        let job = get_job(flags, self.context.submit.job.wrapping_add(1), cursor)?;
        let p = cursor.u64()?;
        let level = match flags & LEVEL_ESCAPE {
            LEVEL_ESCAPE => cursor.byte()?,
            level => level,
        };
        Ok(Event::Submit { t, job, p, level })
    }

    fn get_accept(&self, flags: u8, cursor: &mut Cursor<'_>) -> Result<Decision, CodecError> {
        let machine = match flags & MACHINE_ESCAPE {
            MACHINE_ESCAPE => cursor.u16()?,
            machine => MachineId::from(machine),
        };
        let expected = self.context.submit.job;
        let (job, deadline) = if flags & EXPLICIT_JOB != 0 {
            (get_job(flags, expected, cursor)?, cursor.u64()?)
        } else {
            (expected, self.expected_deadline().ok_or(CodecError::Deadline)?)
        };
        let preempted = if flags & PREEMPTED != 0 { Some(get_job(EXPLICIT_JOB, job, cursor)?) } else { None };
        Ok(Decision::Accept { job, machine, deadline, preempted })
    }

    fn get_run(&self, kind: u8, flags: u8, cursor: &mut Cursor<'_>) -> Result<Decision, CodecError> {
        let context = &self.context;
        let machine = if flags & EXPLICIT_MACHINE != 0 { cursor.u16()? } else { context.machine };
        let machine_time = context.machine(machine).time;
        let t = match flags & 3 {
            AT_MACHINE_TIME => machine_time,
            AT_EVENT_TIME => context.now,
            AFTER_MACHINE_TIME => machine_time.checked_add(cursor.u64()?).ok_or(CodecError::Range)?,
            _ => varint::add_step(context.now, cursor.u64()?),
        };
        let job = get_job(flags, context.expected_job(kind, machine), cursor)?;
        Ok(match kind {
            START => Decision::Start { t, job, machine },
            PREEMPT => Decision::Preempt { t, job, machine },
            _ => Decision::Complete { t, job, machine },
        })
    }
}

/// Appends the step from `expected` to `job` when `explicit` holds [`EXPLICIT_JOB`].
fn put_job(explicit: u8, expected: JobId, job: JobId, out: &mut Vec<u8>) {
    if explicit & EXPLICIT_JOB != 0 {
        varint::put(out, varint::step32(expected, job));
    }
}

/// The job: `expected`, or a step from it when `flags` holds [`EXPLICIT_JOB`].
fn get_job(flags: u8, expected: JobId, cursor: &mut Cursor<'_>) -> Result<JobId, CodecError> {
    if flags & EXPLICIT_JOB == 0 {
        return Ok(expected);
    }
    varint::add_step32(expected, cursor.u64()?).ok_or(CodecError::Range)
}

/// How a decision's time `t` is best given, against its machine's last decision time
/// and the event's time: the mode, and the varint that follows, if any. Ties go to
/// the earlier mode, so the choice is a function of the three times alone.
fn time_mode(t: Tick, machine_time: Tick, now: Tick) -> (u8, Option<u64>) {
    if t == machine_time {
        return (AT_MACHINE_TIME, None);
    }
    if t == now {
        return (AT_EVENT_TIME, None);
    }
    let around = varint::step(now, t);
    match t.checked_sub(machine_time) {
        Some(after) if varint::len(after) <= varint::len(around) => (AFTER_MACHINE_TIME, Some(after)),
        _ => (AROUND_EVENT_TIME, Some(around)),
    }
}

/// A reason's three bits: its discriminant in the log format.
const fn reason_bits(reason: RejectReason) -> u8 {
    match reason {
        RejectReason::NoFeasibleMachine => 0,
        RejectReason::QueueFull => 1,
        RejectReason::ZeroProcessingTime => 2,
        RejectReason::UnknownLevel => 3,
        RejectReason::TimeWentBackwards => 4,
        RejectReason::Overflow => 5,
    }
}

const fn reason_of(bits: u8) -> Option<RejectReason> {
    Some(match bits {
        0 => RejectReason::NoFeasibleMachine,
        1 => RejectReason::QueueFull,
        2 => RejectReason::ZeroProcessingTime,
        3 => RejectReason::UnknownLevel,
        4 => RejectReason::TimeWentBackwards,
        5 => RejectReason::Overflow,
        _ => return None,
    })
}

impl TagSpace for ServiceLevelCodec {
    fn start_block(&mut self) {
        ServiceLevelCodec::start_block(self);
    }

    fn encode(&mut self, body: &Body, out: &mut Vec<u8>) {
        ServiceLevelCodec::encode(self, body, out);
    }

    fn decode(&mut self, cursor: &mut Cursor<'_>) -> Result<Body, CodecError> {
        ServiceLevelCodec::decode(self, cursor)
    }
}

/// The tag space of a service-level log, with its header's levels.
pub(super) fn space(header: &ServiceLevelHeader) -> Box<dyn TagSpace> {
    Box::new(ServiceLevelCodec::new(&header.levels))
}

#[cfg(test)]
mod tests;
