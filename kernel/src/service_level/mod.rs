//! The service-level model: greedy acceptance with preemptive earliest-due-date
//! (EDD) queues on one or many machines.
//!
//! # The rules
//! This is the service-level model of Lezama (2012, ch. 3), after Schwiegelshohn and
//! Tchernykh, with the admission test of Gupta and Palis. The rules, exactly:
//!
//! - Time is a whole number of ticks ([`Tick`](crate::Tick)). A service level ([`Level`]) has a
//!   slack factor `sf >= 1`, in thousandths, and a whole price per tick. A job
//!   submitted at `r` with processing time `p` on a level with slack `sf` gets the
//!   deadline `d = r + ceil(sf * p)`.
//! - Each machine keeps a queue of its admitted, unfinished jobs ordered by deadline;
//!   a new job goes after every queued job whose deadline is `<=` its own, so ties
//!   keep admission order. A machine always runs the head of its queue.
//! - On a submit at `t`, every machine is first advanced to `t`: jobs whose remaining
//!   work ends at or before `t` complete first, and the next head starts at the
//!   instant the previous one completes.
//! - The admission test on a machine: with the new job inserted, for the new job and
//!   every job after it, `t + (remaining work from the head up to and including that
//!   job) <= its deadline`. A machine that passes and has room in its queue is
//!   *feasible*. The [`Policy`] picks one feasible machine (by default the first in
//!   index order, [`Policy::FirstFit`], the thesis' rule) and the job is admitted
//!   there. Otherwise it is rejected, immediately and irrevocably, with a
//!   [`RejectReason`].
//! - A preemption is counted (in [`Decision::Accept`]'s `preempted`) when a job that
//!   has already received processing is displaced from the head of its queue by a
//!   newly admitted job. A displaced head always gets a [`Decision::Preempt`], so that
//!   every `Start` is closed by a `Preempt` or a `Complete`.
//! - Submits at the same time are decided in input order.
//!
//! Within one event, decisions come machine by machine in index order, and in time
//! order within a machine; an `Accept` comes before the `Preempt` and `Start` it causes.
//!
//! # Policies
//! All scores are whole ticks, computed at the submit's time `t` after every machine
//! was advanced to `t`; ties go to the lowest machine index. With `m` machines in use
//! and queues of `Q`, each admission test is `O(log Q)`:
//!
//! | [`Policy`] | the feasible machine that takes the job | cost of a submit |
//! |---|---|---|
//! | `FirstFit` (default) | the first in index order | up to `m` tests; stops at the first feasible |
//! | `BestFit` | the least *slack left after admission* | `m` tests, `O(1)` score each |
//! | `WorstFit` | the most slack left after admission | `m` tests, `O(1)` score each |
//! | `LeastLoaded` | the least remaining work before admission | `m` tests, `O(1)` score each |
//! | `RoundRobin` | the first in cyclic order starting after the last machine that admitted a job | up to `m` tests; stops at the first feasible |
//!
//! plus, for all, the one insertion on the machine that admits the job.
//!
//! - *Slack left after admission* on a machine: the minimum, over every job in its
//!   queue with the new job inserted (the new job included), of the job's deadline
//!   minus its projected finish time, `t + (remaining work from the head up to and
//!   including that job)`. It is never negative on a feasible machine; a small value
//!   means a tight machine. [`queue::EddQueue::slack_after`] computes it in `O(1)`
//!   from the suffix minima the queue keeps.
//! - *Remaining work*: the sum of the remaining processing times of the jobs queued
//!   on the machine at `t` (the new job not included); zero when it is idle.
//! - *Round robin*: the kernel remembers the machine that admitted the last job
//!   ([`ServiceLevelKernel::last_admitting`]); the next submit tries machines from the one after
//!   it, wrapping to 0, and the first feasible one takes the job. Rejections do not
//!   move it; [`Event::Reset`] forgets it, so each window starts at machine 0. On one
//!   machine every policy decides as `FirstFit` does.
//!
//! # Invariants
//! After every [`ServiceLevelKernel::step`], debug builds assert (`kernel/invariants.rs`): each
//! queue's five arrays have one length, its deadlines are in EDD order, its projected
//! finishes increase, each is after the machine's clock and by its job's deadline
//! (every admitted job meets its deadline), and each suffix minimum of slack is as
//! stored; no completion due by now is left unrun (every head finishes after now), no
//! machine's clock is past now; the kept head finishes and tails equal their queues';
//! machines not in use are empty; the round-robin position is a machine in use.
//! Release builds do not compile the checks.
//!
//! # Limits
//! `M` machine slots (the configuration uses `1..=M` of them), `Q` jobs per queue and
//! `L` service levels are const generics, checked at compile time. A full queue is not
//! an error: the machine is passed over, and a job that only a full machine could have
//! taken is rejected with [`RejectReason::QueueFull`]. Every sum of times is checked;
//! a sum past `Tick::MAX` exceeds every deadline and so fails the test.
//!
//! # Cost
//! The admission test on a machine is a binary search over its queue's deadlines and
//! two comparisons, `O(log Q)`, so a submit costs `O(M log Q)` plus, on the machine
//! that admits it, one pass over the jobs behind it, under every policy (see
//! "Policies"). The kernel keeps a copy of each machine's last queued job's deadline
//! and suffix-minimum slack ([`queue::Tail`]) side by side: a job that would go last
//! is tested without the search, and one that no suffix has room for is ruled out
//! without reading the queue. Advancing time costs `O(1)` per
//! completion plus one shift of the queue, and a read of each machine's head finish
//! time, also copied side by side: only the machines with a completion due are run
//! (the others when they admit a job, see [`Machine::clock`](machine::Machine::clock)).
//! See [`queue`] for why.
//!
//! # Memory
//! The state is `size_of::<ServiceLevelKernel<M, Q, L>>()` bytes and nothing else; a queue entry
//! costs 29 bytes (deadline, projected finish, suffix-minimum slack, job, a flag; see
//! [`queue`]), a machine 24 more for the copies of its head finish and tail, and a
//! level 8. Measured on x86_64 (pinned by `tests/service_level_rules.rs`; 32-bit targets
//! differ by a few bytes of length fields):
//!
//! | `M` | `Q` | `L` | bytes |
//! |---|---|---|---|
//! | 1 | 16 | 4 | 600 |
//! | 4 | 32 | 8 | 4,072 |
//! | 16 | 256 | 32 | 120,104 |
//! | 64 | 256 | 32 | 479,528 |
//!
//! (8 bytes of each are the round-robin position, [`ServiceLevelKernel::last_admitting`], kept
//! under every policy, and 8 the earliest head finish, which lets most advances skip the
//! machines; a queue's job and flag arrays count their length in a `u16`, so `Q` is at
//! most 65,535.)
//!
//! # Embedding
//! On a controller the kernel is one value (a local of `main`, or a `static` through
//! your runtime's once-cell), events come from your input, and each decision can be
//! written with the kernel's own record encoding ([`log::encode`](crate::log::encode)) into a buffer you
//! own, for a UART, a flash log or a radio. `embedded/` runs exactly this on a
//! Cortex-M4F under QEMU, and `cargo xtask embedded` checks that its bytes equal the
//! host's (see docs/testing.md, "The kernel on a microcontroller"). No panic path is linked:
//! `cargo xtask panic-check` links the kernel with a panic handler that cannot link.
//!
//! ```
//! use kernel::log::{Body, RECORD_MAX_BYTES, Record, encode};
//! use kernel::service_level::{Config, Decision, Event, ServiceLevelKernel, Level, Outcome, Policy};
//!
//! // 4 machines, 32 queue entries each, up to 8 levels: 4,064 bytes on a Cortex-M4F.
//! let mut levels = heapless::Vec::new();
//! levels.push(Level::whole(2, 1)).unwrap(); // slack factor 2, price 1 per tick
//! let config = Config { machines: 4, policy: Policy::FirstFit, levels };
//! let mut kernel = ServiceLevelKernel::<4, 32, 8>::new(config).unwrap();
//!
//! // One event in; its decisions out to a sink that allocates nothing.
//! let mut decisions = heapless::Vec::<Decision, 8>::new();
//! let event = Event::Submit { t: 0, job: 1, p: 10, level: 0 };
//! let outcome = kernel.step(event, &mut |d| {
//!     let _ = decisions.push(d);
//! });
//! assert_eq!(outcome, Outcome::Accepted { machine: 0 });
//! assert_eq!(decisions[0], Decision::Accept { job: 1, machine: 0, deadline: 20, preempted: None });
//!
//! // Each decision as a self-contained record, in a buffer the caller supplies.
//! let mut buf = [0u8; RECORD_MAX_BYTES];
//! for (seq, decision) in (0..).zip(&decisions) {
//!     let bytes = encode(&Record { seq, body: Body::Decision(*decision) }, &mut buf).unwrap();
//!     assert!(bytes.len() <= RECORD_MAX_BYTES); // send `bytes` on
//! }
//! ```

pub mod event;
#[allow(clippy::module_inception)]
mod kernel;
pub mod level;
pub mod machine;
pub mod queue;
pub mod types;

pub use event::{Decision, Event, Outcome};
pub use kernel::{Config, ConfigError, Policy, ServiceLevelKernel};
pub use level::{Level, SLACK_ONE_MILLI};
pub use types::{LevelId, MachineId, RejectReason};
