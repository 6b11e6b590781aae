//! Standard Workload Format traces, plain or gzipped, into jobs in release order.
//!
//! The rules, exactly:
//! - A file that starts with the gzip magic bytes `1f 8b` is decompressed (all
//!   members); any other file is read as plain text. The input hash is the CRC-64 of
//!   the decompressed bytes.
//! - Lines starting with `;` (after leading blanks) are header comments; `MaxProcs`
//!   and `MaxNodes` are read from them when present. Blank lines are skipped.
//! - Every other line must have exactly 18 whitespace-separated fields (trailing
//!   blanks and `\r` are fine), each a decimal number (`-1`, `12`, `31.69`). The job
//!   number (field 1) must be a whole number that fits in a `u32`, and unique.
//!   Anything else is an error naming the file, line and field, unless
//!   `skip_bad_lines` is set: then the line is counted in [`Excluded::bad_lines`].
//! - Release = submit time (field 2), processing time = run time (field 4). A
//!   fractional time is rounded to a whole tick, half away from zero (`2.5 -> 3`,
//!   `-2.5 -> -3`), exactly, from the decimal digits (no floating point).
//! - Every status (field 11) is kept. A job whose rounded run time is `<= 0`, or
//!   whose rounded submit time is `< 0`, is not submitted but counted by reason.
//! - Jobs are ordered by (submit time, line number), whatever the file order, and
//!   their times are made relative to the first of them.

use std::collections::HashMap;
use std::io::Read;
use std::path::Path;

use flate2::read::MultiGzDecoder;

use crate::error::SwfError;
use crate::workload::{Excluded, INPUT_CRC, Job, Workload};

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

/// How strict the reader is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SwfOptions {
    /// Count malformed lines instead of stopping at the first one.
    pub skip_bad_lines: bool,
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

/// One well-formed job line, before exclusion and sorting.
#[derive(Clone, Copy, Debug)]
struct RawJob {
    id: u32,
    submit: i64,
    run: i64,
    line: u64,
}

enum Line {
    Blank,
    Comment,
    Job(RawJob),
}

/// Reads a trace file, plain or gzipped. Errors name `path` as given.
pub fn read(path: &Path, options: SwfOptions) -> Result<Trace, SwfError> {
    let file = path.display().to_string();
    let raw = std::fs::read(path).map_err(|source| SwfError::Io { file: file.clone(), source })?;
    let bytes = decompress(&file, raw)?;
    parse(&file, &bytes, options)
}

/// Decompresses gzip input (detected by its magic bytes); returns other input as is.
pub fn decompress(file: &str, raw: Vec<u8>) -> Result<Vec<u8>, SwfError> {
    if !raw.starts_with(&[0x1f, 0x8b]) {
        return Ok(raw);
    }
    let mut out = Vec::with_capacity(raw.len().saturating_mul(4));
    MultiGzDecoder::new(raw.as_slice())
        .read_to_end(&mut out)
        .map_err(|source| SwfError::Gzip { file: file.to_owned(), source })?;
    Ok(out)
}

/// Parses decompressed trace bytes; `file` names the trace in errors.
pub fn parse(file: &str, bytes: &[u8], options: SwfOptions) -> Result<Trace, SwfError> {
    let mut raw_jobs = Vec::new();
    let mut first_line_of: HashMap<u32, u64> = HashMap::new();
    let mut excluded = Excluded::default();
    let (mut max_procs, mut max_nodes) = (None, None);
    for (number, text) in (1u64..).zip(bytes.split(|&b| b == b'\n')) {
        let parsed = parse_line(file, number, text).and_then(|line| {
            if let Line::Job(job) = line
                && let Some(&first_line) = first_line_of.get(&job.id)
            {
                return Err(SwfError::DuplicateJob {
                    file: file.to_owned(),
                    line: number,
                    job: job.id,
                    first_line,
                });
            }
            Ok(line)
        });
        match parsed {
            Ok(Line::Blank) => {}
            Ok(Line::Comment) => read_header(text, &mut max_procs, &mut max_nodes),
            Ok(Line::Job(job)) => {
                first_line_of.insert(job.id, job.line);
                if job.run <= 0 {
                    excluded.run_time_nonpositive += 1;
                } else if job.submit < 0 {
                    excluded.negative_submit += 1;
                } else {
                    raw_jobs.push(job);
                }
            }
            Err(_) if options.skip_bad_lines => excluded.bad_lines += 1,
            Err(error) => return Err(error),
        }
    }
    let jobs = order_jobs(raw_jobs);
    let hash = INPUT_CRC.checksum(bytes);
    let workload = Workload { name: file.to_owned(), hash, jobs, excluded };
    Ok(Trace { workload, max_procs, max_nodes })
}

