//! The table itself: facts in, rows and pieces out, the window offset added.
//!
//! Window `k` starts at `k * window_ticks` (0 for a log of one window, or without
//! `window_ticks`), or later, at the latest end of any piece before it: each window
//! of a run is simulated from an empty machine, and its last jobs may run past the
//! next window's start, so laying the windows end to end is what keeps one
//! processor's pieces from overlapping on one time line. A log does not record the
//! windows without jobs (they are not simulated), so `k` counts the windows in the log.

use std::collections::BTreeMap;

use kernel::log::Body;
use kernel::{JobId, Tick};

use super::{Class, Fact, JobRow, Request, Segment, facts_of};
use crate::export::ExportError;
use crate::format::Header;

/// Where the table's rows and pieces go; each method is called as soon as its row or
/// piece is final.
pub trait JobSink {
    fn job(&mut self, _row: &JobRow) -> Result<(), ExportError> {
        Ok(())
    }
    fn segment(&mut self, _segment: &Segment) -> Result<(), ExportError> {
        Ok(())
    }
    /// A window is over: every row and piece of it has been handed out.
    fn window_end(&mut self) -> Result<(), ExportError> {
        Ok(())
    }
}

/// An accepted job not yet done.
#[derive(Debug)]
struct OpenJob {
    row: JobRow,
    /// The start of the piece running now.
    running: Option<Tick>,
}

/// Follows a log's records and hands each job's row to a [`JobSink`] when it is final.
#[derive(Debug)]
pub struct JobTable {
    header: Header,
    window: u64,
    window_start: Tick,
    /// Whether the current window has had a request (a leading reset opens none).
    busy: bool,
    /// The latest end of any piece or finish, absolute.
    last_end: Tick,
    now: Tick,
    /// Submits awaiting their answer, by job (a duplicate number is answered last first).
    pending: BTreeMap<JobId, Vec<JobRow>>,
    open: BTreeMap<JobId, OpenJob>,
    /// The facts of the record being followed, kept so that no record allocates.
    facts: Vec<Fact>,
}

impl JobTable {
    pub fn new(header: &Header) -> Self {
        Self {
            header: header.clone(),
            window: 0,
            window_start: 0,
            busy: false,
            last_end: 0,
            now: 0,
            pending: BTreeMap::new(),
            open: BTreeMap::new(),
            facts: Vec::with_capacity(2),
        }
    }

    /// Follows one record of the log.
    pub fn record(&mut self, body: &Body, sink: &mut dyn JobSink) -> Result<(), ExportError> {
        let mut facts = std::mem::take(&mut self.facts);
        let mut now = self.now;
        crate::with_body_model!(body, facts_of(&self.header, body, &mut now, &mut |f| facts.push(f)));
        self.now = now;
        let followed = facts.drain(..).try_for_each(|fact| self.fact(fact, sink));
        self.facts = facts;
        followed
    }

    /// The log is over: what is still open is handed out.
    pub fn finish(&mut self, sink: &mut dyn JobSink) -> Result<(), ExportError> {
        self.close_window(sink)
    }

    fn at(&self, t: Tick) -> Tick {
        self.window_start.saturating_add(t)
    }

    fn fact(&mut self, fact: Fact, sink: &mut dyn JobSink) -> Result<(), ExportError> {
        match fact {
            Fact::Submit(request) => {
                self.busy = true;
                let row = self.row(&request);
                self.pending.entry(request.job).or_default().push(row);
            }
            Fact::Accept { job, place } => {
                if let Some(mut row) = self.answer(job) {
                    row.outcome = "accepted";
                    row.place = place;
                    if let Some(old) = self.open.insert(job, OpenJob { row, running: None }) {
                        sink.job(&old.row)?;
                    }
                }
            }
            Fact::Reject { job, reason } => {
                if let Some(mut row) = self.answer(job) {
                    row.outcome = "rejected";
                    row.reason = reason;
                    sink.job(&row)?;
                }
            }
            Fact::Place { job, place } => {
                if let Some(open) = self.open.get_mut(&job) {
                    open.row.place = Some(place);
                }
            }
            Fact::Run { job, t, place } => self.run(job, t, place),
            Fact::RunWhole { job, t } => {
                let work = self.open.get(&job).map_or(0, |open| open.row.work);
                self.run(job, t, None);
                self.end(job, t.saturating_add(work), "finished", sink)?;
            }
            Fact::Stop { job, t, why } => {
                let t = self.at(t);
                if let Some(mut open) = self.open.remove(&job) {
                    self.end_piece(&mut open, t, why, sink)?;
                    open.row.interruptions += 1;
                    self.open.insert(job, open);
                }
            }
            Fact::Finish { job, t, late } => {
                self.end(job, t, if late { "late" } else { "finished" }, sink)?
            }
            Fact::Lost { job, t } => self.end(job, t, "lost", sink)?,
            Fact::Window if self.busy => {
                self.close_window(sink)?;
                self.window += 1;
                let planned = self.header.window_ticks.unwrap_or(0).saturating_mul(self.window);
                self.window_start = planned.max(self.last_end);
                self.busy = false;
            }
            Fact::Window => {}
        }
        Ok(())
    }

