//! Arbitrary bytes decoded into a small SLA case (`replay::model::sla::harness`: a
//! machine of one to six nodes, short slots and steps, a `SlaKernel<24, 6>`, submits,
//! plans and resets, time going back now and then), checked after every event:
//!
//! - the kernel's decisions equal the plain reference's
//!   (`replay::model::sla::SlaReference`: a stable sort by the key, then first fit by
//!   brute force over a plain record of nodes in use);
//! - the audit's invariants hold (`replay::model::sla::SlaAudit`): no slot over the
//!   machine's nodes, every accepted job inside its window at its first free start `TS +
//!   k*Δt` no earlier than its plan, every pending request answered once in the order's
//!   key order, every reason (no room, horizon, late, invalid, batch full, time went
//!   backwards, dropped) recomputed.
//!
//! The same `check_case` runs as an ordinary test over 3,000 seeded byte strings in
//! `replay/tests/sla_props.rs`.

#![no_main]

use libfuzzer_sys::fuzz_target;
use replay::model::sla::harness::{case_from_bytes, check_case};

fuzz_target!(|data: &[u8]| {
    let case = case_from_bytes(data);
    if let Err(failure) = check_case(&case) {
        panic!("{failure}\n{case:?}");
    }
});
