//! The searches for one free: the first position with room for one, the last with
//! none, found from the blocks' room masks and a top level above them.
//!
//! The top level holds two bits a block, in words of 64 blocks: whether the block has
//! room somewhere (its maximum is 1 or more) and whether it has room everywhere (its
//! minimum is). A search skips the blocks it cannot stop in 64 at a time, then reads
//! one block's room mask: on a calendar of up to 4,096 slots, a few word operations
//! whatever the distance covered. Every write of a block's summary marks its two bits
//! ([`Blocks::mark`]), so the top level is always current.
//!
//! # Storage
//! The words of blocks `0 .. 64` follow block 0's summary (`Blocks::first`). Those of group
//! `g >= 1` (blocks `64 g .. 64 g + 64`) are the four `u32` words `H - 4 g .. H - 4 g +
//! 4` of the summaries' array, whose start holds the block summaries: the two never
//! meet, since a group past the first exists only for `H > 4,096`, where the
//! summaries take under a tenth of the words.

use super::{BLOCK, Blocks, Change, Summary, WORDS};

/// Blocks per word of the top level.
const GROUP: usize = 64;
/// The top level's word of blocks with room somewhere.
const SOME: usize = 0;
/// The top level's word of blocks with room everywhere.
const EVERY: usize = 1;

/// The bits `[from, to)` of a 64-bit mask (`from <= to <= 64`).
#[inline]
pub(super) fn span(from: usize, to: usize) -> u64 {
    below(to) & !below(from)
}

/// The bits below bit `n` (all of them from 64 on).
#[inline]
fn below(n: usize) -> u64 {
    u32::try_from(n).ok().and_then(|n| 1u64.checked_shl(n)).map_or(u64::MAX, |bit| bit.wrapping_sub(1))
}

/// The room mask of up to 64 stored words `slots` of a block whose addition is `add`,
/// from bit 0.
pub(super) fn room_bits(slots: &[u32], add: u32) -> u64 {
    slots.iter().enumerate().fold(0u64, |bits, (k, v)| {
        let room = u64::from(v.wrapping_add(add) >= 1);
        bits | room.wrapping_shl(u32::try_from(k).unwrap_or(0))
    })
}

/// The room mask of a block whose every position holds `value`.
pub(super) const fn uniform_room(value: u32) -> u64 {
    if value >= 1 { u64::MAX } else { 0 }
}

/// Item `index` of a group of 64 (block or position) that starts at `group * 64`.
fn at(group: usize, index: u32) -> usize {
    group.saturating_mul(64).saturating_add(usize::try_from(index).unwrap_or(0))
}

/// Splits `x` into the group of 64 it falls in and its place there.
const fn split(x: usize) -> (usize, usize) {
    (x / 64, x % 64)
}

impl<const H: usize> Blocks<H> {
    /// The first position in `[lo, hi)` that holds 1 or more.
    pub(super) fn first_room(&self, lo: usize, hi: usize) -> Option<usize> {
        let hi = hi.min(H);
        let (mut block, end) = (lo / BLOCK, hi.checked_sub(1)? / BLOCK);
        while block <= end && lo < hi {
            block = self.next_marked(block, end, SOME, false)?;
            let bits = self.summary(block).room & self.window(block, lo, hi);
            if bits != 0 {
                return Some(at(block, bits.trailing_zeros()));
            }
            block = block.saturating_add(1);
        }
        None
    }

    /// The last position in `[lo, hi)` that holds 0.
    pub(super) fn last_full(&self, lo: usize, hi: usize) -> Option<usize> {
        let hi = hi.min(H);
        let (first, mut block) = (lo / BLOCK, hi.checked_sub(1)? / BLOCK);
        while block >= first && lo < hi {
            block = self.prev_marked(first, block, EVERY, true)?;
            let bits = !self.summary(block).room & self.window(block, lo, hi);
            if bits != 0 {
                return Some(at(block, 63u32.saturating_sub(bits.leading_zeros())));
            }
            block = block.checked_sub(1)?;
        }
        None
    }

    /// The room bits of the 128 positions from `pos` (bit `k`: position `pos + k`),
    /// when all of them lie before `H`; `None` otherwise.
    pub(in crate::calendar) fn room_window(&self, pos: usize) -> Option<u128> {
        if pos.checked_add(128)? > H {
            return None;
        }
        let (block, offset) = split(pos);
        let low = u128::from(self.summary(block).room)
            | u128::from(self.summary(block.saturating_add(1)).room) << 64;
        if offset == 0 {
            return Some(low);
        }
        // The third block holds the last `offset` positions; it lies before `H`.
        let high = u128::from(self.summary(block.saturating_add(2)).room);
        Some(low >> offset | high << (128usize.saturating_sub(offset)))
    }

    /// The bits of `block`'s mask that lie in `[lo, hi)`.
    fn window(&self, block: usize, lo: usize, hi: usize) -> u64 {
        let start = block.saturating_mul(BLOCK);
        let from = lo.max(start).saturating_sub(start);
        span(from.min(BLOCK), hi.saturating_sub(start).min(BLOCK))
    }

