//! Online admission control for deadline agreements: four pure state machines, one
//! per model of the papers in `../shared/papers/`, over a few shared pieces.
//!
//! Every state machine here is `no_std`, never allocates, never panics, has no
//! `unsafe`, reads no clock and draws no random numbers: time comes in with each
//! event, and the same events with the same configuration give the same decisions,
//! in the same order, on every machine. Capacities are const generics; when one is
//! full, the request is rejected with a reason.
//!
//! # Rules of the house
//! What every module keeps, and what keeps it so:
//! - No panic path: clippy denies `unwrap`, `expect`, `panic!`, `unreachable!`,
//!   indexing and unchecked arithmetic outside tests (the attribute below); every
//!   arithmetic on time is checked or saturating; `panic_free` restates the asserting
//!   `heapless` and slice operations; `cargo xtask panic-check` proves at link time
//!   that no panic is reachable from any model's `step`, the record encoding or the
//!   stream's writer and decoder.
//! - No allocation, no `std`: `#![no_std]`, and `cargo xtask verify` builds the crate
//!   for `thumbv7em-none-eabihf`. The dependencies are `heapless`, `serde`, `postcard`
//!   and, behind the `defmt` feature, `defmt`; nothing else.
//! - Limits are types: every capacity is a const generic, checked at compile time
//!   (`const { assert!(..) }`); the state is `size_of` the kernel and nothing else,
//!   given for documented configurations in each model's module documentation and
//!   pinned by the tests in `kernel/tests/`.
//! - Ties are ordered on purpose: no hash maps, no floats in decisions (ratios are
//!   compared by cross-multiplying in integers), every order explicit (admission
//!   order, resource index, submit index); identifiers in the log are fixed-width
//!   integers (`JobId` is `u32`), never `usize`.
//! - Every type that goes into or comes out of a kernel is a plain `Copy` value with
//!   `serde` derives (and `defmt::Format` behind the feature), and every enum of the
//!   log only ever gets variants at its end.
//!
//! The knowledge of files, traces, windows, metrics and the log file's format is the
//! host's: `host-sim` feeds the kernels, `replay` writes and re-verifies their logs
//! (and holds the plain references the property tests compare with, through this
//! crate's dev-dependency on it).
//!
//! # The models
//! | module | the paper | its state machine |
//! |---|---|---|
//! | [`service_level`] | Lezama (2012), after Schwiegelshohn and Tchernykh: service levels, greedy acceptance on preemptive earliest-due-date queues, the Gupta–Palis test, five machine-choice policies | [`service_level::ServiceLevelKernel`] |
//! | [`reservation`] | Netto, Bubendorfer and Buyya (2007): flexible advance reservations, re-planning of the waiting queue, alternative offers | [`reservation::ReservationKernel`] |
//! | [`tiers`] | Tomás et al.: Gold, Silver and Bronze over reliable and volunteer resources, rescheduling and faults | [`tiers::TiersKernel`] |
//! | [`sla`] | Yarmolenko and Sakellariou: SLA priority heuristics fitted in one pass on a parallel machine | [`sla::SlaKernel`] |
//!
//! Each model's module documentation states its rules exactly, its costs and its
//! memory; each has its own `Event`, `Decision`, `Outcome` and `RejectReason`.
//!
//! # What the models share
//! - [`contract`]: [`contract::Kernel`], the trait every model's state machine
//!   implements: its `Config`, `Event`, `Decision` and `Outcome`, its capacities, and
//!   `step` (the model's `dispatch`, then its invariants in debug builds), so that
//!   hosts, checkers and the firmware drive any model through one generic path.
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
//! replay the device's log (`docs/stream-format.md`). `embedded/` runs the four kernels
//! on a Cortex-M4F under QEMU, through one function over [`contract::Kernel`], and
//! `cargo xtask embedded` checks that their bytes equal the host's.
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
pub mod contract;
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
