//! A user's value as an error message shows it: quoted with backticks, control
//! characters and invalid UTF-8 escaped (a NUL byte is `\0`, never echoed raw), and
//! cut to [`ECHO_MAX`] characters with the length it had, so that a million-digit
//! field makes a one-line error, not a megabyte of one.
//!
//! Both programs echo values through here: a file's field, an option's value, a
//! scenario key's value.

use std::fmt::Write;

/// Characters of a value shown before it is cut.
pub const ECHO_MAX: usize = 40;

/// `text` quoted for a message: `` `12x` ``, or `` `1234...` (1000000 characters)``.
pub fn echo(text: &str) -> String {
    echo_bytes(text.as_bytes())
}

/// The same for bytes, which may not be UTF-8: an invalid byte is shown `\xNN`.
pub fn echo_bytes(bytes: &[u8]) -> String {
    let mut shown = String::from("`");
    let mut count = 0;
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            count += 1;
            if count <= ECHO_MAX {
                push_escaped(&mut shown, c);
            }
        }
        for byte in chunk.invalid() {
            count += 1;
            if count <= ECHO_MAX {
                let _ = write!(shown, "\\x{byte:02x}");
            }
        }
    }
    shown.push('`');
    if count > ECHO_MAX {
        let _ = write!(shown, "... ({count} characters)");
    }
    shown
}

fn push_escaped(shown: &mut String, c: char) {
    match c {
        '\0' => shown.push_str("\\0"),
        '\t' => shown.push_str("\\t"),
        '\n' => shown.push_str("\\n"),
        '\r' => shown.push_str("\\r"),
        '`' => shown.push_str("\\`"),
        c if c.is_control() || invisible(c) => {
            let _ = write!(shown, "\\u{{{:x}}}", c as u32);
        }
        c => shown.push(c),
    }
}

/// A character that shows as nothing (a format character: zero-width spaces and
/// joiners, direction marks and overrides, a byte-order mark), so it is shown by its
/// code instead.
fn invisible(c: char) -> bool {
    matches!(
        c,
        '\u{AD}' | '\u{200B}'..='\u{200F}' | '\u{2028}'..='\u{202E}' | '\u{2060}'..='\u{206F}'
            | '\u{FEFF}' | '\u{FFF9}'..='\u{FFFB}'
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_value_is_quoted() {
        assert_eq!(echo("12x"), "`12x`");
    }

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(echo("a\0b\tc\u{7}"), "`a\\0b\\tc\\u{7}`");
    }

    #[test]
    fn invisible_characters_are_shown_by_their_code() {
        assert_eq!(echo("\u{FEFF}1\u{200B}"), "`\\u{feff}1\\u{200b}`");
    }

    #[test]
    fn a_long_value_is_cut_with_its_length() {
        let long = "9".repeat(1_000_000);
        let shown = echo(&long);
        assert!(shown.len() < 80, "{shown}");
        assert!(shown.ends_with("... (1000000 characters)"), "{shown}");
    }

    #[test]
    fn invalid_utf8_is_shown_as_hex() {
        assert_eq!(echo_bytes(b"a\xffb"), "`a\\xffb`");
    }
}
