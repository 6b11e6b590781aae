//! The v3 records of the reservation kernel: `Body::ReservationEvent` and
//! `Body::ReservationDecision`. `docs/log-format.md` ("Reservation records") is the
//! spec.
//!
//! They live in the tag space that version 2 left malformed: kind 2 (`Reset`) with
//! non-zero flags. The five flag bits name the record (and, where it is cheap, a small
//! field: a request's kind, an end's `early` and `cut`), so no service-level tag
//! changes meaning. Fields are steps from what the block's context says: the last
//! event's time and the last request's job and estimate.

use kernel::JobId;
use kernel::Tick;
use kernel::reservation::{Decision, Event, RejectReason, Request, RequestKind};

use super::super::varint::{self, Cursor};
use super::error::CodecError;
use super::tag::{RESET, tag};
use super::TagSpace;
use crate::format::ReservationHeader;

// Record numbers: the tag's flags, `tag >> 3`, of kind 2.
const REQUEST_STRICT: u8 = 1;
const REQUEST_RELAXED: u8 = 2;
const REQUEST_FLEXIBLE: u8 = 3;
const ADVANCE: u8 = 4;
const FINISH: u8 = 5;
const RESET_ALL: u8 = 6;
const ACCEPT: u8 = 7;
const REJECT: u8 = 8;
const OFFER: u8 = 9;
const REPLAN: u8 = 10;
const FIX: u8 = 11;
const START: u8 = 12;
/// An `End`: this plus 1 when `early`, plus 2 when `cut` (13 to 16).
const END: u8 = 13;
/// The last record number in use; 17 to 31 are malformed.
const LAST: u8 = END + 3;

/// What the reservation records of a block so far tell about the next one.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct ReservationContext {
    /// The job of the last `Request`.
    pub job: JobId,
    /// The estimate of the last `Request`.
    pub estimate: Tick,
}

impl ReservationContext {
    /// Moves the context past an event; `now` is the block context's event time.
    pub(super) fn update(&mut self, event: &Event, now: &mut Tick) {
        match *event {
            Event::Request(request) => {
                *now = request.t;
                self.job = request.job;
                self.estimate = request.estimate;
            }
            Event::Advance { t } | Event::Finish { t, .. } => *now = t,
            Event::Reset => {
                *now = 0;
                *self = Self::default();
            }
        }
    }
}

/// Whether a tag of kind 2 with these flags is a reservation record.
pub(super) const fn is_reservation(flags: u8) -> bool {
    flags >= REQUEST_STRICT && flags <= LAST
}

/// Appends a reservation event.
pub(super) fn put_event(event: &Event, now: Tick, context: &ReservationContext, out: &mut Vec<u8>) {
    match *event {
        Event::Request(r) => {
            let number = match r.kind {
                RequestKind::Strict => REQUEST_STRICT,
                RequestKind::RelaxedStart => REQUEST_RELAXED,
                RequestKind::Flexible => REQUEST_FLEXIBLE,
            };
            out.push(tag(RESET, number));
            varint::put(out, varint::step(now, r.t));
            varint::put(out, varint::step32(context.job.wrapping_add(1), r.job));
            varint::put(out, u64::from(r.nodes));
            varint::put(out, r.estimate);
            varint::put(out, varint::step(r.t, r.ready));
            varint::put(out, varint::step(r.ready.wrapping_add(r.estimate), r.deadline));
            varint::put(out, u64::from(r.shuffle_key));
        }
        Event::Advance { t } => {
            out.push(tag(RESET, ADVANCE));
            varint::put(out, varint::step(now, t));
        }
        Event::Finish { t, job } => put_time_job(FINISH, t, job, now, context, out),
        Event::Reset => out.push(tag(RESET, RESET_ALL)),
    }
}

/// Appends a reservation decision.
pub(super) fn put_decision(decision: &Decision, now: Tick, context: &ReservationContext, out: &mut Vec<u8>) {
    let job_step = |job: JobId| varint::step32(context.job, job);
    match *decision {
        Decision::Accept { job, start } | Decision::Replan { job, start } => {
            let number = if matches!(decision, Decision::Accept { .. }) { ACCEPT } else { REPLAN };
            out.push(tag(RESET, number));
            varint::put(out, job_step(job));
            varint::put(out, varint::step(now, start));
        }
        Decision::Reject { job, reason } => {
            out.push(tag(RESET, REJECT));
            varint::put(out, job_step(job));
            out.push(reason_byte(reason));
        }
        Decision::Offer { job, ready, deadline, start } => {
            out.push(tag(RESET, OFFER));
            varint::put(out, job_step(job));
            varint::put(out, varint::step(now, ready));
            varint::put(out, varint::step(ready.wrapping_add(context.estimate), deadline));
            varint::put(out, varint::step(ready, start));
        }
        Decision::Fix { t, job } => put_time_job(FIX, t, job, now, context, out),
        Decision::Start { t, job } => put_time_job(START, t, job, now, context, out),
        Decision::End { t, job, early, cut } => {
            let number = END + u8::from(early) + 2 * u8::from(cut);
            put_time_job(number, t, job, now, context, out);
        }
    }
}

fn put_time_job(number: u8, t: Tick, job: JobId, now: Tick, context: &ReservationContext, out: &mut Vec<u8>) {
    out.push(tag(RESET, number));
    varint::put(out, varint::step(now, t));
    varint::put(out, varint::step32(context.job, job));
}

