//! One SWF line into a job, a comment or nothing, without allocating: fields are
//! slices of the line's bytes, and only the three fields a job needs are converted.
//! Only an error allocates (its message copies the file name and the field).

use super::SwfError;

use super::{FIELD_NAMES, FIELDS, NumberError};

mod plain;

/// The fields a job is made of are among the first eight (1, 2, 4, 5 and 8).
const JOB_FIELDS: usize = 8;

/// One well-formed job line, before exclusion and sorting.
#[derive(Clone, Copy, Debug)]
pub(super) struct RawJob {
    pub id: u32,
    pub submit: i64,
    pub run: i64,
    /// Allocated processors (field 5), or requested ones (field 8) when that is not
    /// positive; 0 when neither is.
    pub procs: u32,
}

#[derive(Debug)]
pub(super) enum Line {
    Blank,
    Comment,
    Job(RawJob),
}

/// The ASCII characters that `str::split_whitespace` splits on: `char::is_whitespace`,
/// which, unlike `u8::is_ascii_whitespace`, includes the vertical tab: the space and
/// 9 to 13 (tab, line feed, vertical tab, form feed, carriage return). Written as one
/// subtraction and two compares, which the compiler can do 32 bytes at a time.
const fn is_space(byte: u8) -> bool {
    byte == b' ' || byte.wrapping_sub(b'\t') < 5
}

/// Parses line `line` of `file` (its bytes without the `\n`). A line whose first
/// non-blank byte is `;` is a comment whatever bytes follow (old headers hold names
/// in Latin-1). With `extra_fields`, a job line may have more than [`FIELDS`]
/// fields; the standard ones are read and the rest ignored.
pub(super) fn parse_line(file: &str, line: u64, bytes: &[u8], extra_fields: bool) -> Result<Line, SwfError> {
    // The common line, in one pass of masks; any other is read below.
    if let Some(fields) = plain::plain_fields(bytes) {
        return job(file, line, &fields);
    }
    general(file, line, bytes, extra_fields)
}

/// [`parse_line`] of any line, field by field.
fn general(file: &str, line: u64, bytes: &[u8], extra_fields: bool) -> Result<Line, SwfError> {
    if bytes.iter().find(|&&b| !is_space(b)) == Some(&b';') {
        return lone_cr(file, line, bytes).map(|()| Line::Comment);
    }
    let mut fields: [&[u8]; FIELDS] = [&[]; FIELDS];
    let found = if bytes.is_ascii() {
        // ASCII (every line of the shared traces): split the bytes directly.
        split_ascii(bytes, &mut fields)
    } else {
        let text = std::str::from_utf8(bytes).map_err(|e| not_utf8(file, line, bytes, e.valid_up_to()))?;
        keep_fields(text.split_whitespace().map(str::as_bytes), &mut fields)
    };
    match found {
        0 => Ok(Line::Blank),
        // A comment after Unicode blanks (a no-break space, say).
        _ if fields[0].starts_with(b";") => Ok(Line::Comment),
        _ if found != FIELDS
            && let Err(error) = lone_cr(file, line, bytes) =>
        {
            Err(error)
        }
        _ if found > FIELDS && !extra_fields => {
            Err(SwfError::ExtraFields { file: file.to_owned(), line, found })
        }
        _ => job_line(file, line, &fields, found.min(FIELDS)),
    }
}

/// An error when a carriage return inside `bytes` is followed by more than blanks:
/// the line holds several of a file whose lines end in a carriage return alone, which
/// would otherwise be read as one line (and with `--allow-extra-fields`, as its first
/// job only).
fn lone_cr(file: &str, line: u64, bytes: &[u8]) -> Result<(), SwfError> {
    match memchr::memchr(b'\r', bytes) {
        Some(at) if bytes[at..].iter().any(|&b| !is_space(b)) => {
            Err(SwfError::LoneCarriageReturn { file: file.to_owned(), line, at: at + 1 })
        }
        _ => Ok(()),
    }
}

