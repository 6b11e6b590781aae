//! A map keyed by job identifier, hashed with one multiplication (Fibonacci hashing)
//! instead of SipHash: the keys come from our own input, not from an adversary, and
//! the maps are looked up once per job. Nothing iterates one in an order that
//! matters. The host's run loops and the reference checkers share it.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use kernel::JobId;

/// A map keyed by job identifier with [`JobIdHasher`].
pub type JobIdMap<V> = HashMap<JobId, V, BuildHasherDefault<JobIdHasher>>;

/// The hasher of [`JobIdMap`].
#[derive(Clone, Copy, Debug, Default)]
pub struct JobIdHasher(u64);

impl Hasher for JobIdHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        bytes.iter().for_each(|&b| self.write_u64(u64::from(b)));
    }

    fn write_u32(&mut self, value: u32) {
        self.write_u64(u64::from(value));
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = (self.0.rotate_left(5) ^ value).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}
