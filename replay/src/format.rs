//! The decision log file: a versioned header, checksummed blocks of postcard
//! records, and a footer. `docs/log-format.md` is the spec; this is its only
//! implementation, for writing and reading alike.
//!
//! ```text
//! magic "ADMLOG\r\n" (8 bytes) | format version (u16 LE)
//! frame(HEADER, postcard Header)
//! frame(BLOCK, record record record ...)   one or more, each at most BLOCK_TARGET_BYTES + one record
//! frame(FOOTER, postcard Footer)
//! frame = kind (u8) | payload length (u32 LE) | payload | CRC-32C of kind, length and payload (u32 LE)
//! ```
//!
//! A reader hands out records block by block, and only from blocks whose checksum
//! holds, so a cut or damaged log is read up to its last intact block and then
//! reported with the byte offset where it went wrong.

use std::fs::File;
use std::io::{self, BufReader, Read, Write};
use std::path::Path;

use crc::{CRC_32_ISCSI, Crc, Digest};
use kernel::log::{Body, RECORD_MAX_BYTES, Record};
use kernel::{Decision, Event, Level, Policy};
use serde::{Deserialize, Serialize};

/// The first eight bytes of every log.
pub const MAGIC: [u8; 8] = *b"ADMLOG\r\n";
/// Bumped on any change to the bytes; readers refuse other versions by name.
pub const FORMAT_VERSION: u16 = 1;
/// A block is closed once its payload reaches this size.
pub const BLOCK_TARGET_BYTES: usize = 4096;
/// No frame payload may be larger; a larger length field means a damaged log.
pub const FRAME_MAX_BYTES: u32 = 1 << 20;

const KIND_HEADER: u8 = 1;
const KIND_BLOCK: u8 = 2;
const KIND_FOOTER: u8 = 3;

static CRC32C: Crc<u32> = Crc::<u32>::new(&CRC_32_ISCSI);

/// Everything needed to rebuild the kernel and to say where the input came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    pub format_version: u16,
    pub kernel_version: String,
    pub machines: u16,
    pub queue_capacity: u32,
    pub policy: Policy,
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
}

impl Header {
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
    #[error("log format version {found} is not supported (this build reads version {supported})")]
    UnsupportedVersion { found: u16, supported: u16 },
    #[error("the log ends early at byte {offset}, after {records} intact records (no footer)")]
    Truncated { offset: u64, records: u64 },
    #[error("damaged frame at byte {offset} ({what}); {records} intact records before it")]
    Corrupt { offset: u64, records: u64, what: &'static str },
    #[error("record {seq} in the block at byte {offset} does not decode: {source}")]
    Decode { offset: u64, seq: u64, source: postcard::Error },
    #[error("record sequence broken in the block at byte {offset}: expected {expected}, found {found}")]
    SequenceGap { offset: u64, expected: u64, found: u64 },
    #[error("the footer counts {footer} {what}, the log holds {actual}")]
    FooterMismatch { what: &'static str, footer: u64, actual: u64 },
    #[error("{bytes} unexpected bytes after the footer at byte {offset}")]
    TrailingBytes { offset: u64, bytes: u64 },
    #[error("a record could not be encoded: {0}")]
    Encode(postcard::Error),
}

/// Writes a log: the header at once, then records in blocks, then the footer.
pub struct LogWriter<W: Write> {
    out: W,
    block: Vec<u8>,
    seq: u64,
    blocks: u64,
    whole: Digest<'static, u32>,
}

impl<W: Write> std::fmt::Debug for LogWriter<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LogWriter").field("seq", &self.seq).field("blocks", &self.blocks).finish()
    }
}

impl<W: Write> LogWriter<W> {
    pub fn new(mut out: W, header: &Header) -> Result<Self, FormatError> {
        out.write_all(&MAGIC)?;
        out.write_all(&FORMAT_VERSION.to_le_bytes())?;
        let payload = postcard::to_stdvec(header).map_err(FormatError::Encode)?;
        write_frame(&mut out, KIND_HEADER, &payload)?;
        let block = Vec::with_capacity(BLOCK_TARGET_BYTES + RECORD_MAX_BYTES);
        Ok(Self { out, block, seq: 0, blocks: 0, whole: CRC32C.digest() })
    }

    pub fn event(&mut self, event: &Event) -> Result<(), FormatError> {
        self.record(Body::Event(*event))
    }

