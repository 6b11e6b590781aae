//! The reservation model's independent checks.
//!
//! - [`audit`]: [`ReservationAudit`], which reads reservation events and decisions and
//!   checks, without the kernel, that every executed reservation lay inside its window
//!   and that no instant had more nodes in use than the pool holds.
//! - [`reference`](mod@reference): the plain reference of the paper's Algorithms 1 and
//!   2 (admission with `fixqueue`, and offers) that the kernel's property tests and the
//!   `reservation` fuzz target compare the kernel with.
//! - [`harness`]: the cases of the `reservation` fuzz target and of
//!   `replay/tests/reservation_props.rs`, decoded from bytes, and their one check.

pub mod audit;
pub mod harness;
pub mod reference;

pub use audit::{ReservationAudit, ReservationViolation};
