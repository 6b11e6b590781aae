//! The record encoding: the block header every block starts with, and the dispatch of
//! each record to its model's tag space. `docs/log-format.md` ("Blocks", "Records")
//! is the spec.
//!
//! Each model writes its records in a tag space of its own, one module per model:
//! `service_level` (version 2's records, which the `reservation` records of
//! version 3 share, as flagged `Reset` tags), `tiers` and `sla`, each a [`TagSpace`].
//! Which space a log uses is a function of its header's model alone
//! ([`RecordCodec::for_log`]), and each space's context starts afresh at every block,
//! so a block decodes on its own.

use kernel::log::Body;
use kernel::service_level::Level;

use self::service_level::ServiceLevelCodec;
use super::model::Model;
use super::varint::{self, Cursor};

pub(super) mod error;
crate::for_each_model!(crate::model_modules!());
mod tag;

pub use self::error::CodecError;
pub use self::service_level::TRACKED_MACHINES;

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

/// One model's tag space, with the context of the block so far: how the model's
/// records are written and read. A model's `codec/NAME.rs` implements it and names
/// its space for a header (`space`); [`RecordCodec::for_log`] picks it by the model.
pub trait TagSpace: std::fmt::Debug + Send {
    /// Forgets the context: the next record is the first of a block.
    fn start_block(&mut self);
    /// Appends `body` to `out` (at most [`RECORD_MAX_BYTES`]). A record of another
    /// model, which no writer produces and the verifier refuses, is written as a
    /// malformed tag.
    fn encode(&mut self, body: &Body, out: &mut Vec<u8>);
    /// Decodes the record at `cursor`, which must be the next one of its block.
    fn decode(&mut self, cursor: &mut Cursor<'_>) -> Result<Body, CodecError>;

    /// [`Self::encode`]s the records at the front of `bodies`, one by one, until
    /// `out` holds `limit` bytes or more (the block is full) or they end; returns how
    /// many it took. One call a batch: the space's own `encode` is called directly
    /// in the loop, where a call per record goes through the space's vtable.
    fn encode_until(&mut self, bodies: &[Body], out: &mut Vec<u8>, limit: usize) -> usize {
        let mut taken = 0;
        for body in bodies {
            self.encode(body, out);
            taken += 1;
            if out.len() >= limit {
                break;
            }
        }
        taken
    }
}

/// Encodes and decodes records against the context of their block.
#[derive(Debug)]
pub struct RecordCodec {
    space: Box<dyn TagSpace>,
}

/// The tag space of each model's header, `match`ed over the list of models.
macro_rules! space_for {
    (($model:expr) $($name:ident: $marker:ident $records:tt $doc:literal,)*) => {
        match $model {
            $(Model::$marker(header) => $name::space(header),)*
        }
    };
}

/// The service level's tag space with `levels`, which a reservation log shares
/// (without levels).
fn service_level_space(levels: &[Level]) -> Box<dyn TagSpace> {
    Box::new(ServiceLevelCodec::new(levels))
}

impl RecordCodec {
    /// A codec for a service-level or reservation log whose header holds `levels`, at
    /// the start of a block.
    pub fn new(levels: &[Level]) -> Self {
        Self { space: service_level_space(levels) }
    }

    /// The codec for the records of a log of `model`: its model's tag space.
    pub fn for_log(model: &Model) -> Self {
        Self { space: crate::for_each_model!(space_for!(model)) }
    }

    /// Forgets the context: the next record is the first of a block.
    pub fn start_block(&mut self) {
        self.space.start_block();
    }

    /// Appends `body` to `out` (at most [`RECORD_MAX_BYTES`]).
    pub fn encode(&mut self, body: &Body, out: &mut Vec<u8>) {
        self.space.encode(body, out);
    }

    /// See [`TagSpace::encode_until`].
    pub fn encode_until(&mut self, bodies: &[Body], out: &mut Vec<u8>, limit: usize) -> usize {
        self.space.encode_until(bodies, out, limit)
    }

    /// Decodes the record at `cursor`, which must be the next one of its block.
    pub fn decode(&mut self, cursor: &mut Cursor<'_>) -> Result<Body, CodecError> {
        self.space.decode(cursor)
    }
}
