//! `replay diff A B`: what changed between two logs of the same input content, written
//! once for every model. What a model supplies is [`Diffed`] (in `diff/NAME.rs`): how
//! its events and decisions make each job's [`Fate`]; its measures are its counts'
//! ([`crate::verify::Counts`]).
//!
//! Two logs are compared only when their headers name the same model and the same
//! inputs (name and CRC-64); everything else in the header (policy, machines,
//! settings, ...) is what a diff is for, and is listed. Then a pass over each log
//! verifies and counts it ([`crate::trust::vouch`]), the same counts as `replay
//! verify`'s (a log of another kernel version is audited without rebuilding the
//! kernel, and compared too); and in one pass over both logs side by side, the first
//! record where they differ is found and each job's fate is followed in each log (one
//! map entry per job and log, not the records).

use std::collections::BTreeMap;
use std::io::Read;

use kernel::{JobId, Tick};

use crate::export::write_header;
use crate::format::{FormatError, Header, LogReader};
use crate::trust::{TrustError, vouch};
use crate::verify::Verified;
use compare::{compare, follow, measures};

mod compare;
mod render;
crate::for_each_model!(crate::model_modules!());

pub use render::{write_csv, write_json, write_table};

/// How a job's request was answered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Answer {
    /// Submitted, never answered (or never submitted in this log).
    #[default]
    Unanswered,
    Accepted,
    /// Rejected, with the reason's name.
    Rejected(&'static str),
}

/// What became of one job in one log; a model leaves the fields it has no use for at
/// their defaults.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fate {
    pub answer: Answer,
    /// The machine (service levels) or resource (tiers) it was last placed on.
    pub place: Option<u32>,
    /// When it last started, or, if it never started, was last planned to start.
    pub start: Option<Tick>,
    /// When it completed or ended.
    pub completion: Option<Tick>,
    /// Preemptions (service levels) or losses on a leaving resource (tiers).
    pub interruptions: u32,
    /// Replans (reservations), or moves and re-placements (tiers).
    pub moves: u32,
    /// Offers made to it (reservations).
    pub offers: u32,
    /// What the request asked to run for, where its completion follows from its start
    /// (SLA); the input's, so the same in both logs.
    pub duration: Option<Tick>,
}

/// Every job's fate in one log, keyed by window (counted from the log's resets) and job.
#[derive(Debug, Default)]
pub struct Fates {
    window: u64,
    jobs: BTreeMap<(u64, JobId), Fate>,
}

impl Fates {
    /// A reset: the jobs that follow are in the next window.
    pub fn reset(&mut self) {
        self.window += 1;
    }

    /// The fate of `job` in the current window, new if it had none.
    pub fn job(&mut self, job: JobId) -> &mut Fate {
        self.jobs.entry((self.window, job)).or_default()
    }

    /// `job` accepted: its fate, for what the acceptance says besides.
    pub fn accept(&mut self, job: JobId) -> &mut Fate {
        let fate = self.job(job);
        fate.answer = Answer::Accepted;
        fate
    }

    /// `job` rejected for the reason named `reason`.
    pub fn reject(&mut self, job: JobId, reason: &'static str) {
        self.job(job).answer = Answer::Rejected(reason);
    }
}

/// What a model supplies to be diffed.
pub trait Diffed: Verified {
    /// What the model calls a job's place (`machine`, `resource`); empty when it has none.
    const PLACE: &'static str;
    /// Follows one event (a submit makes the job's fate; a reset starts a window).
    fn follow_event(fates: &mut Fates, event: &Self::Event);
    /// Follows one decision into its job's fate.
    fn follow_decision(fates: &mut Fates, decision: &Self::Decision);
}

/// What a job's fate changed by, from A to B. A job counts once under each of its changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Change {
    AcceptedToRejected,
    RejectedToAccepted,
    /// Answered in one log, unanswered in the other.
    Answered,
    /// Rejected in both, for different reasons.
    Reason,
    Place,
    Start,
    Completion,
    Interruptions,
    Moves,
    Offers,
    OnlyInA,
    OnlyInB,
}

impl Change {
    pub const ALL: [Self; 12] = [
        Self::AcceptedToRejected,
        Self::RejectedToAccepted,
        Self::Answered,
        Self::Reason,
        Self::Place,
        Self::Start,
        Self::Completion,
        Self::Interruptions,
        Self::Moves,
        Self::Offers,
        Self::OnlyInA,
        Self::OnlyInB,
    ];

