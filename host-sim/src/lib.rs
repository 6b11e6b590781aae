//! The world around the admission kernels: traces of real machines (or a model's own
//! generated workload) in; each job mapped to a request of the model and fed to its
//! kernel, reached through [`replay::engine`]; each paper's measures, experiment
//! grids and figures out; and every event and decision written to a decision log
//! through [`replay::format::LogWriter`]. The `host-sim` binary (`src/main.rs`) is
//! the command line; the user's guides are the README and `docs/models/`.
//!
//! host-sim decides nothing itself: every admission is a kernel's. Same input, same
//! options: the same log bytes and the same numbers, on every machine.
//!
//! # The models
//! One folder per model, named as in every crate of the workspace:
//! - [`service_level`]: service levels (Lezama 2012): levels, the run loop over
//!   windows, the thesis' metrics, replications, the sweep grid, the criteria
//!   analysis and the exact offline optimum.
//! - [`reservation`]: flexible advance reservations (Netto et al. 2007) around the
//!   reservation kernel: mapping, run loop, metrics, the figures' sweep.
//! - [`tiers`]: Gold, Silver and Bronze SLAs over reliable and volunteer resources
//!   (Tomás et al.) around the tiers kernel: the paper's testbed and workload, traces,
//!   faults, the run loop, the figures' sweep.
//! - [`sla`]: SLA priority heuristics and pricing (Yarmolenko and Sakellariou): the
//!   paper's job sets, traces, the run loop, the incomes, the sweep.
//!
//! Each folder holds the same files where the model has them: `cli.rs` (its
//! subcommands and their options), `contract.rs` (its [`model::HostModel`]),
//! `whatif.rs` (its [`whatif::Whatif`]), `mapping.rs` (SWF jobs into its requests),
//! the run loop (`run.rs`, or `sim.rs`), `metrics.rs`, `log.rs` (its log header),
//! `sweep.rs` and `figures.rs`, and `once.rs` (its [`one_pass::OnePass`]) for `run`,
//! `reserve` and `tiers`. Each model's own inputs stay in its folder (the tiers
//! model's Failure Trace Archive reader is [`tiers::fta`]).
//!
//! # The contract
//! - [`model::HostModel`]: a model's subcommands and their dispatch, and its row of
//!   `compare`. The registry `for_each_model!` (here) has one row per model: `main`
//!   flattens its [`model::ModelCommand`] and dispatches through it; [`model::MODELS`]
//!   is the one list of the models, which [`model::compare_all`] iterates (a model
//!   that cannot run gives its error in its row, and the others still run).
//! - [`whatif::Whatif`]: a log's records back into the model's own workload, re-run
//!   by the model's own run loop and written by its own log writer, so that the
//!   recorded configuration re-makes the log byte for byte.
//! - [`one_pass::OnePass`]: a run over traces read once, its log's header written last.
//!
//! Before dispatching, `main` starts the interrupt watcher
//! ([`replay::staged::interrupt`]) and `main/files.rs` lists each subcommand's input
//! and output files for [`replay::staged::distinct`].
//!
//! # Shared beside the models
//! - [`input`]: the trace options every subcommand that reads a trace flattens
//!   ([`input::TraceArgs`]) and the one rule for sizes ([`input::pool_size`]), which
//!   `reserve`, `sla` and `compare` use (`run` and `tiers` use no job size;
//!   [`tiers::testbed`] says why).
//! - [`swf`]: traces, plain or gzipped, into jobs in (submit time, line) order; read
//!   whole, or as a stream ([`swf::Scan`]), or in one pass ([`swf::Scan::once`]).
//! - [`synthetic`]: the built-in workload, integer draws from a seeded ChaCha8.
//! - [`workload`]: jobs, their provenance and the lines left out, the log header's
//!   stamp of the input, merged traces ([`workload::MergedJobs`]).
//! - [`window`]: durations and the split into windows (every model's `--window`).
//! - [`units`]: decimals in thousandths, parsed exactly and written back short.
//! - [`output`]: the run outputs every run subcommand flattens (`--log`, `--json`),
//!   and standard output written without a panic on a closed pipe.
//! - [`record_log`]: every model's decision log, staged and written one way, its
//!   records encoded and written on a second thread.
//! - [`record_stream`]: a run's records as a device's record stream (`--stream-out`),
//!   for `replay import` and `replay verify`.
//! - [`one_pass`]: a run over traces read once (`run`, `reserve` and `tiers`).
//! - [`shard`]: a sweep split into shards (`--shard K/N`, each writing its part) and
//!   merged into the unsplit run's outputs (`host-sim merge`).
//! - [`app`]: the command line itself, which the binary and the Python package run.
//! - [`whatif`]: `host-sim whatif LOG`, written once for every model.
//! - [`compare`]: every model on one trace, one table of shared measures and four
//!   figures.
//! - [`config`]: scenario files (`--config`), and a file of every default.
//! - [`findings`]: a paper's statements beside our numbers, one type for every model.
//! - [`plot`]: SVG figures (line and bar charts) shared by every sweep.
//! - [`progress`]: the progress bar of long work.
//! - [`error`]: [`error::CliError`], one variant per boundary, each error kept whole.
//! - [`path_error`]: a named file or stream that could not be read or written.
//!
//! # How a trace reaches a model
//! A run holds memory that does not grow with its trace wherever it can:
//! [`input::TraceArgs::scan`] reads the traces once for the header's inputs, the
//! sizes and every error, and then hands out the jobs as a stream ([`input::Scanned`];
//! merged traces merged as streams, `--limit` a `take`). Where the header can be
//! written last, the traces are read once instead ([`one_pass`]).
//!
//! | subcommand | its trace |
//! |---|---|
//! | `run` | streamed ([`service_level::sim::run_stream`]); read once when the log is a regular file or absent and without `--jobs-out` ([`service_level::once`]) |
//! | `reserve` | streamed one window at a time ([`reservation::stream`]); read once when the pool's size is known first ([`reservation::once`]); with `--compare-paper`, read whole |
//! | `tiers` | streamed, each job mapped as it comes; read once unless an option is refused only after the trace's errors ([`tiers::once`]) |
//! | `sla` | streamed, read three times: the first pass, a survey, the run ([`sla::stream`]) |
//! | the sweeps, `--seeds`, `compare` | read whole ([`input::TraceArgs::read`]) |
//!
//! # Library
//! The service-level run loop is [`service_level::sim::run`]`(&RunConfig, &[Job],
//! Option<&mut dyn Recorder>) -> Result<RunReport, SimError>`: a
//! [`replay::format::LogWriter`] is a [`service_level::sim::Recorder`], and
//! [`RunConfig::log_header`] builds its header from the workload.
//! [`service_level::metrics`] ([`Tally`](service_level::metrics::Tally),
//! [`MetricContext`](service_level::metrics::MetricContext),
//! [`Metrics`](service_level::metrics::Metrics),
//! [`spread`](service_level::metrics::spread)) measures any event stream.
//!
//! # Benchmarks and tests
//! `benches/` (divan): one benchmark per model, and `worst_case` (admission over
//! queue capacities), `alloc` (the run loop allocates nothing per event), `stages`
//! (where the end-to-end time goes) and `figures` (the kernel figures `cargo xtask
//! bench` reads, as one JSON line); `benches/support/` shares the trace decoding and
//! the worst-case set-up. `tests/` runs the binary: outputs, errors, determinism
//! (every model's log the same bytes from any folder), one pass against two.

