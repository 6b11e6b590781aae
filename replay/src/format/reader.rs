//! [`LogReader`]: checks every frame before it hands out any record of it, and decodes
//! records one at a time, in place, from a single block buffer that is reused for
//! every frame: reading allocates nothing per record or per block.

use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::Path;

use kernel::log::Record;

use super::codec::{BlockHeader, CodecError, RecordCodec};
use super::varint::Cursor;
use super::{
    CRC32C, Crc32cDigest, FORMAT_VERSION, FRAME_MAX_BYTES, Footer, FormatError, Header, KIND_BLOCK,
    KIND_FOOTER, KIND_HEADER, MAGIC, Model, OLDEST_READABLE_VERSION, ServiceLevelHeader,
};

/// Input buffer of [`LogReader::open`]: several blocks per read from the file.
const FILE_BUFFER_BYTES: usize = 1 << 16;

/// Reads a log record by record.
pub struct LogReader<R: Read> {
    input: R,
    header: Header,
    /// Bytes consumed from the input so far.
    offset: u64,
    /// The payload of the last frame read; its records are decoded from here.
    block: Vec<u8>,
    /// Read position inside `block`.
    cursor: usize,
    /// Records of the current block not yet handed out.
    left: u32,
    block_offset: u64,
    seq: u64,
    blocks: u64,
    whole: Crc32cDigest,
    codec: RecordCodec,
    done: bool,
}

impl<R: Read> std::fmt::Debug for LogReader<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LogReader").field("offset", &self.offset).field("seq", &self.seq).finish()
    }
}

impl LogReader<BufReader<File>> {
    pub fn open(path: &Path) -> Result<Self, FormatError> {
        Self::new(BufReader::with_capacity(FILE_BUFFER_BYTES, File::open(path)?))
    }
}