    /// The change's name in every output.
    pub const fn name(self) -> &'static str {
        match self {
            Self::AcceptedToRejected => "accepted->rejected",
            Self::RejectedToAccepted => "rejected->accepted",
            Self::Answered => "answered/unanswered",
            Self::Reason => "reject reason",
            Self::Place => "place",
            Self::Start => "start",
            Self::Completion => "completion",
            Self::Interruptions => "interruptions",
            Self::Moves => "moves",
            Self::Offers => "offers",
            Self::OnlyInA => "only in A",
            Self::OnlyInB => "only in B",
        }
    }
}

/// One job whose fate changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobChange {
    pub window: u64,
    pub job: JobId,
    pub changes: Vec<Change>,
    pub a: Option<Fate>,
    pub b: Option<Fate>,
}

/// One header line (as `replay show` writes it) that differs: `None` where a log lacks it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeaderDifference {
    pub key: String,
    pub a: Option<String>,
    pub b: Option<String>,
}

/// The first record where the two logs differ, readably (`None`: that log has ended).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FirstDivergence {
    pub seq: u64,
    /// The last event both logs share before it, readably.
    pub after: Option<String>,
    pub a: Option<String>,
    pub b: Option<String>,
}

/// One count of both logs, as `replay verify` counts it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Measure {
    pub name: String,
    pub a: u128,
    pub b: u128,
}

/// What `replay diff` found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diff {
    /// The two logs' names, as given.
    pub names: [String; 2],
    /// The model's label (`service-level`, ...).
    pub model: &'static str,
    /// What the model calls a job's place.
    pub place: &'static str,
    pub header: Vec<HeaderDifference>,
    pub divergence: Option<FirstDivergence>,
    /// Jobs in either log.
    pub jobs_compared: u64,
    /// Jobs changed, under each change of [`Change::ALL`] (a job under each of its changes).
    pub counts: Vec<(Change, u64)>,
    pub measures: Vec<Measure>,
    /// Every job whose fate changed, by window and job.
    pub jobs: Vec<JobChange>,
}

impl Diff {
    /// Whether the two logs hold the same records (the headers may still differ).
    pub const fn same_records(&self) -> bool {
        self.divergence.is_none()
    }
}

/// A log to compare: its name in messages, and how to open it (it is read twice).
pub struct Log<'a, R: Read> {
    pub name: &'a str,
    pub open: &'a dyn Fn() -> Result<LogReader<R>, FormatError>,
}

impl<R: Read> std::fmt::Debug for Log<'_, R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Log").field("name", &self.name).finish_non_exhaustive()
    }
}

#[derive(Debug, thiserror::Error)]
pub enum DiffError {
    #[error("{name}: {error}")]
    Read { name: String, error: FormatError },
    /// The log does not verify ([`crate::trust`]): it is not compared.
    #[error(transparent)]
    Records(#[from] TrustError),
    #[error(
        "cannot compare {a_name} and {b_name}: they are logs of different {field} \
         ({a_name}: {a}; {b_name}: {b}); a diff compares two logs of the same input content"
    )]
    Different { a_name: String, b_name: String, field: &'static str, a: String, b: String },
}

/// Compares two logs; see the module documentation.
pub fn diff<R: Read + Send>(a: &Log<'_, R>, b: &Log<'_, R>) -> Result<Diff, DiffError> {
    let read = |log: &Log<'_, R>| (log.open)().map_err(|error| read_error(log.name, error));
    let (reader_a, reader_b) = (read(a)?, read(b)?);
    same_input(a.name, reader_a.header(), b.name, reader_b.header())?;
    let header = header_differences(reader_a.header(), reader_b.header());
    let model = reader_a.header().model.clone();
    // Verified before anything of them is followed ([`crate::trust`]).
    let count = |log: &Log<'_, R>| {
        vouch(read(log)?).map_err(|error| DiffError::from(TrustError::new(log.name, error)))
    };
    let (report_a, report_b) = (count(a)?, count(b)?);
    let sides = [(a.name, reader_a), (b.name, reader_b)];
    let (divergence, fates) = crate::with_model!(&model, follow(sides))?;
    let (jobs_compared, jobs) = compare(fates);
    let counts = Change::ALL
        .iter()
        .map(|&change| (change, jobs.iter().filter(|j| j.changes.contains(&change)).count() as u64))
        .collect();
    Ok(Diff {
        names: [a.name.to_owned(), b.name.to_owned()],
        model: crate::with_model!(&model, label()),
        place: crate::with_model!(&model, place()),
        header,
        divergence,
        jobs_compared,
        counts,
        measures: measures(&report_a, &report_b),
        jobs,
    })
}

