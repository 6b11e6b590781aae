//! The reservation model's checks on seeded random bytes: each byte string decoded into
//! a small case and run through the kernel, the plain reference of Algorithms 1 and 2
//! and the promises of every accepted reservation (the fuzz target `reservation` runs
//! the same `check_case` on arbitrary inputs). `kernel/tests/reservation_props.rs`
//! holds the kernel's own property tests.

mod common;

use replay::model::reservation::harness::{CaseStats, case_from_bytes, check_case};

#[test]
fn seeded_cases_agree_with_the_reference_and_keep_their_promises() {
    let mut total = CaseStats::default();
    for (seed, bytes) in common::seeded_bytes(3000) {
        let case = case_from_bytes(&bytes);
        let stats = check_case(&case).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{case:?}"));
        total.accepted += stats.accepted;
        total.rejected += stats.rejected;
        total.offers += stats.offers;
        total.replans += stats.replans;
        total.fixes += stats.fixes;
        total.starts += stats.starts;
        total.ends += stats.ends;
    }
    // Every branch is reached (the counts are this seed set's, rounded down).
    assert!(total.accepted > 10_000 && total.rejected > 10_000, "{total:?}");
    assert!(total.starts > 10_000 && total.ends > 10_000 && total.fixes > 5_000, "{total:?}");
    assert!(total.offers >= 200 && total.replans >= 50, "{total:?}");
}
