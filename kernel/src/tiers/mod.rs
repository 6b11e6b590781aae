//! Gold, Silver and Bronze SLAs over reliable and volunteer resources, with
//! rescheduling and faults: the model of Tomás, Caminero, Rana, Carrión and Caminero
//! (multi-QoS grid rescheduling), sections 3 to 6, as a third pure state machine. Same
//! rules of the house: `no_std`, no allocation, no panics, no `unsafe`, no clock, no
//! random numbers, no floats in decisions.
//!
//! # The model, exactly
//! - **Resources** ([`Resource`]) form two groups ([`Group`]): high-confidence ones,
//!   which can be physically reserved and never leave (the paper's cluster under
//!   Torque), and low-confidence ones (volunteer desktops), which may leave and return.
//!   Each has a node count, a relative speed in thousandths, and its own slot
//!   [`Calendar`](crate::calendar::Calendar) (the reservation model's), with
//!   slots of [`Config::slot_ticks`]. A job uses one node.
//! - **An SLA** ([`Request`]) has a [`Tier`] and a window. Gold and Silver give a start
//!   `tS` (`ready`) and a deadline `tD`; Bronze has none: its window is `[t, t +
//!   bronze_deadline]` (a day by default), which only guards against starvation. A job
//!   has a `work` (its run time at speed 1000); its estimate on a resource is
//!   `ceil(work * 1000 / speed_milli)`, and it holds `ceil(estimate / slot)` slots.
//! - **Placement**: a job goes to the earliest slot-aligned start `s` with
//!   `max(now, ready) <= s` and `s + estimate <= deadline` at which its slots are free
//!   on one node, over the available resources of a scope; ties go to the lowest
//!   resource index. Scopes are tried in order and the first with a placement wins.
//! - **Admission by tier** (Figure 3): under `qos` and `qos-res` Gold goes only to
//!   high-confidence resources (a physical reservation), Silver to high-confidence
//!   first, then low-confidence ones, Bronze only to low-confidence ones. Under
//!   `no-qos` every job may go anywhere (one scope of all resources).
//! - **Policies** ([`Policy`], §6.2): `no-qos` (no tiers, no reservations, no
//!   rescheduling), `qos` (tiers and reservations), `qos-res` (tiers, reservations and
//!   rescheduling).
//! - **Rescheduling** (Algorithm 1, eq. 1; `qos-res` only), when a new job cannot be
//!   placed. Candidates are the accepted jobs that have not started, are not Gold, are
//!   of the same or a lower tier than the new job (Bronze may be delayed for Silver,
//!   never the reverse), sit on a resource the new job's tier allows, whose planned run
//!   `[start, start + estimate]` lies inside `[max(now, ready), deadline]` of the new
//!   job, and whose laxity `(window - estimate) * 1000 / estimate` (integer
//!   thousandths, `window = deadline - ready`) is strictly above
//!   [`Config::laxity_threshold_milli`]. They are tried from the largest laxity down,
//!   ties by acceptance order. A candidate moves if the new job, started at the
//!   candidate's start on its resource, needs no more slots than the candidate held and
//!   ends by its deadline, and if, with those slots given to the new job, the candidate
//!   has a placement inside its own window under its move rules: Silver on a
//!   high-confidence resource to high-confidence then low-confidence ones, Silver on a
//!   low-confidence resource and Bronze only among low-confidence ones, Gold never.
//!   The first candidate that moves ends the search (one move per admission);
//!   otherwise the calendars are exactly as before and the SLA is rejected.
//! - **Execution**: a waiting job starts at its planned start if its resource has a
//!   free node; otherwise it waits and starts at the first event that frees one (a
//!   finish or a return), in (planned start, acceptance) order. The host reports each
//!   actual end with [`Event::Finish`]; the slots after it are released. A job running
//!   past its estimate holds its node but not more slots, so the next job may wait.
//! - **Faults**: a low-confidence resource may leave ([`Event::Leave`]) and return
//!   ([`Event::Return`]); high-confidence ones never leave (a leave is refused). Every
//!   job on a leaving resource, running or waiting, is `Lost` and its slots released;
//!   it is re-placed from now inside its window under its move rules (the reactive
//!   rescheduling on unexpected events) under `qos-res`, and Bronze jobs under every
//!   policy (best effort goes back to the queue). Otherwise, or without room, it is
//!   dropped with `Violate { why: Lost }`.
//! - **Violation**: a Gold or Silver job not finished by its deadline gets
//!   `Violate { why: Late }` at its deadline, once time passes it; it keeps running to
//!   its reported end. Bronze is never late; it is rejected only for a full table
//!   ([`RejectReason::TableFull`]) or no room inside its internal deadline.
//!
//! # Events and decisions
//! [`TiersKernel::step`] takes an [`Event`] and hands every [`Decision`] to a sink. An
//! event at `t` first brings the kernel to `t`: due starts (in planned-start order),
//! then `Violate { Late }` for every deadline before `t` (deadline order). A submit
//! then gives `Move` (if rescheduling moved a job) and `Accept`, or `Reject`; a finish
//! gives `End`; a leave gives, per job on the resource in acceptance order, `Lost` and
//! `Replace` or `Violate { Lost }`. Each event ends with the starts it made possible.
//! A rejected submit leaves the state exactly as an `Advance` to its time would
//! (rescheduling undoes its trial placements; a trial gives back only the tail of the
//! candidate's run that the new job does not take, since the new job takes the
//! candidate's first slots). Calendars follow time lazily: each is brought to the
//! present only when a placement or a hold needs a slot past its horizon (every use
//! reads and writes only slots from the present's on, which a lagging calendar holds
//! as a moved one would), which leaves the same free capacities as moving every
//! calendar at every event. Starts happen when an event brings
//! time to them, so the host wakes the kernel with an `Advance` at
//! [`TiersKernel::poll_at`], the next planned start.
//!
//! # Invariants
//! After every [`TiersKernel::step`], debug builds assert (`invariants.rs`): the job
//! table's side arrays are the function of its jobs, and its floor of deadlines is
//! at most their least; jobs are in acceptance order and each is on a present
//! resource; a waiting job's planned run lies inside its window and a running one
//! started by now; each resource's running count is the jobs running there and at
//! most its nodes; no calendar slot has more than its nodes free; and at each job's
//! first slot from the present's on, its calendar's free nodes are its nodes less the
//! jobs holding that slot (at the present's slot, at most that). With more than 64
//! jobs only the last one's slot is counted. Release builds do not compile the checks.
//!
//! # Limits
//! `R` resources (at most 255), `H` calendar slots per resource and `J` accepted
//! unfinished jobs are const generics checked at compile time. A full table rejects
//! with [`RejectReason::TableFull`]; placements past the horizon are not considered.
//!
//! # Cost per operation
//! | operation | cost |
//! |---|---|
//! | placement of one job | one calendar search per resource (see [`crate::calendar`]: a search for one free is a few word operations per obstacle met), from past the stretch an earlier search of it showed to have no room for the job (`known.rs`) |
//! | submit, placed directly | a placement (a calendar moves only when the placement needs a slot past its horizon), plus `O(J)` word reads |
//! | submit with rescheduling | `O(J log J)` to rank candidates (leaving out those that could not move and have had no room freed in their window since, `frees.rs`: `O(16)` each), then per candidate a placement and its holds and releases |
//! | finish, advance | `O(J)` word reads per start or violation made (the side arrays of `table.rs`; none while a look that found nothing to start holds), `O(R)` to find the next start from each resource's earliest planned start (`waits.rs`) |
//! | leave | `O(J)` placements worst case (a re-placement per lost job) |
//!
//! # Memory
//! The state is `size_of::<TiersKernel<R, H, J>>()` bytes and nothing else: a calendar
//! slot costs 8 bytes (its free capacity and its share of the calendar's block words;
//! a calendar 16,432 with the first block's words and top-level words, its base and capacity), a job 125 (its record 88, and 37 in the side arrays of `table.rs`), a
//! resource 12 plus 45 for its availability, running count, what its calendar's
//! searches have shown (`known.rs`) and its earliest planned start (`waits.rs`).
//! Measured on x86_64 and
//! pinned by `tests/tiers_rules.rs`:
//!
//! | `R` | `H` | `J` | bytes |
//! |---|---|---|---|
//! | 10 | 2048 | 256 | 197,336 |
//!
//! That is the documented configuration: the paper's testbed (ten resources), one-minute
//! slots for 34 hours ahead (a day of Bronze deadline plus the two-hour start range),
//! and 256 jobs in flight: 164,320 bytes of calendars, 32,088 of jobs (with the table's
//! earliest touched start, floor of deadlines and next planned start) and 928 of
//! resources (with what their searches have shown), configuration, clock, the last look for starts
//! (`start.rs`) and the last freed ranges (`frees.rs`).

pub mod event;
mod faults;
mod frees;
#[cfg(debug_assertions)]
mod invariants;
mod job;
mod kernel;
mod known;
mod placement;
mod reschedule;
mod start;
mod table;
pub mod types;
mod waits;

pub use event::{Decision, Event, Outcome, Request, Violation};
pub use job::{Job, laxity_milli};
pub use kernel::TiersKernel;
pub use types::{Config, ConfigError, Group, Policy, RejectReason, Resource, Tier};

#[cfg(test)]
mod lazy_tests;
