//! The decision log file, format version 5: a versioned header, checksummed blocks of
//! compactly encoded records, and a footer. Versions 2 and 3 (headers that stored the
//! command line and the trace path as typed) are still read, each header with its own
//! layout. Version 5 added the SLA model and the service-level policies other than
//! first fit; any other log is written exactly as version 4 wrote it, stamped 4 (see
//! [`Header::needed_version`]). `docs/log-format.md` is the spec; this is its only
//! implementation, for writing and reading alike.
//!
//! ```text
//! magic "ADMLOG\r\n" (8 bytes) | format version (u16 LE)
//! frame(HEADER, postcard Header)
//! frame(BLOCK, first seq | record count | record record ...)   zero or more
//! frame(FOOTER, postcard Footer)
//! frame = kind (u8) | payload length (u32 LE) | payload | CRC-32C of kind, length and payload (u32 LE)
//! ```
//!
//! The records are the kernel's [`kernel::log::Record`]s; the file stores them in the
//! host's own encoding ([`codec`]), which leaves out what earlier records of the same
//! block already say (sequence numbers, the job an accept answers, its deadline, ...).
//! A reader hands out records block by block, and only from blocks whose checksum
//! holds, so a cut or damaged log is read up to its last intact block and then
//! reported with the byte offset where it went wrong.
//!
//! - [`writer`]: [`LogWriter`], streaming to any `Write`.
//! - [`reader`]: [`LogReader`], decoding records in place from one reused block buffer.
//! - [`codec`]: the record encoding and the block header.
//! - [`varint`]: LEB128 and zigzag.
//! - [`check`]: the header's fields held to their ranges, each failure naming its field.
//! - `model`: [`Model`], the version each model needs, and each model's part of the
//!   header.

use std::io::{self, Write};

use crc::{CRC_32_ISCSI, Crc, Table};
use kernel::service_level::{Level, Policy};
use serde::{Deserialize, Serialize};

pub mod check;
pub mod codec;
mod model;
pub mod reader;
pub mod varint;
pub mod writer;

pub use check::HeaderError;
pub use codec::error::CodecError;
pub use model::{Model, ReservationHeader, SlaHeader, TiersHeader, policy_format_version};
pub use reader::LogReader;
pub use writer::LogWriter;

/// The first eight bytes of every log.
pub const MAGIC: [u8; 8] = *b"ADMLOG\r\n";
/// Bumped on any change to the bytes; readers refuse other versions by name. Version 3
/// added the reservation records and the header's `reservation` field; version 4 made
/// the header a function of the input's content and the configuration alone (no
/// command line, no folders in the input's name, the options as canonical settings);
/// version 5 added the SLA model (`Model::Sla` and its records). The newest version
/// this build reads and writes; a log is stamped with its model's version
/// ([`Model::format_version`]), so logs of the first three models are still version 4.
pub const FORMAT_VERSION: u16 = 5;
/// The oldest version this build reads: version 2's records are version 3's without
/// the reservation records, and its header lacks only the last field; version 3's
/// records are version 4's.
pub const OLDEST_READABLE_VERSION: u16 = 2;
/// A block is closed once its records take this many bytes.
pub const BLOCK_TARGET_BYTES: usize = 4096;
/// No frame payload may be larger; a larger length field means a damaged log.
pub const FRAME_MAX_BYTES: u32 = 1 << 20;

/// Frame kinds.
pub const KIND_HEADER: u8 = 1;
pub const KIND_BLOCK: u8 = 2;
pub const KIND_FOOTER: u8 = 3;

/// CRC-32C (Castagnoli). Sixteen tables (16 KiB) make it several times faster than
/// one; the checksums are the same.
pub static CRC32C: Crc<u32, Table<16>> = Crc::<u32, Table<16>>::new(&CRC_32_ISCSI);

/// Everything needed to rebuild the kernel and to identify the input, and nothing
/// else: the same input content and the same configuration give the same header
/// bytes, whatever folder the run started in, how the input's path was typed, or
/// where the log was written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    pub format_version: u16,
    pub kernel_version: String,
    /// The program that mapped the input into events, and its version (for example
    /// `host-sim 0.1.0`); empty when the events were not made by a program.
    pub host_version: String,
    pub machines: u16,
    pub queue_capacity: u32,
    pub policy: Policy,
    /// The service levels; the record encoding also recomputes deadlines from them.
    pub levels: Vec<Level>,
    pub seed: u64,
    /// The inputs, in the order they were merged (one, unless several traces were
    /// merged into one workload).
    pub inputs: Vec<Input>,
    /// Window length, when the input was cut into independent windows.
    pub window_ticks: Option<u64>,
    /// Every other option that changes a decision or a metric, in canonical form:
    /// sorted by key, one entry per key, values as the program normalised them
    /// (`alpha = 1.5`, never `1.50`). [`check`] holds the known keys to their ranges.
    pub settings: Vec<Setting>,
    /// The model whose records the log holds, with what rebuilds its kernel.
    pub model: Model,
}

