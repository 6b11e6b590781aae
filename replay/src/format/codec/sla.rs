//! The SLA kernel's records: their own tag space, used for every record of a log whose
//! header's model is `Sla` (`docs/log-format.md`, "SLA records").
//!
//! A record is a tag byte (its kind, below), then varints. The context is the last
//! event's time `now` (0 at a block's start) and the last job any record named. Event
//! times and an accept's start are zigzag steps from `now`; a submit's job is a step from
//! the last job plus one (traces number jobs in submit order), a decision's job a step
//! from the last job (a plan's decisions come in priority order, often near each other);
//! a submit's `TS` is a step from its time, `tD` a plain varint and `TF` a step from `TS
//! + tD` (0 for a window with no slack). A reason is one byte.

use kernel::JobId;
use kernel::sla::{Decision, Event, RejectReason, Request};

use super::error::CodecError;
use crate::format::varint::{self, Cursor};
use kernel::log::Body;

use super::TagSpace;
use crate::format::SlaHeader;

const SUBMIT: u8 = 0;
const PLAN: u8 = 1;
const RESET: u8 = 2;
const ACCEPT: u8 = 16;
const REJECT: u8 = 17;

/// What the records of a block so far tell about the next one.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct SlaContext {
    now: u64,
    last_job: JobId,
}

/// Appends an event and moves the context past it.
pub(super) fn put_event(event: &Event, c: &mut SlaContext, out: &mut Vec<u8>) {
    match *event {
        Event::Submit { t, request: r } => {
            out.push(SUBMIT);
            varint::put(out, varint::step(c.now, t));
            varint::put(out, varint::step32(c.last_job.wrapping_add(1), r.job));
            varint::put(out, varint::step(t, r.ts));
            varint::put(out, r.td);
            varint::put(out, varint::step(r.ts.wrapping_add(r.td), r.tf));
            varint::put(out, u64::from(r.ncpu));
            c.last_job = r.job;
        }
        Event::Plan { t } | Event::Reset { t } => {
            out.push(if matches!(event, Event::Plan { .. }) { PLAN } else { RESET });
            varint::put(out, varint::step(c.now, t));
        }
    }
    c.now = event.time();
}

/// Appends a decision and moves the context past it.
pub(super) fn put_decision(decision: &Decision, c: &mut SlaContext, out: &mut Vec<u8>) {
    match *decision {
        Decision::Accept { job, start } => {
            out.push(ACCEPT);
            varint::put(out, varint::step32(c.last_job, job));
            varint::put(out, varint::step(c.now, start));
        }
        // A reject is written as the tiers codec writes one: tag, job delta, reason byte,
        // each codec over its own tags and reasons.
        Decision::Reject { job, reason } => {
            out.push(REJECT);
            varint::put(out, varint::step32(c.last_job, job));
            out.push(reason_byte(reason));
        }
    }
    c.last_job = decision.job();
}

/// A decoded SLA record.
pub(super) enum Decoded {
    Event(Event),
    Decision(Decision),
}

/// Decodes one record and moves the context past it.
pub(super) fn get(c: &mut SlaContext, cursor: &mut Cursor<'_>) -> Result<Decoded, CodecError> {
    let tag = cursor.byte()?;
    let now = c.now;
    let t = |cursor: &mut Cursor<'_>| -> Result<u64, CodecError> { Ok(varint::add_step(now, cursor.u64()?)) };
    let job_after = |base: JobId, cursor: &mut Cursor<'_>| {
        varint::add_step32(base, cursor.u64()?).ok_or(CodecError::Range)
    };
    let decoded = match tag {
        SUBMIT => {
            let at = t(cursor)?;
            let job = job_after(c.last_job.wrapping_add(1), cursor)?;
            let ts = varint::add_step(at, cursor.u64()?);
            let td = cursor.u64()?;
            let tf = varint::add_step(ts.wrapping_add(td), cursor.u64()?);
            let ncpu = cursor.u32()?;
            Decoded::Event(Event::Submit { t: at, request: Request { job, ts, tf, td, ncpu } })
        }
        PLAN => Decoded::Event(Event::Plan { t: t(cursor)? }),
        RESET => Decoded::Event(Event::Reset { t: t(cursor)? }),
        ACCEPT => {
            let job = job_after(c.last_job, cursor)?;
            Decoded::Decision(Decision::Accept { job, start: t(cursor)? })
        }
        REJECT => {
            let job = job_after(c.last_job, cursor)?;
            let byte = cursor.byte()?;
            let reason = reason_of(byte).ok_or(CodecError::Reason(byte))?;
            Decoded::Decision(Decision::Reject { job, reason })
        }
        _ => return Err(CodecError::Tag(tag)),
    };
    match &decoded {
        Decoded::Event(event) => {
            if let Event::Submit { request, .. } = event {
                c.last_job = request.job;
            }
            c.now = event.time();
        }
        Decoded::Decision(decision) => c.last_job = decision.job(),
    }
    Ok(decoded)
}

