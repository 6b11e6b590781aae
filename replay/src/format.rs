//! The decision log file, format version 6: a versioned header, checksummed blocks of
//! compactly encoded records, and a footer. Version 6 gave each model its own part of
//! the header ([`Model`]): the service level's fields left the header's top for
//! [`Model::ServiceLevel`], and no model writes another's. Versions 2 to 5 are still
//! read, each header with its own layout (`legacy`), and made into a version 6
//! [`Header`]. `docs/log-format.md` is the spec; this is its only implementation, for
//! writing and reading alike.
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
//! - `legacy`: the headers of versions 2 to 5, made into version 6's.

use std::io::{self, Write};

use serde::{Deserialize, Serialize};

pub mod check;
mod checksum;
pub mod codec;
mod legacy;
pub mod model;
pub mod reader;
pub mod varint;
pub mod writer;

pub use codec::error::CodecError;
pub use model::HeaderError;
pub use model::{
    Model, ReservationHeader, ServiceLevelHeader, SlaHeader, TiersHeader, policy_format_version,
};
pub use reader::LogReader;
pub use writer::LogWriter;

/// The first eight bytes of every log.
pub const MAGIC: [u8; 8] = *b"ADMLOG\r\n";
/// Bumped on any change to the bytes; readers refuse other versions by name. Version 3
/// added the reservation records and the header's `reservation` field; version 4 made
/// the header a function of the input's content and the configuration alone (no
/// command line, no folders in the input's name, the options as canonical settings);
/// version 5 added the SLA model (`Model::Sla` and its records); version 6 moved the
/// service level's fields into its own part of the header. The version this build
/// writes, for every model ([`Model::format_version`]), and the newest it reads.
pub const FORMAT_VERSION: u16 = 6;
/// The oldest version this build reads: version 2's records are version 3's without
/// the reservation records, and its header lacks only the last field; version 3's
/// records are version 4's, and no record changed since.
pub const OLDEST_READABLE_VERSION: u16 = 2;
/// A block is closed once its records take this many bytes.
pub const BLOCK_TARGET_BYTES: usize = 4096;
/// No frame payload may be larger; a larger length field means a damaged log.
pub const FRAME_MAX_BYTES: u32 = 1 << 20;

/// Frame kinds.
pub const KIND_HEADER: u8 = 1;
pub const KIND_BLOCK: u8 = 2;
pub const KIND_FOOTER: u8 = 3;

pub use checksum::{CRC32C, Castagnoli, Digest as Crc32cDigest};

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
    /// The model whose records the log holds, with its own part of the header: what
    /// rebuilds its kernel.
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

impl Header {
    /// The version this header's log is stamped with: the oldest whose readers read
    /// it, from its model ([`Model::format_version`]).
    pub const fn needed_version(&self) -> u16 {
        self.model.format_version()
    }

    /// Decodes a header payload written by a log of `version` (checked by the caller
    /// to be readable): versions 2 to 5 with their own layouts ([`legacy`]), which
    /// lose their command line and keep their input name as it was stored.
    /// The header and the bytes of `payload` after its last field (none in a whole frame).
    pub(crate) fn decode(version: u16, payload: &[u8]) -> Result<(Self, usize), postcard::Error> {
        let (header, rest) = if version <= legacy::NEWEST {
            legacy::decode(version, payload)?
        } else {
            postcard::take_from_bytes(payload)?
        };
        Ok((header, rest.len()))
    }

    /// A header of a log of `model`, for the current kernel and format version; the
    /// provenance fields start empty.
    pub fn new(model: Model) -> Self {
        Self {
            format_version: model.format_version(),
            kernel_version: kernel::VERSION.to_owned(),
            host_version: String::new(),
            seed: 0,
            inputs: Vec::new(),
            window_ticks: None,
            settings: Vec::new(),
            model,
        }
    }

    /// The service-level kernel's configuration, for a log of service-level records.
    pub fn service_level(&self) -> Option<&ServiceLevelHeader> {
        match &self.model {
            Model::ServiceLevel(header) => Some(header),
            _ => None,
        }
    }

    /// The service-level kernel's configuration, to change it.
    pub fn service_level_mut(&mut self) -> Option<&mut ServiceLevelHeader> {
        match &mut self.model {
            Model::ServiceLevel(header) => Some(header),
            _ => None,
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
