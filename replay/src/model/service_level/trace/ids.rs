//! The checker's job bookkeeping: a map keyed by job identifier with a fixed, cheap
//! hash, and a set of every identifier ever accepted, one bit each.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use kernel::JobId;

/// Fibonacci hashing of a job identifier: one multiplication, no random state (the
/// maps are never iterated in an order that matters: the checker sorts the jobs it
/// lists).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct JobHasher(u64);

impl Hasher for JobHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(u64::from(byte));
        }
    }

    fn write_u32(&mut self, value: u32) {
        self.write_u64(u64::from(value));
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = (self.0.rotate_left(5) ^ value).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

pub(super) type JobMap<V> = HashMap<JobId, V, BuildHasherDefault<JobHasher>>;

/// Identifiers per page of [`IdSet`].
const IDS_PER_PAGE: u32 = 4096;

/// A set of job identifiers: one bit each, in pages of 4,096 allocated when first
/// touched. Trace job numbers are dense, so a whole trace takes a few kilobytes.
#[derive(Clone, Debug, Default)]
pub(super) struct IdSet {
    pages: JobMap<Box<[u64; (IDS_PER_PAGE / 64) as usize]>>,
}

impl IdSet {
    /// Adds `id`; `false` if it was already there.
    pub(super) fn insert(&mut self, id: JobId) -> bool {
        let page = self.pages.entry(id / IDS_PER_PAGE).or_insert_with(|| Box::new([0; 64]));
        let bit = id % IDS_PER_PAGE;
        let (word, mask) = ((bit / 64) as usize, 1u64 << (bit % 64));
        let fresh = page[word] & mask == 0;
        page[word] |= mask;
        fresh
    }
}
