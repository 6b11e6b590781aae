//! Online admission control for deadline agreements: four pure state machines, one
//! per model of the papers in `../shared/papers/`, over a few shared pieces.
//!
//! Every state machine here is `no_std`, never allocates, never panics, has no
//! `unsafe`, reads no clock and draws no random numbers: time comes in with each
//! event, and the same events with the same configuration give the same decisions,
//! in the same order, on every machine. Capacities are const generics; when one is
//! full, the request is rejected with a reason.
//!
//! # The models
//! | module | the paper | its state machine |
//! |---|---|---|
//! | [`service_level`] | Lezama (2012), after Schwiegelshohn and Tchernykh: service levels, greedy acceptance on preemptive earliest-due-date queues, the Gupta–Palis test, five machine-choice policies | [`service_level::Kernel`] |
//! | [`reservation`] | Netto, Bubendorfer and Buyya (2007): flexible advance reservations, re-planning of the waiting queue, alternative offers | [`reservation::ReservationKernel`] |
//! | [`tiers`] | Tomás et al.: Gold, Silver and Bronze over reliable and volunteer resources, rescheduling and faults | [`tiers::TiersKernel`] |
//! | [`sla`] | Yarmolenko and Sakellariou: SLA priority heuristics fitted in one pass on a parallel machine | [`sla::SlaKernel`] |
//!
//! Each model's module documentation states its rules exactly, its costs and its
//! memory; each has its own `Event`, `Decision`, `Outcome` and `RejectReason`.
//!
//! # What the models share
//! - [`types`]: [`Tick`] (time) and [`JobId`].
//! - [`calendar`]: the slot calendar of free nodes that the reservation, tiers and
//!   SLA kernels keep their node time in.
//! - [`log`]: [`log::Record`] and [`log::Body`] (every model's events and decisions,
//!   in one enum) and their self-contained encoding into a caller's buffer, which a
//!   controller uses to send records one at a time.
//! - [`stream`]: a device's record stream: a setup naming the kernel, its
//!   configuration and capacities, then each record in a checksummed COBS frame, so
//!   that a serial line's lost byte costs one frame; `replay import` reads it.
//! - `panic_free`: the asserting `heapless::Vec` and slice operations restated
//!   without a panic path.
//!
//! # Embedding
//! On a controller a kernel is one value (a local of `main`, or a `static` through
//! your runtime's once-cell), events come from your input, and each decision can be
//! written with [`log::encode`] into a buffer you own, for a UART, a flash log or a
//! radio, or framed with [`stream::StreamWriter`] so that the host can verify and
//! replay the device's log (`docs/stream-format.md`). `embedded/` runs the service-level and reservation kernels on a Cortex-M4F
//! under QEMU, and `cargo xtask embedded` checks that their bytes equal the host's.
//! No panic path is linked: `cargo xtask panic-check` links every model with a panic
//! handler that cannot link. [`service_level`]'s documentation has a worked example.

#![no_std]
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing,
        clippy::arithmetic_side_effects,
        clippy::unreachable,
        clippy::todo,
        clippy::unimplemented
    )
)]

pub mod calendar;
pub mod log;
mod panic_free;
pub mod reservation;
pub mod service_level;
pub mod sla;
pub mod stream;
pub mod tiers;
pub mod types;

pub use types::{JobId, Tick};

/// The kernel's version, as written into log headers.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