/// A reason's byte: its place in [`RejectReason::ALL`] (the kernel's declaration order).
fn reason_byte(reason: RejectReason) -> u8 {
    RejectReason::ALL.iter().position(|r| *r == reason).map_or(u8::MAX, |i| i as u8)
}

fn reason_of(byte: u8) -> Option<RejectReason> {
    RejectReason::ALL.get(usize::from(byte)).copied()
}


impl TagSpace for SlaContext {
    fn start_block(&mut self) {
        *self = Self::default();
    }

    fn encode(&mut self, body: &Body, out: &mut Vec<u8>) {
        match *body {
            Body::SlaEvent(event) => put_event(&event, self, out),
            Body::SlaDecision(decision) => put_decision(&decision, self, out),
            _ => out.push(u8::MAX),
        }
    }

    fn decode(&mut self, cursor: &mut Cursor<'_>) -> Result<Body, CodecError> {
        Ok(match get(self, cursor)? {
            Decoded::Event(event) => Body::SlaEvent(event),
            Decoded::Decision(decision) => Body::SlaDecision(decision),
        })
    }
}

/// The tag space of a sla log: its context, empty at the start of a block.
pub(super) fn space(_: &SlaHeader) -> Box<dyn TagSpace> {
    Box::new(SlaContext::default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_bytes_and_round_trip() {
        let mut writer = SlaContext::default();
        let mut out = Vec::new();
        let submit = Event::Submit { t: 100, request: Request { job: 1, ts: 100, tf: 190, td: 60, ncpu: 4 } };
        put_event(&submit, &mut writer, &mut out);
        // tag, t +100 (zigzag 200), job step 0, TS +0, tD 60, TF +30 (zigzag 60), NCPU 4.
        assert_eq!(out, [SUBMIT, 0xc8, 0x01, 0x00, 0x00, 60, 60, 4]);
        let plan = Event::Plan { t: 160 };
        let from = out.len();
        put_event(&plan, &mut writer, &mut out);
        assert_eq!(out[from..], [PLAN, 120]);
        let accept = Decision::Accept { job: 1, start: 200 };
        let from = out.len();
        put_decision(&accept, &mut writer, &mut out);
        assert_eq!(out[from..], [ACCEPT, 0x00, 80]);
        let reject = Decision::Reject { job: 3, reason: RejectReason::Horizon };
        let from = out.len();
        put_decision(&reject, &mut writer, &mut out);
        assert_eq!(out[from..], [REJECT, 4, 4]);
        // A reset may go back in time.
        let reset = Event::Reset { t: 0 };
        put_event(&reset, &mut writer, &mut out);
        let wide = Event::Submit {
            t: u64::MAX,
            request: Request { job: u32::MAX, ts: 0, tf: u64::MAX, td: u64::MAX, ncpu: u32::MAX },
        };
        let from = out.len();
        put_event(&wide, &mut writer, &mut out);
        assert!(out.len() - from <= super::super::RECORD_MAX_BYTES);
        let mut reader = SlaContext::default();
        let mut cursor = Cursor::new(&out, 0);
        assert!(matches!(get(&mut reader, &mut cursor), Ok(Decoded::Event(e)) if e == submit));
        assert!(matches!(get(&mut reader, &mut cursor), Ok(Decoded::Event(e)) if e == plan));
        assert!(matches!(get(&mut reader, &mut cursor), Ok(Decoded::Decision(d)) if d == accept));
        assert!(matches!(get(&mut reader, &mut cursor), Ok(Decoded::Decision(d)) if d == reject));
        assert!(matches!(get(&mut reader, &mut cursor), Ok(Decoded::Event(e)) if e == reset));
        assert!(matches!(get(&mut reader, &mut cursor), Ok(Decoded::Event(e)) if e == wide));
        assert_eq!(cursor.remaining(), 0);
        let mut bad = Cursor::new(&[9u8], 0);
        assert!(matches!(get(&mut reader, &mut bad), Err(CodecError::Tag(9))));
        let mut bad = Cursor::new(&[REJECT, 0, 7], 0);
        assert!(matches!(get(&mut reader, &mut bad), Err(CodecError::Reason(7))));
    }
}
