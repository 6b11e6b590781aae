//! Tests of the generator: every set a perfect fit, windows, the paper's figures, the parameters and the seeds.

use super::*;

#[test]
fn every_set_is_a_perfect_fit() {
    for seed in [1, 2, 99] {
        for index in 0..5 {
            let set = generate(seed, index);
            set.check_tiling().unwrap_or_else(|e| panic!("seed {seed}, set {index}: {e}"));
            let area: u64 = set.jobs.iter().map(|j| j.td / SLOT_TICKS * u64::from(j.ncpu)).sum();
            assert_eq!(area, u64::from(NODES) * FRAME_SLOTS);
        }
    }
}

#[test]
fn the_check_finds_an_overlap_a_hole_and_a_tile_outside_its_window() {
    let set = generate(1, 0);
    let mut overlap = set.clone();
    overlap.jobs[0].tile_node = overlap.jobs[1].tile_node;
    overlap.jobs[0].tile_start = overlap.jobs[1].tile_start;
    overlap.jobs[0].ts = 0;
    overlap.jobs[0].tf = FRAME_TICKS;
    assert!(overlap.check_tiling().is_err());
    let mut hole = set.clone();
    hole.jobs.pop();
    assert!(hole.check_tiling().unwrap_err().what.contains("in no tile"));
    let mut outside = set;
    outside.jobs[3].ts = outside.jobs[3].tile_start + SLOT_TICKS;
    assert_eq!(outside.check_tiling().unwrap_err().what, "its tile lies outside its window");
}

#[test]
fn windows_are_four_durations_clipped_to_the_frame_and_start_or_end_with_the_tile() {
    let set = generate(3, 0);
    let (mut at_start, mut at_end) = (0, 0);
    for j in &set.jobs {
        assert!(j.tf - j.ts <= 4 * j.td, "{j:?}");
        if j.ts > 0 && j.tf < FRAME_TICKS {
            assert_eq!(j.tf - j.ts, 4 * j.td, "{j:?}");
        }
        if j.ts == j.tile_start {
            at_start += 1;
        }
        if j.tf == j.tile_start + j.td {
            at_end += 1;
        }
        assert!(j.ts == j.tile_start || j.tf == j.tile_start + j.td, "{j:?}");
    }
    let n = set.jobs.len();
    assert!(at_start > n / 3 && at_end > n / 3, "{at_start} / {at_end} of {n}");
    assert_eq!(set.jobs.iter().map(|j| j.ts).min(), Some(0));
    assert_eq!(set.jobs.iter().map(|j| j.tf).max(), Some(FRAME_TICKS));
}

#[test]
fn sets_look_like_the_papers() {
    let sets = generate_sets(1, 100);
    let s = stats(&sets);
    assert!((375.0..395.0).contains(&s.jobs), "{s:?}");
    assert!((4.6..5.2).contains(&s.mean_td_hours), "{s:?}");
    assert!((9.5..11.0).contains(&s.mean_ncpu) && (8..=11).contains(&s.mode_ncpu), "{s:?}");
    assert!((4..=6).contains(&s.mode_td_hours), "{s:?}");
}

#[test]
fn every_parameter_still_tiles_and_does_what_it_says() {
    let base = Params::default();
    assert_eq!(generate_with(&base, 4, 1), generate(4, 1));
    let cases = [
        Params { ncpu_u_max: 3, ..base },
        Params { ncpu_u_max: 8, ..base },
        Params { window_durations: 2, ..base },
        Params { start_share: Share { num: 0, den: 1 }, ..base },
        Params { start_share: Share { num: 1, den: 1 }, ..base },
        Params { start_share: Share { num: 3, den: 4 }, ..base },
        Params { band_slots: (FRAME_SLOTS, FRAME_SLOTS), ..base },
    ];
    for params in &cases {
        for index in 0..3 {
            let set = generate_with(params, 2, index);
            set.check_tiling().unwrap_or_else(|e| panic!("{params:?}, set {index}: {e}"));
            for j in &set.jobs {
                // A band's last group takes the nodes left: below the widest draw plus 2.
                assert!(j.ncpu < NCPU_BASE + 3 * params.ncpu_u_max + MIN_GROUP, "{params:?}: {j:?}");
                let (at_start, at_end) = (j.ts == j.tile_start, j.tf == j.tile_start + j.td);
                assert!(j.tf - j.ts <= params.window_durations * j.td, "{params:?}: {j:?}");
                match (params.start_share.num, params.start_share.den) {
                    (0, _) => assert!(at_end, "{params:?}: {j:?}"),
                    (n, d) if n == d => assert!(at_start, "{params:?}: {j:?}"),
                    _ => assert!(at_start || at_end, "{params:?}: {j:?}"),
                }
            }
            if params.band_slots.0 == FRAME_SLOTS {
                // One band: every group is a column of tiles end to end through the frame.
                for j in &set.jobs {
                    let column: u64 = set
                        .jobs
                        .iter()
                        .filter(|k| k.tile_node == j.tile_node)
                        .map(|k| k.td / SLOT_TICKS)
                        .sum();
                    assert_eq!(column, FRAME_SLOTS, "{j:?}");
                }
            }
        }
    }
    let three_in_four = generate_sets_with(&Params { start_share: Share { num: 3, den: 4 }, ..base }, 2, 5);
    let jobs: Vec<&SetJob> = three_in_four.iter().flat_map(|s| &s.jobs).collect();
    let only_start = jobs.iter().filter(|j| j.ts == j.tile_start && j.tf != j.tile_start + j.td).count();
    let only_end = jobs.iter().filter(|j| j.tf == j.tile_start + j.td && j.ts != j.tile_start).count();
    assert!(only_start > 2 * only_end, "3 in 4 start with the tile: {only_start} against {only_end}");
    let narrow = stats(&generate_sets_with(&Params { ncpu_u_max: 4, ..base }, 1, 20));
    assert!((7.0..8.5).contains(&narrow.mean_ncpu) && narrow.jobs > 450.0, "{narrow:?}");
}

#[test]
fn same_seed_same_set_and_sets_differ() {
    assert_eq!(generate(5, 2), generate(5, 2));
    assert_ne!(generate(5, 2).jobs, generate(5, 3).jobs);
    assert_ne!(generate(5, 2).jobs, generate(6, 2).jobs);
    let set = generate(5, 2);
    assert!(set.jobs.iter().zip(1..).all(|(j, id)| j.id == id));
}
