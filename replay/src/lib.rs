//! The decision log and everything that reads it: the file format, each model's
//! engine rebuilt from a log's header, re-verification, the independent reference
//! and audit of each model, export, Gantt charts, diffs, and the import of a device's
//! record stream. The `replay` binary (`src/main.rs`) is its command line: `verify`,
//! `import`, `export`, `show`, `gantt`, `diff` (the guide is `docs/replay.md`).
//!
//! The writer and the reader of the format both live here and nowhere else, so they
//! cannot drift apart: `host-sim` writes its logs through [`format::LogWriter`] and
//! feeds its kernels through [`engine`].
//!
//! # Modules
//! - [`contract`]: what a model is for the log ([`contract::LogModel`]) and the one
//!   list of the models ([`with_model!`], [`with_body_model!`]).
//! - [`format`](mod@format): the log file format, version 5 (header, checksummed
//!   blocks of compactly encoded records, footer); its spec is `docs/log-format.md`.
//! - [`engine`]: each model's kernel at the host's compiled sizes, chosen at run time
//!   from a fixed table where a capacity varies (the service level's machines and
//!   queue, [`engine::reservation`]'s running set, [`engine::sla`]'s batch). A
//!   capacity that decides something (a queue, a horizon, a table, a batch) must be
//!   named exactly by the header; one that decides nothing takes the smallest
//!   compiled size that holds the input. The firmware's sizes are compiled too, so
//!   that a device's streams verify.
//! - [`verify`]: re-makes every decision with the engine rebuilt from the header, and
//!   holds the records to the model's promises with its audit, without the kernel.
//! - [`model`]: the independent reference and audit of each model, used by the
//!   property tests, the fuzz targets and `verify`; it shares only the vocabulary
//!   types with the kernels.
//! - [`export`]: JSON lines and a readable listing (`replay export`, `replay show`).
//! - [`jobs`]: per-job results (one CSV row per job) of a service-level log.
//! - [`gantt`]: Gantt charts of a log as SVG, one collector per model.
//! - [`diff`]: what changed between two logs of the same input (`replay diff A B`).
//! - [`stream`] and [`import`]: a device's record stream (`kernel::stream`,
//!   `docs/stream-format.md`) read, its losses named by byte offset, and made into a
//!   decision log.
//! - [`staged`]: every output file of both programs, written to `PATH.tmp` and
//!   renamed once whole; an output that is an input is refused.
//! - [`trust`]: verify before trust: a log that does not verify is not exported,
//!   drawn, diffed or what-iffed.
//! - [`echo`]: a user's value as a message shows it, escaped and cut short.
//! - [`job_map`]: maps keyed by job identifier with a cheap fixed hash.
//!
//! # The contract
//! A model implements, each in its own file named after it: [`contract::LogModel`]
//! and [`verify::Verified`] (`verify/NAME.rs`), [`export::Listed`]
//! (`export/NAME.rs`), [`gantt::Drawn`] (`gantt/NAME.rs`) and [`diff::Diffed`]
//! (`diff/NAME.rs`), beside its codec (`format/codec/NAME.rs`), its engine
//! (`engine/NAME.rs`) and its reference and audit (`model/NAME/`). Everything else
//! is written once over these traits, and [`with_model!`] dispatches a log to its
//! model by its header.
//!
//! # What `replay verify` proves
//! Two things, in one reading of the log: every logged decision is the one the
//! kernel, rebuilt from the header, makes again for the logged events, in order (the
//! first that differs is named); and, from the records alone, every promise held
//! (deadlines met, windows kept, no resource over its capacity, each model's own
//! rules). For the models whose kernel outweighs handing records over
//! ([`verify::Verified::SPLIT`]), the reading and the audit run on one thread and the
//! re-making on the caller's; the error reported is the one a single loop would
//! meet first. [`verify::audit`] is the reading side alone: the same counts for a
//! log of another kernel version, which `replay diff` uses.
//!
//! The exit statuses: `verify` 0 when the log holds, 1 otherwise; `diff` 0 when the
//! records are the same, 1 when they differ, 2 on an error.

pub mod contract;
pub mod diff;
pub mod echo;
pub mod engine;
pub mod export;
pub mod format;
pub mod gantt;
pub mod import;
pub mod job_map;
pub mod jobs;
pub mod model;
pub mod staged;
pub mod stream;
pub mod trust;
pub mod verify;
