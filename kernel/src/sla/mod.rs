//! SLA priority heuristics on a parallel machine: the model of Yarmolenko and
//! Sakellariou (SLA scheduling heuristics and pricing), sections 3 to 5, as a fourth
//! pure state machine. Same rules of the house: `no_std`, no allocation, no panics, no
//! `unsafe`, no clock, no random numbers (a random order is a seeded integer hash),
//! no floats in decisions.
//!
//! # The model, exactly
//! - **The machine**: `m` identical nodes ([`Config::nodes`]). Time is in ticks, cut
//!   into slots of [`Config::slot_ticks`]; the reservation model's
//!   [`Calendar`](crate::calendar::Calendar) holds the free nodes of each of `H`
//!   slots ahead.
//! - **A request** ([`Request`], an SLA) asks for `NCPU` nodes for `tD` ticks inside
//!   `[TS, TF]`. It is valid when `tD > 0`, `0 < NCPU <= m` and `TS + tD <= TF`;
//!   otherwise it is rejected at its submit with [`RejectReason::Invalid`]. The derived
//!   terms are `A = NCPU * tD`, `tT = tD / (TF - TS)` and `tL = TF - (TS + tD)`.
//! - **Priority** ([`Heuristic`], the paper's eqs. 6 and 7 and its three-term form):
//!   `dir(h1 + w1*h2 + w2*h3)` with each `h` one of the seven [`Term`]s and each `w` a
//!   [`Weight`]: thousandths, `+inf` or `-inf`. Every term is an integer in a fixed
//!   point: `TS`, `TF`, `tD`, `tL` in micro-hours (`ticks * 10^6 / ticks_per_hour`,
//!   floor), `NCPU` in millionths of a node, `A` in micro CPU-hours
//!   (`NCPU * tD * 10^6 / ticks_per_hour`, floor), `tT` in millionths
//!   (`tD * 10^6 / (TF - TS)`, floor). The priority is the pair `(I, F)`, compared
//!   lexicographically ([`Priority`]): `I` is the sum over the infinitely weighted terms
//!   of `+h` (`+inf`) or `-h` (`-inf`), `F = 1000 * h1 +` the sum over the finite terms
//!   of `w_milli * h`, in `i128`, saturating (reached only past `2^84` ticks or with
//!   weights near `2^31`). So `min(h1 + inf*h2)` orders by `h2` alone, ties by `h1`,
//!   and `min(tD - inf*NCPU)` puts the widest first, the shortest among equals.
//! - **Order** ([`Order`]): a heuristic sorts the batch by `(I, F)` ascending for
//!   `min` and descending for `max`, then by submit index ascending in both (ties keep
//!   request order); `Random { seed }` sorts by [`random_key`]`(seed, index)`, then the
//!   index. The submit index counts the requests queued since the last reset, from 0,
//!   so the sort key is unique and the sort need not be stable.
//! - **Fitting** (the paper's single pass, §4), at a plan at time `t`: the sorted
//!   requests are taken in turn. For each, the tried starts are `s = TS + k*Δt`, `k >=
//!   0`, with `s >= t` and `s + tD <= TF`, in increasing order (`Δt` is
//!   [`Config::step_ticks`], a positive multiple of the slot, one slot by default). A
//!   start occupies every slot its run `[s, s + tD)` overlaps, `floor(s / len) ..
//!   ceil((s + tD) / len)`, even partly (as the reservation model rounds), so the
//!   placement is exact when `TS` and `tD` are whole slots and conservative otherwise.
//!   The first tried start at which each of those slots has `NCPU` nodes free is
//!   reserved ([`Decision::Accept`]); an accepted request is never moved.
//! - **Rejections at a plan**: [`RejectReason::Late`] when there is no tried start at
//!   all (the window closed before the plan); [`RejectReason::Horizon`] when no tried
//!   start whose run lies inside the calendar's horizon fits and some tried start's run
//!   ends past it (those are not tried: the answer is unknown, not "no room");
//!   [`RejectReason::NoRoom`] when every tried start lies inside the horizon and none
//!   fits. Since the tried starts inside the horizon come first, an accepted start is
//!   the one an unbounded calendar would give.
//! - **Batches**: the paper's whole-set mode is every `Submit` of a job set, then one
//!   `Plan`; the online mode is a `Plan` at the end of each planning interval, or right
//!   after each `Submit` (one request at a time). A batch is fitted on top of what
//!   earlier plans accepted.
//! - **Time**: every event at `t` first brings the kernel to `t`; the calendar's
//!   horizon then starts at `t`'s slot (the slots before it are in the past, and no
//!   tried start lies there). A `Submit` or `Plan` earlier than now is refused (a
//!   `Submit` with [`RejectReason::TimeWentBackwards`]). A `Reset { t }` is a new, empty
//!   machine at `t`, which may be earlier than now (between job sets).
//!
//! The client constraints on pricing (the paper's eqs. 1 and 2, Rigid and ASAP) and
//! the provider's pricing policies (eqs. 3 to 5) only price what was accepted; they
//! decide nothing, so they are the host's (`host-sim/src/sla/`). The equations of the
//! two client constraints did not survive the paper's text extraction; the readings
//! used there are ours: Rigid is 1 for any start in `[TS, TF - tD]`, ASAP is `1 - (Tex -
//! TS) / (TF - tD - TS)`, 1 at the earliest start falling linearly to 0 at the latest
//! (1 when the window has no slack).
//!
//! # Events and decisions
//! [`SlaKernel::step`] takes an [`Event`] and hands every [`Decision`] to a sink:
//! - `Submit { t, request }`: the request joins the pending batch and nothing is
//!   decided, unless it is invalid, earlier than now, or the batch already holds `B`
//!   requests ([`RejectReason::BatchFull`]): then one `Reject`, at once.
//! - `Plan { t }`: one `Accept` or `Reject` per pending request, in the sorted order;
//!   the batch is then empty.
//! - `Reset { t }`: one `Reject { Dropped }` per pending request, in submit order, then
//!   the calendar is cleared and the submit index restarts at 0.
//!
//! Two answers go beyond the paper's single pass, because a kernel fed by a host must
//! answer every request: [`RejectReason::TimeWentBackwards`] (a submit earlier than
//! now) and [`RejectReason::Dropped`] (still pending at a reset); and a reset, unlike
//! every other event, may take time back (each job set of the paper starts at 0).
//!
//! A request's job number is the caller's: the kernel never compares them. Decisions
//! name the job, so a log reader pairs them with requests by job number; hosts give
//! distinct numbers within a batch (the audit in `replay` refuses duplicates).
//!
//! # Invariants
//! After every [`SlaKernel::step`], debug builds assert (`kernel/invariants.rs`):
//! every queued request is valid, the batch is in submit order with indices below
//! the next, the calendar's horizon starts at now's slot and no slot has more than
//! the machine's nodes free. Release builds do not compile the checks.
//!
//! # Limits
//! `H` calendar slots and `B` pending requests are const generics checked at compile
//! time (`H > 0`, `0 < B < 2^32`). A full batch rejects with
//! [`RejectReason::BatchFull`], a window past the horizon with
//! [`RejectReason::Horizon`].
//!
//! # Cost per operation
//! | operation | cost |
//! |---|---|
//! | submit | `O(1)`: the request's sort key is computed once, here |
//! | plan of `n` requests | `O(n log n)` key comparisons (a heapsort of the batch), then per request one [`Calendar::earliest_stepped`](crate::calendar::Calendar::earliest_stepped) search (per obstacle met, a slot short of room in a tried run, a 64-slot block and a word per block skipped), and an `O(64 + run / 64)` reservation |
//! | reset | `O(H + n)` |
//!
//! # Memory
//! The state is `size_of::<SlaKernel<H, B>>()` bytes and nothing else: a slot costs 8
//! bytes (its free capacity and its share of the calendar's block words) and a pending request 80 (the request 32, its sort key 32, its index 8, and
//! padding to `i128`'s 16-byte alignment on x86_64). Measured on x86_64 and pinned by
//! `tests/sla_rules.rs`:
//!
//! | `H` | `B` | bytes |
//! |---|---|---|
//! | 4096 | 1024 | 114,848 |
//! | 65536 | 4096 | 852,128 |
//!
//! The first is the documented configuration: one-hour slots for 170 days ahead, or
//! one-minute slots for 68 hours, and a batch of 1,024 requests (a 384-job set of the
//! paper fits twice over): 32 KiB of calendar, 80 KiB of batch and 144 bytes of
//! configuration, clock, lengths and padding. On `thumbv7em-none-eabihf`, where `i128` is
//! aligned to 8 bytes, a pending request costs 72 and the first configuration 106,648
//! bytes (the compiler's `size_of` for that target, read from a build). The second is the host's smallest compiled size
//! (`replay::engine::sla`): one-minute slots for 45 days ahead and batches of 4,096;
//! it also compiles batches of 16,384 and 65,536 for inputs whose batches are larger.

mod event;
mod kernel;
mod types;

pub use event::{Decision, Event, Outcome};
pub use kernel::{Pending, SlaKernel};
pub use types::{
    Config, ConfigError, Direction, Heuristic, Order, Priority, RejectReason, Request, Term, Weight,
    random_key,
};
