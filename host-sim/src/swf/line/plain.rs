//! The common job line, split and checked in one pass of bit masks: a line of at
//! most [`PLAIN_LINE`] ASCII bytes whose 18 fields are all decimal numbers. Every
//! line of the shared traces is one. Any other line (a comment, a bad field, more
//! fields, a longer line) is left to the general path, which gives its error; both
//! read a line they both take the same way.
//!
//! Sixteen bytes are classified at a time (spaces, digits, signs, points) by
//! `wide`'s SIMD compares and movemasks, each class a bit mask of the line; the
//! checks are then a few operations on the masks instead of a loop over each field's
//! bytes, whose branches a line of short fields mispredicts.

use super::{FIELDS, JOB_FIELDS};
use wide::i8x16;

/// The longest line the masks take: 127 bytes, so that a bit past the last byte
/// is always in the 128 (a space), where the sums below carry to.
const PLAIN_LINE: usize = 127;

/// The classes of a line's bytes, bit `i` for byte `i`; bits past the line are
/// spaces (clear in every mask).
struct Classes {
    /// Bytes that are not spaces.
    field: u128,
    digit: u128,
    /// `-` and `+`.
    sign: u128,
    /// `.`.
    point: u128,
}

/// The classes of `bytes`; `None` when the line is longer than [`PLAIN_LINE`] or
/// holds a byte of none of the classes (not ASCII, a `;`, a letter, a NUL).
///
/// The line's 16-byte chunks are read where they lie; a last, shorter chunk is read
/// as the 16 bytes that end the line, and its masks shifted down past the bytes the
/// chunk before already gave. A copy of the line padded with spaces (the way this
/// was first written) made each 16-byte read wait for the copy's narrower stores: a
/// third of the time of this function.
fn classes(bytes: &[u8]) -> Option<Classes> {
    if bytes.len() > PLAIN_LINE {
        return None;
    }
    let (chunks, rest) = bytes.as_chunks::<16>();
    // Each chunk's five masks: field, digit, sign, point, stray.
    let mut masks = [[0u16; 5]; 8];
    for (slot, chunk) in masks.iter_mut().zip(chunks) {
        *slot = chunk_masks(chunk);
    }
    if !rest.is_empty() {
        let shifted = match bytes.len().checked_sub(16) {
            // The 16 bytes that end the line; the low bits are the chunk before's.
            Some(from) => {
                chunk_masks(bytes.get(from..)?.first_chunk::<16>()?).map(|m| m >> (16 - rest.len()))
            }
            None => {
                let mut padded = [b' '; 16];
                padded.get_mut(..rest.len())?.copy_from_slice(rest);
                chunk_masks(&padded)
            }
        };
        *masks.get_mut(chunks.len())? = shifted;
    }
    // All eight chunks, so that the shifts below are constants.
    let mut c = Classes { field: 0, digit: 0, sign: 0, point: 0 };
    let mut stray = 0;
    for (index, [field, digit, sign, point, odd]) in masks.into_iter().enumerate() {
        let shift = 16 * index;
        c.field |= u128::from(field) << shift;
        c.digit |= u128::from(digit) << shift;
        c.sign |= u128::from(sign) << shift;
        c.point |= u128::from(point) << shift;
        stray |= odd;
    }
    (stray == 0).then_some(c)
}

/// The masks of 16 bytes of a line, bit `i` for byte `i`: not a space, a digit, a
/// sign, a point, and of no class at all.
fn chunk_masks(chunk: &[u8; 16]) -> [u16; 5] {
    // Signed lanes: a byte of 128 or more is negative, in no range below, and one
    // compare a bound.
    let splat = |byte: u8| i8x16::splat(byte.cast_signed());
    let v = i8x16::new(chunk.map(u8::cast_signed));
    let space = v.simd_eq(splat(b' ')) | (v.simd_gt(splat(b'\t' - 1)) & v.simd_lt(splat(b'\r' + 1)));
    let digit = v.simd_gt(splat(b'0' - 1)) & v.simd_lt(splat(b'9' + 1));
    let sign = v.simd_eq(splat(b'-')) | v.simd_eq(splat(b'+'));
    let point = v.simd_eq(splat(b'.'));
    let stray = !(space | digit | sign | point);
    // `to_bitmask` gives one bit a lane, sixteen in all.
    let bits = |m: i8x16| m.to_bitmask() as u16;
    [bits(!space), bits(digit), bits(sign), bits(point), bits(stray)]
}

