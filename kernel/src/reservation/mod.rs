//! Flexible advance reservations on a pool of identical nodes: the model of Netto,
//! Bubendorfer and Buyya (2007), sections 2 to 4, as a second pure state machine
//! beside the service-level kernel. Same rules of the house: `no_std`, no allocation,
//! no panics, no `unsafe`, no clock, no random numbers, no floats in decisions.
//!
//! # The model
//! - A pool of `m` identical nodes ([`Config::nodes`]). Time is in ticks and is cut
//!   into slots of [`Config::slot_ticks`]; the [`Calendar`](crate::calendar::Calendar) holds the free nodes of
//!   each of `H` slots ahead.
//! - A [`Request`] asks for `R` nodes for `Te` ticks (its estimate) inside a window
//!   `[Tr, D]`, of one of three kinds ([`RequestKind`]): strict (`D - Tr = Te`),
//!   relaxed start (only `D`; the window opens at the request's time) or flexible
//!   (`D - Tr > Te`). A reservation `[s, s + Te)` holds `R` nodes in every slot it
//!   overlaps: `floor(s / len) .. ceil((s + Te) / len)`.
//! - Accepted reservations wait in a re-plannable waiting queue until they start;
//!   started ones are fixed and never preempted.
//! - **Admission** is the paper's Algorithm 1 with `fixqueue` (see [`plan`]): the new
//!   reservation joins the queue, the queue is sorted by the [`Criterion`] (every key
//!   ends in the acceptance number), and from the new one's position onward every
//!   movable reservation is placed again, first fit, in `[max(now, Tr), D - Te]`. If
//!   the new one cannot be placed the previous plan is restored exactly and the request
//!   is rejected. An accepted reservation is only ever moved inside its window.
//! - **Offers** (Algorithm 2, see [`offers`]): a rejection for [`RejectReason::NoRoom`]
//!   is followed by up to `OFFERS` alternative windows that would be accepted now,
//!   generated around the reservations the window meets and ranked by the paper's `ϕ`.
//! - **Fixing** ([`Fixing`]): a waiting reservation is frozen in place at acceptance,
//!   or once 25, 50 or 75% of its waiting time has passed, or never before it starts.
//! - **Inaccurate estimates**: the host reports the actual end with
//!   [`Event::Finish`]; an early finish releases the rest of the reservation's slots at
//!   once. A job not finished by the end of its reservation is ended there by the
//!   kernel (`End { cut: true }`) and counted ([`Counters::cut`]).
//!
//! # Events and decisions
//! [`ReservationKernel::step`] takes an [`Event`] and hands every [`Decision`] to a
//! sink, in time order. An event at `t` first brings the kernel to `t`: at each instant
//! in between, cuts, then fixes, then starts. A request's decisions come next: `Accept`,
//! then a `Replan` per reservation that moved (in plan order), then whatever fixes or
//! starts at `t`; or `Reject`, then its `Offer`s, best first. A rejected request leaves
//! the kernel's state exactly as it was (`==`), once time has been brought to `t`.
//!
//! Every type that goes into or comes out of the kernel is a plain `Copy` value with
//! `serde` derives (and `defmt::Format` behind the feature), and every enum only ever
//! gets variants at its end, so that all of it can be logged.
//!
//! # Invariants
//! After every [`ReservationKernel::step`], debug builds assert
//! (`kernel/invariants.rs`): every waiting reservation has `1..=m` nodes, starts
//! inside its window and after now, is fixed only once its fix time has passed and has
//! no fix left overdue, and the queue is in acceptance order; every running one
//! contains now (or ends exactly now), and those that hold nodes now need no more than
//! the pool; the kept due instant is the scanned one; the calendar starts at now's
//! slot and no slot has more than the pool free; and at each reservation's first slot
//! the calendar's free nodes are the pool less what the reservations overlapping it
//! hold (at the present's slot, at most that: an early finish keeps its last slot).
//! With more than 64 reservations only the last waiting one's slot is counted.
//! Release builds do not compile the checks.
//!
//! # Limits
//! `H` calendar slots, `W` waiting reservations, `RUN` running ones and `OFFERS` offers
//! per rejection are const generics checked at compile time (`H > 0`, `0 < W <= 2^16`,
//! `RUN > 0`, `OFFERS <= 255`). A full waiting queue rejects with
//! [`RejectReason::QueueFull`], a window past the horizon with
//! [`RejectReason::BeyondHorizon`]. The configuration must have `2 m <= RUN` (see
//! [`ConfigError::RunningTooSmall`]), so that a reservation can always start.
//!
//! # Cost per operation
//! | operation | cost |
//! |---|---|
//! | calendar: earliest start of `n` slots in `[from, to]` | per obstacle met (a slot short of room in a candidate's run), a block's 64 slots and one word per block skipped (see [`crate::calendar`]) |
//! | calendar: reserve, release, fits (`n` slots) | `O(64 + n / 64)` |
//! | calendar: advance by `k` slots | `O(64 + k / 64)`, `O(min(k, H))` at worst |
//! | first-fit placement of one reservation | one `fits` and one earliest start |
//! | request, accepted or rejected without offers | when the shortcut of `plan/lazy.rs` applies (criteria other than least flexible first, no unsettled entry after the new one in plan order, nothing that would move to a later start): one reservation when the window's first start fits, else one placement (and one more per `fixqueue` of an entry that has no later start), a pass over the queue with two comparisons an entry, a sort of the `k` later entries that meet the new one's search and `2 k` releases and reservations; otherwise a sort, `O(W log W)`, then at most `3 W` placements and as many releases (see [`plan`]), each `O(64 + n / 64)` for `n` slots and an earliest start; `O(W + RUN)` for the checks |
//! | offers after a rejection | at most `offer_trials` admission attempts, plus `O(W + RUN)` per candidate |
//! | advance, finish | `O(1)` when nothing falls due (the kernel keeps the earliest instant at which a cut, fix or start can), else `O(W + RUN)` per instant; plus the calendar's advance and an `O(n)` release, and `O(W + RUN)` when a finish removes the job that held the earliest instant |
//!
//! Restoring the plan after a rejection is an undo, not a copy: the attempt's
//! placements are taken back and the previous ones re-made, `O(n)` slots each. The
//! attempt's working memory, `10 W + 24` bytes, is on the stack, one per request
//! that the shortcut cannot admit at its window's first start (that case needs none).
//!
//! # Memory
//! The state is `size_of::<ReservationKernel<H, W, RUN, OFFERS>>()` bytes and nothing
//! else: a slot costs 8 bytes (its free capacity and its share of the calendar's block
//! words, see [`crate::calendar`]), a waiting reservation 65 and a running one 24. Measured
//! on x86_64 and pinned by `tests/reservation_rules.rs`:
//!
//! | `H` | `W` | `RUN` | `OFFERS` | bytes |
//! |---|---|---|---|---|
//! | 64 | 16 | 16 | 4 | 2,072 |
//! | 2048 | 256 | 256 | 4 | 39,304 |
//! | 16384 | 256 | 256 | 8 | 153,992 |
//!
//! The second is the documented configuration: 16 KiB of calendar (2,048 slots, 20,480
//! ticks ahead with 10-tick slots), 16 KiB of waiting queue, 6 KiB of running set, one
//! byte a waiting entry for its *unsettled* mark (see `plan/lazy.rs`) and
//! 136 bytes of configuration, clock, counters, the earliest due instant, lengths, the first block's words and the calendar's first top-level words. `OFFERS`
//! costs nothing: offers are emitted as they are found. `thumbv7em-none-eabihf` gives
//! the same figure: its `u64` alignment pads the 32-bit length fields to the same
//! layout. The third is the firmware's (`embedded/`), 150 KiB of its 4 MiB of RAM.

pub mod criteria;
pub mod event;
mod kernel;
pub mod offers;
pub mod plan;
pub mod request;

pub use criteria::{Criterion, Fixing, SortKey};
pub use event::{Decision, Event, Outcome};
pub use kernel::{Config, ConfigError, Counters, ReservationKernel};
pub use plan::Plan;
pub use request::{RejectReason, Request, RequestKind, Reservation, Running};
