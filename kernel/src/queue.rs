//! The fixed-capacity earliest-due-date queue of one machine.

use heapless::Vec;

use crate::types::{JobId, Tick};

/// One admitted, unfinished job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Entry {
    pub deadline: Tick,
    /// Processing still owed, in ticks; always positive while queued.
    pub remaining: Tick,
    pub job: JobId,
    /// Whether the job has received any processing; a displaced head counts as an
    /// interruption only then.
    pub processed: bool,
}

/// Jobs ordered by non-decreasing deadline; equal deadlines keep admission order.
///
/// The head (index 0) is the job the machine runs.
#[derive(Clone, Debug)]
pub struct EddQueue<const Q: usize> {
    entries: Vec<Entry, Q>,
}

impl<const Q: usize> Default for EddQueue<Q> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const Q: usize> EddQueue<Q> {
    /// An empty queue. A zero capacity is refused at compile time.
    pub const fn new() -> Self {
        const { assert!(Q > 0, "a queue needs room for at least one job") };
        Self { entries: Vec::new() }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn is_full(&self) -> bool {
        self.entries.is_full()
    }

    pub fn head(&self) -> Option<&Entry> {
        self.entries.first()
    }

    pub fn head_mut(&mut self) -> Option<&mut Entry> {
        self.entries.first_mut()
    }

    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Where a job with `deadline` goes: after every job whose deadline is `<=` it.
    pub fn insertion_index(&self, deadline: Tick) -> usize {
        self.entries.partition_point(|e| e.deadline <= deadline)
    }

    /// Inserts at `index` (from [`Self::insertion_index`]); a full queue hands the
    /// entry back, as heapless does.
    pub fn insert(&mut self, index: usize, entry: Entry) -> Result<(), Entry> {
        if index > self.entries.len() {
            return Err(entry);
        }
        self.entries.insert(index, entry)
    }

    /// Removes and returns the head.
    pub fn pop_head(&mut self) -> Option<Entry> {
        if self.entries.is_empty() {
            return None;
        }
        Some(self.entries.remove(0))
    }

    pub fn clear(&mut self) {
        self.entries.clear();
    }
}