    /// The first block of `[from, last]` whose bit in the top level's word `which` is
    /// set (or, with `clear`, clear).
    fn next_marked(&self, from: usize, last: usize, which: usize, clear: bool) -> Option<usize> {
        let mut block = from;
        while block <= last {
            let (group, bit) = split(block);
            let top = self.top_of(group).get(which).copied().unwrap_or(0);
            let word = if clear { !top } else { top };
            let bits = word
                & span(bit, last.saturating_sub(group.saturating_mul(GROUP)).saturating_add(1).min(GROUP));
            if bits != 0 {
                return Some(at(group, bits.trailing_zeros()));
            }
            block = group.saturating_add(1).saturating_mul(GROUP);
        }
        None
    }

    /// The last block of `[first, from]` whose bit in the top level's word `which` is
    /// set (or, with `clear`, clear).
    fn prev_marked(&self, first: usize, from: usize, which: usize, clear: bool) -> Option<usize> {
        let mut block = from;
        loop {
            let (group, bit) = split(block);
            let top = self.top_of(group).get(which).copied().unwrap_or(0);
            let word = if clear { !top } else { top };
            let low = first.saturating_sub(group.saturating_mul(GROUP));
            let bits = word & span(low.min(bit), bit.saturating_add(1));
            if bits != 0 {
                return Some(at(group, 63u32.saturating_sub(bits.leading_zeros())));
            }
            block = group.saturating_mul(GROUP).checked_sub(1).filter(|&b| b >= first)?;
        }
    }

    /// `change` to the positions `[from, to)` of `block`, whose summary is `s`, when
    /// every value of the block is 0 or 1 and the changed positions end equal (a
    /// one-node calendar's every change, and a fuller one's in its full blocks):
    /// then the room mask says everything, and the extremes follow from it without
    /// a scan. `false` (nothing done) otherwise.
    pub(super) fn change_binary(
        &mut self,
        block: usize,
        s: Summary,
        (from, to): (usize, usize),
        change: Change,
    ) -> bool {
        let start = block.saturating_mul(BLOCK);
        let changed = span(from.saturating_sub(start), to.saturating_sub(start).min(BLOCK));
        let had = s.room & changed;
        let value = match change {
            _ if s.max > 1 => return false,
            Change::Set(value @ 0..=1) => value,
            Change::Add(1) if had == 0 => 1,
            Change::Add(u32::MAX) if had == changed => 0,
            _ => return false,
        };
        if let Some(slots) = self.slots.get_mut(from..to) {
            slots.fill(value.wrapping_sub(s.add));
        }
        let room = if value == 1 { s.room | changed } else { s.room & !changed };
        // The bits past `H` in the last block are not positions.
        let valid = span(0, H.saturating_sub(start).min(BLOCK));
        let (min, max) = (u32::from(room & valid == valid), u32::from(room & valid != 0));
        self.rewrite(block, s, Summary { min, max, add: s.add, room });
        true
    }

    /// The room mask of the positions `[from, to)` of `block`, whose addition is
    /// `add`; the other bits clear.
    pub(super) fn room_of(&self, block: usize, (from, to): (usize, usize), add: u32) -> u64 {
        let offset = from.saturating_sub(block.saturating_mul(BLOCK));
        let bits = room_bits(self.slots.get(from..to).unwrap_or(&[]), add);
        bits.wrapping_shl(u32::try_from(offset).unwrap_or(0))
    }

    /// Records the summary `s` just written for `block` in the top level.
    pub(super) fn mark(&mut self, block: usize, s: Summary) {
        let (group, bit) = split(block);
        let mut top = self.top_of(group);
        let one = 1u64.checked_shl(u32::try_from(bit).unwrap_or(64)).unwrap_or(0);
        for (word, marked) in top.iter_mut().zip([s.max >= 1, s.min >= 1]) {
            *word = if marked { *word | one } else { *word & !one };
        }
        self.set_top(group, top);
    }

    /// The top level's words of `group`: room somewhere, room everywhere.
    fn top_of(&self, group: usize) -> [u64; 2] {
        let words = match group {
            0 => self.first.get(WORDS..),
            _ => H.checked_sub(group.saturating_mul(4)).and_then(|i| self.words.get(i..i.saturating_add(4))),
        };
        match words {
            Some(&[a, b, c, d]) => [u64::from(a) | u64::from(b) << 32, u64::from(c) | u64::from(d) << 32],
            // A group's words fit (see the module documentation); never reached.
            _ => [0, 0],
        }
    }

    fn set_top(&mut self, group: usize, top: [u64; 2]) {
        let words = match group {
            0 => self.first.get_mut(WORDS..),
            _ => H
                .checked_sub(group.saturating_mul(4))
                .and_then(|i| self.words.get_mut(i..i.saturating_add(4))),
        };
        if let Some([a, b, c, d]) = words {
            // The words' halves: the truncations are the point.
            #[allow(clippy::cast_possible_truncation)]
            let halves = |w: u64| (w as u32, (w >> 32) as u32);
            ((*a, *b), (*c, *d)) = (halves(top[0]), halves(top[1]));
        }
    }
}
