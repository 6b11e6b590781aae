//! The common job line, split and checked in one pass of bit masks: a line of at
//! most [`PLAIN_LINE`] ASCII bytes whose 18 fields are all decimal numbers. Every
//! line of the shared traces is one. Any other line (a comment, a bad field, more
//! fields, a longer line) is left to the general path, which gives its error; both
//! read a line they both take the same way.
//!
//! Eight bytes are classified at a time (spaces, digits, signs, points), each class
//! a bit mask of the line; the checks are then a few operations on the masks
//! instead of a loop over each field's bytes, whose branches a line of short fields
//! mispredicts.

use super::FIELDS;

/// The longest line the masks take: 127 bytes, so that a bit past the last byte
/// is always in the 128 (a space), where the sums below carry to.
const PLAIN_LINE: usize = 127;

const LOW: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `word` (ASCII, below 128) set where it is `>= c`.
const fn at_least(word: u64, c: u8) -> u64 {
    word.wrapping_add((0x80 - c as u64) * LOW) & HIGH
}

/// The high bit of each byte of `word` (ASCII) set where it is `c`.
const fn equal(word: u64, c: u8) -> u64 {
    !(word ^ (c as u64 * LOW)).wrapping_add(0x7f * LOW) & HIGH
}

/// The high bits of the eight bytes of `high` as eight bits, by one multiplication
/// that moves byte `i`'s to bit `56 + i` with no carries between them.
const fn gather(high: u64) -> u8 {
    ((high >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
}

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
fn classes(bytes: &[u8]) -> Option<Classes> {
    if bytes.len() > PLAIN_LINE {
        return None;
    }
    let mut masks = [[0u8; 16]; 4];
    let (words, tail) = bytes.as_chunks::<8>();
    // The last bytes, and spaces after them (`tail` has at most 7).
    let spaces = u64::from(b' ') * LOW;
    let last = tail.iter().rev().fold(0, |word, &b| word << 8 | u64::from(b)) | spaces << (8 * tail.len());
    let mut stray = 0;
    let all = words.iter().map(|word| u64::from_le_bytes(*word)).chain(std::iter::once(last));
    for (index, word) in all.enumerate() {
        // A byte of 128 or more sets its own high bit.
        stray |= word & HIGH;
        let space = equal(word, b' ') | (at_least(word, b'\t') & !at_least(word, b'\r' + 1));
        let digit = at_least(word, b'0') & !at_least(word, b'9' + 1);
        let sign = equal(word, b'-') | equal(word, b'+');
        let point = equal(word, b'.');
        stray |= !(space | digit | sign | point) & HIGH;
        for (mask, class) in masks.iter_mut().zip([!space & HIGH, digit, sign, point]) {
            if let Some(byte) = mask.get_mut(index) {
                *byte = gather(class);
            }
        }
    }
    if stray != 0 {
        return None;
    }
    let [field, digit, sign, point] = masks.map(u128::from_le_bytes);
    Some(Classes { field, digit, sign, point })
}

/// The fields of `bytes` into `fields` (the first eight, all a job needs) when it is
/// a job line of exactly [`FIELDS`] fields, each a decimal number (an optional
/// sign, digits, an optional point and digits, one digit at least); `None` for any
/// other line, which the general path reads.
pub(super) fn plain_fields<'a>(bytes: &'a [u8], fields: &mut [&'a [u8]; FIELDS]) -> Option<()> {
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
    let (mut starts, mut ends) = (starts, ends);
    for field in fields.iter_mut().take(8) {
        let (from, to) = (starts.trailing_zeros() as usize, ends.trailing_zeros() as usize);
        starts &= starts - 1;
        ends &= ends - 1;
        *field = bytes.get(from..=to)?;
    }
    Some(())
}

/// Whether the masks' idea of a space is [`is_space`]'s, byte by byte (a test's).
#[cfg(test)]
pub(super) fn spaces_agree() -> bool {
    use super::is_space;
    (0..128u8).all(|byte| {
        let word = u64::from(byte) * LOW;
        let space = equal(word, b' ') | (at_least(word, b'\t') & !at_least(word, b'\r' + 1));
        (space == HIGH) == is_space(byte)
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
            let mut fields = [&[][..]; FIELDS];
            plain += usize::from(plain_fields(line.as_bytes(), &mut fields).is_some());
            for extra in [false, true] {
                let fast = parse_line("t", 3, line.as_bytes(), extra);
                let slow = general("t", 3, line.as_bytes(), extra);
                assert_eq!(format!("{fast:?}"), format!("{slow:?}"), "{line:?}");
            }
        }
        // The masks took a good share of them, and left the rest.
        assert!((1_000..100_000).contains(&plain), "{plain}");
    }
}
