//! The slot calendar against a plain array model, over a fixed seeded set of cases.
//!
//! The model keeps one `u32` per absolute slot over a long span and the horizon's base;
//! every query is answered by brute force. After every operation the results and the
//! free capacity of every slot around the horizon must agree.

mod support;

use kernel::calendar::{Calendar, CalendarError, Slot};
use support::Rng;
use support::calendar_model::CalendarModel as Model;

/// The horizon of most cases: one block of the calendar's storage.
const SMALL: usize = 16;
/// A horizon of three blocks, the last one partial (`kernel::calendar` keeps 64 slots a block).
const WIDE: usize = 150;
const SPAN: usize = 2048;

fn compare<const H: usize>(calendar: &Calendar<H>, model: &Model, context: &str) {
    assert_eq!(calendar.base(), model.base, "{context}: base");
    let low = model.base.saturating_sub(3);
    for slot in low..model.end() + 3 {
        assert_eq!(calendar.free(slot), model.free(slot), "{context}: slot {slot}");
    }
}

/// How often each operation gave each answer, to show the cases reach every branch.
type Seen = std::collections::BTreeMap<(&'static str, String), u32>;

fn note<T>(seen: &mut Seen, op: &'static str, result: &Result<T, CalendarError>) {
    let answer = match result {
        Ok(_) => "ok".to_string(),
        Err(e) => e.to_string(),
    };
    *seen.entry((op, answer)).or_default() += 1;
}

fn run_case<const H: usize>(seed: u64, seen: &mut Seen) {
    let mut rng = Rng(seed);
    let capacity = 1 + rng.below(5) as u32;
    let mut calendar = Calendar::<H>::new(capacity);
    let mut model = Model::new(capacity, H, SPAN);
    // Reservations that succeeded, so that releases mostly succeed too.
    let mut held: Vec<(Slot, u64, u32)> = Vec::new();
    for step in 0..400 {
        let context = format!("seed {seed}, step {step}");
        let near = |rng: &mut Rng, base: Slot| (base + rng.below(H as u64 + 6)).saturating_sub(3);
        let nodes = rng.below(u64::from(capacity) + 2) as u32;
        let n = rng.below(H as u64 / 2 + 2) + u64::from(rng.chance(5)) * H as u64;
        match rng.below(10) {
            0 => {
                let jump = if rng.chance(10) { 2 * H as u64 } else { 3 };
                let base = model.base + rng.below(jump);
                let base = base.min((SPAN - H) as Slot);
                calendar.advance_to(base);
                model.base = model.base.max(base);
                held.retain(|&(first, _, _)| first >= model.base);
            }
            1..=3 => {
                let from = near(&mut rng, model.base);
                let to = from + rng.below(H as u64 + 2) - u64::from(rng.chance(5)).min(from);
                let got = calendar.earliest(from, to, nodes, n);
                assert_eq!(
                    got,
                    model.earliest(from, to, nodes, n),
                    "{context}: earliest({from}, {to}, {nodes}, {n})"
                );
                note(seen, "earliest", &got);
            }
            4..=6 => {
                let first = near(&mut rng, model.base);
                let got = calendar.reserve(first, n, nodes);
                assert_eq!(got, model.reserve(first, n, nodes), "{context}: reserve({first}, {n}, {nodes})");
                note(seen, "reserve", &got);
                if got.is_ok() {
                    held.push((first, n, nodes));
                }
            }
            7..=8 if !held.is_empty() => {
                let (first, n, nodes) = held.swap_remove(rng.below(held.len() as u64) as usize);
                // Usually `Ok`; a random release below may have given some of it back.
                let got = calendar.release(first, n, nodes);
                assert_eq!(got, model.release(first, n, nodes), "{context}: release of a held run");
                note(seen, "release", &got);
            }
            _ => {
                let first = near(&mut rng, model.base);
                let got = calendar.release(first, n, nodes);
                assert_eq!(got, model.release(first, n, nodes), "{context}: release({first}, {n}, {nodes})");
                note(seen, "release", &got);
            }
        }
        compare(&calendar, &model, &context);
    }
}

#[test]
fn the_calendar_agrees_with_a_plain_array() {
    let mut seen = Seen::new();
    for seed in 0..300 {
        run_case::<SMALL>(seed, &mut seen);
    }
    let expected = [
        ("earliest", ["ok", "no_room", "out_of_horizon", "bad_request"].as_slice()),
        ("reserve", &["ok", "no_room", "out_of_horizon", "bad_request"]),
        ("release", &["ok", "over_release", "out_of_horizon", "bad_request"]),
    ];
    for (op, answers) in expected {
        for &answer in answers {
            let count = seen.get(&(op, answer.to_string())).copied().unwrap_or(0);
            assert!(count >= 50, "{op} answered {answer} only {count} times: {seen:?}");
        }
    }
}

/// `earliest_stepped` against the model: random reservations and advances, then
/// searches with every step from 1 to past the horizon; with step 1 it must also equal
/// `earliest`.
fn run_stepped_case<const H: usize>(seed: u64, seen: &mut Seen) {
    let mut rng = Rng(seed ^ 0x5EED_57E9);
    let capacity = 1 + rng.below(4) as u32;
    let mut calendar = Calendar::<H>::new(capacity);
    let mut model = Model::new(capacity, H, SPAN);
    for step in 0..300 {
        let context = format!("seed {seed}, step {step}");
        let nodes = rng.below(u64::from(capacity) + 2) as u32;
        let n = rng.below(H as u64 / 2 + 2) + u64::from(rng.chance(3)) * H as u64;
        match rng.below(8) {
            0 => {
                let base = (model.base + rng.below(4)).min((SPAN - H) as Slot);
                calendar.advance_to(base);
                model.base = model.base.max(base);
            }
            1..=3 => {
                let first = (model.base + rng.below(H as u64)).saturating_sub(1);
                let got = calendar.reserve(first, n.min(4), nodes);
                assert_eq!(got, model.reserve(first, n.min(4), nodes), "{context}: reserve");
            }
            _ => {
                let from = (model.base + rng.below(H as u64 + 4)).saturating_sub(6);
                let to = from + rng.below(2 * H as u64) - u64::from(rng.chance(3)).min(from);
                let stride = rng.below(H as u64 + 3);
                let got = calendar.earliest_stepped(from, to, stride, nodes, n);
                let want = model.earliest_stepped(from, to, stride, nodes, n);
                assert_eq!(got, want, "{context}: earliest_stepped({from}, {to}, {stride}, {nodes}, {n})");
                if stride == 1 {
                    assert_eq!(got, calendar.earliest(from, to, nodes, n), "{context}: step 1 is earliest");
                }
                note(seen, if stride > 1 { "stepped" } else { "stepped_by_one" }, &got);
            }
        }
        compare(&calendar, &model, &context);
    }
}

#[test]
fn the_stepped_search_agrees_with_a_plain_array() {
    let mut seen = Seen::new();
    for seed in 0..300 {
        run_stepped_case::<SMALL>(seed, &mut seen);
    }
    for op in ["stepped", "stepped_by_one"] {
        for answer in ["ok", "no_room", "out_of_horizon", "bad_request"] {
            let count = seen.get(&(op, answer.to_string())).copied().unwrap_or(0);
            assert!(count >= 20, "{op} answered {answer} only {count} times: {seen:?}");
        }
    }
}

/// The same cases on a horizon of several blocks, so that changes and searches cross
/// block boundaries and cover whole blocks.
#[test]
fn a_wide_calendar_agrees_with_a_plain_array() {
    let mut seen = Seen::new();
    for seed in 0..60 {
        run_case::<WIDE>(seed, &mut seen);
        run_stepped_case::<WIDE>(seed, &mut seen);
    }
    for op in ["earliest", "reserve", "release", "stepped"] {
        for answer in ["ok", "no_room"].into_iter().filter(|&a| op != "release" || a == "ok") {
            let count = seen.get(&(op, answer.to_string())).copied().unwrap_or(0);
            assert!(count >= 20, "{op} answered {answer} only {count} times: {seen:?}");
        }
    }
}

/// The search for runs of one free, which reads 128 slots at a time from the room
/// masks where the slots read do not wrap the ring, on horizons of 2,048 slots (a
/// whole number of blocks) and 1,000 (the last block partial): one- and two-node
/// calendars crowded with one-node runs, the horizon moving so that runs wrap.
fn run_one_node_case<const H: usize>(seed: u64, seen: &mut Seen) {
    const LONG: usize = 12_000;
    let mut rng = Rng(seed);
    let capacity = 1 + rng.below(2) as u32;
    let mut calendar = Calendar::<H>::new(capacity);
    let mut model = Model::new(capacity, H, LONG);
    for step in 0..1_500 {
        let context = format!("seed {seed}, step {step}");
        let first = model.base + rng.below(H as u64);
        let longest = if rng.chance(8) { 140 } else { 70 };
        let n = 1 + rng.below(longest);
        match rng.below(12) {
            0 => {
                let base = (model.base + rng.below(H as u64 / 3)).min((LONG - H) as Slot);
                calendar.advance_to(base);
                model.base = model.base.max(base);
            }
            1..=4 => {
                let to = first + rng.below(H as u64);
                let got = calendar.earliest(first, to, 1, n);
                assert_eq!(
                    got,
                    model.earliest(first, to, 1, n),
                    "{context}: earliest({first}, {to}, 1, {n})"
                );
                note(seen, "earliest", &got);
            }
            5..=9 => {
                let got = calendar.reserve(first, n.min(40), 1);
                assert_eq!(got, model.reserve(first, n.min(40), 1), "{context}: reserve");
            }
            _ => {
                let got = calendar.release(first, n.min(40), 1);
                assert_eq!(got, model.release(first, n.min(40), 1), "{context}: release");
            }
        }
    }
    compare(&calendar, &model, &format!("seed {seed}"));
}

#[test]
fn a_one_node_search_agrees_with_a_plain_array() {
    let mut seen = Seen::new();
    for seed in 0..16 {
        run_one_node_case::<2048>(seed, &mut seen);
        run_one_node_case::<1000>(seed, &mut seen);
    }
    for answer in ["ok", "no_room", "out_of_horizon"] {
        let count = seen.get(&("earliest", answer.to_string())).copied().unwrap_or(0);
        assert!(count >= 200, "earliest answered {answer} only {count} times: {seen:?}");
    }
}
