//! `replay export --format batsim`: the table as Batsim's `jobs.csv`, which evalys
//! (`JobSet.from_csv`) and Batsim's other tools read.
//!
//! One row per piece of work, so that a table built from it (a Gantt chart, a
//! utilisation) is the run's: a job that ran in one piece is `job_id` `J`; one that ran
//! in `n > 1` pieces is `J#1` ... `J#n` (Batsim's spelling of a job's attempts), and
//! only its last piece that finished has `success` 1. A request that never ran
//! (rejected, or accepted and never started) is one row with `-1` for every time and
//! an empty `allocated_resources`, as Batsim writes a job that did not run; its
//! `final_state` says why (`REJECTED`, `SUBMITTED`). `metadata` holds the reject
//! reason, or `late` or `lost`. `workload_name` is `w` and the window's number.
//!
//! `allocated_resources` is a processor set (`0-3 7`). The processors are numbered
//! place after place ([`super::Tabled::places`]): a service level's machine is one
//! processor, a tiers resource its nodes, a reservation or SLA pool all of its nodes.
//! The log says at which place a piece ran (the pool, where the model only counts
//! nodes), not on which of its processors: the pieces of a window are given the
//! lowest free processors of their place in the order they start. The kernel never
//! holds more of a place than it has, so they always fit.
//!
//! A window's rows are written when it ends, ordered by submit time, then job.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{Read, Write};

use kernel::{JobId, Tick};
use serde::Serialize;

use super::{JobRow, JobSink, Segment, csv_error, tabulate};
use crate::export::ExportError;
use crate::format::LogReader;

/// Writes the log's Batsim table to `out`.
pub fn export<R: Read, W: Write>(reader: LogReader<R>, out: &mut W) -> Result<u64, ExportError> {
    let places = super::places(reader.header());
    let out = super::headed(out, &BATSIM_COLUMNS)?;
    let mut sink = Batsim { out, places, rows: Vec::new(), pieces: BTreeMap::new() };
    let read = tabulate(reader, &mut sink)?;
    sink.out.flush()?;
    Ok(read)
}

/// Batsim's `jobs.csv` columns, in its order: [`BatsimRow`]'s fields.
pub const BATSIM_COLUMNS: [&str; 16] = [
    "job_id",
    "workload_name",
    "submission_time",
    "requested_number_of_resources",
    "requested_time",
    "success",
    "final_state",
    "starting_time",
    "execution_time",
    "finish_time",
    "waiting_time",
    "turnaround_time",
    "stretch",
    "allocated_resources",
    "consumed_energy",
    "metadata",
];

/// One row of Batsim's `jobs.csv`, its columns in Batsim's order.
#[derive(Serialize)]
struct BatsimRow<'a> {
    job_id: String,
    workload_name: String,
    submission_time: Tick,
    requested_number_of_resources: u32,
    requested_time: Tick,
    success: u8,
    final_state: &'static str,
    starting_time: i128,
    execution_time: i128,
    finish_time: i128,
    waiting_time: i128,
    turnaround_time: i128,
    stretch: f64,
    allocated_resources: &'a str,
    consumed_energy: i8,
    metadata: &'a str,
}

/// Collects a window's rows and pieces, and writes them when it ends.
struct Batsim<W: Write> {
    out: csv::Writer<W>,
    /// The processors of each place.
    places: Vec<u32>,
    rows: Vec<JobRow>,
    pieces: BTreeMap<(JobId, u64), Vec<(Segment, String)>>,
}

impl<W: Write> JobSink for Batsim<W> {
    fn job(&mut self, row: &JobRow) -> Result<(), ExportError> {
        self.rows.push(row.clone());
        Ok(())
    }

    fn segment(&mut self, segment: &Segment) -> Result<(), ExportError> {
        let key = (segment.job, segment.window);
        self.pieces.entry(key).or_default().push((segment.clone(), String::new()));
        Ok(())
    }

    fn window_end(&mut self) -> Result<(), ExportError> {
        allocate(&mut self.pieces, &self.places);
        let mut rows = std::mem::take(&mut self.rows);
        rows.sort_by_key(|row| (row.submit, row.job));
        for row in &rows {
            let pieces = self.pieces.remove(&(row.job, row.window)).unwrap_or_default();
            self.write_job(row, &pieces)?;
        }
        self.pieces.clear();
        Ok(())
    }
}

impl<W: Write> Batsim<W> {
    fn write_job(&mut self, row: &JobRow, pieces: &[(Segment, String)]) -> Result<(), ExportError> {
        let metadata = if row.outcome == "accepted" { "" } else { row.reason_or_outcome() };
        let workload_name = format!("w{}", row.window);
        if pieces.is_empty() {
            let final_state = if row.outcome == "rejected" { "REJECTED" } else { "SUBMITTED" };
            let never = BatsimRow::never(row, workload_name, final_state, metadata);
            return Ok(self.out.serialize(never).map_err(csv_error)?);
        }
        for (segment, resources) in pieces {
            let job_id = match pieces.len() {
                1 => row.job.to_string(),
                _ => format!("{}#{}", row.job, segment.piece),
            };
            let finished = segment.how == "finished";
            let (start, end, submit) =
                (i128::from(segment.start), i128::from(segment.end), i128::from(row.submit));
            let execution = end - start;
            let record = BatsimRow {
                job_id,
                workload_name: workload_name.clone(),
                submission_time: row.submit,
                requested_number_of_resources: row.size,
                requested_time: row.work,
                success: u8::from(finished),
                final_state: if finished { "COMPLETED_SUCCESSFULLY" } else { "COMPLETED_KILLED" },
                starting_time: start,
                execution_time: execution,
                finish_time: end,
                waiting_time: start - submit,
                turnaround_time: end - submit,
                stretch: if execution > 0 { (end - submit) as f64 / execution as f64 } else { -1.0 },
                allocated_resources: resources,
                consumed_energy: -1,
                metadata,
            };
            self.out.serialize(record).map_err(csv_error)?;
        }
        Ok(())
    }
}

