//! The reader the fuzz harnesses decode their cases with (`sla`, `reservation` and
//! `tiers`'s `harness.rs`): bytes front to back, zeros once they run out, so that every
//! byte string decodes.

/// Reads bytes front to back; zeros once they run out.
pub(crate) struct Bytes<'a>(pub(crate) &'a [u8]);

impl Bytes<'_> {
    pub(crate) fn next(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }

    pub(crate) fn below(&mut self, n: u8) -> u8 {
        self.next() % n
    }

    /// Whether every byte has been read.
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}