/// A log that cannot be read: refused as one that does not verify, unless the file
/// itself cannot be read ([`TrustError::new`]).
fn read_error(name: &str, error: FormatError) -> DiffError {
    match TrustError::new(name, error.into()) {
        TrustError::Read { log, error } => DiffError::Read { name: log, error },
        unverified => DiffError::Records(unverified),
    }
}

/// Refuses two logs of different models or inputs, naming the field that differs.
fn same_input(a_name: &str, a: &Header, b_name: &str, b: &Header) -> Result<(), DiffError> {
    let different = |field, a: String, b: String| DiffError::Different {
        a_name: a_name.to_owned(),
        b_name: b_name.to_owned(),
        field,
        a,
        b,
    };
    let (model_a, model_b) = (crate::with_model!(&a.model, label()), crate::with_model!(&b.model, label()));
    if model_a != model_b {
        return Err(different("models", model_a.to_owned(), model_b.to_owned()));
    }
    let inputs = |h: &Header| {
        let names: Vec<String> = h.inputs.iter().map(|i| format!("{} (crc64 {})", i.name, i.hash)).collect();
        if names.is_empty() { "no input".to_owned() } else { names.join(", ") }
    };
    if a.inputs != b.inputs {
        return Err(different("inputs", inputs(a), inputs(b)));
    }
    Ok(())
}

fn label<M: Diffed>() -> &'static str {
    M::LABEL
}

fn place<M: Diffed>() -> &'static str {
    M::PLACE
}

/// The header lines (as `replay show` writes them) that differ, paired by their key:
/// the text before `: ` (before ` = ` for a setting), numbered when a key repeats.
fn header_differences(a: &Header, b: &Header) -> Vec<HeaderDifference> {
    let (a, b) = (keyed_lines(a), keyed_lines(b));
    let find = |lines: &[(String, String)], key: &str| {
        lines.iter().find(|(k, _)| k == key).map(|(_, value)| value.clone())
    };
    let mut keys: Vec<&String> = a.iter().map(|(k, _)| k).collect();
    keys.extend(b.iter().map(|(k, _)| k).filter(|k| !a.iter().any(|(ka, _)| ka == *k)));
    keys.into_iter()
        .map(|key| HeaderDifference { key: key.clone(), a: find(&a, key), b: find(&b, key) })
        .filter(|d| d.a != d.b)
        .collect()
}

/// A header's lines as `(key, value)`.
fn keyed_lines(header: &Header) -> Vec<(String, String)> {
    let mut text = Vec::new();
    // Writing into a Vec cannot fail.
    let _ = write_header(header, &mut text);
    let mut seen: BTreeMap<String, u32> = BTreeMap::new();
    let mut keyed = Vec::new();
    for line in String::from_utf8_lossy(&text).lines() {
        let separator = if line.starts_with("setting: ") { " = " } else { ": " };
        let (key, value) = line.split_once(separator).unwrap_or((line, ""));
        let n = seen.entry(key.to_owned()).or_default();
        *n += 1;
        let key = if *n > 1 { format!("{key} #{n}") } else { key.to_owned() };
        keyed.push((key, value.to_owned()));
    }
    keyed
}

/// `replay diff --limit`'s value, refused in words: a count of jobs, 0 or more.
pub fn parse_limit(text: &str) -> Result<usize, String> {
    let shown = crate::echo::echo(text);
    match text.trim().parse::<usize>() {
        Ok(count) => Ok(count),
        Err(e) if *e.kind() == std::num::IntErrorKind::PosOverflow => {
            Err(format!("{shown} is more than {} jobs", usize::MAX))
        }
        Err(_) if text.trim().starts_with('-') => {
            Err(format!("{shown} is negative; give a count of jobs, 0 or more"))
        }
        Err(_) => Err(format!("{shown} is not a whole number of jobs (0 or more)")),
    }
}
