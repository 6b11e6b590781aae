//! The record encoding: the block header every block starts with, and the dispatch of
//! each record to its model's tag space. `docs/log-format.md` ("Blocks", "Records")
//! is the spec.
//!
//! Each model writes its records in a tag space of its own, one module per model:
//! `service_level` (version 2's records, which the `reservation` records of
//! version 3 share, as flagged `Reset` tags), `tiers` and `sla`. Which space a log
//! uses is a function of its header's model alone ([`RecordCodec::for_log`]), and each
//! space's context starts afresh at every block, so a block decodes on its own.

use kernel::log::Body;
use kernel::service_level::Level;

use self::service_level::ServiceLevelCodec;
use self::sla::SlaContext;
use self::tiers::TiersContext;
use super::model::Model;
use super::varint::{self, Cursor};

pub(super) mod error;
mod reservation;
mod service_level;
mod sla;
mod tag;
mod tiers;

pub use self::error::CodecError;
pub use self::service_level::{TRACKED_MACHINES, deadline};

/// No record encodes to more bytes than this. The widest is a reservation `Request`
/// with every field at its widest: 1 + 4 * 10 (times) + 3 * 5 (job, nodes, shuffle
/// key) = 56 bytes; version 2's widest, a `Submit` with every field escaped, took 27.
pub const RECORD_MAX_BYTES: usize = 56;
/// A block header is two varints: a `u64` and a `u32`.
pub const BLOCK_HEADER_MAX_BYTES: usize = 15;

/// What starts every block's payload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockHeader {
    /// The sequence number of the block's first record.
    pub first_seq: u64,
    /// Records in the block.
    pub records: u32,
}

impl BlockHeader {
    /// Appends the header: two varints.
    pub fn put(&self, out: &mut Vec<u8>) {
        varint::put(out, self.first_seq);
        varint::put(out, u64::from(self.records));
    }

    /// Reads a header and checks that the block's bytes can hold its records (each
    /// takes at least its tag byte).
    pub fn read(cursor: &mut Cursor<'_>) -> Result<Self, CodecError> {
        let first_seq = cursor.u64()?;
        let records = cursor.u64()?;
        match u32::try_from(records) {
            Ok(records) if records as usize <= cursor.remaining() => Ok(Self { first_seq, records }),
            _ => Err(CodecError::Count(records)),
        }
    }
}

/// The tag space of a log, with its block's context.
// The service-level context is a kilobyte of per-machine state, the others a few
// words. A log has one codec, built once and kept in place (as the one struct that
// held all three contexts was before), so the size costs nothing, and boxing it would
// add an indirection to every record of the common case.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
enum TagSpace {
    /// A service-level or reservation log.
    ServiceLevel(ServiceLevelCodec),
    /// A tiers log (its header says so): every record uses the tiers tags.
    Tiers(TiersContext),
    /// An SLA log: every record uses the SLA tags.
    Sla(SlaContext),
}

/// Encodes and decodes records against the context of their block.
#[derive(Clone, Debug)]
pub struct RecordCodec {
    space: TagSpace,
}

impl RecordCodec {
    /// A codec for a service-level or reservation log whose header holds `levels`, at
    /// the start of a block.
    pub fn new(levels: &[Level]) -> Self {
        Self { space: TagSpace::ServiceLevel(ServiceLevelCodec::new(levels)) }
    }

    /// The codec for the records of a log of `model`: the tiers tag space for a tiers
    /// log, the SLA tag space for an SLA log, else [`RecordCodec::new`] with the
    /// service level's levels (none for a reservation log, whose records take none
    /// of the service level's context).
    pub fn for_log(model: &Model) -> Self {
        let space = match model {
            Model::Tiers(_) => TagSpace::Tiers(TiersContext::default()),
            Model::Sla(_) => TagSpace::Sla(SlaContext::default()),
            Model::ServiceLevel(part) => return Self::new(&part.levels),
            Model::Reservation(_) => return Self::new(&[]),
        };
        Self { space }
    }

    /// Forgets the context: the next record is the first of a block.
    pub fn start_block(&mut self) {
        match &mut self.space {
            TagSpace::ServiceLevel(codec) => codec.start_block(),
            TagSpace::Tiers(context) => *context = TiersContext::default(),
            TagSpace::Sla(context) => *context = SlaContext::default(),
        }
    }

    /// Appends `body` to `out` (at most [`RECORD_MAX_BYTES`]).
    pub fn encode(&mut self, body: &Body, out: &mut Vec<u8>) {
        match &mut self.space {
            TagSpace::ServiceLevel(codec) => codec.encode(body, out),
            TagSpace::Tiers(context) => match *body {
                Body::TiersEvent(event) => tiers::put_event(&event, context, out),
                Body::TiersDecision(decision) => tiers::put_decision(&decision, context, out),
                // A tiers log holds only tiers records; the verifier refuses others, and
                // a writer never produces them.
                _ => out.push(u8::MAX),
            },
            TagSpace::Sla(context) => match *body {
                Body::SlaEvent(event) => sla::put_event(&event, context, out),
                Body::SlaDecision(decision) => sla::put_decision(&decision, context, out),
                // Likewise: an SLA log holds only SLA records.
                _ => out.push(u8::MAX),
            },
        }
    }

    /// Decodes the record at `cursor`, which must be the next one of its block.
    pub fn decode(&mut self, cursor: &mut Cursor<'_>) -> Result<Body, CodecError> {
        Ok(match &mut self.space {
            TagSpace::ServiceLevel(codec) => return codec.decode(cursor),
            TagSpace::Tiers(context) => match tiers::get(context, cursor)? {
                tiers::Decoded::Event(event) => Body::TiersEvent(event),
                tiers::Decoded::Decision(decision) => Body::TiersDecision(decision),
            },
            TagSpace::Sla(context) => match sla::get(context, cursor)? {
                sla::Decoded::Event(event) => Body::SlaEvent(event),
                sla::Decoded::Decision(decision) => Body::SlaDecision(decision),
            },
        })
    }
}