    pub fn decision(&mut self, decision: &Decision) -> Result<(), FormatError> {
        self.record(Body::Decision(*decision))
    }

    /// Appends the next record; sequence numbers are assigned here.
    pub fn record(&mut self, body: Body) -> Result<(), FormatError> {
        let mut buf = [0u8; RECORD_MAX_BYTES];
        let bytes =
            kernel::log::encode(&Record { seq: self.seq, body }, &mut buf).map_err(FormatError::Encode)?;
        self.block.extend_from_slice(bytes);
        self.seq += 1;
        if self.block.len() >= BLOCK_TARGET_BYTES {
            self.flush_block()?;
        }
        Ok(())
    }

    /// Records written so far.
    pub fn records(&self) -> u64 {
        self.seq
    }

    fn flush_block(&mut self) -> Result<(), FormatError> {
        if self.block.is_empty() {
            return Ok(());
        }
        write_frame(&mut self.out, KIND_BLOCK, &self.block)?;
        self.whole.update(&self.block);
        self.blocks += 1;
        self.block.clear();
        Ok(())
    }

    /// Writes the last block and the footer, flushes, and hands the output back.
    pub fn finish(mut self) -> Result<W, FormatError> {
        self.flush_block()?;
        let footer = Footer { records: self.seq, blocks: self.blocks, checksum: self.whole.finalize() };
        let payload = postcard::to_stdvec(&footer).map_err(FormatError::Encode)?;
        write_frame(&mut self.out, KIND_FOOTER, &payload)?;
        self.out.flush()?;
        Ok(self.out)
    }
}

fn write_frame(out: &mut impl Write, kind: u8, payload: &[u8]) -> io::Result<()> {
    let len = u32::try_from(payload.len()).map_err(|_| io::Error::other("frame payload over 4 GiB"))?;
    let len_bytes = len.to_le_bytes();
    let mut digest = CRC32C.digest();
    digest.update(&[kind]);
    digest.update(&len_bytes);
    digest.update(payload);
    out.write_all(&[kind])?;
    out.write_all(&len_bytes)?;
    out.write_all(payload)?;
    out.write_all(&digest.finalize().to_le_bytes())
}

/// Reads a log record by record, checking every frame before handing out its records.
pub struct LogReader<R: Read> {
    input: R,
    header: Header,
    /// Bytes consumed from the input so far.
    offset: u64,
    block: Vec<u8>,
    /// Read position inside `block`.
    cursor: usize,
    block_offset: u64,
    seq: u64,
    blocks: u64,
    whole: Digest<'static, u32>,
    done: bool,
}

impl<R: Read> std::fmt::Debug for LogReader<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LogReader").field("offset", &self.offset).field("seq", &self.seq).finish()
    }
}

/// A frame as read: its kind, payload and starting offset.
struct Frame {
    kind: u8,
    payload: Vec<u8>,
    offset: u64,
}

impl LogReader<BufReader<File>> {
    pub fn open(path: &Path) -> Result<Self, FormatError> {
        Self::new(BufReader::new(File::open(path)?))
    }
}

impl<R: Read> LogReader<R> {
    /// Reads and checks the magic, the version and the header.
    pub fn new(mut input: R) -> Result<Self, FormatError> {
        let mut start = [0u8; 10];
        if read_full(&mut input, &mut start)? < start.len() {
            return Err(FormatError::BadMagic);
        }
        let (magic, version) = start.split_at(8);
        if magic != MAGIC {
            return Err(FormatError::BadMagic);
        }
        let found = u16::from_le_bytes([version[0], version[1]]);
        if found != FORMAT_VERSION {
            return Err(FormatError::UnsupportedVersion { found, supported: FORMAT_VERSION });
        }
        let mut reader = Self {
            input,
            header: Header::new(0, 0, Policy::FirstFit, Vec::new()),
            offset: start.len() as u64,
            block: Vec::new(),
            cursor: 0,
            block_offset: 0,
            seq: 0,
            blocks: 0,
            whole: CRC32C.digest(),
            done: false,
        };
        let frame = reader.read_frame()?;
        if frame.kind != KIND_HEADER {
            return Err(reader.corrupt(frame.offset, "the first frame is not a header"));
        }
        reader.header = postcard::from_bytes(&frame.payload)
            .map_err(|_| reader.corrupt(frame.offset, "the header does not decode"))?;
        if reader.header.format_version != FORMAT_VERSION {
            let found = reader.header.format_version;
            return Err(FormatError::UnsupportedVersion { found, supported: FORMAT_VERSION });
        }
        Ok(reader)
    }

    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Records handed out so far.
    pub fn records_read(&self) -> u64 {
        self.seq
    }

