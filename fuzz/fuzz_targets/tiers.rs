//! Arbitrary bytes decoded into a small tiers case (`replay::model::tiers::harness`: a
//! `TiersKernel<4, 32, 8>`, resources and policy from the input, submits, advances,
//! finishes, leaves, returns and resets), checked after every event:
//!
//! - the audit's invariants (`replay::model::tiers::TiersAudit`): no resource over its
//!   nodes, every placement, move and re-placement inside its window and on a resource
//!   its tier allows, Gold never moved, every loss on a leaving resource, every
//!   violation recomputed (Gold violations are allowed here);
//! - under `no-qos` and `qos`, every decision equals the plain reference's
//!   (`replay::model::tiers::TiersReference`);
//! - a rejected submit leaves the state exactly as an `Advance` to its time does.
//!
//! The same `check_case` runs as an ordinary test over 3,000 seeded byte strings in
//! `replay/tests/tiers_props.rs`.

#![no_main]

use libfuzzer_sys::fuzz_target;
use replay::model::tiers::harness::{case_from_bytes, check_case};

fuzz_target!(|data: &[u8]| {
    let case = case_from_bytes(data);
    if let Err(failure) = check_case(&case) {
        panic!("{failure}\n{case:?}");
    }
});