/// The first eight fields of `bytes` (all a job needs) when it is
/// a job line of exactly [`FIELDS`] fields, each a decimal number (an optional
/// sign, digits, an optional point and digits, one digit at least); `None` for any
/// other line, which the general path reads.
pub(super) fn plain_fields(bytes: &[u8]) -> Option<[&[u8]; JOB_FIELDS]> {
    let c = classes(bytes)?;
    let starts = c.field & !(c.field << 1);
    let ends = c.field & !(c.field >> 1);
    // A sign only first in its field.
    if starts.count_ones() as usize != FIELDS || c.sign & !starts != 0 {
        return None;
    }
    // A digit in every field: the run of signs and points a field starts with ends
    // at a digit (the sum carries each run's first bit to the byte after the run).
    let lead = c.field & !c.digit;
    if lead.wrapping_add(starts & lead) & !lead & !c.digit != 0 {
        return None;
    }
    // At most one point a field: none right after a point, and no run of other
    // field bytes that starts after a point ends at one.
    let rest = c.field & !c.point;
    let after_point = rest.wrapping_add((c.point << 1) & rest) & !rest;
    if (c.point << 1 | after_point) & c.point != 0 {
        return None;
    }
    let (low_starts, low_ends) = (starts as u64, ends as u64);
    let bounds = if low_ends.count_ones() as usize >= JOB_FIELDS {
        // The eight fields end in the first 64 bytes (every line of the shared
        // traces): 64-bit steps.
        first_fields(low_starts, low_ends, u64::trailing_zeros, |m| m & m.wrapping_sub(1))
    } else {
        first_fields(starts, ends, u128::trailing_zeros, |m| m & m.wrapping_sub(1))
    };
    let mut fields = [&bytes[..0]; JOB_FIELDS];
    for (field, (from, to)) in fields.iter_mut().zip(bounds) {
        *field = bytes.get(from..=to)?;
    }
    Some(fields)
}

/// The first and last byte of the first [`JOB_FIELDS`] fields, from the masks of
/// the fields' first and last bytes, by `zeros` (trailing zeros) and `clear` (the
/// lowest bit cleared).
fn first_fields<T: Copy>(
    mut starts: T,
    mut ends: T,
    zeros: impl Fn(T) -> u32,
    clear: impl Fn(T) -> T,
) -> [(usize, usize); JOB_FIELDS] {
    std::array::from_fn(|_| {
        let bounds = (zeros(starts) as usize, zeros(ends) as usize);
        (starts, ends) = (clear(starts), clear(ends));
        bounds
    })
}

/// Whether the masks' idea of a space is [`is_space`]'s, byte by byte (a test's).
#[cfg(test)]
pub(super) fn spaces_agree() -> bool {
    use super::is_space;
    (0..=255u8).all(|byte| {
        let c = classes(&[b'7', byte]);
        let space = c.as_ref().is_some_and(|c| c.field == 1);
        space == is_space(byte)
    })
}

#[cfg(test)]
mod tests {
    use super::super::{general, job_number, parse_line};
    use super::*;

    #[test]
    fn the_masks_spaces_are_the_general_paths() {
        assert!(spaces_agree());
    }

    /// The eight fields are found whether they end in the first 64 bytes or past
    /// them (the 128-bit steps), and across the 64th byte.
    #[test]
    fn fields_past_the_first_64_bytes_are_found() {
        for pad in [0, 20, 40, 47, 55, 60] {
            let long = format!("{}7", "0".repeat(pad));
            let fields = ["1", &long, "3", "4", "5", "6", "7", "8.5"];
            let line = format!("{} 9 10 11 12 13 14 15 16 17 18", fields.join(" "));
            let found = plain_fields(line.as_bytes()).unwrap_or_else(|| panic!("{line}"));
            assert_eq!(found.map(|f| std::str::from_utf8(f).unwrap()), fields, "{line}");
        }
    }

