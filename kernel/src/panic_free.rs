//! Operations of `heapless::Vec` and `core::slice` that assert or can panic, restated
//! without any panic path, so that no panic can be linked into a firmware (the
//! `link-check` build of `xtask/footprint`, run by `cargo xtask verify`).
//!
//! `heapless::Vec::insert` and `remove` panic on an index out of range even where the
//! caller has checked it; `sort_unstable*` keeps a panic for comparators that are not
//! a total order. These give the same results on every valid input and simply do
//! nothing (or hand the value back) on an invalid one.

use heapless::{LenType, Vec};

/// `v.insert(index, value)`: shifts `v[index..]` one place back. A full vector or an
/// index past the end hands `value` back.
pub(crate) fn insert<T, L: LenType, const N: usize>(
    v: &mut Vec<T, N, L>,
    index: usize,
    value: T,
) -> Result<(), T> {
    if v.is_full() {
        return Err(value);
    }
    let Some(tail) = v.get_mut(index..) else { return Err(value) };
    let mut carry = value;
    for slot in tail {
        core::mem::swap(slot, &mut carry);
    }
    v.push(carry)
}

/// `v.remove(0)`: shifts the rest one place forward. `None` when empty.
pub(crate) fn remove_first<T, L: LenType, const N: usize>(v: &mut Vec<T, N, L>) -> Option<T> {
    let mut carry = v.pop()?;
    for slot in v.iter_mut().rev() {
        core::mem::swap(slot, &mut carry);
    }
    Some(carry)
}

/// `v.remove(index)`: shifts `v[index + 1..]` one place forward. `None` for an index
/// past the end.
pub(crate) fn remove<T: Copy, L: LenType, const N: usize>(v: &mut Vec<T, N, L>, index: usize) -> Option<T> {
    // The rest moves one place forward over the value, and the last (now doubled) is
    // popped: a rotation did the same through a buffer, for any `T`, several times
    // slower on the short tails of the kernels' tables.
    let tail = v.get_mut(index..)?;
    let value = *tail.first()?;
    let cells = core::cell::Cell::from_mut(tail).as_slice_of_cells();
    for pair in cells.windows(2) {
        if let [to, from] = pair {
            to.set(from.get());
        }
    }
    v.pop()?;
    Some(value)
}

/// Slices up to this long are sorted by insertion.
const SHORT: usize = 16;

/// Sorts `v` by `key`, ascending, in `O(n log n)` comparisons (heapsort; insertion
/// sort up to [`SHORT`] items). Like `sort_unstable_by_key` it is not stable: with
/// distinct keys the order is the one sorted order, the same as any sort's.
pub(crate) fn sort_by_key<T: Copy, K: Ord>(v: &mut [T], mut key: impl FnMut(&T) -> K) {
    let len = v.len();
    let mut less = |v: &[T], i: usize, j: usize| match (v.get(i), v.get(j)) {
        (Some(a), Some(b)) => key(a) < key(b),
        _ => false,
    };
    if len <= SHORT {
        // Insertion sort: on a few items, fewer comparisons and moves than a heap.
        for i in 1..len {
            let mut j = i;
            while let Some(before) = j.checked_sub(1).filter(|&b| less(v, j, b)) {
                swap(v, before, j);
                j = before;
            }
        }
        return;
    }
    // Build a max-heap, then move the largest to the end, one at a time.
    for start in (0..len / 2).rev() {
        sift_down(v, start, len, &mut less);
    }
    for end in (1..len).rev() {
        swap(v, 0, end);
        sift_down(v, 0, end, &mut less);
    }
}

fn sift_down<T: Copy>(
    v: &mut [T],
    mut root: usize,
    end: usize,
    less: &mut impl FnMut(&[T], usize, usize) -> bool,
) {
    loop {
        let Some(left) = root.checked_mul(2).and_then(|r| r.checked_add(1)).filter(|&l| l < end) else {
            return;
        };
        let right = left.saturating_add(1);
        let child = if right < end && less(v, left, right) { right } else { left };
        if !less(v, root, child) {
            return;
        }
        swap(v, root, child);
        root = child;
    }
}

/// `v.swap(i, j)`; nothing happens if either index is out of range.
pub(crate) fn swap<T: Copy>(v: &mut [T], i: usize, j: usize) {
    let (Some(&a), Some(&b)) = (v.get(i), v.get(j)) else { return };
    if let Some(x) = v.get_mut(i) {
        *x = b;
    }
    if let Some(y) = v.get_mut(j) {
        *y = a;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_and_remove_first_match_heapless() {
        let mut ours: Vec<u32, 8> = Vec::new();
        let mut theirs: Vec<u32, 8> = Vec::new();
        let mut x: u32 = 11;
        for step in 0..500u32 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            if x.is_multiple_of(3) {
                assert_eq!(remove_first(&mut ours), (!theirs.is_empty()).then(|| theirs.remove(0)));
            } else {
                let index = (x >> 8) as usize % (ours.len() + 2);
                let expected = if index > theirs.len() { Err(step) } else { theirs.insert(index, step) };
                assert_eq!(insert(&mut ours, index, step), expected);
            }
            assert_eq!(ours, theirs);
        }
    }

    #[test]
    fn remove_matches_heapless() {
        let mut ours: Vec<u32, 8> = Vec::new();
        let mut theirs: Vec<u32, 8> = Vec::new();
        let mut x: u32 = 7;
        for step in 0..500u32 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            let index = (x >> 8) as usize % (ours.len() + 2);
            if x.is_multiple_of(3) {
                let expected = (index < theirs.len()).then(|| theirs.remove(index));
                assert_eq!(remove(&mut ours, index), expected);
            } else if !theirs.is_full() {
                assert_eq!(ours.push(step), theirs.push(step));
            }
            assert_eq!(ours, theirs);
        }
    }

    #[test]
    fn sorts_as_sort_unstable_does_with_distinct_keys() {
        let mut x: u64 = 5;
        for len in 0..70usize {
            let mut ours = [(0u64, 0u16); 70];
            for (i, slot) in ours.iter_mut().enumerate() {
                x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                *slot = (x >> 58, i as u16);
            }
            let mut theirs = ours;
            sort_by_key(&mut ours[..len], |&(k, i)| (k, i));
            theirs[..len].sort_unstable_by_key(|&(k, i)| (k, i));
            assert_eq!(ours, theirs);
        }
    }
}
