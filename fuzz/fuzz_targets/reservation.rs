//! Arbitrary bytes decoded into a small reservation case
//! (`replay::model::reservation::harness`: a `ReservationKernel<48, 12, 12, 3>` of one
//! to six nodes, any criterion, fixing and offer trials, requests, advances, finishes
//! and resets near the clock), checked after every step:
//!
//! - every request gets the answer of the plain reference of Algorithms 1 and 2
//!   (`replay::model::reservation::reference`): the same start and moves, or the
//!   same reason and offers;
//! - a rejection leaves the state exactly as the same time's `Advance` leaves it;
//! - admission never breaks an accepted reservation: every job accepted and not ended
//!   is still waiting or running, its start inside its window and not in the past while
//!   it waits, a fixed one never moved; no slot is overcommitted.
//!
//! The same `check_case` runs as an ordinary test over 3,000 seeded byte strings in
//! `replay/tests/reservation_props.rs`.

#![no_main]

use libfuzzer_sys::fuzz_target;
use replay::model::reservation::harness::{case_from_bytes, check_case};

fuzz_target!(|data: &[u8]| {
    let case = case_from_bytes(data);
    if let Err(failure) = check_case(&case) {
        panic!("{failure}\n{case:?}");
    }
});
