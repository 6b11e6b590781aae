//! Re-verification of a log, twice over: the kernel is rebuilt from the header and
//! must make every logged decision again, in order; and, without the kernel, the
//! logged schedule must keep every promise, as [`TraceChecker`] judges it (each
//! accepted job runs for exactly its processing time, one job at a time per machine,
//! and completes by the deadline its level gives).
//!
//! A log whose header has a reservation configuration is verified the same way (in
//! `verify/reservation.rs`): the reservation kernel re-makes every decision, then
//! [`ReservationAudit`](crate::model::ReservationAudit) checks windows and the pool's
//! capacity without it.

use std::io::Read;

use kernel::log::Body;
use kernel::{Decision, Event, Tick};

use crate::engine::{Engine, EngineError};
use crate::export::describe;
use crate::format::{FormatError, LogReader};
use crate::model::{ReservationViolation, TraceChecker, TraceError};

mod reservation;

/// Counts from a log that verified.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Report {
    pub records: u64,
    pub events: u64,
    pub decisions: u64,
    pub accepted: u64,
    pub rejected: u64,
    pub completed: u64,
    /// Accepts that displaced a job which had already run (the thesis' interruptions).
    pub preemptions: u64,
    /// Reservation logs only: the counts of their own decisions.
    pub reservations: Option<ReservationCounts>,
}

/// What a reservation log's decisions counted (its accepts, rejects and ends are
/// [`Report::accepted`], [`Report::rejected`] and [`Report::completed`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReservationCounts {
    pub offers: u64,
    pub replans: u64,
    pub fixes: u64,
    pub starts: u64,
    /// Ends before the end of the reservation (a reported early finish).
    pub early: u64,
    /// Jobs that overran their estimate and were cut at the end of their reservation.
    pub cut: u64,
}

/// Where the kernel and the log first disagree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Divergence {
    pub seq: u64,
    /// The time of the event being handled.
    pub t: Option<Tick>,
    /// What the log holds at `seq` (`None`: the log has no record there).
    pub logged: Option<Body>,
    /// What the kernel decides now (`None`: the kernel decides nothing more).
    pub kernel: Option<Body>,
}

impl std::fmt::Display for Divergence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let t = self.t.map_or_else(|| "-".to_owned(), |t| t.to_string());
        let logged = self.logged.map_or_else(|| "nothing (end of log)".to_owned(), |b| describe(&b));
        let kernel = self.kernel.map_or_else(|| "nothing more".to_owned(), |d| describe(&d));
        write!(
            f,
            "divergence at record {} (t = {t}):\n  expected (log):    {logged}\n  actual (kernel):   {kernel}",
            self.seq
        )
    }
}

#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    #[error(transparent)]
    Format(#[from] FormatError),
    #[error("cannot rebuild the kernel from the header: {0}")]
    Engine(#[from] EngineError),
    #[error("{0}")]
    Diverged(Box<Divergence>),
    #[error("broken promise before record {seq}: {error}")]
    Promise { seq: u64, error: TraceError },
    #[error("record {seq} is a {found} record in a log whose header is for {header}")]
    WrongModel { seq: u64, found: &'static str, header: &'static str },
    #[error("broken reservation promise before record {seq}: {error}")]
    Reservation { seq: u64, error: ReservationViolation },
}

/// Verifies a whole log; see the module documentation.
pub fn verify<R: Read>(mut reader: LogReader<R>) -> Result<Report, VerifyError> {
    if let Some(header) = reader.header().reservation {
        return reservation::verify(reader, &header);
    }
    let mut engine = Engine::from_header(reader.header())?;
    let header = reader.header();
    let mut checker = TraceChecker::with_levels(header.machines, header.levels.clone());
    let mut report = Report::default();
    // The event being matched, the decisions the kernel made for it (reused from
    // event to event, so the loop allocates nothing), and how many of them the log
    // has matched so far.
    let mut current: Option<Event> = None;
    let mut fresh = Vec::with_capacity(64);
    let mut matched = 0;
    let mut now = None;
    while let Some(record) = reader.next_record()? {
        report.records += 1;
        match record.body {
            Body::Event(event) => {
                if let Some(&left) = fresh.get(matched) {
                    return Err(diverged(record.seq, now, Some(record.body), Some(Body::Decision(left))));
                }
                audit(&mut checker, current.as_ref(), &fresh, record.seq)?;
                report.events += 1;
                now = event.time().or(now);
                fresh.clear();
                matched = 0;
                engine.step(event, &mut fresh);
                current = Some(event);
            }
            Body::Decision(logged) => {
                report.decisions += 1;
                match fresh.get(matched) {
                    Some(&decided) if decided == logged => matched += 1,
                    decided => {
                        let decided = decided.map(|&d| Body::Decision(d));
                        return Err(diverged(record.seq, now, Some(record.body), decided));
                    }
                }
                count(&mut report, &logged);
            }
            Body::ReservationEvent(_) | Body::ReservationDecision(_) => {
                return Err(VerifyError::WrongModel {
                    seq: record.seq,
                    found: "reservation",
                    header: "the service-level kernel",
                });
            }
        }
    }
    if let Some(&left) = fresh.get(matched) {
        return Err(diverged(report.records, now, None, Some(Body::Decision(left))));
    }
    audit(&mut checker, current.as_ref(), &fresh, report.records)?;
    checker.finish().map_err(|error| VerifyError::Promise { seq: report.records, error })?;
    Ok(report)
}

/// Holds the decisions of one event, once they matched the log, to the promises.
fn audit(
    checker: &mut TraceChecker,
    event: Option<&Event>,
    decisions: &[Decision],
    seq: u64,
) -> Result<(), VerifyError> {
    let Some(event) = event else { return Ok(()) };
    checker.step(event, decisions).map_err(|error| VerifyError::Promise { seq, error })
}

fn diverged(seq: u64, t: Option<Tick>, logged: Option<Body>, kernel: Option<Body>) -> VerifyError {
    VerifyError::Diverged(Box::new(Divergence { seq, t, logged, kernel }))
}

fn count(report: &mut Report, decision: &Decision) {
    match decision {
        Decision::Accept { preempted, .. } => {
            report.accepted += 1;
            report.preemptions += u64::from(preempted.is_some());
        }
        Decision::Reject { .. } => report.rejected += 1,
        Decision::Complete { .. } => report.completed += 1,
        Decision::Start { .. } | Decision::Preempt { .. } => {}
    }
}
