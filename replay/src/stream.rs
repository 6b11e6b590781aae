//! Reading a device's record stream (`kernel::stream`, `docs/stream-format.md`): the
//! frames split at their delimiters, each decoded and checked, the records kept in
//! order, and every stretch of bytes that did not decode reported once, by its byte
//! offset, with the records it cost.
//!
//! A damaged byte costs the frame it falls in: the checksum (or the COBS code bytes)
//! refuses that frame, the next delimiter starts the next one, and the gap in the
//! records' sequence numbers says which records were lost. Bad frames next to each
//! other (a byte turned into a delimiter splits a frame in two) are one [`Loss`].
//! [`crate::import`] turns what was read into a decision log.

use std::fmt;

use kernel::log::Record;
use kernel::stream::{CobsError, End, Frame, FrameError, Setup, decode_frame};

/// The longest list (service levels, tiers resources) a setup may hold on the host.
pub const SETUP_LIST_MAX: usize = 64;
/// A setup as the host reads it.
pub type HostSetup = Setup<SETUP_LIST_MAX>;

/// Everything read from a stream.
#[derive(Clone, Debug, Default)]
pub struct StreamRead {
    /// The setup frame, if one was read intact.
    pub setup: Option<HostSetup>,
    /// The records of the intact frames, in stream order (sequence numbers rising).
    pub records: Vec<Record>,
    /// The end frame, if the stream was closed.
    pub end: Option<End>,
    /// Every stretch of bytes that did not give a frame, and every frame out of place.
    pub losses: Vec<Loss>,
    /// Intact frames read.
    pub frames: u64,
    pub bytes: u64,
}

/// Bytes that gave no frame, or a frame that could not be kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loss {
    /// Where the bad bytes start.
    pub offset: u64,
    /// How many bytes, delimiters included.
    pub len: u64,
    pub what: Problem,
    /// The records missing there: the first's sequence number and the count, once an
    /// intact frame after the loss tells.
    pub missing: Option<(u64, u64)>,
}

/// What was wrong at a [`Loss`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// A frame that does not decode.
    Damaged(FrameError),
    /// Bytes after the last delimiter: the stream was cut inside a frame.
    CutShort,
    /// No bad bytes, but records missing: whole frames, delimiters included, dropped.
    Dropped,
    /// An intact frame that cannot be kept where it is.
    Misplaced(&'static str),
    /// An end frame that counts fewer records than the stream holds.
    EndCount { counted: u64, held: u64 },
    /// An intact frame whose record number or count is past [`PLAUSIBLE_RECORDS`]: not
    /// the device's, so how many records were lost before it is unknown.
    Implausible { what: &'static str, number: u64 },
}

/// Record numbers and counts past this (about a trillion records, more than any
/// device's stream holds) are not believed: a frame naming one is not kept.
pub const PLAUSIBLE_RECORDS: u64 = 1 << 40;

/// A stream frame's fault in words.
fn frame_fault(f: &mut fmt::Formatter<'_>, e: &FrameError) -> fmt::Result {
    match e {
        FrameError::Cobs(CobsError::Zero { at }) => write!(f, "a zero byte at {at} inside the frame"),
        FrameError::Cobs(CobsError::Overrun { at }) => {
            write!(f, "the code byte at {at} runs past the frame's end")
        }
        FrameError::Cobs(CobsError::Full) => f.write_str("it decodes to more bytes than a frame holds"),
        FrameError::Short { len } => write!(f, "{len} bytes, too short"),
        FrameError::Checksum { stored, computed } => {
            write!(f, "checksum {stored:#010x} stored, {computed:#010x} computed")
        }
        FrameError::Kind(kind) => write!(f, "frame kind {kind} is not one the format has"),
        FrameError::Magic => f.write_str("a setup frame without the setup's magic"),
        FrameError::Payload => f.write_str("its payload does not decode as its kind's"),
        FrameError::Trailing { bytes } => write!(f, "{bytes} bytes after its payload's last field"),
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Damaged(
                e @ (FrameError::Cobs(_) | FrameError::Checksum { .. } | FrameError::Short { .. }),
            ) => {
                f.write_str("a damaged frame (")?;
                frame_fault(f, e)?;
                f.write_str(")")
            }
            Self::Damaged(e) => {
                f.write_str("a frame whose checksum holds but that does not decode (")?;
                frame_fault(f, e)?;
                f.write_str(")")
            }
            Self::CutShort => f.write_str("a frame cut short at the end of the stream"),
            Self::Dropped => f.write_str("whole frames missing"),
            Self::Misplaced(why) => f.write_str(why),
            Self::EndCount { counted, held } => write!(
                f,
                "an end frame that counts {counted} {} where the stream holds {held}",
                if *counted == 1 { "record" } else { "records" }
            ),
            Self::Implausible { what, number } => write!(
                f,
                "{what} {number}, past any device's stream (more than 2^40 records); \
                 how many records were lost before it is unknown"
            ),
        }
    }
}

