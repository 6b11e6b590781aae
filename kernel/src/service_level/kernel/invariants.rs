//! What holds of the kernel after every `step` (see the module documentation,
//! "Invariants"), asserted in debug builds so that the tests and the fuzz targets
//! check it; release builds do not compile it.

use super::ServiceLevelKernel;
use crate::types::Tick;

impl<const M: usize, const Q: usize, const L: usize> ServiceLevelKernel<M, Q, L> {
    /// `O(M Q)`: every queue is read once.
    pub(super) fn assert_invariants(&self) {
        let in_use = usize::from(self.config.machines);
        let copies = self.machines.iter().zip(self.due.iter().zip(&self.tails));
        for (index, (machine, (&due, &tail))) in copies.enumerate() {
            let queue = machine.queue();
            debug_assert!(queue.consistent(machine.clock()), "machine {index}: its queue breaks its rules");
            debug_assert!(machine.clock() <= self.now, "machine {index}: its clock is past now");
            // Every completion due by now has been run.
            debug_assert!(
                queue.head_finish().is_none_or(|f| f > self.now),
                "machine {index}: a completion is overdue"
            );
            debug_assert_eq!(
                due,
                queue.head_finish().unwrap_or(Tick::MAX),
                "machine {index}: stale head finish"
            );
            debug_assert_eq!(tail, queue.tail(), "machine {index}: stale tail");
            debug_assert!(index < in_use || queue.is_empty(), "machine {index} is not in use but has jobs");
        }
        debug_assert!(
            self.earliest <= self.earliest_due(),
            "the earliest head finish kept is past a machine's"
        );
        debug_assert!(
            self.last_admitting.is_none_or(|m| m < self.config.machines),
            "last admitting out of range"
        );
    }
}