/// A reservation event or decision, once its tag said it is one (`number` is the
/// tag's flags, checked by [`is_reservation`]).
pub(super) enum Decoded {
    Event(Event),
    Decision(Decision),
}

/// Decodes the fields of the reservation record numbered `number`.
pub(super) fn get(
    number: u8,
    now: Tick,
    context: &ReservationContext,
    cursor: &mut Cursor<'_>,
) -> Result<Decoded, CodecError> {
    Ok(match number {
        REQUEST_STRICT | REQUEST_RELAXED | REQUEST_FLEXIBLE => {
            Decoded::Event(Event::Request(get_request(number, now, context, cursor)?))
        }
        ADVANCE => Decoded::Event(Event::Advance { t: time(cursor, now)? }),
        FINISH => {
            let t = time(cursor, now)?;
            Decoded::Event(Event::Finish { t, job: job(cursor, context.job)? })
        }
        RESET_ALL => Decoded::Event(Event::Reset),
        // `is_reservation` let through only the numbers in use, and the rest are
        // decisions.
        _ => Decoded::Decision(get_decision(number, now, context, cursor)?),
    })
}

/// The fields of a request whose record number (its kind) is `number`.
fn get_request(
    number: u8,
    now: Tick,
    context: &ReservationContext,
    cursor: &mut Cursor<'_>,
) -> Result<Request, CodecError> {
    let kind = match number {
        REQUEST_STRICT => RequestKind::Strict,
        REQUEST_RELAXED => RequestKind::RelaxedStart,
        _ => RequestKind::Flexible,
    };
    let t = time(cursor, now)?;
    let job = job(cursor, context.job.wrapping_add(1))?;
    let nodes = cursor.u32()?;
    let estimate = cursor.u64()?;
    let ready = time(cursor, t)?;
    let deadline = time(cursor, ready.wrapping_add(estimate))?;
    let shuffle_key = cursor.u32()?;
    Ok(Request { t, job, nodes, estimate, ready, deadline, kind, shuffle_key })
}

/// The fields of the decision numbered `number`.
fn get_decision(
    number: u8,
    now: Tick,
    context: &ReservationContext,
    cursor: &mut Cursor<'_>,
) -> Result<Decision, CodecError> {
    Ok(match number {
        ACCEPT | REPLAN => {
            let job = job(cursor, context.job)?;
            let start = time(cursor, now)?;
            if number == ACCEPT { Decision::Accept { job, start } } else { Decision::Replan { job, start } }
        }
        REJECT => {
            let job = job(cursor, context.job)?;
            let byte = cursor.byte()?;
            let reason = reason_of(byte).ok_or(CodecError::Reason(byte))?;
            Decision::Reject { job, reason }
        }
        OFFER => {
            let job = job(cursor, context.job)?;
            let ready = time(cursor, now)?;
            let deadline = time(cursor, ready.wrapping_add(context.estimate))?;
            let start = time(cursor, ready)?;
            Decision::Offer { job, ready, deadline, start }
        }
        _ => {
            let t = time(cursor, now)?;
            let job = job(cursor, context.job)?;
            match number {
                FIX => Decision::Fix { t, job },
                START => Decision::Start { t, job },
                _ => {
                    let bits = number - END;
                    Decision::End { t, job, early: bits & 1 != 0, cut: bits & 2 != 0 }
                }
            }
        }
    })
}

/// A job: a step from `base`.
fn job(cursor: &mut Cursor<'_>, base: JobId) -> Result<JobId, CodecError> {
    varint::add_step32(base, cursor.u64()?).ok_or(CodecError::Range)
}

/// A time: a zigzag step from `base`, modulo 2^64.
fn time(cursor: &mut Cursor<'_>, base: Tick) -> Result<Tick, CodecError> {
    Ok(varint::add_step(base, cursor.u64()?))
}

/// A reason's byte: its discriminant in the log format (as in the kernel's postcard).
const fn reason_byte(reason: RejectReason) -> u8 {
    match reason {
        RejectReason::TimeWentBackwards => 0,
        RejectReason::ZeroNodes => 1,
        RejectReason::TooManyNodes => 2,
        RejectReason::ZeroEstimate => 3,
        RejectReason::WindowTooShort => 4,
        RejectReason::KindMismatch => 5,
        RejectReason::WindowPassed => 6,
        RejectReason::DuplicateJob => 7,
        RejectReason::QueueFull => 8,
        RejectReason::BeyondHorizon => 9,
        RejectReason::NoRoom => 10,
        RejectReason::NotRunning => 11,
    }
}

const fn reason_of(byte: u8) -> Option<RejectReason> {
    Some(match byte {
        0 => RejectReason::TimeWentBackwards,
        1 => RejectReason::ZeroNodes,
        2 => RejectReason::TooManyNodes,
        3 => RejectReason::ZeroEstimate,
        4 => RejectReason::WindowTooShort,
        5 => RejectReason::KindMismatch,
        6 => RejectReason::WindowPassed,
        7 => RejectReason::DuplicateJob,
        8 => RejectReason::QueueFull,
        9 => RejectReason::BeyondHorizon,
        10 => RejectReason::NoRoom,
        11 => RejectReason::NotRunning,
        _ => return None,
    })
}

/// The tag space of a reservation log: the service level's, without levels.
pub(super) fn space(_: &ReservationHeader) -> Box<dyn TagSpace> {
    super::service_level_space(&[])
}

