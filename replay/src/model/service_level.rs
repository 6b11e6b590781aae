//! The service-level model's independent reference and checks: the oracle of the
//! property tests (`replay/tests/service_level_props.rs`), of the `service_level` fuzz
//! target and, through [`ServiceLevelAudit`], of `replay verify`.
//!
//! - [`reference`]: [`ServiceLevelReference`], the rules restated over `Vec` queues; it produces the
//!   full decision stream the kernel must produce for the same events, under any
//!   [`kernel::service_level::Policy`] (slack left and remaining work recomputed from
//!   the queues).
//! - [`feasibility`]: [`edf_feasible`] (can a set of jobs, all available now, meet its
//!   deadlines on one machine?) and [`optimal_accepted_work`] (the best any scheduler,
//!   knowing the future, could accept on one machine; brute force on at most ten jobs).
//! - [`optimum`]: [`optimal_income`], the same on one machine or several, each job at
//!   its own income, without migration: the exact `V*` of small instances.
//! - [`audit`]: [`ServiceLevelAudit`], which reads events and the kernel's decisions and
//!   checks them without any model of admission: deadlines met, every `Start` closed,
//!   work adding up to `p`, one job at a time per machine, no machine idle with work.
//! - [`certify`]: [`audit_schedule`], an offline schedule (an optimum's) replayed by
//!   EDF per machine through the audit, and the income it earns.
//! - [`cases`]: [`case_from_bytes`], one decoder from arbitrary bytes to a small
//!   scenario, fed by libFuzzer in `fuzz/` and by a seeded generator in the tests.
//! - [`theorems`]: the competitive bounds of greedy acceptance (Theorems 2 and 5,
//!   Corollaries 7 and 11, and our generalisation to any level table), each held to
//!   [`optimal_income`] per experiment.
//! - [`harness`]: [`check_case`], which runs a scenario through a small kernel and
//!   applies every check above.

pub mod audit;
pub mod cases;
pub mod certify;
pub mod feasibility;
pub mod harness;
pub mod optimum;
pub mod reference;
pub mod theorems;

pub use audit::{ServiceLevelAudit, ServiceLevelViolation, Violation, check_trace};
pub use cases::{Case, Shape, case_from_bytes};
pub use certify::audit_schedule;
pub use feasibility::{MAX_OPTIMAL_JOBS, edf_feasible, optimal_accepted_work};
pub use harness::{CaseReport, Failure, check_case, check_case_with};
pub use optimum::{MAX_BRUTE_FORCE_JOBS, OfflineJob, optimal_income};
pub use reference::{ModelJob, ModelStep, ServiceLevelReference};
pub use theorems::{Bound, BoundRule, BoundViolation, ExperimentJob, Theorem};
