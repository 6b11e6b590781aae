//! Standard Workload Format traces, plain or gzipped, into jobs in release order.
//!
//! The rules, exactly:
//! - A file that starts with the gzip magic bytes `1f 8b` is decompressed (all
//!   members); any other file is read as plain text. Bytes after the last member that
//!   start no member are an error at their byte offset. The input hash is the CRC-64
//!   of the decompressed bytes.
//! - A UTF-8 byte-order mark at the start of the first line is skipped.
//! - Lines starting with `;` (after leading blanks) are header comments, whatever
//!   bytes follow; `MaxProcs` and `MaxNodes` are read from them when present (two
//!   different values of one are an error naming both lines). Blank lines are skipped.
//! - Every other line must have exactly 18 whitespace-separated fields (trailing
//!   blanks and `\r` are fine; a `\r` with more after it on its line is an error,
//!   of a file whose lines end in `\r` alone), each a decimal number (`-1`, `12`,
//!   `31.69`). With
//!   `allow_extra_fields` (`--allow-extra-fields`), a line may have more (Alea's
//!   variant has 21): the standard 18 are read and checked, the rest ignored. The job
//!   number (field 1) must be a whole number that fits in a `u32`, and unique.
//!   Anything else is an error naming the file, line and field, unless
//!   `skip_bad_lines` is set: then the line is counted in [`crate::workload::Excluded::bad_lines`].
//! - Release = submit time (field 2), processing time = run time (field 4),
//!   processors = allocated (field 5), or requested (field 8) when that is not
//!   positive, or 0 when neither is; each must be -1 or a count from 0 to 2^32 - 1,
//!   and a usable job may not be wider than `MaxProcs`. A
//!   fractional time is rounded to a whole tick, half away from zero (`2.5 -> 3`,
//!   `-2.5 -> -3`), exactly, from the decimal digits (no floating point).
//! - Every status (field 11) is kept. A job whose rounded run time is `<= 0`, or
//!   whose rounded submit time is `< 0`, is not submitted but counted by reason.
//! - Jobs are ordered by (submit time, line number), whatever the file order, and
//!   their times are made relative to the first of them.
//!
//! The file is streamed: read through a buffer, decompressed on the fly and split
//! into lines one at a time, with the input hash computed as the bytes go by. Only
//! the parsed jobs are kept (24 bytes each), so memory does not grow with the size
//! of the file, only with its number of jobs.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;
use thiserror::Error;

use replay::format::Setting;

use crate::workload::{self, Workload};

mod builder;
mod gzip;
mod inflate;
mod line;
mod stream;

use builder::{Builder, InMemory, Keep};
pub use stream::{Finished, Helper, JobStream, LOOKAHEAD, Once, Scan, lookahead_help};

