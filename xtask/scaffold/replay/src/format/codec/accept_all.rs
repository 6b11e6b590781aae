//! The accept-all records in their own tag space: a tag byte, then the time and the job
//! as varints (and a reject's reason as one byte). No context is kept.

use kernel::accept_all::{Decision, Event, RejectReason};
use kernel::log::Body;

use super::TagSpace;
use super::error::CodecError;
use crate::format::model::accept_all::AcceptAllHeader;
use crate::format::varint::{self, Cursor};

const SUBMIT: u8 = 0;
const ACCEPT: u8 = 1;
const REJECT: u8 = 2;

/// The accept-all tag space.
#[derive(Clone, Copy, Debug, Default)]
struct Space;

impl TagSpace for Space {
    fn start_block(&mut self) {}

    fn encode(&mut self, body: &Body, out: &mut Vec<u8>) {
        let (tag, t, job) = match *body {
            Body::AcceptAllEvent(Event::Submit { t, job }) => (SUBMIT, t, job),
            Body::AcceptAllDecision(Decision::Accept { t, job }) => (ACCEPT, t, job),
            Body::AcceptAllDecision(Decision::Reject { t, job, .. }) => (REJECT, t, job),
            _ => return out.push(u8::MAX),
        };
        out.push(tag);
        varint::put(out, t);
        varint::put(out, u64::from(job));
        if let Body::AcceptAllDecision(Decision::Reject { reason: RejectReason::Late, .. }) = body {
            out.push(0);
        }
    }

    fn decode(&mut self, cursor: &mut Cursor<'_>) -> Result<Body, CodecError> {
        let tag = cursor.byte()?;
        let (t, job) = (cursor.u64()?, cursor.u32()?);
        match tag {
            SUBMIT => Ok(Body::AcceptAllEvent(Event::Submit { t, job })),
            ACCEPT => Ok(Body::AcceptAllDecision(Decision::Accept { t, job })),
            REJECT => match cursor.byte()? {
                0 => Ok(Body::AcceptAllDecision(Decision::Reject { t, job, reason: RejectReason::Late })),
                byte => Err(CodecError::Reason(byte)),
            },
            _ => Err(CodecError::Tag(tag)),
        }
    }
}

/// The tag space of an accept-all log.
pub(super) fn space(_: &AcceptAllHeader) -> Box<dyn TagSpace> {
    Box::new(Space)
}
