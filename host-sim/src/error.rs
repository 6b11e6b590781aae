//! One error enum per boundary: trace reading, option parsing, the run loop, sweeps,
//! and the command line that gathers them. Every message names what was wrong and
//! where (file, line and field for traces).

use std::io;

use thiserror::Error;

/// Reading a Standard Workload Format trace.
#[derive(Debug, Error)]
pub enum SwfError {
    #[error("{file}: cannot read the trace: {source}")]
    Io {
        file: String,
        #[source]
        source: io::Error,
    },
    #[error("{file}: cannot decompress the gzip stream: {source}")]
    Gzip {
        file: String,
        #[source]
        source: io::Error,
    },
    #[error("{file}:{line}: the line is not valid UTF-8")]
    NotUtf8 { file: String, line: u64 },
    #[error("{file}:{line}: {found} fields, an SWF job line has exactly 18")]
    FieldCount { file: String, line: u64, found: usize },
    #[error(
        "{file}:{line}: {found} fields, an SWF job line has exactly 18; for a variant with more fields after \
         the standard 18 (such as Alea's 21-field traces), --allow-extra-fields reads the 18 and ignores the rest"
    )]
    ExtraFields { file: String, line: u64, found: usize },
    #[error("{file}:{line}: field {field} ({name}): \"{text}\" is not a number")]
    NotANumber { file: String, line: u64, field: usize, name: &'static str, text: String },
    #[error("{file}:{line}: field {field} ({name}): \"{text}\" is out of range")]
    OutOfRange { file: String, line: u64, field: usize, name: &'static str, text: String },
    #[error(
        "{file}:{line}: field 1 (job number): \"{text}\" is not a job number (a whole number from 0 to 4294967295)"
    )]
    NotAJobNumber { file: String, line: u64, text: String },
    #[error("{file}:{line}: field 1 (job number): job {job} is already on line {first_line}")]
    DuplicateJob { file: String, line: u64, job: u32, first_line: u64 },
}

/// Parsing a duration such as `7d` or `3600`.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum DurationError {
    #[error("\"{0}\" is not a duration: use a whole number with an optional unit s, m, h, d or w (e.g. 7d)")]
    Syntax(String),
    #[error("\"{0}\" is zero: a window must be at least one second long")]
    Zero(String),
    #[error("\"{0}\" is too long to count in seconds")]
    Overflow(String),
}

/// Parsing service levels, prices and other numeric options.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum LevelError {
    #[error("slack factor \"{0}\" is not a number with at most three decimals (e.g. 2 or 1.5)")]
    SlackSyntax(String),
    #[error("slack factor \"{0}\" is below 1: a deadline cannot come before the work is done")]
    SlackBelowOne(String),
    #[error("slack factor \"{0}\" is too large")]
    SlackTooLarge(String),
    #[error("price \"{0}\" is not a whole number from 1 to 4294967295")]
    Price(String),
    #[error("{prices} prices given for {levels} levels: give one price per level")]
    PriceCount { prices: usize, levels: usize },
    #[error("{0} service levels given: at least 1 and at most {max} are supported", max = crate::levels::MAX_LEVELS)]
    LevelCount(usize),
    #[error("\"{0}\" is not a number with at most three decimals (e.g. 1 or 0.25)")]
    Decimal(String),
    #[error("\"{text}\" in a list is not a whole number from {min} to {max}")]
    Whole { text: String, min: u64, max: u64 },
    #[error("policy \"{0}\" is not one of {names}", names = crate::policy::names())]
    Policy(String),
}

/// The run loop: building the engine, feeding it, writing the log.
#[derive(Debug, Error)]
pub enum SimError {
    #[error("cannot build the kernel: {0}")]
    Engine(#[from] replay::engine::EngineError),
    #[error("writing the decision log: {0}")]
    Log(#[from] replay::format::FormatError),
    #[error(
        "jobs are not in release order: job {job} (position {position}) is released before the job ahead of it"
    )]
    Unsorted { job: u32, position: usize },
    #[error("job number {0} appears twice in the workload")]
    DuplicateJob(u32),
    #[error("window {window}: the kernel refused to advance time ({reason})")]
    Refused { window: u64, reason: kernel::service_level::RejectReason },
    #[error("window {window}: {accepted} jobs accepted but {completed} completed after the drain")]
    Unfinished { window: u64, accepted: u64, completed: u64 },
    #[error("window {window}: job {job} completed but was never accepted")]
    UnknownCompletion { window: u64, job: u32 },
}

/// Writing sweep results.
#[derive(Debug, Error)]
pub enum SweepError {
    #[error(transparent)]
    Sim(#[from] SimError),
    #[error("{path}: {source}")]
    Io {
        path: String,
        #[source]
        source: io::Error,
    },
    #[error("{path}: cannot write CSV: {source}")]
    Csv {
        path: String,
        #[source]
        source: csv::Error,
    },
    #[error("{path}: cannot write JSON: {source}")]
    Json {
        path: String,
        #[source]
        source: serde_json::Error,
    },
    #[error("multi-level sweeps need whole level counts k; \"{0}\" is not one")]
    FractionalK(String),
    #[error("the sweep grid is empty: give at least one mode, slack and machine count")]
    EmptyGrid,
}

/// Everything the command line can report; `main` prints it and exits non-zero.
#[derive(Debug, Error)]
pub enum CliError {
    #[error(transparent)]
    Swf(#[from] SwfError),
    #[error("--window: {0}")]
    Duration(#[from] DurationError),
    #[error(transparent)]
    Level(#[from] LevelError),
    #[error(transparent)]
    Sim(#[from] SimError),
    #[error(transparent)]
    Sweep(#[from] SweepError),
    #[error("{path}: {source}")]
    Io {
        path: String,
        #[source]
        source: io::Error,
    },
    #[error(transparent)]
    Output(#[from] replay::staged::StageError),
    #[error(transparent)]
    Empty(#[from] crate::workload::EmptyInput),
    #[error("{0}")]
    Usage(String),
    #[error(transparent)]
    Plot(#[from] crate::plot::PlotError),
    #[error(transparent)]
    Criteria(#[from] crate::criteria::CriteriaError),
}
