//! The reservation model's independent checks.
//!
//! - [`audit`]: [`ReservationAudit`], which reads reservation events and decisions and
//!   checks, without the kernel, that every executed reservation lay inside its window
//!   and that no instant had more nodes in use than the pool holds.
//! - [`reference`](mod@reference): the plain reference of the paper's Algorithms 1 and 2 (admission
//!   with `fixqueue`, and offers) that the kernel's property tests compare with. It is
//!   the kernel tests' own file (`kernel/tests/reservation_model/mod.rs`), included
//!   here by path rather than copied, so that there is one reference: the kernel
//!   cannot depend on `replay`, not even in its tests (`replay` depends on the kernel).

pub mod audit;
// The kernel tests' file derives no `Debug`; it has no need of one there.
#[allow(missing_debug_implementations)]
#[path = "../../../kernel/tests/reservation_model/mod.rs"]
pub mod reference;

pub use audit::{ReservationAudit, ReservationViolation};
