//! The world around the admission kernels: for the service-level model it reads Standard Workload Format traces
//! (or generates a seeded synthetic workload), assigns service levels, cuts the
//! input into independent windows, feeds the kernel one event at a time through
//! [`replay::engine::service_level::Engine`], writes the decision log with
//! [`replay::format::LogWriter`], and measures the thesis' metrics (Lezama 2012,
//! Table 1 and eqs. 3-7). Sweeps run the thesis' whole experiment grid in parallel.
//!
//! - [`swf`]: traces, plain or gzipped, into jobs in (submit time, line) order.
//! - [`synthetic`]: the built-in workload, integer draws from a seeded ChaCha8.
//! - [`workload`]: jobs, their provenance and the lines left out.
//! - [`window`]: durations and the split into windows (every model's `--window`).
//! - [`units`]: decimals in thousandths, parsed exactly and written back short.
//! - [`output`]: standard output written without a panic on a closed pipe.
//! - [`findings`]: a paper's statements beside our numbers, one type for every model.
//! - [`plot`]: SVG figures (line and bar charts) shared by every sweep.
//! - [`progress`]: the progress bar of long work.
//! - [`record_log`]: every model's decision log, staged and written one way.
//! - [`one_pass`]: a run over traces read once, its log's header written last
//!   (`run`, `reserve` and `tiers`, each model's part in its `once.rs`).
//! - [`service_level`]: the service-level model (Lezama 2012): levels, the run loop,
//!   metrics, records, replications, the sweep grid and the criteria analysis.
//! - [`reservation`]: flexible advance reservations (Netto et al. 2007) around the
//!   reservation kernel: mapping, run loop, metrics, the figures' sweep.
//! - [`compare`]: every model on one trace, one table of shared measures.
//! - [`config`]: scenario files (`--config`), and a file of every default.
//! - [`tiers`]: Gold, Silver and Bronze SLAs over reliable and volunteer resources
//!   (Tomás et al.) around the tiers kernel: the paper's testbed and workload, traces,
//!   faults, the run loop, the figures' sweep.
//! - [`error`]: one error enum per boundary.
//! - [`path_error`]: a named file or stream that could not be read or written.
//!
//! Same input, same options: same log bytes and same numbers, on every machine.

pub mod compare;
pub mod config;
pub mod error;
pub mod findings;
pub mod input;
pub mod model;
pub mod one_pass;
pub mod output;
pub mod path_error;
pub mod plot;
pub mod progress;
pub mod record_log;
pub mod reservation;
pub mod service_level;
pub mod sla;
pub mod swf;
pub mod synthetic;
pub mod tiers;
pub mod units;
pub mod whatif;
pub mod window;
pub mod workload;

pub use service_level::sim::{RunConfig, RunReport};
pub use workload::{Job, Workload};
