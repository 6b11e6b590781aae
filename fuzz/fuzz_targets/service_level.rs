//! Arbitrary scenarios into small kernels (`ServiceLevelKernel<3, 4, 3>`, `ServiceLevelKernel<1, 8, 1>`) under
//! a machine-choice policy the input draws (first fit, best fit, worst fit, least
//! loaded, round robin), each event compared with the reference model and every
//! decision with the trace checks, the admission test with brute-force EDF
//! feasibility, and, per experiment (between resets), greedy acceptance's income with
//! the exact offline optimum (`optimal_income`): Theorem 2 (one level, one machine),
//! Theorem 5 (one level, several machines), Corollaries 7 and 11 (two levels
//! `f_I < f_II`, `u_I > u_II`, one machine or several) of Lezama (2012), and, under its
//! own name, our generalisation `(u_min/u_max)(1 - 1/f_min)` to any other level table.
//! `replay::model::service_level::check_case` holds all of it, the same checks as
//! `replay/tests/service_level_props.rs`, on inputs that libFuzzer steers; a failure prints the
//! statement, the experiment's jobs, `V`, `V*`, the bound and the whole case.
//!
//! Built with `--features planted-bound`, the target holds greedy acceptance to a
//! wrong bound and must fail: `cargo xtask fuzz` runs that negative control.

#![no_main]

use libfuzzer_sys::fuzz_target;
use replay::model::service_level::{case_from_bytes, check_case};

fuzz_target!(|data: &[u8]| {
    let case = case_from_bytes(data);
    if let Err(failure) = check_case(&case) {
        panic!("{failure}\n{case:#?}");
    }
});
