//! The decision log file, format version 3: a versioned header, checksummed blocks of
//! compactly encoded records, and a footer. Version 2 logs (no reservation records,
//! a header without the reservation field) are still read. `docs/log-format.md` is the spec; this is
//! its only implementation, for writing and reading alike.
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

use std::io::{self, Write};

use crc::{CRC_32_ISCSI, Crc, Table};
use kernel::reservation::Config as ReservationConfig;
use kernel::{Level, Policy};
use serde::{Deserialize, Serialize};

pub mod codec;
pub mod reader;
pub mod varint;
pub mod writer;

pub use codec::CodecError;
pub use reader::LogReader;
pub use writer::LogWriter;

/// The first eight bytes of every log.
pub const MAGIC: [u8; 8] = *b"ADMLOG\r\n";
/// Bumped on any change to the bytes; readers refuse other versions by name. Version 3
/// added the reservation records and the header's `reservation` field.
pub const FORMAT_VERSION: u16 = 3;
/// The oldest version this build reads: version 2's records are version 3's without
/// the reservation records, and its header lacks only the last field.
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

/// Everything needed to rebuild the kernel and to say where the input came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    pub format_version: u16,
    pub kernel_version: String,
    pub machines: u16,
    pub queue_capacity: u32,
    pub policy: Policy,
    /// The service levels; the record encoding also recomputes deadlines from them.
    pub levels: Vec<Level>,
    pub seed: u64,
    /// The trace file as given on the command line, or the synthetic workload's name.
    pub input_name: String,
    /// CRC-64 of the decompressed input (or of the generator's parameters), in hex.
    pub input_hash: String,
    /// Window length, when the input was cut into independent windows.
    pub window_ticks: Option<u64>,
    /// The command line that produced the log.
    pub command: String,
    /// The reservation kernel's configuration, for a log of reservation records
    /// (version 3 on; a version 2 header reads as `None`).
    pub reservation: Option<ReservationHeader>,
    /// The tiers kernel's configuration, for a log of tiers records. Only a tiers log
    /// writes this field (as `Some`); every other header ends before it, byte for byte
    /// as before the field existed, and reads back as `None` with the older layout.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tiers: Option<TiersHeader>,
}

/// What rebuilds a tiers kernel: its configuration (slot length, policy, laxity
/// threshold, Bronze internal deadline), its resources (group, nodes, speed) and its
/// compiled capacities.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TiersHeader {
    pub config: kernel::tiers::Config,
    pub resources: Vec<kernel::tiers::Resource>,
    /// `R`, the resources the kernel holds.
    pub resource_capacity: u32,
    /// `H`, the calendar slots per resource.
    pub slots: u32,
    /// `J`, the accepted unfinished jobs.
    pub jobs: u32,
}

/// A version 3 header written before the `tiers` field: the same fields without it.
#[derive(Deserialize)]
struct HeaderV3 {
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
    command: String,
    reservation: Option<ReservationHeader>,
}

impl From<HeaderV3> for Header {
    fn from(v3: HeaderV3) -> Self {
        Self {
            format_version: v3.format_version,
            kernel_version: v3.kernel_version,
            machines: v3.machines,
            queue_capacity: v3.queue_capacity,
            policy: v3.policy,
            levels: v3.levels,
            seed: v3.seed,
            input_name: v3.input_name,
            input_hash: v3.input_hash,
            window_ticks: v3.window_ticks,
            command: v3.command,
            reservation: v3.reservation,
            tiers: None,
        }
    }
}

/// What rebuilds a reservation kernel: its configuration and its compiled capacities.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReservationHeader {
    /// Nodes, slot length, criterion, fixing rule and offer trials, in that order.
    pub config: ReservationConfig,
    /// `H`, the calendar's slots.
    pub slots: u32,
    /// `W`, the waiting reservations.
    pub waiting: u32,
    /// `RUN`, the running reservations.
    pub running: u32,
    /// `OFFERS`, the offers per rejection.
    pub offers: u16,
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
    command: String,
}

impl From<HeaderV2> for Header {
    fn from(v2: HeaderV2) -> Self {
        Self {
            format_version: v2.format_version,
            kernel_version: v2.kernel_version,
            machines: v2.machines,
            queue_capacity: v2.queue_capacity,
            policy: v2.policy,
            levels: v2.levels,
            seed: v2.seed,
            input_name: v2.input_name,
            input_hash: v2.input_hash,
            window_ticks: v2.window_ticks,
            command: v2.command,
            reservation: None,
            tiers: None,
        }
    }
}

impl Header {
    /// Decodes a header payload written by a log of `version` (checked by the caller
    /// to be readable).
    pub(crate) fn decode(version: u16, payload: &[u8]) -> Result<Self, postcard::Error> {
        if version == 2 {
            postcard::from_bytes::<HeaderV2>(payload).map(Self::from)
        } else {
            // A header written before the `tiers` field ends where that field would
            // start; it decodes with the older layout.
            postcard::from_bytes(payload)
                .or_else(|_| postcard::from_bytes::<HeaderV3>(payload).map(Self::from))
        }
    }

    /// A header for the current format and kernel; the provenance fields start empty.
    pub fn new(machines: u16, queue_capacity: u32, policy: Policy, levels: Vec<Level>) -> Self {
        Self {
            format_version: FORMAT_VERSION,
            kernel_version: kernel::VERSION.to_owned(),
            machines,
            queue_capacity,
            policy,
            levels,
            seed: 0,
            input_name: String::new(),
            input_hash: String::new(),
            window_ticks: None,
            command: String::new(),
            reservation: None,
            tiers: None,
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
    #[error("the footer counts {footer} {what}, the log holds {actual}")]
    FooterMismatch { what: &'static str, footer: u64, actual: u64 },
    #[error("{bytes} unexpected bytes after the footer at byte {offset}")]
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
