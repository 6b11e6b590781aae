//! The line parser's own cases: header sizes, spaces, the field masks.

use super::*;

#[test]
fn machine_sizes_in_the_header_are_whole_or_unknown() {
    let read = |line: &str| read_header(line.as_bytes());
    let size = |key, value| Ok(Some(Size { key, value }));
    assert_eq!(read("; MaxNodes: 338 (batch partition; 512 total)"), size("MaxNodes", 338));
    assert_eq!(read(";MaxProcs:1024"), size("MaxProcs", 1024));
    assert_eq!(read("; MaxProcs: -1"), Ok(None));
    assert_eq!(read("; Note: MaxProcs is unknown"), Ok(None));
    for bad in ["-5", "0", "4294967296", "many", ""] {
        let line = format!("; MaxProcs: {bad}");
        let text = format!("`{bad}`");
        assert_eq!(read(&line), Err(BadSize { key: "MaxProcs", text }), "{line}");
    }
}

#[test]
fn spaces_are_the_ascii_whitespace_of_char() {
    for byte in 0..=127u8 {
        assert_eq!(is_space(byte), char::from(byte).is_whitespace(), "{byte:#04x}");
    }
}

#[test]
fn the_mask_marks_exactly_the_field_bytes() {
    // Every pattern of eight, at every group of a chunk, and short chunks.
    for pattern in 0..=255u8 {
        for group in 0..8 {
            let mut chunk = [b' '; 64];
            for bit in 0..8 {
                if pattern >> bit & 1 == 1 {
                    chunk[group * 8 + bit] = b'7';
                }
            }
            assert_eq!(field_mask(&chunk), u64::from(pattern) << (8 * group));
        }
    }
    assert_eq!(field_mask(b"1 2"), 0b101);
    assert_eq!(field_mask(b""), 0);
}

#[test]
fn fields_split_across_64_byte_chunks() {
    for width in [1, 2, 63, 64, 65, 127, 128, 129] {
        let line = format!("  {} b\t{}", "a".repeat(width), "c".repeat(width));
        let mut fields: [&[u8]; FIELDS] = [&[]; FIELDS];
        let found = split_ascii(line.as_bytes(), &mut fields);
        let expected: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(found, expected.len());
        let got: Vec<&str> = fields[..found].iter().map(|f| std::str::from_utf8(f).unwrap()).collect();
        assert_eq!(got, expected, "width {width}");
    }
}

/// The one-pass rounding agrees with the checked one on decimals of every length
/// around the switch from one to the other (18 whole digits), both signs, with and
/// without a fraction, up to `i64`'s ends.
#[test]
fn one_pass_rounding_is_the_checked_one() {
    let mut texts = vec!["9223372036854775807".to_owned(), "9223372036854775807.5".to_owned()];
    for whole in ["", "0", "7", "12", "000000000000000009", "999999999999999999", "1000000000000000000"] {
        for fraction in ["", ".", ".4", ".5", ".49", ".99"] {
            for sign in ["", "-", "+"] {
                texts.push(format!("{sign}{whole}{fraction}"));
            }
        }
    }
    for digits in 1..=21 {
        texts.push("9".repeat(digits));
        texts.push(format!("-{}.5", "9".repeat(digits)));
    }
    for text in texts.iter().filter(|t| is_decimal(t.as_bytes())) {
        let (digits, negative) = strip_sign(text.as_bytes());
        assert_eq!(round_decimal(text.as_bytes()), round_long(digits, negative), "{text}");
    }
}
