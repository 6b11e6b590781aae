//! Arbitrary bytes decoded into requests (`replay::model::accept_all::harness`), the
//! kernel's decisions checked against the plain reference and the audit.

#![no_main]

use libfuzzer_sys::fuzz_target;
use replay::model::accept_all::harness::{case_from_bytes, check_case};

fuzz_target!(|data: &[u8]| {
    let case = case_from_bytes(data);
    if let Err(failure) = check_case(&case) {
        panic!("{failure}\n{case:?}");
    }
});
