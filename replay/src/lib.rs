//! The decision log and its re-verification.
//!
//! - [`contract`]: what a model is for the log ([`contract::LogModel`]) and the one
//!   list of the models ([`with_model!`]).
//! - [`format`](mod@format): the log file format (header, checksummed blocks of records, footer);
//!   its spec is `docs/log-format.md`.
//! - [`engine`]: each model's kernel at the host's compiled sizes, chosen at run time
//!   from a fixed table where a capacity varies (the service level's machines and
//!   queue, [`engine::reservation`]'s running set, [`engine::sla`]'s batch).
//! - [`verify`]: re-runs the kernel from a log's header and compares every decision,
//!   then checks deadlines and work (or, for a reservation log, windows and the pool's
//!   capacity) without the kernel.
//! - [`export`]: JSON lines and a readable listing.
//! - [`diff`]: what changed between two logs of the same input (`replay diff A B`).
//! - [`job_map`]: maps keyed by job identifier with a cheap fixed hash.
//! - [`jobs`]: per-job results (one CSV row per job) from events and decisions.
//! - [`gantt`]: Gantt charts of a log as SVG, one collector per model.
//! - [`staged`]: output files written to `PATH.tmp` and renamed once whole.
//! - [`model`]: an independent reference implementation of the rules, used by the
//!   property tests and the fuzz targets.

pub mod contract;
pub mod diff;
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
pub mod verify;
