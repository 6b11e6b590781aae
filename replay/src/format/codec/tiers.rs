//! The tiers kernel's records: their own tag space, used for every record of a log
//! whose header has a `tiers` configuration (`docs/log-format.md`, "Tiers records").
//!
//! A record is a tag byte (its kind, below), then varints. Times are zigzag steps from
//! the context's `now` (the last event's time, 0 at a block's start), a submit's job a
//! step from the last submitted job plus one, an accept's or reject's job a step from
//! the last submitted job, every other job a plain varint. Small enums are one byte.

use kernel::JobId;
use kernel::tiers::{Decision, Event, RejectReason, Request, Tier, Violation};

use super::error::CodecError;
use crate::format::varint::{self, Cursor};
use kernel::log::Body;

use super::TagSpace;
use crate::format::TiersHeader;

const SUBMIT: u8 = 0;
const ADVANCE: u8 = 1;
const FINISH: u8 = 2;
const LEAVE: u8 = 3;
const RETURN: u8 = 4;
const RESET: u8 = 5;
const ACCEPT: u8 = 16;
const REJECT: u8 = 17;
const MOVE: u8 = 18;
const START: u8 = 19;
const END: u8 = 20;
const LOST: u8 = 21;
const REPLACE: u8 = 22;
const VIOLATE: u8 = 23;

/// What the records of a block so far tell about the next one.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct TiersContext {
    now: u64,
    last_job: JobId,
}

impl TiersContext {
    fn update_event(&mut self, event: &Event) {
        if let Some(t) = event.time() {
            self.now = t;
        }
        match *event {
            Event::Submit(r) => self.last_job = r.job,
            Event::Reset => *self = Self::default(),
            _ => {}
        }
    }
}

fn time(out: &mut Vec<u8>, c: &TiersContext, t: u64) {
    varint::put(out, varint::step(c.now, t));
}

/// Appends an event and moves the context past it.
pub(super) fn put_event(event: &Event, c: &mut TiersContext, out: &mut Vec<u8>) {
    match *event {
        Event::Submit(r) => {
            out.push(SUBMIT);
            time(out, c, r.t);
            varint::put(out, varint::step32(c.last_job.wrapping_add(1), r.job));
            out.push(tier_byte(r.tier));
            varint::put(out, r.work);
            varint::put(out, varint::step(r.t, r.ready));
            varint::put(out, varint::step(r.ready, r.deadline));
        }
        Event::Advance { t } => {
            out.push(ADVANCE);
            time(out, c, t);
        }
        Event::Finish { t, job } => {
            out.push(FINISH);
            time(out, c, t);
            varint::put(out, u64::from(job));
        }
        Event::Leave { t, resource } | Event::Return { t, resource } => {
            out.push(if matches!(event, Event::Leave { .. }) { LEAVE } else { RETURN });
            time(out, c, t);
            out.push(resource);
        }
        Event::Reset => out.push(RESET),
    }
    c.update_event(event);
}

/// Appends a decision (decisions do not move the context).
pub(super) fn put_decision(decision: &Decision, c: &TiersContext, out: &mut Vec<u8>) {
    match *decision {
        Decision::Accept { job, resource, start } => {
            out.push(ACCEPT);
            varint::put(out, varint::step32(c.last_job, job));
            out.push(resource);
            time(out, c, start);
        }
        Decision::Reject { job, reason } => {
            out.push(REJECT);
            varint::put(out, varint::step32(c.last_job, job));
            out.push(reason_byte(reason));
        }
        Decision::Move { job, resource, start, for_job } => {
            out.push(MOVE);
            varint::put(out, u64::from(job));
            out.push(resource);
            time(out, c, start);
            varint::put(out, varint::step32(c.last_job, for_job));
        }
        Decision::Start { t, job } => {
            out.push(START);
            time(out, c, t);
            varint::put(out, u64::from(job));
        }
        Decision::End { t, job, late } => {
            out.push(END);
            time(out, c, t);
            varint::put(out, u64::from(job));
            out.push(u8::from(late));
        }
        Decision::Lost { t, job, running } => {
            out.push(LOST);
            time(out, c, t);
            varint::put(out, u64::from(job));
            out.push(u8::from(running));
        }
        Decision::Replace { job, resource, start } => {
            out.push(REPLACE);
            varint::put(out, u64::from(job));
            out.push(resource);
            time(out, c, start);
        }
        Decision::Violate { t, job, why } => {
            out.push(VIOLATE);
            time(out, c, t);
            varint::put(out, u64::from(job));
            out.push(match why {
                Violation::Late => 0,
                Violation::Lost => 1,
            });
        }
    }
}

