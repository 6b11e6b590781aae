//! Two hosts' outputs of one run, byte for byte: equal, or an error naming the run,
//! the file and the first byte offset where they part, with both sides' bytes there.

/// Where two byte strings first differ: the offset of the first unequal byte, or the
/// length of the shorter when one is the other's beginning; `None` when equal.
pub fn first_difference(a: &[u8], b: &[u8]) -> Option<usize> {
    match a.iter().zip(b).position(|(x, y)| x != y) {
        Some(offset) => Some(offset),
        None if a.len() == b.len() => None,
        None => Some(a.len().min(b.len())),
    }
}

/// One side of a comparison: the host's name (`x86_64`, `s390x`) and its file's bytes.
#[derive(Clone, Copy, Debug)]
pub struct Side<'a> {
    pub host: &'a str,
    pub bytes: &'a [u8],
}

impl Side<'_> {
    /// The byte at `offset`, or where the file ended before it.
    fn at(&self, offset: usize) -> String {
        match self.bytes.get(offset) {
            Some(byte) => format!("{} has 0x{byte:02x}", self.host),
            None => format!("{}'s ends there ({} bytes)", self.host, self.bytes.len()),
        }
    }
}

/// `file` of run `run` on both sides: `Ok(length)` when the bytes are equal, else an
/// error naming the run, the file and the first differing byte offset.
pub fn compare(run: &str, file: &str, a: Side<'_>, b: Side<'_>) -> Result<usize, String> {
    let Some(offset) = first_difference(a.bytes, b.bytes) else { return Ok(a.bytes.len()) };
    Err(format!(
        "run `{run}`: {file} differs first at byte {offset} (of {} bytes on {}, {} on {}): {}, {}",
        a.bytes.len(),
        a.host,
        b.bytes.len(),
        b.host,
        a.at(offset),
        b.at(offset),
    ))
}

/// The planted difference of `--tamper`: flips the lowest bit of the middle byte of
/// `bytes` and returns its offset; `None` for an empty file.
pub fn tamper(bytes: &mut [u8]) -> Option<usize> {
    let offset = bytes.len() / 2;
    let byte = bytes.get_mut(offset)?;
    *byte ^= 1;
    Some(offset)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn side<'a>(host: &'a str, bytes: &'a [u8]) -> Side<'a> {
        Side { host, bytes }
    }

    #[test]
    fn identical_bytes_compare_equal_and_give_their_length() {
        let bytes = b"ADMLOG\x01\x02\x03 and more";
        assert_eq!(first_difference(bytes, bytes), None);
        assert_eq!(compare("r", "r.log", side("x86_64", bytes), side("s390x", bytes)), Ok(bytes.len()));
        assert_eq!(compare("r", "empty.json", side("x86_64", b""), side("s390x", b"")), Ok(0));
    }

    #[test]
    fn one_differing_byte_is_named_by_run_file_and_offset() {
        let a = b"{\"admitted\": 120, \"rejected\": 7}\n".to_vec();
        let mut b = a.clone();
        b[15] = b'3'; // "120" becomes "123"
        assert_eq!(first_difference(&a, &b), Some(15));
        let err = compare("sla-trace", "sla-trace.json", side("x86_64", &a), side("s390x", &b)).unwrap_err();
        assert_eq!(
            err,
            "run `sla-trace`: sla-trace.json differs first at byte 15 (of 33 bytes on x86_64, 33 on \
             s390x): x86_64 has 0x30, s390x has 0x33"
        );
    }

    #[test]
    fn a_shorter_file_differs_where_it_ends() {
        let a = b"0123456789";
        assert_eq!(first_difference(a, &a[..6]), Some(6));
        assert_eq!(first_difference(&a[..6], a), Some(6));
        let err = compare("reserve", "reserve.log", side("x86_64", a), side("s390x", &a[..6])).unwrap_err();
        assert!(err.contains("reserve.log differs first at byte 6"), "{err}");
        assert!(err.ends_with("x86_64 has 0x36, s390x's ends there (6 bytes)"), "{err}");
    }

    /// `--tamper` changes one byte of one host-side output; the comparison then fails
    /// at exactly that byte.
    #[test]
    fn the_planted_difference_fails_the_comparison_at_its_byte() {
        let log: Vec<u8> = (0..=255u8).cycle().take(1001).collect();
        let mut tampered = log.clone();
        let offset = tamper(&mut tampered).unwrap();
        assert_eq!(offset, 500);
        assert_eq!(tampered.iter().zip(&log).filter(|(t, l)| t != l).count(), 1);
        let err =
            compare("best-fit", "best-fit.log", side("x86_64", &tampered), side("s390x", &log)).unwrap_err();
        assert!(err.starts_with("run `best-fit`: best-fit.log differs first at byte 500 "), "{err}");
        assert!(err.ends_with("x86_64 has 0xf5, s390x has 0xf4"), "{err}");
        assert_eq!(tamper(&mut []), None);
    }
}
