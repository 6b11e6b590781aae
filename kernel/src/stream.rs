//! A device's record stream: what a controller writes to a serial line or a flash
//! page so that a host can later verify and replay it (`replay import`, `replay
//! verify`). `docs/stream-format.md` is the spec.
//!
//! ```text
//! stream  = frame frame ...                     the first frame is the setup
//! frame   = COBS(content) 0x00                  no 0x00 inside a frame
//! content = kind (u8) | payload | CRC-32C of kind and payload (u32 LE)
//! kind 1  setup:  "ADMSTRM1" | postcard Setup   the kernel, its configuration, its capacities
//! kind 2  record: the bytes `log::encode` writes for one Record (seq from 0, up by one)
//! kind 3  end:    postcard End                  how many records came before it
//! ```
//!
//! The zero byte only ever ends a frame, so a reader that loses or garbles bytes
//! resynchronises at the next zero: a damaged byte costs the one frame it falls in,
//! which the checksum (or the COBS code bytes) reveals; a lost frame shows as a gap
//! in the records' sequence numbers, which number the frames.
//!
//! [`StreamWriter`] writes frames into a caller's buffer: no allocation, no panic,
//! nothing kept but two counters. [`decode_frame`] is the reader's half, the same
//! code on either side.

mod cobs;
mod setup;

use serde::{Deserialize, Serialize};

pub use cobs::{CobsError, crc32c};
pub use setup::{DeviceModel, SOURCE_MAX_BYTES, Setup, VERSION_MAX_BYTES};

use crate::log::{Body, RECORD_MAX_BYTES, Record};

/// The first bytes of the setup frame's payload.
pub const MAGIC: [u8; 8] = *b"ADMSTRM1";
/// Frame kinds.
pub const KIND_SETUP: u8 = 1;
pub const KIND_RECORD: u8 = 2;
pub const KIND_END: u8 = 3;
/// The delimiter that ends every frame.
pub const DELIMITER: u8 = 0;
/// The checksum's bytes at the end of a frame's content.
const CRC_BYTES: usize = 4;
/// No record frame takes more bytes, delimiter included: a kind byte, the widest
/// record, the checksum, one COBS code byte and the delimiter.
pub const RECORD_FRAME_MAX_BYTES: usize = 1 + RECORD_MAX_BYTES + CRC_BYTES + 2;
/// A buffer this long is enough for [`StreamWriter::record`] and [`StreamWriter::end`]
/// (half for the content, half for the frame).
pub const RECORD_BUFFER_BYTES: usize = 2 * RECORD_FRAME_MAX_BYTES;

/// The last frame: the records written before it. A stream cut before its end frame
/// (power lost, a device still running) is still read, and said to be cut.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct End {
    pub records: u64,
}

/// Why a frame could not be written: the caller's buffer is too small for it (or a
/// setup's text does not encode).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum WriteError {
    BufferFull,
}

/// Writes a stream frame by frame into buffers the caller owns: the setup first, then
/// each record (numbered here, from 0), then, if the stream is ever closed, the end.
#[derive(Clone, Debug, Default)]
pub struct StreamWriter {
    records: u64,
}

impl StreamWriter {
    pub const fn new() -> Self {
        Self { records: 0 }
    }

    /// The records written so far (the next record's sequence number).
    pub const fn records(&self) -> u64 {
        self.records
    }

    /// The setup frame, in `buf`; `buf` needs twice the frame's bytes.
    pub fn setup<'b, const N: usize>(
        &mut self,
        setup: &Setup<N>,
        buf: &'b mut [u8],
    ) -> Result<&'b [u8], WriteError> {
        frame(KIND_SETUP, buf, |payload| {
            let (magic, rest) = payload.split_at_mut_checked(MAGIC.len())?;
            magic.copy_from_slice(&MAGIC);
            let used = postcard::to_slice(setup, rest).ok()?.len();
            used.checked_add(MAGIC.len())
        })
    }

    /// The next record's frame, numbered with the next sequence number, in `buf` (at
    /// least [`RECORD_BUFFER_BYTES`]). A failed write does not use up the number.
    pub fn record<'b>(&mut self, body: Body, buf: &'b mut [u8]) -> Result<&'b [u8], WriteError> {
        let record = Record { seq: self.records, body };
        let bytes =
            frame(KIND_RECORD, buf, |payload| Some(crate::log::encode(&record, payload).ok()?.len()))?;
        self.records = self.records.saturating_add(1);
        Ok(bytes)
    }

    /// The end frame, counting the records written, in `buf` (at least
    /// [`RECORD_BUFFER_BYTES`]).
    pub fn end<'b>(&mut self, buf: &'b mut [u8]) -> Result<&'b [u8], WriteError> {
        let end = End { records: self.records };
        frame(KIND_END, buf, |payload| Some(postcard::to_slice(&end, payload).ok()?.len()))
    }
}