/// Reading a Standard Workload Format trace.
#[derive(Debug, Error)]
pub enum SwfError {
    #[error("{file}: cannot read the trace: {source}")]
    Io {
        file: String,
        #[source]
        source: io::Error,
    },
    #[error("{file}: cannot decompress the gzip stream: {source}")]
    Gzip {
        file: String,
        #[source]
        source: io::Error,
    },
    #[error("{file}:{line}: the line is not valid UTF-8: byte {at} of the line is {byte:02x}{utf16}")]
    NotUtf8 { file: String, line: u64, at: usize, byte: u8, utf16: &'static str },
    #[error(
        "{file}:{line}: a carriage return inside the line, at byte {at}, with more after it: the file's lines \
         end in a carriage return alone, and an SWF line ends in a line feed; convert it first, e.g. \
         tr '\\r' '\\n' < T > T.lf"
    )]
    LoneCarriageReturn { file: String, line: u64, at: usize },
    #[error("{file}:{line}: {found} fields, an SWF job line has exactly 18")]
    FieldCount { file: String, line: u64, found: usize },
    #[error(
        "{file}:{line}: {found} fields, an SWF job line has exactly 18; for a variant with more fields after \
         the standard 18 (such as Alea's 21-field traces), --allow-extra-fields reads the 18 and ignores the rest"
    )]
    ExtraFields { file: String, line: u64, found: usize },
    // Every `text` below is a field as `replay::echo` shows it (quoted, escaped, cut).
    #[error("{file}:{line}: field {field} ({name}): {text} is not a number")]
    NotANumber { file: String, line: u64, field: usize, name: &'static str, text: String },
    #[error("{file}:{line}: field {field} ({name}): {text} is out of range")]
    OutOfRange { file: String, line: u64, field: usize, name: &'static str, text: String },
    #[error(
        "{file}:{line}: field 1 (job number): {text} is not a job number (a whole number from 0 to 4294967295)"
    )]
    NotAJobNumber { file: String, line: u64, text: String },
    #[error(
        "{file}:{line}: field {field} ({name}): {text} is not a processor count (a whole number from 0 to \
         4294967295, or -1 for unknown)"
    )]
    NotAProcessorCount { file: String, line: u64, field: usize, name: &'static str, text: String },
    #[error(
        "{file}:{line}: header field {key}: {text} is not a machine size (a whole number from 1 to \
         4294967295, or -1 for unknown)"
    )]
    Header { file: String, line: u64, key: &'static str, text: String },
    #[error("{file}:{line}: header field {key}: {value}, but line {first_line} gives {key} {first}")]
    ConflictingSizes { file: String, line: u64, key: &'static str, value: u64, first_line: u64, first: u64 },
    #[error(
        "{file}:{line}: field {field} ({name}): the job uses {procs} processors, more than the \
         machine's MaxProcs {max_procs} (line {header_line}); no job is wider than the machine it ran on"
    )]
    WiderThanMachine {
        file: String,
        line: u64,
        field: usize,
        name: &'static str,
        procs: u32,
        max_procs: u64,
        header_line: u64,
    },
    #[error(
        "{file}:{line}: a NUL byte at byte offset {offset} of a line over {} bytes: the file is not an SWF \
         text trace (a binary or sparse file?)",
        LONG_LINE
    )]
    Binary { file: String, line: u64, offset: u64 },
    #[error("{file}:{line}: field 1 (job number): job {job} is already on line {first_line}")]
    DuplicateJob { file: String, line: u64, job: u32, first_line: u64 },
    #[error(
        "{file}:{line}: field 2 (submit time): {submit} is before the submit time {last} of a job already \
         taken: {help}"
    )]
    OutOfOrder { file: String, line: u64, submit: i64, last: i64, help: String },
    #[error("{file}: the trace changed while it was read (its bytes differ from the first reading)")]
    Changed { file: String },
}

/// The number of fields on an SWF job line.
pub const FIELDS: usize = 18;

/// The SWF field names, for error messages (field 1 first).
pub const FIELD_NAMES: [&str; FIELDS] = [
    "job number",
    "submit time",
    "wait time",
    "run time",
    "allocated processors",
    "average cpu time",
    "used memory",
    "requested processors",
    "requested time",
    "requested memory",
    "status",
    "user id",
    "group id",
    "executable number",
    "queue number",
    "partition number",
    "preceding job",
    "think time",
];

/// The first two bytes of every gzip member.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];
/// Bytes read from the file, and from the decompressor, at a time.
const BUFFER_BYTES: usize = 1 << 16;
/// Bytes of inflated text a buffer holds when the reading's thread inflates.
const INFLATED_BYTES: usize = 1 << 17;

/// A line longer than this is checked for NUL bytes as it grows, so that a binary or
/// sparse file is refused before it is held whole as one line.
const LONG_LINE: usize = 1 << 20;

/// The UTF-8 byte-order mark, which some tools write at the start of a text file.
const BYTE_ORDER_MARK: &[u8] = b"\xef\xbb\xbf";

/// How strict the reader is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SwfOptions {
    /// Count malformed lines instead of stopping at the first one.
    pub skip_bad_lines: bool,
    /// Accept job lines with more than 18 fields, reading the first 18.
    pub allow_extra_fields: bool,
}

impl SwfOptions {
    /// The options as log header settings: both always, so the header is canonical.
    pub fn settings(&self) -> Vec<Setting> {
        vec![
            Setting::new("allow-extra-fields", self.allow_extra_fields),
            Setting::new("skip-bad-lines", self.skip_bad_lines),
        ]
    }
}