/// Sorts by (submit time, line) and makes times relative to the first job.
fn order_jobs(mut raw_jobs: Vec<RawJob>) -> Vec<Job> {
    raw_jobs.sort_unstable_by_key(|j| (j.submit, j.line));
    let origin = raw_jobs.first().map_or(0, |j| j.submit);
    raw_jobs
        .iter()
        .map(|j| Job {
            id: j.id,
            // Both are non-negative and `submit >= origin`, so these cannot fail.
            release: u64::try_from(j.submit - origin).unwrap_or(0),
            p: u64::try_from(j.run).unwrap_or(0),
        })
        .collect()
}

fn parse_line(file: &str, line: u64, bytes: &[u8]) -> Result<Line, SwfError> {
    let text = std::str::from_utf8(bytes).map_err(|_| SwfError::NotUtf8 { file: file.to_owned(), line })?;
    let trimmed = text.trim_start();
    if trimmed.starts_with(';') {
        return Ok(Line::Comment);
    }
    if trimmed.trim_end().is_empty() {
        return Ok(Line::Blank);
    }
    let mut fields = [""; FIELDS];
    let mut found = 0;
    for field in trimmed.split_whitespace() {
        if let Some(slot) = fields.get_mut(found) {
            *slot = field;
        }
        found += 1;
    }
    if found != FIELDS {
        return Err(SwfError::FieldCount { file: file.to_owned(), line, found });
    }
    let field_error = |index: usize, error: NumberError| {
        let (file, text, name) = (file.to_owned(), fields[index].to_owned(), FIELD_NAMES[index]);
        match error {
            NumberError::NotANumber => SwfError::NotANumber { file, line, field: index + 1, name, text },
            NumberError::OutOfRange => SwfError::OutOfRange { file, line, field: index + 1, name, text },
        }
    };
    if let Some(index) = fields.iter().position(|f| !is_decimal(f)) {
        return Err(field_error(index, NumberError::NotANumber));
    }
    let id = fields[0].parse::<u32>().map_err(|_| SwfError::NotAJobNumber {
        file: file.to_owned(),
        line,
        text: fields[0].to_owned(),
    })?;
    let submit = round_half_away(fields[1]).map_err(|e| field_error(1, e))?;
    let run = round_half_away(fields[3]).map_err(|e| field_error(3, e))?;
    Ok(Line::Job(RawJob { id, submit, run, line }))
}

/// Reads `; MaxProcs: N` and `; MaxNodes: N`; other header lines are ignored.
fn read_header(bytes: &[u8], max_procs: &mut Option<u64>, max_nodes: &mut Option<u64>) {
    let Ok(text) = std::str::from_utf8(bytes) else { return };
    let body = text.trim_start().trim_start_matches(';').trim();
    let Some((key, value)) = body.split_once(':') else { return };
    let value = value.trim().parse::<u64>().ok();
    match key.trim() {
        "MaxProcs" => *max_procs = value.or(*max_procs),
        "MaxNodes" => *max_nodes = value.or(*max_nodes),
        _ => {}
    }
}

/// Whether `text` is a decimal number as SWF writes them: an optional sign, digits,
/// an optional point and more digits, with at least one digit in all.
pub fn is_decimal(text: &str) -> bool {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    !(whole.is_empty() && fraction.is_empty()) && all_digits(whole) && all_digits(fraction)
}

/// Rounds a decimal number to a whole number, half away from zero, exactly: the
/// whole part, plus one when the first decimal is 5 or more, with the sign applied
/// last (`0.5 -> 1`, `-0.5 -> -1`, `2.49 -> 2`).
pub fn round_half_away(text: &str) -> Result<i64, NumberError> {
    if !is_decimal(text) {
        return Err(NumberError::NotANumber);
    }
    let negative = text.starts_with('-');
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    let mut magnitude: i64 = 0;
    for digit in whole.bytes() {
        magnitude = magnitude
            .checked_mul(10)
            .and_then(|m| m.checked_add(i64::from(digit - b'0')))
            .ok_or(NumberError::OutOfRange)?;
    }
    if fraction.bytes().next().is_some_and(|d| d >= b'5') {
        magnitude = magnitude.checked_add(1).ok_or(NumberError::OutOfRange)?;
    }
    Ok(if negative { -magnitude } else { magnitude })
}

#[cfg(test)]
mod tests;