/// One input of the run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Input {
    /// The input's file name without its folders, or the synthetic workload's name.
    pub name: String,
    /// CRC-64 of the decompressed input (or of the generator's parameters), as 16
    /// lower-case hex digits.
    pub hash: String,
}

/// One option of the run, as `key = value`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setting {
    pub key: String,
    pub value: String,
}

impl Setting {
    pub fn new(key: &str, value: impl ToString) -> Self {
        Self { key: key.to_owned(), value: value.to_string() }
    }
}

/// The header of a version 2 log: version 3's without its last field. Postcard is
/// positional, so each version's header is decoded with its own layout.
#[derive(Deserialize)]
struct HeaderV2 {
    format_version: u16,
    kernel_version: String,
    machines: u16,
    queue_capacity: u32,
    policy: Policy,
    levels: Vec<Level>,
    seed: u64,
    input_name: String,
    input_hash: String,
    window_ticks: Option<u64>,
    /// The command line; version 4 leaves it out, so it is read and dropped.
    #[allow(dead_code)]
    command: String,
}

/// The header of a version 3 log: version 2's and the reservation configuration.
#[derive(Deserialize)]
struct HeaderV3 {
    v2: HeaderV2,
    reservation: Option<ReservationHeader>,
}

impl From<HeaderV3> for Header {
    fn from(old: HeaderV3) -> Self {
        let v2 = old.v2;
        Self {
            format_version: v2.format_version,
            kernel_version: v2.kernel_version,
            host_version: String::new(),
            machines: v2.machines,
            queue_capacity: v2.queue_capacity,
            policy: v2.policy,
            levels: v2.levels,
            seed: v2.seed,
            inputs: vec![Input { name: v2.input_name, hash: v2.input_hash }],
            window_ticks: v2.window_ticks,
            settings: Vec::new(),
            model: old.reservation.map_or(Model::ServiceLevel, Model::Reservation),
        }
    }
}

impl Header {
    /// The version this header's log is stamped with: the oldest whose readers read
    /// it, from its model ([`Model::format_version`]) and, for service levels, its
    /// policy ([`policy_format_version`]). A first-fit service-level log is still a
    /// version 4 log, byte for byte.
    pub const fn needed_version(&self) -> u16 {
        let model = self.model.format_version();
        let policy = match self.model {
            Model::ServiceLevel => policy_format_version(self.policy),
            Model::Reservation(_) | Model::Tiers(_) | Model::Sla(_) => 0,
        };
        if policy > model { policy } else { model }
    }

    /// Decodes a header payload written by a log of `version` (checked by the caller
    /// to be readable). Older headers lose their command line and keep their input
    /// name as it was stored.
    /// The header and the bytes of `payload` after its last field (none in a whole frame).
    pub(crate) fn decode(version: u16, payload: &[u8]) -> Result<(Self, usize), postcard::Error> {
        let (header, rest) = match version {
            2 => postcard::take_from_bytes::<HeaderV2>(payload)
                .map(|(v2, rest)| (HeaderV3 { v2, reservation: None }.into(), rest))?,
            3 => postcard::take_from_bytes::<HeaderV3>(payload).map(|(v3, rest)| (Self::from(v3), rest))?,
            _ => postcard::take_from_bytes(payload)?,
        };
        Ok((header, rest.len()))
    }

    /// A header for the current kernel, of a service-level log (format version 4, see
    /// [`Model::format_version`]); the provenance fields start empty. Give it another
    /// model with [`Header::set_model`].
    pub fn new(machines: u16, queue_capacity: u32, policy: Policy, levels: Vec<Level>) -> Self {
        Self {
            format_version: Model::ServiceLevel.format_version(),
            kernel_version: kernel::VERSION.to_owned(),
            host_version: String::new(),
            machines,
            queue_capacity,
            policy,
            levels,
            seed: 0,
            inputs: Vec::new(),
            window_ticks: None,
            settings: Vec::new(),
            model: Model::ServiceLevel,
        }
    }

    /// The reservation kernel's configuration, for a log of reservation records.
    pub fn reservation(&self) -> Option<&ReservationHeader> {
        match &self.model {
            Model::Reservation(header) => Some(header),
            _ => None,
        }
    }