impl fmt::Display for Loss {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "byte {} ({} bytes): {}", self.offset, self.len, self.what)?;
        match self.missing {
            None => Ok(()),
            Some((first, 1)) => write!(f, "; record {first} lost"),
            Some((first, count)) => write!(f, "; records {first} to {} lost", first + count - 1),
        }
    }
}

impl StreamRead {
    /// The records lost in the stream, as far as the intact frames tell.
    pub fn records_lost(&self) -> u64 {
        self.losses.iter().filter_map(|l| l.missing).map(|(_, count)| count).sum()
    }

    /// Whether a frame's number was past belief ([`Problem::Implausible`]), so that how
    /// many records were lost is unknown.
    pub fn count_unknown(&self) -> bool {
        self.losses.iter().any(|l| matches!(l.what, Problem::Implausible { .. }))
    }
}

/// Whether `bytes` are a stream: the first frame is intact (a setup, or a record of a
/// stream that lost its setup), or it is a delimited frame whose checksum does not
/// hold, or an intact frame follows it. A damaged stream is read as one, so
/// that its damage is named by byte offset.
pub fn is_stream(bytes: &[u8]) -> bool {
    let mut chunks = bytes.split(|&b| b == kernel::stream::DELIMITER).filter(|chunk| !chunk.is_empty());
    let Some(first) = chunks.next() else { return false };
    let mut scratch = vec![0u8; first.len()];
    match decode_frame::<SETUP_LIST_MAX>(first, &mut scratch) {
        Ok(_) => true,
        Err(FrameError::Checksum { .. }) if first.len() < bytes.len() => true,
        Err(_) => read(bytes).frames > 0,
    }
}

/// Reads every frame of `bytes`; it never fails, it reports.
pub fn read(bytes: &[u8]) -> StreamRead {
    let mut state = Reading {
        read: StreamRead { bytes: bytes.len() as u64, ..StreamRead::default() },
        ..Reading::default()
    };
    let mut scratch = Vec::new();
    let mut offset = 0u64;
    let mut chunks = bytes.split(|&b| b == kernel::stream::DELIMITER).peekable();
    while let Some(chunk) = chunks.next() {
        let len = chunk.len() as u64;
        let last = chunks.peek().is_none();
        if last {
            if !chunk.is_empty() {
                state.bad(offset, len, Problem::CutShort);
            }
            break;
        }
        if !chunk.is_empty() {
            scratch.resize(chunk.len(), 0);
            match decode_frame::<SETUP_LIST_MAX>(chunk, &mut scratch) {
                Ok(frame) => state.frame(offset, len + 1, frame),
                Err(e) => state.bad(offset, len + 1, Problem::Damaged(e)),
            }
        }
        offset += len + 1;
    }
    state.finish()
}

