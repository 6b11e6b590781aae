//! Re-verification of a log, twice over, written once for every model: the model's
//! engine is rebuilt from the header and must make every logged decision again, in
//! order; and, without the kernel, the model's audit holds the logged schedule to its
//! promises. What a model supplies for this is [`Verified`] (beside
//! [`crate::contract::LogModel`]), in `verify/NAME.rs`:
//!
//! - `service_level`: [`ServiceLevelAudit`](crate::model::service_level::ServiceLevelAudit): each accepted job
//!   runs for exactly its processing time, one job at a time per machine, and
//!   completes by the deadline its level gives;
//! - `reservation`: [`ReservationAudit`](crate::model::reservation::ReservationAudit): windows and
//!   the pool's capacity;
//! - `tiers`: [`TiersAudit`](crate::model::tiers::TiersAudit): capacity, windows, tier
//!   rules and violations;
//! - `sla`: [`SlaAudit`](crate::model::sla::SlaAudit): capacity, windows, first fit,
//!   the order and every reason.
//!
//! [`audit`] is one loop over the records: counted, and held to the promises with the
//! logged decisions taken as made. [`verify`] runs that loop on a second thread,
//! which hands every record to the caller's thread to be re-made, for the models
//! whose kernel's work outweighs the hand-over ([`Verified::SPLIT`]); the others
//! re-make and audit in one loop (`verify/split.rs`).

use std::error::Error;
use std::io::Read;

use kernel::Tick;
use kernel::log::{Body, Record};

use crate::contract::{LogModel, body_label};
use crate::engine::EngineError;
use crate::export::describe;
use crate::format::{FormatError, Header, HeaderError, LogReader};

mod report;
crate::for_each_model!(crate::model_modules!());
mod split;

use split::verify_model;

pub use report::{Counts, Report, Tally};
pub use reservation::ReservationCounts;
pub use service_level::ServiceLevelCounts;

/// What a model supplies to be verified: the engine that re-makes its decisions,
/// the audit that holds them to their promises, and what it counts.
pub trait Verified: LogModel {
    /// The part of the log header that configures this model.
    type Header: Clone + Sync;
    type Engine;
    type Audit;
    /// The model's own counts: kept while the log is read (a model whose audit counts
    /// everything keeps none there), and given by [`Self::finish`].
    type Counts: Counts + Default;
    /// A broken promise, as the audit words it.
    type Violation: Error + Send + Sync + 'static;
    /// What a broken promise is called in [`VerifyError::Promise`]: `promise`,
    /// `reservation promise`, ...
    const PROMISE: &'static str;
    /// Whether [`verify`] re-makes the decisions on a thread apart from the reading
    /// and the audit: worth it when the kernel's work outweighs handing the records
    /// over (`verify/split.rs`).
    const SPLIT: bool;

    /// The model's part of a log header (`None`: the header is for another model).
    fn header(header: &Header) -> Option<&Self::Header>;
    /// The engine the header describes.
    fn engine(header: &Self::Header) -> Result<Self::Engine, VerifyError>;
    /// The engine's decisions for `event`, appended to `out`.
    fn step(engine: &mut Self::Engine, event: Self::Event, out: &mut Vec<Self::Decision>);
    /// An audit for the log the header describes.
    fn audit(header: &Self::Header) -> Self::Audit;
    /// Holds one event's decisions, matched already, to the promises.
    fn check(
        audit: &mut Self::Audit,
        event: &Self::Event,
        decisions: &[Self::Decision],
    ) -> Result<(), Self::Violation>;
    /// Counts one logged decision.
    fn count(tally: &mut Tally, counts: &mut Self::Counts, decision: &Self::Decision);
    /// The audit's last word at the end of the log, and the model's counts.
    fn finish(audit: Self::Audit, counts: Self::Counts) -> Result<Self::Counts, Self::Violation>;
}

/// A broken promise of the model `M`, met before record `seq`.
fn broken<M: Verified>(seq: u64) -> impl FnOnce(M::Violation) -> VerifyError {
    move |error| VerifyError::Promise { seq, promise: M::PROMISE, error: Box::new(error) }
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
    /// A promise of the model's broken: `promise` is [`Verified::PROMISE`], `error`
    /// the model's [`Verified::Violation`].
    #[error("broken {promise} before record {seq}: {error}")]
    Promise { seq: u64, promise: &'static str, error: Box<dyn Error + Send + Sync> },
    #[error("record {seq} is a {found} record in a log whose header is for the {header} kernel")]
    WrongModel { seq: u64, found: &'static str, header: &'static str },
}

/// Verifies a whole log; see the module documentation. For most models the log is
/// read and audited on a second thread while this one re-makes the decisions
/// (`verify/split.rs`).
pub fn verify<R: Read + Send>(reader: LogReader<R>) -> Result<Report, VerifyError> {
    reader.header().check()?;
    let model = reader.header().model.clone();
    crate::with_model!(model, verify_model(reader))
}

/// The second half of [`verify`] alone: the log's records held to their promises by
/// the model's audit and counted, without rebuilding the kernel, so that a log made by
/// another kernel version is counted too. The counts are [`verify`]'s, from the same
/// loop. `replay diff` counts its two logs this way.
pub fn audit<R: Read>(reader: LogReader<R>) -> Result<Report, VerifyError> {
    reader.header().check()?;
    let model = reader.header().model.clone();
    crate::with_model!(model, one_loop(reader, false))
}

/// A log of the model `M` in one loop on this thread: counted and audited, and with
/// `rebuild` every decision re-made first.
pub(super) fn one_loop<M: Verified>(
    reader: LogReader<impl Read>,
    rebuild: bool,
) -> Result<Report, VerifyError> {
    let header = model_header::<M>(reader.header())?;
    let mut engine = if rebuild { Some(M::engine(&header)?) } else { None };
    match audit_model::<M, std::convert::Infallible>(reader, &header, engine.as_mut(), |_| Ok(())) {
        Ok(report) => Ok(report),
        Err(Ended::Error(met)) => Err(met.1),
        Err(Ended::Stopped(never)) => match never {},
    }
}

/// An error and where it was met.
pub(super) type Met = Box<(At, VerifyError)>;

/// Why [`audit_model`] ended early: an error, or its taker stopped (saying `S`).
pub(super) enum Ended<S> {
    Error(Met),
    Stopped(S),
}

/// The model `M`'s part of `header`, or the error that it is another model's.
pub(super) fn model_header<M: Verified>(header: &Header) -> Result<M::Header, HeaderError> {
    M::header(header)
        .cloned()
        .ok_or_else(|| HeaderError { field: "model".into(), problem: format!("is not {}", M::NAME) })
}

/// Where in the loop over a log an error is met: the record's place (the count of
/// records before it; at the end, all of them), then the step of its handling, in
/// the order the steps come.
pub(super) type At = (u64, Step);

/// The steps of handling one record, in order; an error of an earlier step, or of an
/// earlier record, is met first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Step {
    /// The record cannot be read.
    Read,
    /// An event (or the end): the kernel decided more for the event before it than
    /// the log holds.
    Close,
    /// An event (or the end): the event before it breaks a promise.
    Check,
    /// A decision: not the kernel's.
    Match,
    /// Neither an event nor a decision of the model.
    Model,
    /// The end: the audit's last word.
    Finish,
}