/// The error of line `line`, not UTF-8 from byte `at` (counted from 0).
fn not_utf8(file: &str, line: u64, bytes: &[u8], at: usize) -> SwfError {
    let utf16 = if line == 1 && (bytes.starts_with(b"\xff\xfe") || bytes.starts_with(b"\xfe\xff")) {
        " (the file starts with a UTF-16 byte-order mark: an SWF trace is ASCII text)"
    } else {
        ""
    };
    let byte = bytes.get(at).copied().unwrap_or(0);
    SwfError::NotUtf8 { file: file.to_owned(), line, at: at + 1, byte, utf16 }
}

/// Splits ASCII `bytes` at [`is_space`] runs like `keep_fields`, 64 bytes at a time:
/// a bit mask of the bytes that are not spaces, whose edges (found with
/// `trailing_zeros`) are where fields start and end. Fields and blanks alternate
/// every few bytes, which a byte-by-byte loop pays for in mispredicted branches; this
/// is the hottest loop of trace reading.
fn split_ascii<'a>(bytes: &'a [u8], fields: &mut [&'a [u8]; FIELDS]) -> usize {
    let mut found = 0;
    let mut keep = |from: usize, to: usize| {
        if let Some(slot) = fields.get_mut(found) {
            *slot = &bytes[from..to];
        }
        found += 1;
    };
    // Whether the byte before the current one is inside a field, and where it began.
    let (mut inside, mut from) = (false, 0);
    for (index, chunk) in bytes.chunks(64).enumerate() {
        let field_bytes = field_mask(chunk);
        // A bit where a byte differs in kind from the one before it.
        let mut edges = field_bytes ^ (field_bytes << 1 | u64::from(inside));
        while edges != 0 {
            let at = index * 64 + edges.trailing_zeros() as usize;
            edges &= edges - 1;
            if inside {
                keep(from, at);
            } else {
                from = at;
            }
            inside = !inside;
        }
    }
    // A field that runs to the end of a line of a multiple of 64 bytes has no edge.
    if inside {
        keep(from, bytes.len());
    }
    found
}

/// Bit `i` set when `chunk[i]` is not a space; bits past the chunk's end are clear.
/// Written over a fixed 64-byte array so that the compiler vectorizes the compares;
/// the 0/1 flags are then packed eight at a time by one multiplication, which moves
/// byte `i`'s low bit to bit `56 + i` with no carries between them.
fn field_mask(chunk: &[u8]) -> u64 {
    const GATHER: u64 = 0x0102_0408_1020_4080;
    let mut padded = [b' '; 64];
    padded[..chunk.len()].copy_from_slice(chunk);
    let flags = padded.map(|b| u8::from(!is_space(b)));
    let (groups, _) = flags.as_chunks::<8>();
    (0..).zip(groups).fold(0, |mask, (group, &bytes)| {
        mask | (u64::from_le_bytes(bytes).wrapping_mul(GATHER) >> 56) << (8 * group)
    })
}

/// Stores the first [`FIELDS`] tokens; returns how many there are in all.
fn keep_fields<'a>(tokens: impl Iterator<Item = &'a [u8]>, fields: &mut [&'a [u8]; FIELDS]) -> usize {
    let mut found = 0;
    for token in tokens {
        if let Some(slot) = fields.get_mut(found) {
            *slot = token;
        }
        found += 1;
    }
    found
}

fn job_line(file: &str, line: u64, fields: &[&[u8]; FIELDS], found: usize) -> Result<Line, SwfError> {
    if found != FIELDS {
        return Err(SwfError::FieldCount { file: file.to_owned(), line, found });
    }
    if let Some(index) = fields.iter().position(|f| !is_decimal(f)) {
        let (file, text, name) = (file.to_owned(), text_of(fields[index]), FIELD_NAMES[index]);
        return Err(SwfError::NotANumber { file, line, field: index + 1, name, text });
    }
    job(file, line, &std::array::from_fn(|index| fields[index]))
}

