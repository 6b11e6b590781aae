//! The service-level model (Lezama 2012, after Schwiegelshohn and Tchernykh) around
//! [`replay::engine::service_level::ServiceLevelEngine`]: service levels assigned to jobs, the
//! run loop over windows, the thesis' metrics (Table 1 and eqs. 3-7), its sweep grid
//! and its criteria analysis (chapter 7). The subcommands are `run`, `sweep` and
//! `criteria`.
//!
//! - [`cli`]: the options of `run`, `sweep` and `criteria`, and each subcommand.
//! - [`levels`]: slack factors, prices, the per-job level draw, the greedy bound.
//! - [`policy`]: the kernel's machine-choice policies by name (`--policy`).
//! - [`sim`]: the run loop ([`sim::run`]): submits, a drain and a reset between
//!   windows, the log, per-level tallies.
//! - [`metrics`]: PRJ, MBSD, MWT, TPT, MNI, ME, G, `c_V^u`, `c_V^l`.
//! - [`record`]: a run's decision log and per-job CSV, streamed and staged.
//! - [`once`]: `run` over a trace read in one pass, its log's header written last.
//! - [`replicate`]: one configuration over many seeds (`--seeds`): mean, sd and a
//!   Student-t 95% interval across seeds.
//! - [`report`]: the summary as a table or JSON.
//! - [`sweep`]: the grid, in parallel, to CSV, JSON and SVG figures.
//! - [`criteria`]: the thesis' criteria analysis of a sweep's output.
//! - [`whatif`]: a log's submits decided again (`host-sim whatif`).
//! - [`optimum`]: the exact offline optimum `V*` of a window and the true competitive
//!   factor (`host-sim optimum`, `host-sim cv-sweep`).

pub mod cli;
pub mod contract;
pub mod criteria;
pub mod levels;
pub mod metrics;
pub mod once;
pub mod optimum;
pub mod policy;
pub mod record;
pub mod replicate;
pub mod report;
pub mod sim;
pub mod sweep;
pub mod whatif;