    /// A piece of `job` begins at `t` (its window's), at `place` where given.
    fn run(&mut self, job: JobId, t: Tick, place: Option<u32>) {
        let t = self.at(t);
        if let Some(open) = self.open.get_mut(&job) {
            open.row.place = place.or(open.row.place);
            open.row.start.get_or_insert(t);
            open.row.pieces += 1;
            open.running = Some(t);
        }
    }

    /// `job` is over at `t` (its window's): `finished`, `late` (finished past its
    /// deadline) or `lost`; its row is handed out.
    fn end(
        &mut self,
        job: JobId,
        t: Tick,
        how: &'static str,
        sink: &mut dyn JobSink,
    ) -> Result<(), ExportError> {
        let t = self.at(t);
        let Some(mut open) = self.open.remove(&job) else { return Ok(()) };
        let lost = how == "lost";
        self.end_piece(&mut open, t, if lost { "lost" } else { "finished" }, sink)?;
        if lost {
            open.row.outcome = "lost";
        } else {
            open.row.finish = Some(t);
            self.last_end = self.last_end.max(t);
            if how == "late" {
                open.row.outcome = "late";
            }
        }
        sink.job(&open.row)
    }

    /// The row of a submit, its times made absolute.
    fn row(&self, r: &Request) -> JobRow {
        JobRow {
            window: self.window,
            window_start: self.window_start,
            job: r.job,
            class: match r.class {
                Class::None => String::new(),
                Class::Level(level) => level.to_string(),
                Class::Name(name) => name.to_owned(),
            },
            submit: self.at(r.t),
            size: r.size,
            work: r.work,
            ready: r.ready.map(|t| self.at(t)),
            deadline: r.deadline.map(|t| self.at(t)),
            outcome: "pending",
            reason: "",
            start: None,
            finish: None,
            place: None,
            pieces: 0,
            interruptions: 0,
        }
    }

    /// The submit an answer for `job` answers: its latest.
    fn answer(&mut self, job: JobId) -> Option<JobRow> {
        let rows = self.pending.get_mut(&job)?;
        let row = rows.pop();
        if rows.is_empty() {
            self.pending.remove(&job);
        }
        row
    }

    /// Ends the running piece of `open`, if one runs, at `t`.
    fn end_piece(
        &mut self,
        open: &mut OpenJob,
        t: Tick,
        how: &'static str,
        sink: &mut dyn JobSink,
    ) -> Result<(), ExportError> {
        let Some(start) = open.running.take() else { return Ok(()) };
        self.last_end = self.last_end.max(t);
        let row = &open.row;
        sink.segment(&Segment {
            window: row.window,
            job: row.job,
            piece: row.pieces,
            start,
            end: t,
            size: row.size,
            place: row.place,
            how,
        })
    }

    /// Hands out what the window leaves open: accepted jobs not done, in job order,
    /// then submits never answered.
    fn close_window(&mut self, sink: &mut dyn JobSink) -> Result<(), ExportError> {
        for (_, open) in std::mem::take(&mut self.open) {
            sink.job(&open.row)?;
        }
        for (_, rows) in std::mem::take(&mut self.pending) {
            rows.iter().try_for_each(|row| sink.job(row))?;
        }
        sink.window_end()
    }
}