/// The log of the model `M` (configured by `header`) counted and, event by event,
/// held to the promises: with an `engine`, every decision re-made and matched first;
/// without, the logged decisions taken as made. Every record is handed to `forward`
/// once read, before it is handled, until `forward` fails (its taker has stopped).
pub(super) fn audit_model<M: Verified, S>(
    mut reader: LogReader<impl Read>,
    header: &M::Header,
    mut engine: Option<&mut M::Engine>,
    mut forward: impl FnMut(Record) -> Result<(), S>,
) -> Result<Report, Ended<S>> {
    let mut audit = M::audit(header);
    let mut tally = Tally::default();
    let mut counts = M::Counts::default();
    let mut matcher = Matcher::<M::Event, M::Decision>::new(M::wrap_decision, engine.is_none());
    loop {
        let record = match reader.next_record() {
            Ok(Some(record)) => record,
            Ok(None) => break,
            Err(error) => return Err(Ended::Error(Box::new(((tally.records, Step::Read), error.into())))),
        };
        tally.records += 1;
        // Handed on first, so that a taker sees every record up to the one this loop
        // fails at (`verify/split.rs`).
        forward(record).map_err(Ended::Stopped)?;
        let engine = engine.as_deref_mut();
        audit_record::<M>(&mut audit, &mut matcher, engine, (&mut tally, &mut counts), &record)
            .map_err(Ended::Error)?;
    }
    let end = tally.records;
    let at = |step| move |error| Ended::Error(Box::new(((end, step), error)));
    matcher.close(end, None).map_err(at(Step::Close))?;
    check::<M>(&mut audit, matcher.last(), end).map_err(at(Step::Check))?;
    let counts = M::finish(audit, counts).map_err(broken::<M>(end)).map_err(at(Step::Finish))?;
    Ok(Report::new(tally, counts))
}

/// One record of [`audit_model`]'s loop.
fn audit_record<M: Verified>(
    audit: &mut M::Audit,
    matcher: &mut Matcher<M::Event, M::Decision>,
    engine: Option<&mut M::Engine>,
    (tally, counts): (&mut Tally, &mut M::Counts),
    record: &Record,
) -> Result<(), Met> {
    let seq = record.seq;
    let at = |step| move |error| Box::new(((seq, step), error));
    if let Some(event) = M::event(&record.body) {
        matcher.close(seq, Some(record.body)).map_err(at(Step::Close))?;
        check::<M>(audit, matcher.last(), seq).map_err(at(Step::Check))?;
        tally.events += 1;
        matcher.open(event, M::time(&event), |e, out| {
            if let Some(engine) = engine {
                M::step(engine, e, out);
            }
        });
    } else if let Some(logged) = M::decision(&record.body) {
        tally.decisions += 1;
        matcher.decision(seq, logged, record.body).map_err(at(Step::Match))?;
        M::count(tally, counts, &logged);
    } else {
        let found = body_label(&record.body);
        return Err(Box::new(((seq, Step::Model), VerifyError::WrongModel { seq, found, header: M::LABEL })));
    }
    Ok(())
}

/// Holds the decisions of the last event, once they matched the log, to the promises.
fn check<M: Verified>(
    audit: &mut M::Audit,
    last: Option<(&M::Event, &[M::Decision])>,
    seq: u64,
) -> Result<(), VerifyError> {
    let Some((event, decisions)) = last else { return Ok(()) };
    M::check(audit, event, decisions).map_err(broken::<M>(seq))
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
    /// No kernel decides: the logged decisions are taken as the event's ([`audit`]).
    trust: bool,
}

impl<E: Copy, D: Copy + PartialEq> Matcher<E, D> {
    fn new(wrap: fn(D) -> Body, trust: bool) -> Self {
        Self { current: None, fresh: Vec::with_capacity(64), matched: 0, now: None, wrap, trust }
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
        if self.trust {
            self.fresh.push(logged);
        }
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

fn diverged(seq: u64, t: Option<Tick>, logged: Option<Body>, kernel: Option<Body>) -> VerifyError {
    VerifyError::Diverged(Box::new(Divergence { seq, t, logged, kernel }))
}
