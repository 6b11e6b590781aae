//! An independent reference for the admission rules, and the checks that hold the
//! kernel to it: the oracle of the property tests (`replay/tests/properties.rs`) and of
//! the fuzz targets (`fuzz/`).
//!
//! Nothing here calls into the kernel's queues, machines or deadline arithmetic; only
//! the vocabulary types ([`kernel::service_level::Event`], [`kernel::service_level::Decision`], ...) are shared, so
//! that a mistake in the kernel cannot be copied into its own judge. Everything is
//! plain `std`, `Vec`-based and brute force where brute force is obviously correct:
//!
//! - [`sim`]: [`ReferenceSim`], the rules restated over `Vec` queues; it produces the
//!   full decision stream the kernel must produce for the same events, under any
//!   [`kernel::service_level::Policy`] (slack left and remaining work recomputed from the queues).
//! - [`feasibility`]: [`edf_feasible`] (can a set of jobs, all available now, meet its
//!   deadlines on one machine?) and [`optimal_accepted_work`] (the best any scheduler,
//!   knowing the future, could accept on one machine; brute force on at most ten jobs).
//! - [`trace`]: [`TraceChecker`], which reads events and the kernel's decisions and
//!   checks them without any model of admission: deadlines met, every `Start` closed,
//!   work adding up to `p`, one job at a time per machine, no machine idle with work.
//! - [`cases`]: [`case_from_bytes`], one decoder from arbitrary bytes to a small
//!   scenario, fed by libFuzzer in `fuzz/` and by a seeded generator in the tests.
//! - [`harness`]: [`check_case`], which runs a scenario through a small kernel and
//!   applies every check above.
//! - [`reservation`]: the reservation model's audit ([`ReservationAudit`]: windows
//!   and pool capacity, from the records alone) and the plain reference of its
//!   admissions and offers.
//! - [`tiers`]: the tiers model's plain reference of placements, starts, ends and
//!   losses under `no-qos` and `qos`.
//! - [`sla`]: the SLA model's audit ([`sla::SlaAudit`]: capacity, windows, first fit,
//!   order and reasons from the records alone, and each job set's accepted starts) and
//!   its plain sort-then-first-fit reference ([`sla::SlaReference`]).

pub mod cases;
pub mod feasibility;
pub mod harness;
pub mod reservation;
pub mod sim;
pub mod sla;
pub mod tiers;
pub mod trace;

pub use cases::{Case, Shape, case_from_bytes};
pub use feasibility::{MAX_OPTIMAL_JOBS, edf_feasible, optimal_accepted_work};
pub use harness::{CaseReport, Failure, check_case};
pub use reservation::{ReservationAudit, ReservationViolation};
pub use sim::{ModelJob, ModelStep, ReferenceSim};
pub use trace::{TraceChecker, TraceError, Violation, check_trace};