/// A parsed trace.
#[derive(Clone, Debug)]
pub struct Trace {
    pub workload: Workload,
    /// From the `; MaxProcs:` header line, if any.
    pub max_procs: Option<u64>,
    /// From the `; MaxNodes:` header line, if any.
    pub max_nodes: Option<u64>,
}

/// Why a decimal field could not be read as a whole number of ticks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NumberError {
    NotANumber,
    OutOfRange,
}

/// Where the lines come from, which decides how a read error is reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    Plain,
    Gzip,
}

/// Reads a trace file, plain or gzipped, streaming it. Errors name `path` as given.
pub fn read(path: &Path, options: SwfOptions) -> Result<Trace, SwfError> {
    let file = path.display().to_string();
    let mut builder = Builder::new(&file, options, InMemory::default());
    let hash = read_with(path, &mut builder)?;
    Ok(builder.finish(hash))
}

/// Reads the file at `path` (named `builder.file` in errors), plain or gzipped, line
/// by line into `builder`; the CRC-64 of its (decompressed) bytes.
fn read_with<K: Keep>(path: &Path, builder: &mut Builder<'_, K>) -> Result<u64, SwfError> {
    let file = builder.file;
    let io_error = |source| SwfError::Io { file: file.to_owned(), source };
    if path.is_dir() {
        return Err(io_error(io::Error::other("it is a folder, not a trace file")));
    }
    let mut input = BufReader::with_capacity(BUFFER_BYTES, File::open(path).map_err(io_error)?);
    if !input.fill_buf().map_err(io_error)?.starts_with(&GZIP_MAGIC) {
        each_line(input, Source::Plain, builder)
    } else if K::INFLATE_APART {
        each_line(inflate::inflate(input).map_err(io_error)?, Source::Gzip, builder)
    } else {
        each_line(BufReader::with_capacity(INFLATED_BYTES, gzip::Members::new(input)), Source::Gzip, builder)
    }
}

/// The machine's size as the comment lines at the top of the trace at `path` give
/// it (`MaxProcs`, `MaxNodes`), read up to its first line of another kind: what a
/// whole reading ([`Scan`]) reports unless a later comment changes it. `None` when
/// they cannot be read so (an error, which the whole reading then reports).
pub fn head_sizes(path: &Path, options: SwfOptions) -> Option<(Option<u64>, Option<u64>)> {
    let file = path.display().to_string();
    let mut input = BufReader::new(File::open(path).ok()?);
    let mut lines: Box<dyn BufRead> = if input.fill_buf().ok()?.starts_with(&GZIP_MAGIC) {
        Box::new(BufReader::new(gzip::Members::new(input)))
    } else {
        Box::new(input)
    };
    let (mut max_procs, mut max_nodes, mut text) = (None, None, Vec::new());
    for number in 1_u64.. {
        text.clear();
        // A header line is short: a long line is left to the whole reading.
        let read = (&mut lines).take(LONG_LINE as u64).read_until(b'\n', &mut text).ok()?;
        if read == 0 || (read == LONG_LINE && !text.ends_with(b"\n")) {
            break;
        }
        let mut bytes = text.strip_suffix(b"\n").unwrap_or(&text);
        if number == 1 {
            bytes = bytes.strip_prefix(BYTE_ORDER_MARK).unwrap_or(bytes);
        }
        match line::parse_line(&file, number, bytes, options.allow_extra_fields) {
            Ok(line::Line::Blank) => {}
            Ok(line::Line::Comment) => {
                if let Some(size) = line::read_header(bytes).ok()? {
                    let slot = if size.key == "MaxProcs" { &mut max_procs } else { &mut max_nodes };
                    // Two values for one key: an error the whole reading reports.
                    if slot.is_some_and(|first| first != size.value) {
                        return None;
                    }
                    *slot = Some(size.value);
                }
            }
            _ => break,
        }
    }
    Some((max_procs, max_nodes))
}

/// Reads one trace or more and merges them with [`workload::merge`] (one is returned
/// as read).
pub fn read_merged(paths: &[impl AsRef<Path>], options: SwfOptions) -> Result<Workload, SwfError> {
    let parts = paths.iter().map(|path| read(path.as_ref(), options).map(|t| t.workload));
    Ok(workload::merge(parts.collect::<Result<Vec<_>, _>>()?))
}

