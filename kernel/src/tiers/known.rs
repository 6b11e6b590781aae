//! What the searches of each resource's calendar have shown: a stretch of slots that
//! holds no run of free slots as long as the jobs looked for.
//!
//! A search for the earliest run of `n` free slots from `first` that finds its start
//! at `s` shows that no such run lies in `[first, s + n - 1)`; one that finds none
//! shows it for the whole stretch it read. While nothing is freed on the resource
//! (an end, a loss or a trial's give-back clears its record), that stays true: a
//! hold only takes room, and the slots that later enter the horizon lie past the
//! stretch. So a later search for a run at least as long that starts inside the
//! stretch need not try any start whose run would end inside it, and placement
//! starts after them. Consecutive searches of a crowded resource (every SLA tried
//! on every desktop, a day of window each) then read only what the last did not.
//! The record is a hint that changes no answer: the kernel's equality leaves it out.

use crate::calendar::Slot;

/// No run of `n` free slots (or more) lies in the slots `[low, high)`.
#[derive(Clone, Copy, Debug)]
struct Stretch {
    low: Slot,
    high: Slot,
    n: u64,
}

/// A [`Stretch`] known for each of `R` resources.
#[derive(Clone, Debug)]
pub(super) struct Known<const R: usize> {
    stretches: [Option<Stretch>; R],
    /// Learns nothing, so that every search reads its whole range (the tests' twin).
    #[cfg(test)]
    pub(super) off: bool,
}

impl<const R: usize> Known<R> {
    pub(super) const fn new() -> Self {
        Self {
            stretches: [None; R],
            #[cfg(test)]
            off: false,
        }
    }

    /// Room was freed on resource `r`: what was known of it may no longer hold.
    pub(super) fn forget(&mut self, r: usize) {
        if let Some(stretch) = self.stretches.get_mut(r) {
            *stretch = None;
        }
    }

    pub(super) fn clear(&mut self) {
        self.stretches = [None; R];
    }

    /// The first start worth trying on resource `r` for a run of `n` from `first`:
    /// past every start whose run would end inside the known stretch, when `first`
    /// lies in it and the stretch holds no run of `n`.
    pub(super) fn skip(&self, r: usize, first: Slot, n: u64) -> Slot {
        match self.stretches.get(r).copied().flatten() {
            Some(s) if n >= s.n && s.low <= first => first.max(s.high.saturating_add(1).saturating_sub(n)),
            _ => first,
        }
    }

    /// A search on resource `r` for a run of `n` from `first`, past the starts
    /// [`Known::skip`] gave, showed that no such run lies in `[first, high)`: the
    /// record grows when that joins the known stretch, else it is replaced.
    pub(super) fn learn(&mut self, r: usize, first: Slot, n: u64, high: Slot) {
        #[cfg(test)]
        if self.off {
            return;
        }
        let Some(known) = self.stretches.get_mut(r) else { return };
        let stretch = match *known {
            // A run of `n` in the union that starts before `first` ends inside the
            // known stretch; one that starts from `first` on, inside `[first, high)`
            // or the known stretch: so none lies in the union.
            Some(s) if n >= s.n && s.low <= first && first.saturating_add(n) <= s.high.saturating_add(1) => {
                Stretch { low: s.low, high: high.max(s.high), n }
            }
            _ => Stretch { low: first, high, n },
        };
        *known = (stretch.low < stretch.high).then_some(stretch);
    }
}
