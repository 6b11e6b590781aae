//! Per-job results of a service-level run: one row per submitted job, from the
//! events and decisions as they stream by. `host-sim run --jobs-out FILE.csv` feeds
//! it from the run loop, `replay export --format csv` from a log; both write the same
//! rows in the same order.
//!
//! A row is complete, and handed out, when the job's fate is final: at its `Reject`,
//! or at its `Complete`. So the rows come in decision order (rejections at once,
//! accepted jobs as they complete), never the whole table held in memory: only the
//! accepted, unfinished jobs are.
//!
//! Columns (`CSV_HEADER`): `window` (0 for the first, one more after each reset),
//! `job`, `level` (index into the header's levels), `submit` (ticks from the
//! window's start), `p`, `deadline` (empty when the level is unknown or the deadline
//! overflows), `outcome` (`accepted` or the reject reason, e.g. `no_feasible_machine`,
//! `queue_full`), `machine`, `start` (its first `Start`), `completion`, and
//! `interruptions` (how often it was displaced from its machine's head after
//! receiving processing, as MNI counts them); the last four are empty for a rejected
//! job.

use std::collections::HashMap;
use std::io::{self, Read, Write};

use kernel::service_level::{Decision, Event, Level, LevelId, MachineId};
use kernel::{JobId, Tick};

use crate::contract::{LogModel, ServiceLevel};
use crate::export::ExportError;
use crate::format::LogReader;

/// The CSV header line (without the newline).
pub const CSV_HEADER: &str =
    "window,job,level,submit,p,deadline,outcome,machine,start,completion,interruptions";

/// One job's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobRow {
    pub window: u64,
    pub job: JobId,
    pub level: LevelId,
    pub submit: Tick,
    pub p: Tick,
    pub deadline: Option<Tick>,
    /// `accepted`, or the reject reason's name.
    pub outcome: String,
    pub machine: Option<MachineId>,
    pub start: Option<Tick>,
    pub completion: Option<Tick>,
    pub interruptions: u32,
}

impl JobRow {
    /// The row as a CSV line (every field is a number or a plain word: no quoting).
    pub fn write_csv<W: Write>(&self, out: &mut W) -> io::Result<()> {
        fn opt<T: ToString>(v: Option<T>) -> String {
            v.map_or_else(String::new, |v| v.to_string())
        }
        writeln!(
            out,
            "{},{},{},{},{},{},{},{},{},{},{}",
            self.window,
            self.job,
            self.level,
            self.submit,
            self.p,
            opt(self.deadline),
            self.outcome,
            opt(self.machine),
            opt(self.start),
            opt(self.completion),
            self.interruptions
        )
    }
}

/// Follows events and decisions and hands out each job's row when it is final.
#[derive(Debug, Default)]
pub struct JobTable {
    levels: Vec<Level>,
    window: u64,
    /// The submit whose answer (accept or reject) comes next.
    pending: Option<JobRow>,
    /// Accepted jobs not yet completed.
    open: HashMap<JobId, JobRow>,
}

impl JobTable {
    /// A table for a run with these levels (they give each job's deadline).
    pub fn new(levels: &[Level]) -> Self {
        Self { levels: levels.to_vec(), ..Self::default() }
    }

    pub fn event(&mut self, event: &Event) {
        match *event {
            Event::Submit { t, job, p, level } => {
                let deadline = self.levels.get(usize::from(level)).and_then(|l| l.deadline(t, p));
                self.pending = Some(JobRow {
                    window: self.window,
                    job,
                    level,
                    submit: t,
                    p,
                    deadline,
                    outcome: String::new(),
                    machine: None,
                    start: None,
                    completion: None,
                    interruptions: 0,
                });
            }
            Event::Reset => self.window += 1,
            Event::Advance { .. } => {}
        }
    }

