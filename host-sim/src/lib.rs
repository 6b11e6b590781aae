//! The world around the admission kernel: it reads Standard Workload Format traces
//! (or generates a seeded synthetic workload), assigns service levels, cuts the
//! input into independent windows, feeds the kernel one event at a time through
//! [`replay::engine::service_level::Engine`], writes the decision log with
//! [`replay::format::LogWriter`], and measures the thesis' metrics (Lezama 2012,
//! Table 1 and eqs. 3-7). Sweeps run the thesis' whole experiment grid in parallel.
//!
//! - [`swf`]: traces, plain or gzipped, into jobs in (submit time, line) order.
//! - [`synthetic`]: the built-in workload, integer draws from a seeded ChaCha8.
//! - [`workload`]: jobs, their provenance and the lines left out.
//! - [`levels`]: slack factors, prices, the per-job level draw, the greedy bound.
//! - [`window`]: durations and the split into windows.
//! - [`sim`]: the run loop ([`sim::run`]).
//! - [`metrics`]: PRJ, MBSD, MWT, TPT, MNI, ME, G, `c_V^u`, `c_V^l`.
//! - [`sweep`]: the grid, in parallel, to CSV, JSON and SVG figures.
//! - [`criteria`]: the thesis' criteria analysis (chapter 7) of a sweep's output.
//! - [`policy`]: the kernel's machine-choice policies by name (`--policy`).
//! - [`plot`]: SVG figures (line and bar charts) shared by every sweep.
//! - [`replicate`]: one configuration over many seeds (`--seeds`): mean, sd and
//!   a Student-t 95% interval across seeds.
//! - [`report`]: the summary as a table or JSON.
//! - [`progress`]: the progress bar of long work.
//! - [`record`]: a run's decision log and per-job CSV, streamed and staged.
//! - [`reservation`]: flexible advance reservations (Netto et al. 2007) around the
//!   reservation kernel: mapping, run loop, metrics, the figures' sweep.
//! - [`compare`]: every model on one trace, one table of shared measures.
//! - [`config`]: scenario files (`--config`), and a file of every default.
//! - [`tiers`]: Gold, Silver and Bronze SLAs over reliable and volunteer resources
//!   (Tomás et al.) around the tiers kernel: the paper's testbed and workload, traces,
//!   faults, the run loop, the figures' sweep.
//! - [`error`]: one error enum per boundary.
//!
//! Same input, same options: same log bytes and same numbers, on every machine.

pub mod compare;
pub mod config;
pub mod criteria;
pub mod error;
pub mod levels;
pub mod metrics;
pub mod plot;
pub mod policy;
pub mod progress;
pub mod record;
pub mod replicate;
pub mod report;
pub mod reservation;
pub mod sim;
pub mod sla;
pub mod sweep;
pub mod swf;
pub mod synthetic;
pub mod tiers;
pub mod window;
pub mod workload;

pub use sim::{RunConfig, RunReport};
pub use workload::{Job, Workload};