/// A decoded tiers record.
pub(super) enum Decoded {
    Event(Event),
    Decision(Decision),
}

/// Decodes one record and moves the context past it.
pub(super) fn get(c: &mut TiersContext, cursor: &mut Cursor<'_>) -> Result<Decoded, CodecError> {
    let tag = cursor.byte()?;
    // Events and decisions have tags on either side of `ACCEPT`; each half refuses the
    // tags of its side that name no record.
    let decoded = if tag < ACCEPT {
        Decoded::Event(get_event(tag, c, cursor)?)
    } else {
        Decoded::Decision(get_decision(tag, c, cursor)?)
    };
    if let Decoded::Event(event) = &decoded {
        c.update_event(event);
    }
    Ok(decoded)
}

/// The fields of the event whose tag is `tag`.
fn get_event(tag: u8, c: &TiersContext, cursor: &mut Cursor<'_>) -> Result<Event, CodecError> {
    Ok(match tag {
        SUBMIT => {
            let at = get_time(c, cursor)?;
            let job = get_job(c.last_job.wrapping_add(1), cursor)?;
            let tier = tier_of(cursor.byte()?).ok_or(CodecError::Tag(tag))?;
            let work = cursor.u64()?;
            let ready = varint::add_step(at, cursor.u64()?);
            let deadline = varint::add_step(ready, cursor.u64()?);
            Event::Submit(Request { t: at, job, tier, work, ready, deadline })
        }
        ADVANCE => Event::Advance { t: get_time(c, cursor)? },
        FINISH => Event::Finish { t: get_time(c, cursor)?, job: cursor.u32()? },
        LEAVE => Event::Leave { t: get_time(c, cursor)?, resource: cursor.byte()? },
        RETURN => Event::Return { t: get_time(c, cursor)?, resource: cursor.byte()? },
        RESET => Event::Reset,
        _ => return Err(CodecError::Tag(tag)),
    })
}

/// The fields of the decision whose tag is `tag`.
fn get_decision(tag: u8, c: &TiersContext, cursor: &mut Cursor<'_>) -> Result<Decision, CodecError> {
    Ok(match tag {
        ACCEPT => {
            let job = get_job(c.last_job, cursor)?;
            Decision::Accept { job, resource: cursor.byte()?, start: get_time(c, cursor)? }
        }
        REJECT => {
            let job = get_job(c.last_job, cursor)?;
            let byte = cursor.byte()?;
            Decision::Reject { job, reason: reason_of(byte).ok_or(CodecError::Reason(byte))? }
        }
        MOVE => {
            let job = cursor.u32()?;
            let resource = cursor.byte()?;
            let start = get_time(c, cursor)?;
            let for_job = get_job(c.last_job, cursor)?;
            Decision::Move { job, resource, start, for_job }
        }
        START => Decision::Start { t: get_time(c, cursor)?, job: cursor.u32()? },
        END => Decision::End { t: get_time(c, cursor)?, job: cursor.u32()?, late: get_flag(tag, cursor)? },
        LOST => {
            Decision::Lost { t: get_time(c, cursor)?, job: cursor.u32()?, running: get_flag(tag, cursor)? }
        }
        REPLACE => {
            let job = cursor.u32()?;
            Decision::Replace { job, resource: cursor.byte()?, start: get_time(c, cursor)? }
        }
        VIOLATE => {
            let (at, job) = (get_time(c, cursor)?, cursor.u32()?);
            let why = match cursor.byte()? {
                0 => Violation::Late,
                1 => Violation::Lost,
                _ => return Err(CodecError::Tag(tag)),
            };
            Decision::Violate { t: at, job, why }
        }
        _ => return Err(CodecError::Tag(tag)),
    })
}

