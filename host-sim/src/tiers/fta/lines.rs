//! The lines of an `event_trace.tab` file, read one at a time and checked as a whole
//! before their fields are: NUL bytes, carriage returns inside a line, the line of
//! column names.

use std::io::BufRead;

use super::{COLUMNS, shown};
use crate::path_error::PathError;
use crate::tiers::TiersError;

/// An error when a carriage return inside line `line` is followed by more than
/// blanks: the file's lines end in a carriage return alone, and would be read as one.
pub(super) fn lone_cr(file: &str, line: usize, bytes: &[u8]) -> Result<(), TiersError> {
    match memchr::memchr(b'\r', bytes) {
        Some(at) if bytes[at..].iter().any(|b| !b.is_ascii_whitespace()) => {
            let why = format!(
                "a carriage return at byte {} with more after it: the file's lines end in a carriage return \
                 alone; convert it first, e.g. tr '\\r' '\\n' < T > T.lf",
                at + 1
            );
            Err(TiersError::Fta { file: file.to_owned(), line, field: "the line".to_owned(), why })
        }
        _ => Ok(()),
    }
}

/// The line of column names must name the columns the reader takes them for, in
/// their order: a file of other columns, or of these in another order, would be
/// misread without a word.
pub(super) fn check_names(file: &str, line: usize, names: &[&[u8]]) -> Result<(), TiersError> {
    let wrong =
        names.iter().enumerate().find(|&(i, name)| COLUMNS.get(i).is_none_or(|c| c.as_bytes() != *name));
    match wrong {
        None => Ok(()),
        Some((i, name)) => Err(TiersError::Fta {
            file: file.to_owned(),
            line,
            field: "column names".to_owned(),
            why: format!(
                "column {} is named {}, where the reader takes {} (the archive's columns, in its order: {})",
                i + 1,
                shown(name),
                COLUMNS.get(i).map_or_else(|| "no column".to_owned(), |c| format!("`{c}`")),
                COLUMNS.join(" ")
            ),
        }),
    }
}

/// Reads line `line` of `file` into `bytes`, its `\n` included; `false` at the end.
/// `offset` counts the bytes read before it. A NUL byte, which no text file holds, is
/// refused where it is met, so that a binary or sparse file is not read whole as one
/// line.
pub(super) fn read_line(
    file: &str,
    line: usize,
    input: &mut impl BufRead,
    bytes: &mut Vec<u8>,
    offset: &mut u64,
) -> Result<bool, TiersError> {
    bytes.clear();
    loop {
        let io = |source| TiersError::Io(PathError { path: file.to_owned(), source });
        let buffer = input.fill_buf().map_err(io)?;
        if buffer.is_empty() {
            return Ok(!bytes.is_empty());
        }
        let end = memchr::memchr(b'\n', buffer).map_or(buffer.len(), |at| at + 1);
        if let Some(at) = memchr::memchr(0, &buffer[..end]) {
            let at = *offset + (bytes.len() + at) as u64;
            let why = format!(
                "a NUL byte at byte offset {at}: an event_trace.tab file is text (a binary or sparse file?)"
            );
            return Err(TiersError::Fta { file: file.to_owned(), line, field: "the line".to_owned(), why });
        }
        bytes.extend_from_slice(&buffer[..end]);
        input.consume(end);
        if bytes.ends_with(b"\n") {
            *offset += bytes.len() as u64;
            return Ok(true);
        }
    }
}
