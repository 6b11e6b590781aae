//! [`LogWriter`]: the header at once, then records into blocks, each written out as
//! soon as it is full, then the footer. Only one block is ever held in memory, so a
//! log of any length streams to its file.

use std::io::Write;

use kernel::log::Body;
use kernel::service_level::{Decision, Event};

use super::codec::{BLOCK_HEADER_MAX_BYTES, BlockHeader, RECORD_MAX_BYTES, RecordCodec};
use super::{
    BLOCK_TARGET_BYTES, CRC32C, Crc32cDigest, Footer, FormatError, Header, KIND_BLOCK, KIND_FOOTER,
    KIND_HEADER, MAGIC, write_frame,
};

/// The bytes a log of `header` starts with, as [`LogWriter::new`] writes them: the
/// magic, the version (the header's, raised to what its content needs) and the
/// header's frame. Nothing after them depends on them, so a writer that learns a
/// header value only at the end (the input's hash) may write a stand-in first and
/// these bytes over it then, when both are as long (as two hashes always are: 16
/// hex digits each).
pub fn head(header: &Header) -> Result<Vec<u8>, FormatError> {
    let stamped;
    let needed = header.needed_version();
    let header = if header.format_version < needed {
        stamped = Header { format_version: needed, ..header.clone() };
        &stamped
    } else {
        header
    };
    let mut bytes = MAGIC.to_vec();
    bytes.extend_from_slice(&header.format_version.to_le_bytes());
    let payload = postcard::to_stdvec(header).map_err(FormatError::Encode)?;
    write_frame(&mut bytes, KIND_HEADER, &[&payload])?;
    Ok(bytes)
}

/// Writes a log; sequence numbers are assigned here, in the order records arrive.
pub struct LogWriter<W: Write> {
    out: W,
    codec: RecordCodec,
    /// The encoded records of the open block.
    block: Vec<u8>,
    /// The open block's header, once it is closed.
    head: Vec<u8>,
    /// The sequence number of the open block's first record.
    block_first: u64,
    seq: u64,
    blocks: u64,
    whole: Crc32cDigest,
}

impl<W: Write> std::fmt::Debug for LogWriter<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LogWriter").field("seq", &self.seq).field("blocks", &self.blocks).finish()
    }
}

impl<W: Write> LogWriter<W> {
    /// Writes the magic, the version and `header`. The version is the header's, raised
    /// to what its content needs ([`Header::needed_version`]): this build writes only
    /// the newest layout, so a header read from an older log is written as version 6.
    pub fn new(mut out: W, header: &Header) -> Result<Self, FormatError> {
        out.write_all(&head(header)?)?;
        Ok(Self {
            out,
            codec: RecordCodec::for_log(&header.model),
            block: Vec::with_capacity(BLOCK_TARGET_BYTES + RECORD_MAX_BYTES),
            head: Vec::with_capacity(BLOCK_HEADER_MAX_BYTES),
            block_first: 0,
            seq: 0,
            blocks: 0,
            whole: CRC32C.digest(),
        })
    }

    pub fn event(&mut self, event: &Event) -> Result<(), FormatError> {
        self.record(Body::Event(*event))
    }

    pub fn decision(&mut self, decision: &Decision) -> Result<(), FormatError> {
        self.record(Body::Decision(*decision))
    }

    /// Appends the next record.
    pub fn record(&mut self, body: Body) -> Result<(), FormatError> {
        self.record_all(std::slice::from_ref(&body))
    }

    /// Appends `bodies`, in order: the bytes of as many [`Self::record`] calls.
    pub fn record_all(&mut self, mut bodies: &[Body]) -> Result<(), FormatError> {
        while !bodies.is_empty() {
            let taken = self.codec.encode_until(bodies, &mut self.block, BLOCK_TARGET_BYTES);
            self.seq += taken as u64;
            bodies = bodies.get(taken..).unwrap_or_default();
            if self.block.len() >= BLOCK_TARGET_BYTES {
                self.flush_block()?;
            }
        }
        Ok(())
    }

    /// Records written so far.
    pub fn records(&self) -> u64 {
        self.seq
    }

    /// Writes the open block, if it holds any record, and starts the next.
    fn flush_block(&mut self) -> Result<(), FormatError> {
        let records = self.seq - self.block_first;
        if records == 0 {
            return Ok(());
        }
        // A block holds at most BLOCK_TARGET_BYTES + RECORD_MAX_BYTES bytes, each
        // record at least one, so its count always fits.
        let records = u32::try_from(records).unwrap_or(u32::MAX);
        self.head.clear();
        BlockHeader { first_seq: self.block_first, records }.put(&mut self.head);
        write_frame(&mut self.out, KIND_BLOCK, &[&self.head, &self.block])?;
        self.whole.update(&self.head);
        self.whole.update(&self.block);
        self.blocks += 1;
        self.block.clear();
        self.block_first = self.seq;
        self.codec.start_block();
        Ok(())
    }

    /// Writes the last block and the footer, flushes, and hands the output back.
    pub fn finish(mut self) -> Result<W, FormatError> {
        self.flush_block()?;
        let footer = Footer { records: self.seq, blocks: self.blocks, checksum: self.whole.finalize() };
        let payload = postcard::to_stdvec(&footer).map_err(FormatError::Encode)?;
        write_frame(&mut self.out, KIND_FOOTER, &[&payload])?;
        self.out.flush()?;
        Ok(self.out)
    }
}