    #[test]
    fn job_numbers_are_what_u32_parses() {
        for text in
            ["7", "+7", "007", "-0", "+", "", "-7", "7.0", "4294967295", "4294967296", "00004294967295"]
        {
            assert_eq!(job_number(text.as_bytes()), text.parse::<u32>().ok(), "{text:?}");
        }
    }

    /// Lines of every kind the general path tells apart, made from a fixed seed: both
    /// paths read each the same way, job or error, with and without extra fields.
    #[test]
    fn both_paths_read_every_line_alike() {
        const TOKENS: [&str; 33] = [
            "-1",
            "12",
            "3.5",
            "-",
            "+",
            ".",
            "1.2.3",
            "+7",
            "-0",
            "..5",
            "5.",
            ".5",
            "-.5",
            "+-1",
            "a",
            "1e5",
            "4294967295",
            "4294967296",
            "99999999999999999999",
            "0007",
            "-4294967296",
            "+.",
            "-.",
            "5.-3",
            "1.5",
            "2.49",
            "-2.5",
            ";",
            "\u{e9}",
            "0",
            "-12.",
            "1..",
            "12345678901234",
        ];
        const BLANKS: [&str; 9] = [" ", "  ", "\t", "\r", "\x0b", "\x0c", " \r ", "\0", "\n"];
        let mut state = 0x1234_5678_9abc_def0_u64;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            usize::try_from(state % n as u64).unwrap()
        };
        let (mut plain, mut line) = (0, String::new());
        for _ in 0..200_000 {
            line.clear();
            let count = 15 + next(6);
            for k in 0..count {
                if k > 0 || next(3) == 0 {
                    line.push_str(if next(20) == 0 { BLANKS[next(BLANKS.len())] } else { BLANKS[next(2)] });
                }
                line.push_str(if next(4) == 0 { TOKENS[next(TOKENS.len())] } else { TOKENS[next(3)] });
            }
            if next(4) == 0 {
                line.push_str(BLANKS[next(4)]);
            }
            if next(10) == 0 {
                let long = 120 + next(15);
                while line.len() < long {
                    line.push_str(" 7");
                }
            }
            plain += usize::from(plain_fields(line.as_bytes()).is_some());
            for extra in [false, true] {
                let fast = parse_line("t", 3, line.as_bytes(), extra);
                let slow = general("t", 3, line.as_bytes(), extra);
                assert_eq!(format!("{fast:?}"), format!("{slow:?}"), "{line:?}");
            }
        }
        // The masks took a good share of them, and left the rest.
        assert!((1_000..100_000).contains(&plain), "{plain}");
    }

    /// Lines of every length the masks take, of bytes of every class and none: the
    /// masks a byte-by-byte reading gives, whatever chunk a byte falls in.
    #[test]
    fn masks_are_a_byte_by_byte_reading() {
        const BYTES: &[u8] = b"0123456789 \t\r+-.;a\x0b\xe9";
        let mut state = 0x0123_4567_89ab_cdef_u64;
        for len in 0..=PLAIN_LINE {
            for _ in 0..40 {
                let line: Vec<u8> = (0..len)
                    .map(|_| {
                        state ^= state << 13;
                        state ^= state >> 7;
                        state ^= state << 17;
                        // Mostly digits and spaces, so that many lines have no stray byte.
                        let pick = (state % 64) as usize;
                        BYTES[if pick < 50 { pick % 11 } else { pick % BYTES.len() }]
                    })
                    .collect();
                let mask = |test: fn(u8) -> bool| {
                    line.iter().enumerate().fold(0u128, |m, (i, &b)| m | u128::from(test(b)) << i)
                };
                let stray =
                    mask(|b| !(super::super::is_space(b) || b.is_ascii_digit() || b"+-.".contains(&b)));
                let expected = (stray == 0).then(|| {
                    (
                        mask(|b| !super::super::is_space(b)),
                        mask(|b| b.is_ascii_digit()),
                        mask(|b| b"+-".contains(&b)),
                        mask(|b| b == b'.'),
                    )
                });
                let found = classes(&line).map(|c| (c.field, c.digit, c.sign, c.point));
                assert_eq!(found, expected, "{line:?}");
            }
        }
    }
}