impl<'a> BatsimRow<'a> {
    /// The row of a request that never ran.
    fn never(row: &JobRow, workload_name: String, final_state: &'static str, metadata: &'a str) -> Self {
        Self {
            job_id: row.job.to_string(),
            workload_name,
            submission_time: row.submit,
            requested_number_of_resources: row.size,
            requested_time: row.work,
            success: 0,
            final_state,
            starting_time: -1,
            execution_time: -1,
            finish_time: -1,
            waiting_time: -1,
            turnaround_time: -1,
            stretch: -1.0,
            allocated_resources: "",
            consumed_energy: -1,
            metadata,
        }
    }
}

impl JobRow {
    /// The reject reason, or else the outcome (`late`, `lost`, `pending`).
    fn reason_or_outcome(&self) -> &'static str {
        if self.reason.is_empty() { self.outcome } else { self.reason }
    }
}

/// Gives each piece the lowest free processors of its place when it starts, pieces
/// taken in the order they start (a piece ending at `t` frees its processors for one
/// starting at `t`). A piece that would not fit (never, for a log the kernel wrote)
/// takes processors past every place's, so the excess shows rather than hides.
fn allocate(pieces: &mut BTreeMap<(JobId, u64), Vec<(Segment, String)>>, places: &[u32]) {
    let mut order: Vec<(Tick, Tick, JobId, u64, usize)> = pieces
        .iter()
        .flat_map(|(&(job, window), list)| {
            list.iter().enumerate().map(move |(i, (s, _))| (s.start, s.end, job, window, i))
        })
        .collect();
    order.sort_unstable();
    let mut first = 0u32;
    let mut free: Vec<BTreeSet<u32>> = places
        .iter()
        .map(|&n| {
            let ids = (first..first.saturating_add(n)).collect();
            first = first.saturating_add(n);
            ids
        })
        .collect();
    let mut next_extra = first;
    let mut running: BTreeMap<(Tick, u64), (usize, Vec<u32>)> = BTreeMap::new();
    for (serial, (start, end, job, window, i)) in (0u64..).zip(order) {
        while let Some(entry) = running.first_entry().filter(|e| e.key().0 <= start) {
            let (place, ids) = entry.remove();
            if let Some(set) = free.get_mut(place) {
                set.extend(ids);
            }
        }
        let Some((segment, text)) = pieces.get_mut(&(job, window)).and_then(|list| list.get_mut(i)) else {
            continue;
        };
        let place = segment.place.map_or(0, |p| p as usize);
        let mut taken = Vec::with_capacity(segment.size as usize);
        for _ in 0..segment.size {
            let id = free.get_mut(place).and_then(BTreeSet::pop_first).unwrap_or_else(|| {
                next_extra += 1;
                next_extra - 1
            });
            taken.push(id);
        }
        *text = procset(&taken);
        running.insert((end, serial), (place, taken));
    }
}

/// Processor ids as a processor set: ascending intervals `a-b` (or `a`), spaces between.
fn procset(ids: &[u32]) -> String {
    let mut ids = ids.to_vec();
    ids.sort_unstable();
    let mut parts: Vec<String> = Vec::new();
    let mut iter = ids.into_iter().peekable();
    while let Some(first) = iter.next() {
        let mut last = first;
        while iter.peek() == Some(&(last + 1)) {
            last += 1;
            iter.next();
        }
        parts.push(if first == last { first.to_string() } else { format!("{first}-{last}") });
    }
    parts.join(" ")
}

#[cfg(test)]
mod tests {
    use super::{BATSIM_COLUMNS, BatsimRow, procset};
    use crate::jobs::JobRow;

    #[test]
    fn the_columns_are_the_rows_fields_in_order() {
        let row = JobRow {
            window: 0,
            window_start: 0,
            job: 1,
            class: String::new(),
            submit: 0,
            size: 1,
            work: 1,
            ready: None,
            deadline: None,
            outcome: "rejected",
            reason: "no_room",
            start: None,
            finish: None,
            place: None,
            pieces: 0,
            interruptions: 0,
        };
        let mut csv = csv::Writer::from_writer(Vec::new());
        csv.serialize(BatsimRow::never(&row, "w0".into(), "REJECTED", "no_room")).unwrap();
        let text = String::from_utf8(csv.into_inner().unwrap()).unwrap();
        assert_eq!(text.lines().next(), Some(BATSIM_COLUMNS.join(",").as_str()));
    }

    #[test]
    fn processor_sets_are_ascending_intervals() {
        assert_eq!(procset(&[7, 0, 1, 2, 3, 9, 10]), "0-3 7 9-10");
        assert_eq!(procset(&[4]), "4");
        assert_eq!(procset(&[]), "");
    }
}
