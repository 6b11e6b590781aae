//! The calendar blocks' tests: values, extremes and searches against a plain array.

use super::*;

#[test]
fn additions_and_settings_read_back_exactly() {
    let mut t = Blocks::<200>::new(10);
    t.add(3, 140, 4u32.wrapping_neg());
    t.add(0, 200, 2u32.wrapping_neg());
    t.set(5, 90, 10);
    t.add(80, 150, 1);
    let want = |p: usize| {
        let mut v: u32 = 10;
        if (3..140).contains(&p) {
            v -= 4;
        }
        v -= 2;
        if (5..90).contains(&p) {
            v = 10;
        }
        if (80..150).contains(&p) {
            v += 1;
        }
        v
    };
    for p in 0..200 {
        assert_eq!(t.get(p), Some(want(p)), "position {p}");
    }
    assert_eq!(t.get(200), None);
    assert_eq!(t.first_at_least(0, 200, 9), Some(5));
    assert_eq!(t.first_at_least(90, 200, 8), Some(140));
    assert_eq!(t.last_below(0, 200, 5), Some(4));
    assert_eq!(t.last_below(0, 200, 6), Some(139));
    assert_eq!(t.extremes(0, 200), Some((4, 11)));
    assert_eq!(t.extremes(7, 7), None);
    let mut u = Blocks::<200>::new(10);
    (0..200).for_each(|p| u.set(p, p + 1, want(p)));
    assert_eq!(t, u);
}

/// Many random additions and settings, each followed by reads of every block's
/// extremes and of random ranges, against a plain array: the summaries found
/// without a scan are the scanned ones, and the room masks follow the values.
#[test]
fn summaries_follow_random_changes() {
    // Capacity 1: every whole-block change leaves a uniform block; 6: mixed ones.
    follow_random_changes::<300>(1);
    follow_random_changes::<300>(6);
    // Past 4,096 positions, the top level's later groups live among the block words.
    follow_random_changes::<10_000>(1);
    follow_random_changes::<10_000>(2);
}

fn follow_random_changes<const N: usize>(capacity: u32) {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = |below: usize| {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) as usize % below
    };
    let (mut t, mut model) = (Blocks::<N>::new(capacity), [capacity; N]);
    for _ in 0..4_000 {
        let lo = next(N);
        let long = next(4) == 0;
        let hi = (lo + 1 + next(if long { N } else { 5 })).min(N);
        let range = &mut model[lo..hi];
        match next(3) {
            0 => {
                let value = next(capacity as usize + 1) as u32;
                range.fill(value);
                t.set(lo, hi, value);
            }
            1 if range.iter().all(|&v| v > 0) => {
                range.iter_mut().for_each(|v| *v -= 1);
                t.add(lo, hi, 1u32.wrapping_neg());
            }
            _ if range.iter().all(|&v| v < capacity) => {
                range.iter_mut().for_each(|v| *v += 1);
                t.add(lo, hi, 1);
            }
            _ => {}
        }
        for b in (0..N).step_by(BLOCK) {
            let end = (b + BLOCK).min(N);
            let want = model[b..end].iter().fold((u32::MAX, 0), |(a, c), &v| (a.min(v), c.max(v)));
            assert_eq!(t.extremes(b, end), Some(want), "block at {b}");
        }
        let (a, b) = (next(N), next(N));
        let (a, b) = (a.min(b), a.max(b) + 1);
        let want = model[a..b].iter().fold((u32::MAX, 0), |(x, y), &v| (x.min(v), y.max(v)));
        assert_eq!(t.extremes(a, b), Some(want));
        // Level 1 is read from the room masks, the others from the positions.
        for level in [1, next(capacity as usize + 1) as u32] {
            assert_eq!(
                t.first_at_least(a, b, level),
                model[a..b].iter().position(|&v| v >= level).map(|p| a + p)
            );
            assert_eq!(
                t.last_below(a, b, level),
                model[a..b].iter().rposition(|&v| v < level).map(|p| a + p)
            );
        }
    }
}

#[test]
fn a_single_slot_fits() {
    let mut t = Blocks::<1>::new(3);
    t.add(0, 1, 1u32.wrapping_neg());
    assert_eq!(t.get(0), Some(2));
    assert_eq!(t.last_below(0, 1, 3), Some(0));
}
