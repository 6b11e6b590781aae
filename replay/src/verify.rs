//! Re-verification of a log, twice over: the kernel is rebuilt from the header and
//! must make every logged decision again, in order; and, without the kernel, the
//! logged schedule must keep every promise, as [`TraceChecker`] judges it (each
//! accepted job runs for exactly its processing time, one job at a time per machine,
//! and completes by the deadline its level gives).
//!
//! A log whose header has a tiers configuration is verified in `verify/tiers.rs`: the
//! tiers kernel re-makes every decision, then
//! [`TiersAudit`](crate::model::tiers::TiersAudit) checks capacity, windows, tier
//! rules and violations from the records alone.
//!
//! A log whose model is `Sla` is verified in `verify/sla.rs`: the SLA kernel re-makes
//! every decision, then [`SlaAudit`](crate::model::sla::SlaAudit) checks capacity,
//! windows, first fit, the order and every reason from the records alone.
//!
//! A log whose header has a reservation configuration is verified the same way (in
//! `verify/reservation.rs`): the reservation kernel re-makes every decision, then
//! [`ReservationAudit`](crate::model::reservation::ReservationAudit) checks windows and the pool's
//! capacity without it.

use std::io::Read;

use kernel::Tick;
use kernel::log::Body;
use kernel::service_level::{Decision, Event};

use crate::engine::{Engine, EngineError};
use crate::export::describe;
use crate::format::{FormatError, HeaderError, LogReader};
use crate::model::reservation::ReservationViolation;
use crate::model::service_level::{TraceChecker, TraceError};
use crate::model::sla::{SlaCounts, SlaViolation};
use crate::model::tiers::{TiersCounts, TiersViolation};

mod reservation;
mod sla;
mod tiers;

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
    /// Tiers logs only: what the audit recomputed from the records.
    pub tiers: Option<TiersCounts>,
    /// SLA logs only: what the audit counted from the records.
    pub sla: Option<SlaCounts>,
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
    #[error(transparent)]
    Header(#[from] HeaderError),
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
    #[error("broken tiers promise before record {seq}: {error}")]
    Tiers { seq: u64, error: TiersViolation },
    #[error("broken SLA promise before record {seq}: {error}")]
    Sla { seq: u64, error: SlaViolation },
}

/// Verifies a whole log; see the module documentation.
pub fn verify<R: Read>(mut reader: LogReader<R>) -> Result<Report, VerifyError> {
    reader.header().check()?;
    if let Some(&header) = reader.header().reservation() {
        return reservation::verify(reader, &header);
    }
    if let Some(header) = reader.header().tiers().cloned() {
        return tiers::verify(reader, &header);
    }
    if let Some(&header) = reader.header().sla() {
        return sla::verify(reader, &header);
    }
    let mut engine = Engine::from_header(reader.header())?;
    let header = reader.header();
    let mut checker = TraceChecker::with_levels(header.machines, header.levels.clone());
    let mut report = Report::default();
    let mut matcher = Matcher::new(Body::Decision);
    while let Some(record) = reader.next_record()? {
        report.records += 1;
        match record.body {
            Body::Event(event) => {
                matcher.close(record.seq, Some(record.body))?;
                audit(&mut checker, matcher.last(), record.seq)?;
                report.events += 1;
                matcher.open(event, event.time(), |e, out| {
                    engine.step(e, out);
                });
            }
            Body::Decision(logged) => {
                report.decisions += 1;
                matcher.decision(record.seq, logged, record.body)?;
                count(&mut report, &logged);
            }
            Body::ReservationEvent(_) | Body::ReservationDecision(_) => {
                return Err(VerifyError::WrongModel {
                    seq: record.seq,
                    found: "reservation",
                    header: "the service-level kernel",
                });
            }
            Body::TiersEvent(_) | Body::TiersDecision(_) => {
                return Err(VerifyError::WrongModel {
                    seq: record.seq,
                    found: "tiers",
                    header: "the service-level kernel",
                });
            }
            Body::SlaEvent(_) | Body::SlaDecision(_) => {
                return Err(VerifyError::WrongModel {
                    seq: record.seq,
                    found: "sla",
                    header: "the service-level kernel",
                });
            }
        }
    }
    matcher.close(report.records, None)?;
    audit(&mut checker, matcher.last(), report.records)?;
    checker.finish().map_err(|error| VerifyError::Promise { seq: report.records, error })?;
    Ok(report)
}

/// Matches a log's decisions, record by record, against what a kernel decides now:
/// the event being matched, the decisions the kernel made for it (reused from event
/// to event, so the loop allocates nothing), and how many of them the log has matched.
struct Matcher<E, D> {
    current: Option<E>,
    fresh: Vec<D>,
    matched: usize,
    /// The time of the last timed event.
    now: Option<Tick>,
    /// How a decision of this model is written in the log.
    wrap: fn(D) -> Body,
}

impl<E: Copy, D: Copy + PartialEq> Matcher<E, D> {
    fn new(wrap: fn(D) -> Body) -> Self {
        Self { current: None, fresh: Vec::with_capacity(64), matched: 0, now: None, wrap }
    }

    /// Before the next event (or the end of the log, `logged = None`): the kernel made
    /// no decision for the current event that the log lacks.
    fn close(&self, seq: u64, logged: Option<Body>) -> Result<(), VerifyError> {
        match self.fresh.get(self.matched) {
            Some(&left) => Err(diverged(seq, self.now, logged, Some((self.wrap)(left)))),
            None => Ok(()),
        }
    }

    /// Starts matching `event` (at time `t`, if it has one); `step` makes the kernel's
    /// decisions for it.
    fn open(&mut self, event: E, t: Option<Tick>, step: impl FnOnce(E, &mut Vec<D>)) {
        self.now = t.or(self.now);
        self.fresh.clear();
        self.matched = 0;
        step(event, &mut self.fresh);
        self.current = Some(event);
    }

    /// Matches the next logged decision of the current event.
    fn decision(&mut self, seq: u64, logged: D, body: Body) -> Result<(), VerifyError> {
        match self.fresh.get(self.matched) {
            Some(&decided) if decided == logged => {
                self.matched += 1;
                Ok(())
            }
            decided => Err(diverged(seq, self.now, Some(body), decided.map(|&d| (self.wrap)(d)))),
        }
    }

    /// The last event and its decisions, all matched once [`Self::close`] passed.
    fn last(&self) -> Option<(&E, &[D])> {
        self.current.as_ref().map(|event| (event, &self.fresh[..]))
    }
}

/// Holds the decisions of one event, once they matched the log, to the promises.
fn audit(
    checker: &mut TraceChecker,
    last: Option<(&Event, &[Decision])>,
    seq: u64,
) -> Result<(), VerifyError> {
    let Some((event, decisions)) = last else { return Ok(()) };
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