/// The models host-sim knows, one row each, in the order `compare` shows them:
/// `"name": Marker(folder)`, with `Marker` the model's [`replay::contract`] marker and
/// `folder` its folder here. `for_each_model!(m)` calls `m!` with the rows: the
/// folders below and [`model`]'s registry come from it.
macro_rules! for_each_model {
    ($then:ident) => {
        $then! {
            "service_level": ServiceLevel(service_level),
            "reservation": Reservation(reservation),
            "tiers": Tiers(tiers),
            "sla": Sla(sla),
        }
    };
}

macro_rules! model_folders {
    ($($name:literal: $model:ident($folder:ident),)*) => {
        $(pub mod $folder;)*
    };
}

for_each_model!(model_folders);

pub mod app;
pub mod compare;
pub mod config;
pub mod error;
pub mod files;
pub mod findings;
pub mod input;
pub mod jobs_out;
pub mod model;
pub mod one_pass;
pub mod output;
pub mod path_error;
pub mod plot;
pub mod progress;
pub mod record_log;
pub mod record_stream;
pub mod shard;
pub mod summary;
pub mod swf;
pub mod synthetic;
pub mod units;
pub mod whatif;
pub mod window;
pub mod workload;

pub use service_level::sim::{RunConfig, RunReport};
pub use workload::{Job, Workload};