    /// Follows one decision; returns the row it completes, if any.
    pub fn decision(&mut self, decision: &Decision) -> Option<JobRow> {
        match *decision {
            Decision::Accept { job, machine, preempted, .. } => {
                if let Some(row) = preempted.and_then(|j| self.open.get_mut(&j)) {
                    row.interruptions += 1;
                }
                let mut row = self.pending.take().filter(|r| r.job == job)?;
                row.outcome = "accepted".to_owned();
                row.machine = Some(machine);
                self.open.insert(job, row);
                None
            }
            Decision::Reject { job, reason } => {
                let mut row = self.pending.take().filter(|r| r.job == job)?;
                row.outcome = reason.to_string();
                Some(row)
            }
            Decision::Start { t, job, .. } => {
                if let Some(row) = self.open.get_mut(&job) {
                    row.start.get_or_insert(t);
                }
                None
            }
            Decision::Complete { t, job, .. } => {
                let mut row = self.open.remove(&job)?;
                row.completion = Some(t);
                Some(row)
            }
            Decision::Preempt { .. } => None,
        }
    }
}

/// `replay export --format csv`: the header line, then every job's row of a
/// service-level log. Logs of other models have no such rows and are refused.
pub fn export_csv<R: Read, W: Write>(mut reader: LogReader<R>, out: &mut W) -> Result<u64, ExportError> {
    let Some(part) = reader.header().service_level() else {
        let message = "per-job CSV rows exist for service-level logs only; use --format jsonl";
        return Err(ExportError::Output(io::Error::new(io::ErrorKind::InvalidInput, message)));
    };
    let mut table = JobTable::new(&part.levels);
    writeln!(out, "{CSV_HEADER}")?;
    while let Some(record) = reader.next_record()? {
        if let Some(event) = ServiceLevel::event(&record.body) {
            table.event(&event);
        } else if let Some(decision) = ServiceLevel::decision(&record.body)
            && let Some(row) = table.decision(&decision)
        {
            row.write_csv(out)?;
        }
    }
    Ok(reader.records_read())
}

#[cfg(test)]
mod tests {
    use super::*;
    use kernel::service_level::RejectReason;

    #[test]
    fn rows_are_handed_out_when_final() {
        let mut table = JobTable::new(&[Level::whole(2, 1)]);
        table.event(&Event::Submit { t: 0, job: 1, p: 10, level: 0 });
        assert_eq!(
            table.decision(&Decision::Accept { job: 1, machine: 0, deadline: 20, preempted: None }),
            None
        );
        assert_eq!(table.decision(&Decision::Start { t: 0, job: 1, machine: 0 }), None);
        table.event(&Event::Submit { t: 2, job: 2, p: 1, level: 0 });
        let accept = Decision::Accept { job: 2, machine: 0, deadline: 4, preempted: Some(1) };
        assert_eq!(table.decision(&accept), None);
        table.decision(&Decision::Preempt { t: 2, job: 1, machine: 0 });
        table.decision(&Decision::Start { t: 2, job: 2, machine: 0 });
        table.event(&Event::Submit { t: 2, job: 3, p: 50, level: 5 });
        let rejected =
            table.decision(&Decision::Reject { job: 3, reason: RejectReason::UnknownLevel }).unwrap();
        let mut line = Vec::new();
        rejected.write_csv(&mut line).unwrap();
        assert_eq!(String::from_utf8(line).unwrap(), "0,3,5,2,50,,unknown_level,,,,0\n");
        let two = table.decision(&Decision::Complete { t: 3, job: 2, machine: 0 }).unwrap();
        assert_eq!((two.start, two.completion, two.interruptions), (Some(2), Some(3), 0));
        table.decision(&Decision::Start { t: 3, job: 1, machine: 0 });
        let one = table.decision(&Decision::Complete { t: 11, job: 1, machine: 0 }).unwrap();
        let mut line = Vec::new();
        one.write_csv(&mut line).unwrap();
        assert_eq!(String::from_utf8(line).unwrap(), "0,1,0,0,10,20,accepted,0,0,11,1\n");
        table.event(&Event::Reset);
        table.event(&Event::Submit { t: 0, job: 4, p: 1, level: 0 });
        let four = table.decision(&Decision::Reject { job: 4, reason: RejectReason::QueueFull }).unwrap();
        assert_eq!((four.window, four.outcome.as_str()), (1, "queue_full"));
    }
}