/// Decompresses gzip input held in memory (detected by its magic bytes); returns other
/// input as is. [`read`] streams instead; this is for callers that hold the file.
pub fn decompress(file: &str, raw: Vec<u8>) -> Result<Vec<u8>, SwfError> {
    if !raw.starts_with(&GZIP_MAGIC) {
        return Ok(raw);
    }
    let mut out = Vec::with_capacity(raw.len().saturating_mul(4));
    gzip::Members::new(raw.as_slice())
        .read_to_end(&mut out)
        .map_err(|source| SwfError::Gzip { file: file.to_owned(), source })?;
    Ok(out)
}

/// Parses decompressed trace bytes; `file` names the trace in errors.
pub fn parse(file: &str, bytes: &[u8], options: SwfOptions) -> Result<Trace, SwfError> {
    parse_lines(file, bytes, options, Source::Plain)
}

/// Parses all of `input` into a trace held in memory.
fn parse_lines(
    file: &str,
    input: impl BufRead,
    options: SwfOptions,
    source: Source,
) -> Result<Trace, SwfError> {
    let mut builder = Builder::new(file, options, InMemory::default());
    let hash = each_line(input, source, &mut builder)?;
    Ok(builder.finish(hash))
}

/// Reads `input` a buffer at a time and hands each line to `builder` (lines end at
/// `\n` and are numbered from 1); returns the CRC-64 of the bytes. Each buffer is
/// hashed whole and its lines are parsed where they lie; only a line cut by the end
/// of a buffer is copied, to be completed from the next one.
fn each_line<K: Keep>(
    mut input: impl BufRead,
    source: Source,
    builder: &mut Builder<'_, K>,
) -> Result<u64, SwfError> {
    let file = builder.file;
    let read_error = |error| match source {
        Source::Plain => SwfError::Io { file: file.to_owned(), source: error },
        Source::Gzip => SwfError::Gzip { file: file.to_owned(), source: error },
    };
    let mut hash = workload::InputDigest::new();
    let mut cut = Vec::new();
    let (mut number, mut offset) = (0u64, 0u64);
    loop {
        let buffer = input.fill_buf().map_err(read_error)?;
        if buffer.is_empty() {
            break;
        }
        hash.update(buffer);
        let mut start = 0;
        for end in memchr::memchr_iter(b'\n', buffer) {
            number += 1;
            let line = &buffer[start..end];
            if cut.is_empty() {
                builder.line(number, line)?;
            } else {
                cut.extend_from_slice(line);
                builder.line(number, &cut)?;
                cut.clear();
            }
            start = end + 1;
        }
        let tail = &buffer[start..];
        cut.extend_from_slice(tail);
        let consumed = buffer.len();
        offset += consumed as u64;
        // A long line is checked as it grows: all of it once, then each new part.
        let fresh = if cut.len() - tail.len() > LONG_LINE { tail } else { &cut[..] };
        if cut.len() > LONG_LINE && memchr::memchr(0, fresh).is_some() {
            let at = memchr::memchr(0, &cut).unwrap_or(0);
            let offset = offset - cut.len() as u64 + at as u64;
            return Err(SwfError::Binary { file: file.to_owned(), line: number + 1, offset });
        }
        input.consume(consumed);
    }
    // The last line, when the input does not end with a line feed.
    if !cut.is_empty() {
        builder.line(number + 1, &cut)?;
    }
    Ok(hash.finalize())
}

/// Whether `text` is a decimal number as SWF writes them: an optional sign, digits,
/// an optional point and more digits, with at least one digit in all.
pub fn is_decimal(text: &str) -> bool {
    line::is_decimal(text.as_bytes())
}

/// Rounds a decimal number to a whole number, half away from zero, exactly: the
/// whole part, plus one when the first decimal is 5 or more, with the sign applied
/// last (`0.5 -> 1`, `-0.5 -> -1`, `2.49 -> 2`).
pub fn round_half_away(text: &str) -> Result<i64, NumberError> {
    line::round_half_away(text.as_bytes())
}

#[cfg(test)]
mod tests;