/// A time: a zigzag step from the context's `now`.
fn get_time(c: &TiersContext, cursor: &mut Cursor<'_>) -> Result<u64, CodecError> {
    Ok(varint::add_step(c.now, cursor.u64()?))
}

/// A job: a step from `base`.
fn get_job(base: JobId, cursor: &mut Cursor<'_>) -> Result<JobId, CodecError> {
    varint::add_step32(base, cursor.u64()?).ok_or(CodecError::Range)
}

/// A flag byte, 0 or 1; any other value makes the record's `tag` malformed.
fn get_flag(tag: u8, cursor: &mut Cursor<'_>) -> Result<bool, CodecError> {
    match cursor.byte()? {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(CodecError::Tag(tag)),
    }
}

const fn tier_byte(tier: Tier) -> u8 {
    match tier {
        Tier::Gold => 0,
        Tier::Silver => 1,
        Tier::Bronze => 2,
    }
}

const fn tier_of(byte: u8) -> Option<Tier> {
    Some(match byte {
        0 => Tier::Gold,
        1 => Tier::Silver,
        2 => Tier::Bronze,
        _ => return None,
    })
}

const REASONS: [RejectReason; 10] = [
    RejectReason::NoRoom,
    RejectReason::TableFull,
    RejectReason::BadRequest,
    RejectReason::WindowPassed,
    RejectReason::DuplicateJob,
    RejectReason::TimeWentBackwards,
    RejectReason::NotRunning,
    RejectReason::UnknownResource,
    RejectReason::BadAvailability,
    RejectReason::Overflow,
];

fn reason_byte(reason: RejectReason) -> u8 {
    REASONS.iter().position(|r| *r == reason).map_or(u8::MAX, |i| i as u8)
}

fn reason_of(byte: u8) -> Option<RejectReason> {
    REASONS.get(usize::from(byte)).copied()
}


impl TagSpace for TiersContext {
    fn start_block(&mut self) {
        *self = Self::default();
    }

    fn encode(&mut self, body: &Body, out: &mut Vec<u8>) {
        match *body {
            Body::TiersEvent(event) => put_event(&event, self, out),
            Body::TiersDecision(decision) => put_decision(&decision, self, out),
            _ => out.push(u8::MAX),
        }
    }

    fn decode(&mut self, cursor: &mut Cursor<'_>) -> Result<Body, CodecError> {
        Ok(match get(self, cursor)? {
            Decoded::Event(event) => Body::TiersEvent(event),
            Decoded::Decision(decision) => Body::TiersDecision(decision),
        })
    }
}

/// The tag space of a tiers log: its context, empty at the start of a block.
pub(super) fn space(_: &TiersHeader) -> Box<dyn TagSpace> {
    Box::new(TiersContext::default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_bytes_and_round_trip() {
        let mut writer = TiersContext::default();
        let mut out = Vec::new();
        let submit = Event::Submit(Request {
            t: 100,
            job: 1,
            tier: Tier::Silver,
            work: 20,
            ready: 150,
            deadline: 200,
        });
        put_event(&submit, &mut writer, &mut out);
        // tag, t step +100 (zigzag 200), job step 0, tier 1, work 20, ready +50, deadline +50.
        assert_eq!(out, [SUBMIT, 0xc8, 0x01, 0x00, 0x01, 20, 100, 100]);
        let accept = Decision::Accept { job: 1, resource: 3, start: 150 };
        let from = out.len();
        put_decision(&accept, &writer, &mut out);
        assert_eq!(out[from..], [ACCEPT, 0x00, 0x03, 100]);
        let violate = Decision::Violate { t: 90, job: 4, why: Violation::Lost };
        put_decision(&violate, &writer, &mut out);
        let mut reader = TiersContext::default();
        let mut cursor = Cursor::new(&out, 0);
        assert!(matches!(get(&mut reader, &mut cursor), Ok(Decoded::Event(e)) if e == submit));
        assert!(matches!(get(&mut reader, &mut cursor), Ok(Decoded::Decision(d)) if d == accept));
        assert!(matches!(get(&mut reader, &mut cursor), Ok(Decoded::Decision(d)) if d == violate));
        let mut bad = Cursor::new(&[9u8], 0);
        assert!(matches!(get(&mut reader, &mut bad), Err(CodecError::Tag(9))));
    }
}
