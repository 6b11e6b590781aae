//! What holds of the kernel after every `step` (see the module documentation,
//! "Invariants"), asserted in debug builds so that the tests and the fuzz targets
//! check it; release builds do not compile it.

use super::SlaKernel;

impl<const H: usize, const B: usize> SlaKernel<H, B> {
    /// `O(B + H / 64)`.
    pub(super) fn assert_invariants(&self) {
        let nodes = self.config.nodes;
        for p in &self.pending {
            debug_assert!(p.request.valid(nodes), "job {}: queued but not valid", p.request.job);
            debug_assert!(p.index < self.next_index, "job {}: numbered ahead", p.request.job);
        }
        // Queued in submit order: a plan empties the batch.
        debug_assert!(
            self.pending.windows(2).all(|w| w.first().map(|a| a.index) < w.last().map(|b| b.index))
        );
        debug_assert!(self.calendar.within_capacity(), "a slot has more than the machine's nodes free");
        debug_assert_eq!(self.calendar.base(), self.slot.slot_of(self.now), "the horizon is not at now");
    }
}