    /// Bytes consumed so far.
    pub fn bytes_read(&self) -> u64 {
        self.offset
    }

    /// The next record, or `None` once the footer has been read and agrees with the log.
    pub fn next_record(&mut self) -> Result<Option<Record>, FormatError> {
        while self.cursor >= self.block.len() {
            if self.done {
                return Ok(None);
            }
            let frame = self.read_frame()?;
            match frame.kind {
                KIND_BLOCK => {
                    self.whole.update(&frame.payload);
                    self.blocks += 1;
                    self.block = frame.payload;
                    self.cursor = 0;
                    self.block_offset = frame.offset;
                }
                KIND_FOOTER => {
                    self.finish_footer(&frame)?;
                    return Ok(None);
                }
                _ => return Err(self.corrupt(frame.offset, "unknown frame kind")),
            }
        }
        let rest = self.block.get(self.cursor..).unwrap_or(&[]);
        let (record, tail) = kernel::log::decode(rest).map_err(|source| FormatError::Decode {
            offset: self.block_offset,
            seq: self.seq,
            source,
        })?;
        if record.seq != self.seq {
            return Err(FormatError::SequenceGap {
                offset: self.block_offset,
                expected: self.seq,
                found: record.seq,
            });
        }
        self.cursor = self.block.len() - tail.len();
        self.seq += 1;
        Ok(Some(record))
    }

    fn finish_footer(&mut self, frame: &Frame) -> Result<(), FormatError> {
        let footer: Footer = postcard::from_bytes(&frame.payload)
            .map_err(|_| self.corrupt(frame.offset, "the footer does not decode"))?;
        if footer.records != self.seq {
            return Err(FormatError::FooterMismatch {
                what: "records",
                footer: footer.records,
                actual: self.seq,
            });
        }
        if footer.blocks != self.blocks {
            return Err(FormatError::FooterMismatch {
                what: "blocks",
                footer: footer.blocks,
                actual: self.blocks,
            });
        }
        let whole = std::mem::replace(&mut self.whole, CRC32C.digest()).finalize();
        if footer.checksum != whole {
            return Err(self.corrupt(frame.offset, "the footer checksum does not match the blocks"));
        }
        let mut extra = Vec::new();
        let trailing = self.input.read_to_end(&mut extra)?;
        if trailing > 0 {
            return Err(FormatError::TrailingBytes { offset: self.offset, bytes: trailing as u64 });
        }
        self.done = true;
        Ok(())
    }

    fn corrupt(&self, offset: u64, what: &'static str) -> FormatError {
        FormatError::Corrupt { offset, records: self.seq, what }
    }

    fn truncated(&self) -> FormatError {
        FormatError::Truncated { offset: self.offset, records: self.seq }
    }

    fn read_frame(&mut self) -> Result<Frame, FormatError> {
        let offset = self.offset;
        let mut head = [0u8; 5];
        let got = read_full(&mut self.input, &mut head)?;
        self.offset += got as u64;
        if got < head.len() {
            return Err(self.truncated());
        }
        let kind = head[0];
        let len = u32::from_le_bytes([head[1], head[2], head[3], head[4]]);
        if len > FRAME_MAX_BYTES {
            return Err(self.corrupt(offset, "frame length out of range"));
        }
        let mut payload = vec![0u8; len as usize];
        let got = read_full(&mut self.input, &mut payload)?;
        self.offset += got as u64;
        let mut crc = [0u8; 4];
        let got_crc = if got == payload.len() { read_full(&mut self.input, &mut crc)? } else { 0 };
        self.offset += got_crc as u64;
        if got < payload.len() || got_crc < crc.len() {
            return Err(self.truncated());
        }
        let mut digest = CRC32C.digest();
        digest.update(&head);
        digest.update(&payload);
        if digest.finalize() != u32::from_le_bytes(crc) {
            return Err(self.corrupt(offset, "checksum mismatch"));
        }
        Ok(Frame { kind, payload, offset })
    }
}

/// Reads until `buf` is full or the input ends; returns the bytes read.
fn read_full(input: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match input.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}
