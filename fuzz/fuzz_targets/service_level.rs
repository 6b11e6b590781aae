//! Arbitrary scenarios into small kernels (`Kernel<3, 4, 3>`, `Kernel<1, 8, 1>`) under
//! a machine-choice policy the input draws (first fit, best fit, worst fit, least
//! loaded, round robin), each event compared with the reference model and every decision with the trace checks,
//! the admission test with brute-force EDF feasibility, and greedy acceptance with
//! the offline optimum: `replay::model::service_level::check_case`, the same checks as
//! `replay/tests/properties.rs`, on inputs that libFuzzer steers.

#![no_main]

use libfuzzer_sys::fuzz_target;
use replay::model::service_level::{case_from_bytes, check_case};

fuzz_target!(|data: &[u8]| {
    let case = case_from_bytes(data);
    if let Err(failure) = check_case(&case) {
        panic!("{failure}\n{case:#?}");
    }
});