/// The job of a line whose fields were all found decimal (only the first eight are
/// read: fields 1, 2, 4, 5 and 8 make the job).
fn job(file: &str, line: u64, fields: &[&[u8]; JOB_FIELDS]) -> Result<Line, SwfError> {
    let field_error = |index: usize, error: NumberError| {
        let (file, text, name) = (file.to_owned(), text_of(fields[index]), FIELD_NAMES[index]);
        match error {
            NumberError::NotANumber => SwfError::NotANumber { file, line, field: index + 1, name, text },
            NumberError::OutOfRange => SwfError::OutOfRange { file, line, field: index + 1, name, text },
        }
    };
    let id = job_number(fields[0]).ok_or_else(|| SwfError::NotAJobNumber {
        file: file.to_owned(),
        line,
        text: text_of(fields[0]),
    })?;
    // Every field was found decimal: rounding need not check again.
    let submit = round_decimal(fields[1]).map_err(|e| field_error(1, e))?;
    let run = round_decimal(fields[3]).map_err(|e| field_error(3, e))?;
    let allocated = processors(file, line, fields, 4)?;
    let procs = allocated.filter(|&n| n > 0).or(processors(file, line, fields, 7)?).unwrap_or(0);
    Ok(Line::Job(RawJob { id, submit, run, procs }))
}

/// A job number as `u32`'s own parser reads one, so that exactly what it accepts
/// (`+7`, `007`) is one: one optional `+`, then at least one digit, at most
/// `u32::MAX`.
fn job_number(text: &[u8]) -> Option<u32> {
    let digits = text.strip_prefix(b"+").unwrap_or(text);
    if digits.is_empty() {
        return None;
    }
    digits.iter().try_fold(0u32, |n, &digit| {
        let digit = digit.wrapping_sub(b'0');
        if digit < 10 { n.checked_mul(10)?.checked_add(u32::from(digit)) } else { None }
    })
}

/// The processor count of field `index` (5 or 8, counted from 0): `None` for `-1`,
/// SWF's "unknown"; a count past `u32` or another negative one is an error, never
/// passed over for the other field.
fn processors(
    file: &str,
    line: u64,
    fields: &[&[u8]; JOB_FIELDS],
    index: usize,
) -> Result<Option<u32>, SwfError> {
    let rounded = round_decimal(fields[index]);
    if rounded == Ok(-1) {
        return Ok(None);
    }
    let count = rounded.ok().and_then(|n| u32::try_from(n).ok());
    count.map(Some).ok_or_else(|| SwfError::NotAProcessorCount {
        file: file.to_owned(),
        line,
        field: index + 1,
        name: FIELD_NAMES[index],
        text: text_of(fields[index]),
    })
}

/// A field for an error message, as [`replay::echo`] shows a user's value.
fn text_of(field: &[u8]) -> String {
    replay::echo::echo_bytes(field)
}

/// Which field gave the processor count of job line `bytes` (5, else 8), for an
/// error about it.
pub(super) fn size_field(bytes: &[u8]) -> usize {
    let text = String::from_utf8_lossy(bytes);
    let allocated = text.split_whitespace().nth(4).and_then(|f| round_decimal(f.as_bytes()).ok());
    if allocated.is_some_and(|n| n > 0) { 5 } else { 8 }
}

/// `text` split at its first `.`: the whole part and the fraction (empty without one).
fn split_point(text: &[u8]) -> (&[u8], &[u8]) {
    match text.iter().position(|&b| b == b'.') {
        Some(point) => (&text[..point], &text[point + 1..]),
        None => (text, &[]),
    }
}

/// `text` without one leading sign, and whether the sign was `-`.
fn strip_sign(text: &[u8]) -> (&[u8], bool) {
    match text {
        [b'-', rest @ ..] => (rest, true),
        [b'+', rest @ ..] => (rest, false),
        _ => (text, false),
    }
}