/// Builds one frame in `buf`: the content (kind, the payload `payload` writes, the
/// checksum) in the back half, the COBS frame and its delimiter in the front half.
fn frame(
    kind: u8,
    buf: &mut [u8],
    payload: impl FnOnce(&mut [u8]) -> Option<usize>,
) -> Result<&[u8], WriteError> {
    let half = buf.len() / 2;
    let (out, content) = buf.split_at_mut(half);
    let (head, body) = content.split_first_mut().ok_or(WriteError::BufferFull)?;
    *head = kind;
    let used = payload(body).ok_or(WriteError::BufferFull)?;
    let len = used.checked_add(1).ok_or(WriteError::BufferFull)?;
    let crc = crc32c(content.get(..len).ok_or(WriteError::BufferFull)?);
    let end = len.checked_add(CRC_BYTES).ok_or(WriteError::BufferFull)?;
    content.get_mut(len..end).ok_or(WriteError::BufferFull)?.copy_from_slice(&crc.to_le_bytes());
    let content = content.get(..end).ok_or(WriteError::BufferFull)?;
    let written = cobs::encode(content, out).ok_or(WriteError::BufferFull)?;
    *out.get_mut(written).ok_or(WriteError::BufferFull)? = DELIMITER;
    let total = written.checked_add(1).ok_or(WriteError::BufferFull)?;
    out.get(..total).ok_or(WriteError::BufferFull)
}

/// One decoded frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Frame<const N: usize> {
    Setup(Setup<N>),
    Record(Record),
    End(End),
}

/// Why a frame was refused; the reader names it with the frame's byte offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum FrameError {
    /// The bytes are not COBS.
    Cobs(CobsError),
    /// Fewer bytes than a kind and a checksum.
    Short { len: usize },
    /// The checksum does not hold.
    Checksum { stored: u32, computed: u32 },
    /// A kind this format does not have.
    Kind(u8),
    /// A setup frame whose payload does not start with [`MAGIC`].
    Magic,
    /// The payload does not decode as its kind's type.
    Payload,
    /// The payload decodes with bytes left over.
    Trailing { bytes: usize },
}

/// Decodes one frame's bytes (without its delimiter), using `scratch` (at least
/// `encoded.len()` bytes) for the COBS-decoded content.
pub fn decode_frame<const N: usize>(encoded: &[u8], scratch: &mut [u8]) -> Result<Frame<N>, FrameError> {
    let len = cobs::decode(encoded, scratch).map_err(FrameError::Cobs)?;
    let content = scratch.get(..len).ok_or(FrameError::Short { len })?;
    let body_len = len.checked_sub(CRC_BYTES).ok_or(FrameError::Short { len })?;
    let (checked, stored) = content.split_at_checked(body_len).ok_or(FrameError::Short { len })?;
    let stored = u32::from_le_bytes(stored.try_into().map_err(|_| FrameError::Short { len })?);
    let computed = crc32c(checked);
    if stored != computed {
        return Err(FrameError::Checksum { stored, computed });
    }
    let (&kind, payload) = checked.split_first().ok_or(FrameError::Short { len })?;
    match kind {
        KIND_SETUP => {
            let rest = payload.strip_prefix(&MAGIC).ok_or(FrameError::Magic)?;
            whole(postcard::take_from_bytes(rest)).map(Frame::Setup)
        }
        KIND_RECORD => whole(crate::log::decode(payload)).map(Frame::Record),
        KIND_END => whole(postcard::take_from_bytes(payload)).map(Frame::End),
        other => Err(FrameError::Kind(other)),
    }
}

/// A payload decoded with nothing left over.
fn whole<T>(decoded: Result<(T, &[u8]), postcard::Error>) -> Result<T, FrameError> {
    match decoded {
        Ok((value, [])) => Ok(value),
        Ok((_, rest)) => Err(FrameError::Trailing { bytes: rest.len() }),
        Err(_) => Err(FrameError::Payload),
    }
}

#[cfg(test)]
mod tests;
