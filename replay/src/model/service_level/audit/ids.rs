//! The checker's job bookkeeping: a set of every identifier ever accepted, one bit
//! each, in pages kept in a [`JobMap`].

use kernel::JobId;

use crate::job_map::JobIdMap as JobMap;

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