/// What makes `frame` unbelievable: a record number or an end count past
/// [`PLAUSIBLE_RECORDS`].
fn implausible(frame: &Frame<SETUP_LIST_MAX>) -> Option<Problem> {
    match frame {
        Frame::Record(record) if record.seq > PLAUSIBLE_RECORDS => {
            Some(Problem::Implausible { what: "a record numbered", number: record.seq })
        }
        Frame::End(end) if end.records > PLAUSIBLE_RECORDS => {
            Some(Problem::Implausible { what: "an end frame counting", number: end.records })
        }
        _ => None,
    }
}

/// An intact frame at `offset` (`len` bytes) not kept, for `what`.
const fn misplaced_as(offset: u64, len: u64, what: Problem) -> Loss {
    Loss { offset, len, what, missing: None }
}

/// The reader's state between frames.
#[derive(Default)]
struct Reading {
    read: StreamRead,
    /// Bad bytes since the last intact frame, not yet reported.
    pending: Option<Loss>,
    /// The next record's expected sequence number.
    next_seq: u64,
}

impl Reading {
    fn bad(&mut self, offset: u64, len: u64, what: Problem) {
        match &mut self.pending {
            Some(loss) => loss.len = offset + len - loss.offset,
            None => self.pending = Some(Loss { offset, len, what, missing: None }),
        }
    }

    /// An intact frame: it closes any pending loss, with the records missing before it.
    fn frame(&mut self, offset: u64, len: u64, frame: Frame<SETUP_LIST_MAX>) {
        self.read.frames += 1;
        let misplaced = |why| Loss { offset, len, what: Problem::Misplaced(why), missing: None };
        if self.read.end.is_some() {
            self.close(offset, None);
            self.read.losses.push(misplaced("a frame after the end frame"));
            return;
        }
        if let Some(what) = implausible(&frame) {
            self.close(offset, None);
            self.read.losses.push(misplaced_as(offset, len, what));
            return;
        }
        match frame {
            Frame::Setup(setup) => {
                self.close(offset, None);
                if self.read.setup.is_some() || self.next_seq > 0 {
                    self.read.losses.push(misplaced("a setup frame that is not the first"));
                } else {
                    self.read.setup = Some(setup);
                }
            }
            Frame::Record(record) if record.seq < self.next_seq => {
                self.close(offset, None);
                self.read.losses.push(misplaced("a record whose number repeats or goes back"));
            }
            Frame::Record(record) => {
                self.close(offset, Some(record.seq));
                self.next_seq = record.seq + 1;
                self.read.records.push(record);
            }
            Frame::End(end) if end.records < self.next_seq => {
                self.close(offset, None);
                let what = Problem::EndCount { counted: end.records, held: self.next_seq };
                self.read.losses.push(Loss { offset, len, what, missing: None });
                self.read.end = Some(end);
            }
            Frame::End(end) => {
                self.close(offset, Some(end.records));
                self.next_seq = self.next_seq.max(end.records);
                self.read.end = Some(end);
            }
        }
    }

    /// Reports the pending loss, if any, with the records up to `seq` (the next
    /// intact record's number) as missing; without bad bytes, a gap is whole frames
    /// dropped, reported at `offset`.
    fn close(&mut self, offset: u64, seq: Option<u64>) {
        let missing = seq.filter(|&s| s > self.next_seq).map(|s| (self.next_seq, s - self.next_seq));
        match self.pending.take() {
            Some(mut loss) => {
                loss.missing = missing;
                self.read.losses.push(loss);
            }
            None if missing.is_some() => {
                self.read.losses.push(Loss { offset, len: 0, what: Problem::Dropped, missing });
            }
            None => {}
        }
    }

    fn finish(mut self) -> StreamRead {
        if let Some(loss) = self.pending.take() {
            self.read.losses.push(loss);
        }
        self.read
    }
}

#[cfg(test)]
mod tests;
