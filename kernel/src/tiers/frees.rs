//! What rescheduling remembers of the candidates that could not move.
//!
//! Algorithm 1 tries the same waiting jobs again at every rejection, and most of them
//! cannot move: no placement inside their own window, even with the tail of their
//! run that a new job would leave them. Whether one can move depends only on the
//! room in the calendars across its window, the resources present, the time (which
//! only shrinks the window) and the tail it is given back. So a candidate that could
//! not move cannot while nothing has freed room in its window and no larger tail is
//! offered: the kernel keeps a short record of where room was freed ([`Frees`]) and,
//! beside each job, the record's count and the tail when it last failed to move
//! (`table.rs`), and leaves such a candidate out of the ranking. A move that it
//! would not have made changes nothing, so the decisions are the same.
//!
//! Room is freed by an end or a loss (the rest of the run's slots), a move (the tail
//! the new job does not take) and a resource's return (all of its slots). A trial
//! that is undone frees nothing. Time brings new slots into the horizons too: so a
//! candidate is remembered only when its window ends inside the horizon seen from
//! the present, where every search for it read the whole window, and the slots
//! that enter later lie past it.

use crate::calendar::Slot;

/// Slot ranges freed recently.
const KEPT: usize = 16;

/// The last [`KEPT`] slot ranges in which room was freed, and how many in all.
#[derive(Clone, Debug)]
pub(super) struct Frees {
    /// `(first slot, one past the last)`, at `count % KEPT`, on any resource.
    ranges: [(Slot, Slot); KEPT],
    count: u64,
}

impl Frees {
    pub(super) const fn new() -> Self {
        Self { ranges: [(0, 0); KEPT], count: 0 }
    }

    /// How many ranges have been freed: a stamp for [`Frees::none_in`].
    pub(super) const fn count(&self) -> u64 {
        self.count
    }

    /// Room was freed in the slots `[low, high)` of some resource.
    pub(super) fn log(&mut self, low: Slot, high: Slot) {
        if low < high {
            let at = slot_of(self.count);
            if let Some(range) = self.ranges.get_mut(at) {
                *range = (low, high);
            }
            self.count = self.count.saturating_add(1);
        }
    }

    /// Whether no room was freed in the slots `[low, high)` of any resource since the
    /// count was `stamp`; `false` when that is too long ago to tell.
    pub(super) fn none_in(&self, stamp: u64, low: Slot, high: Slot) -> bool {
        let since = self.count.saturating_sub(stamp);
        if stamp > self.count || since > KEPT as u64 {
            return false;
        }
        (stamp..self.count).all(|k| {
            let at = slot_of(k);
            self.ranges.get(at).is_some_and(|&(a, b)| b <= low || a >= high)
        })
    }
}

/// Where the range numbered `k` is kept.
fn slot_of(k: u64) -> usize {
    usize::try_from(k.checked_rem(KEPT as u64).unwrap_or(0)).unwrap_or(0)
}