/// Whether `text` is a decimal number as SWF writes them: an optional sign, digits,
/// an optional point and more digits, with at least one digit in all.
pub(super) fn is_decimal(text: &[u8]) -> bool {
    let (whole, fraction) = split_point(strip_sign(text).0);
    !(whole.is_empty() && fraction.is_empty())
        && whole.iter().all(u8::is_ascii_digit)
        && fraction.iter().all(u8::is_ascii_digit)
}

/// Rounds a decimal number to a whole number, half away from zero, exactly: the
/// whole part, plus one when the first decimal is 5 or more, with the sign applied
/// last (`0.5 -> 1`, `-0.5 -> -1`, `2.49 -> 2`).
pub(super) fn round_half_away(text: &[u8]) -> Result<i64, NumberError> {
    if !is_decimal(text) {
        return Err(NumberError::NotANumber);
    }
    round_decimal(text)
}

/// [`round_half_away`] of a `text` already found [`is_decimal`] (anything else is
/// read as garbage, never refused as not a number). One pass over the whole part
/// while it has at most 18 digits (under 10^18, no step can overflow), the
/// checked [`round_long`] past that.
fn round_decimal(text: &[u8]) -> Result<i64, NumberError> {
    let (digits, negative) = strip_sign(text);
    let (mut magnitude, mut rest) = (0i64, digits.iter());
    for (count, &byte) in rest.by_ref().enumerate() {
        let digit = byte.wrapping_sub(b'0');
        if digit >= 10 {
            // The point: the first decimal rounds.
            magnitude += i64::from(rest.next().is_some_and(|&d| d >= b'5'));
            break;
        }
        if count == 18 {
            return round_long(digits, negative);
        }
        magnitude = magnitude * 10 + i64::from(digit);
    }
    Ok(if negative { -magnitude } else { magnitude })
}

/// [`round_decimal`] of a whole part of more than 18 digits, every step checked.
fn round_long(digits: &[u8], negative: bool) -> Result<i64, NumberError> {
    let (whole, fraction) = split_point(digits);
    let mut magnitude: i64 = 0;
    for digit in whole {
        magnitude = magnitude
            .checked_mul(10)
            .and_then(|m| m.checked_add(i64::from(digit.wrapping_sub(b'0'))))
            .ok_or(NumberError::OutOfRange)?;
    }
    if fraction.first().is_some_and(|&d| d >= b'5') {
        magnitude = magnitude.checked_add(1).ok_or(NumberError::OutOfRange)?;
    }
    Ok(if negative { -magnitude } else { magnitude })
}

/// A `MaxProcs` or `MaxNodes` header value that is not a machine size: its key and
/// its text.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct BadSize {
    pub key: &'static str,
    pub text: String,
}

/// A machine size a header line gives: its key and its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Size {
    pub key: &'static str,
    pub value: u64,
}

/// Reads `; MaxProcs: N` and `; MaxNodes: N`; other header lines give `None`. `N` is
/// a whole number from 1 to 2^32 - 1, or -1, SWF's "unknown", which gives `None`;
/// anything else is refused rather than passed over. Words after `N` are a remark,
/// as the archive writes them (CTC SP2: `MaxNodes: 338 (batch partition; 512
/// total)`).
pub(super) fn read_header(bytes: &[u8]) -> Result<Option<Size>, BadSize> {
    let Ok(text) = std::str::from_utf8(bytes) else { return Ok(None) };
    let body = text.trim_start().trim_start_matches(';').trim();
    let Some((key, value)) = body.split_once(':') else { return Ok(None) };
    let key = match key.trim() {
        "MaxProcs" => "MaxProcs",
        "MaxNodes" => "MaxNodes",
        _ => return Ok(None),
    };
    let value = value.split_whitespace().next().unwrap_or_default();
    if value == "-1" {
        return Ok(None);
    }
    match value.parse::<u32>() {
        Ok(size) if size > 0 => Ok(Some(Size { key, value: u64::from(size) })),
        _ => Err(BadSize { key, text: replay::echo::echo(value) }),
    }
}

#[cfg(test)]
mod tests;