impl<R: Read> LogReader<R> {
    /// Reads and checks the magic, the version and the header.
    pub fn new(mut input: R) -> Result<Self, FormatError> {
        let mut start = [0u8; 10];
        let read = read_full(&mut input, &mut start)?;
        let (magic, version) = start.split_at(8);
        if read < magic.len() || magic != MAGIC {
            return Err(FormatError::BadMagic);
        }
        if read < start.len() {
            return Err(FormatError::Truncated { offset: read as u64, records: 0 });
        }
        let found = u16::from_le_bytes([version[0], version[1]]);
        if !(OLDEST_READABLE_VERSION..=FORMAT_VERSION).contains(&found) {
            return Err(FormatError::UnsupportedVersion { found });
        }
        let mut reader = Self {
            input,
            header: Header::new(Model::ServiceLevel(ServiceLevelHeader::default())),
            offset: start.len() as u64,
            block: Vec::new(),
            cursor: 0,
            left: 0,
            block_offset: 0,
            seq: 0,
            blocks: 0,
            whole: CRC32C.digest(),
            codec: RecordCodec::new(&[]),
            done: false,
        };
        let (kind, offset) = reader.read_frame()?;
        if kind != KIND_HEADER {
            return Err(reader.corrupt(offset, "the first frame is not a header"));
        }
        let (header, rest) = Header::decode(found, &reader.block)
            .map_err(|_| reader.corrupt(offset, "the header does not decode"))?;
        if rest > 0 {
            return Err(FormatError::FrameTrailing { offset, what: "header", bytes: rest as u64 });
        }
        reader.header = header;
        if reader.header.format_version != found {
            return Err(reader.corrupt(offset, "the header's version is not the one after the magic"));
        }
        reader.codec = RecordCodec::for_log(&reader.header.model);
        reader.block.clear();
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
    #[inline]
    pub fn next_record(&mut self) -> Result<Option<Record>, FormatError> {
        if self.left == 0 && !self.next_block()? {
            return Ok(None);
        }
        let mut cursor = Cursor::new(&self.block, self.cursor);
        let body = self.codec.decode(&mut cursor).map_err(|source| self.decode_error(source))?;
        self.cursor = cursor.position();
        self.left -= 1;
        let record = Record { seq: self.seq, body };
        self.seq += 1;
        Ok(Some(record))
    }

    /// Reads frames until a block with records is open (`true`) or the footer has
    /// been checked (`false`).
    fn next_block(&mut self) -> Result<bool, FormatError> {
        while self.left == 0 {
            if self.cursor < self.block.len() {
                return Err(self.decode_error(CodecError::Trailing(self.block.len() - self.cursor)));
            }
            if self.done {
                return Ok(false);
            }
            let (kind, offset) = self.read_frame()?;
            match kind {
                KIND_BLOCK => self.open_block(offset)?,
                KIND_FOOTER => {
                    self.finish_footer(offset)?;
                    return Ok(false);
                }
                KIND_HEADER => {
                    return Err(self.corrupt(offset, "a second header frame; a log has one, first"));
                }
                _ => return Err(self.corrupt(offset, "unknown frame kind")),
            }
        }
        Ok(true)
    }

    /// Starts on the block frame just read at `offset`.
    fn open_block(&mut self, offset: u64) -> Result<(), FormatError> {
        self.whole.update(&self.block);
        self.blocks += 1;
        self.block_offset = offset;
        let mut cursor = Cursor::new(&self.block, 0);
        let head = BlockHeader::read(&mut cursor).map_err(|source| self.decode_error(source))?;
        if head.first_seq != self.seq {
            return Err(FormatError::SequenceGap { offset, expected: self.seq, found: head.first_seq });
        }
        self.cursor = cursor.position();
        self.left = head.records;
        self.codec.start_block();
        Ok(())
    }

    fn finish_footer(&mut self, offset: u64) -> Result<(), FormatError> {
        let (footer, rest) = postcard::take_from_bytes::<Footer>(&self.block)
            .map_err(|_| self.corrupt(offset, "the footer does not decode"))?;
        if !rest.is_empty() {
            return Err(FormatError::FrameTrailing { offset, what: "footer", bytes: rest.len() as u64 });
        }
        self.block.clear();
        if footer.records != self.seq {
            return Err(FormatError::FooterMismatch {
                offset,
                what: "records",
                footer: footer.records,
                actual: self.seq,
            });
        }
        if footer.blocks != self.blocks {
            return Err(FormatError::FooterMismatch {
                offset,
                what: "blocks",
                footer: footer.blocks,
                actual: self.blocks,
            });
        }
        let whole = std::mem::replace(&mut self.whole, CRC32C.digest()).finalize();
        if footer.checksum != whole {
            return Err(self.corrupt(offset, "the footer checksum does not match the blocks"));
        }
        let mut extra = Vec::new();
        let trailing = self.input.read_to_end(&mut extra)?;
        if trailing > 0 {
            return Err(FormatError::TrailingBytes { offset: self.offset, bytes: trailing as u64 });
        }
        self.done = true;
        Ok(())
    }

    fn decode_error(&self, source: CodecError) -> FormatError {
        FormatError::Decode { offset: self.block_offset, seq: self.seq, source }
    }

    fn corrupt(&self, offset: u64, what: &'static str) -> FormatError {
        FormatError::Corrupt { offset, records: self.seq, what }
    }

    fn truncated(&self) -> FormatError {
        FormatError::Truncated { offset: self.offset, records: self.seq }
    }

    /// Reads one frame into `block` and checks it; returns its kind and offset. On
    /// any error `block` is left empty.
    fn read_frame(&mut self) -> Result<(u8, u64), FormatError> {
        let offset = self.offset;
        self.block.clear();
        self.cursor = 0;
        let mut head = [0u8; 5];
        let got = read_full(&mut self.input, &mut head)?;
        self.offset += got as u64;
        if got < head.len() {
            return Err(self.truncated());
        }
        let [kind, len @ ..] = head;
        let len = u32::from_le_bytes(len);
        if len > FRAME_MAX_BYTES {
            return Err(self.corrupt(offset, "frame length out of range"));
        }
        self.block.resize(len as usize, 0);
        let got = read_full(&mut self.input, &mut self.block)?;
        self.offset += got as u64;
        let mut crc = [0u8; 4];
        let got_crc = if got == self.block.len() { read_full(&mut self.input, &mut crc)? } else { 0 };
        self.offset += got_crc as u64;
        let mut digest = CRC32C.digest();
        digest.update(&head);
        digest.update(&self.block);
        let intact = digest.finalize() == u32::from_le_bytes(crc);
        if got < self.block.len() || got_crc < crc.len() || !intact {
            self.block.clear();
            let truncated = got < len as usize || got_crc < crc.len();
            return Err(if truncated { self.truncated() } else { self.corrupt(offset, "checksum mismatch") });
        }
        Ok((kind, offset))
    }
}

/// Reads until `buf` is full or the input ends; returns the bytes read.
fn read_full(input: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while let Some(rest) = buf.get_mut(filled..).filter(|rest| !rest.is_empty()) {
        match input.read(rest) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}
