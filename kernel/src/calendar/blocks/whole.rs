//! An addition to a run of whole blocks, in one pass over their summaries: each
//! block's minimum, maximum and addition move by the same amount, and its room mask
//! follows from its new extremes (read from its positions only when it holds both 0
//! and more). The top level is marked again only when some block's extremes crossed
//! 1. A reservation of many slots is mostly such blocks, so this is most of its cost.

use super::room::room_bits;
use super::{BLOCK, Blocks, WORDS};

impl<const H: usize> Blocks<H> {
    /// Adds `delta` (wrapping) to every position of the whole blocks `head ..= tail`
    /// (`1 <= head <= tail`, every one of them `BLOCK` positions inside `H`).
    pub(super) fn add_whole(&mut self, head: usize, tail: usize, delta: u32) {
        let lo = head.saturating_sub(1).saturating_mul(WORDS);
        let hi = tail.saturating_mul(WORDS);
        let slots = &self.slots;
        let Some(words) = self.words.get_mut(lo..hi) else { return };
        let mut crossed = false;
        for (block, summary) in (head..).zip(words.chunks_exact_mut(WORDS)) {
            let [min, max, add, low, high] = summary else { continue };
            let was = (*max >= 1, *min >= 1);
            (*min, *max, *add) = (min.wrapping_add(delta), max.wrapping_add(delta), add.wrapping_add(delta));
            crossed |= was != (*max >= 1, *min >= 1);
            let room = match (*min >= 1, *max >= 1) {
                (true, _) => u64::MAX,
                (_, false) => 0,
                // Both 0 and more: the positions say which.
                _ => {
                    let start = block.saturating_mul(BLOCK);
                    room_bits(slots.get(start..start.saturating_add(BLOCK)).unwrap_or(&[]), *add)
                }
            };
            // The mask's halves: the truncations are the point.
            #[allow(clippy::cast_possible_truncation)]
            let halves = (room as u32, (room >> 32) as u32);
            (*low, *high) = halves;
        }
        if crossed {
            for block in head..=tail {
                let s = self.summary(block);
                self.mark(block, s);
            }
        }
    }
}