    /// Sets the model, and the format version to what the model needs (a writer raises
    /// it anyway; this keeps the header equal to the one read back).
    pub fn set_model(&mut self, model: Model) {
        self.format_version = self.format_version.max(model.format_version());
        self.model = model;
    }

    /// The SLA kernel's configuration, for a log of SLA records.
    pub fn sla(&self) -> Option<&SlaHeader> {
        match &self.model {
            Model::Sla(header) => Some(header),
            _ => None,
        }
    }

    /// The tiers kernel's configuration, for a log of tiers records.
    pub fn tiers(&self) -> Option<&TiersHeader> {
        match &self.model {
            Model::Tiers(header) => Some(header),
            _ => None,
        }
    }

    /// The header with one more input, named `name` (a file name, no folders) and
    /// hashed `hash` (written as 16 hex digits).
    pub fn with_input(mut self, name: &str, hash: u64) -> Self {
        self.inputs.push(Input { name: name.to_owned(), hash: format!("{hash:016x}") });
        self
    }

    /// The inputs' names, joined by ` + ` (one name unless traces were merged).
    pub fn input_names(&self) -> String {
        self.inputs.iter().map(|i| i.name.as_str()).collect::<Vec<_>>().join(" + ")
    }

    /// The value of setting `key`, if the header has it.
    pub fn setting(&self, key: &str) -> Option<&str> {
        self.settings.iter().find(|s| s.key == key).map(|s| s.value.as_str())
    }

    /// Sets `key` to `value`, keeping the settings sorted by key.
    pub fn set(&mut self, key: &str, value: impl ToString) {
        match self.settings.binary_search_by(|s| s.key.as_str().cmp(key)) {
            Ok(at) => self.settings[at].value = value.to_string(),
            Err(at) => self.settings.insert(at, Setting::new(key, value)),
        }
    }
}

/// The last frame: what a complete log holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Footer {
    pub records: u64,
    pub blocks: u64,
    /// CRC-32C over every block payload, in order.
    pub checksum: u32,
}

/// Everything that can be wrong with a log, with the byte offset where it was found.
#[derive(Debug, thiserror::Error)]
pub enum FormatError {
    #[error("i/o error: {0}")]
    Io(#[from] io::Error),
    #[error("not a decision log (the first 8 bytes are not the log magic)")]
    BadMagic,
    #[error(
        "log format version {found} is not supported (this build reads versions {oldest} to {newest})",
        oldest = OLDEST_READABLE_VERSION,
        newest = FORMAT_VERSION
    )]
    UnsupportedVersion { found: u16 },
    #[error("the log ends early at byte {offset}, after {records} intact records (no footer)")]
    Truncated { offset: u64, records: u64 },
    #[error("damaged frame at byte {offset} ({what}); {records} intact records before it")]
    Corrupt { offset: u64, records: u64, what: &'static str },
    #[error("record {seq} in the block at byte {offset} does not decode: {source}")]
    Decode { offset: u64, seq: u64, source: CodecError },
    #[error("record sequence broken in the block at byte {offset}: expected {expected}, found {found}")]
    SequenceGap { offset: u64, expected: u64, found: u64 },
    #[error("the footer at byte {offset} counts {footer} {what}, the log holds {actual}")]
    FooterMismatch { offset: u64, what: &'static str, footer: u64, actual: u64 },
    #[error(
        "damaged frame at byte {offset}: the {what} frame holds {bytes} byte{} after its last field",
        if *bytes == 1 { "" } else { "s" }
    )]
    FrameTrailing { offset: u64, what: &'static str, bytes: u64 },
    #[error("{bytes} unexpected byte{} after the footer at byte {offset}", if *bytes == 1 { "" } else { "s" })]
    TrailingBytes { offset: u64, bytes: u64 },
    #[error("the header or footer could not be encoded: {0}")]
    Encode(postcard::Error),
}

/// Writes one frame: kind, payload length, the payload given in `parts`, and the
/// CRC-32C of all of it.
pub(crate) fn write_frame(out: &mut impl Write, kind: u8, parts: &[&[u8]]) -> io::Result<()> {
    let len: usize = parts.iter().map(|p| p.len()).sum();
    let len = u32::try_from(len).map_err(|_| io::Error::other("frame payload over 4 GiB"))?;
    let len_bytes = len.to_le_bytes();
    let mut digest = CRC32C.digest();
    digest.update(&[kind]);
    digest.update(&len_bytes);
    out.write_all(&[kind])?;
    out.write_all(&len_bytes)?;
    for part in parts {
        digest.update(part);
        out.write_all(part)?;
    }
    out.write_all(&digest.finalize().to_le_bytes())
}
