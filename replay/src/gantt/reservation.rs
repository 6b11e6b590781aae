//! The reservation model's chart: one row per node of the pool. The kernel counts
//! nodes and does not name them, so the chart lays reservations out itself: in order
//! of their start, each takes the lowest-numbered nodes free at that instant, and is
//! drawn as one rectangle per band of consecutive nodes (one band, unless the pool is
//! fragmented). Rows are therefore drawing positions, not physical nodes; what the
//! chart shows faithfully is when each reservation ran, how many nodes it held, and
//! how it ended (on time, early finishes included; cut at its end; or past its
//! deadline, which the kernel never does).

use std::collections::HashMap;
use std::io::Read;
use std::ops::Range;

use kernel::Tick;
use kernel::log::Body;
use kernel::reservation::{Decision, Event};

use super::{
    Bar, Chart, Drawn, GanttError, Mark, MarkKind, Options, Outcome, Position, chosen_rows, overlaps,
};
use super::{Drawing, chart};
use crate::contract::Reservation;
use crate::format::{LogReader, ReservationHeader};

/// A run before it is given nodes (the SLA chart lays its runs out the same way).
#[derive(Clone, Copy, Debug)]
pub(super) struct Run {
    pub order: u64,
    pub job: u32,
    pub nodes: u32,
    pub start: Tick,
    pub end: Tick,
    pub outcome: Outcome,
}

#[derive(Debug, Default)]
struct State {
    /// Requested job -> (nodes, deadline), until it ends or is rejected.
    requests: HashMap<u32, (u32, Tick)>,
    /// Running job -> (start order, start).
    running: HashMap<u32, (u64, Tick)>,
    starts: u64,
    last_request: Tick,
    runs: Vec<Run>,
    marks: Vec<Mark>,
}

impl Drawn for Reservation {
    /// Streams a reservation log into its chart.
    fn collect<R: Read>(
        mut reader: LogReader<R>,
        header: &ReservationHeader,
        options: &Options,
    ) -> Result<Chart, GanttError> {
        let pool = header.config.nodes;
        let rows = chosen_rows(options, pool, "node")?;
        let mut position = Position::default();
        let mut state = State::default();
        while let Some(record) = reader.next_record()? {
            match record.body {
                Body::ReservationEvent(event) => {
                    if !position.event(event.time(), options) {
                        break;
                    }
                    if let Event::Request(request) = event
                        && position.in_window(options)
                    {
                        position.saw(request.t);
                        state.last_request = request.t;
                        state.requests.insert(request.job, (request.nodes, request.deadline));
                        options.mark(&mut state.marks, request.t, request.job, MarkKind::Submit);
                    }
                }
                Body::ReservationDecision(decision) if position.in_window(options) => {
                    decision_into(decision, &mut state, &mut position, options);
                }
                _ => {}
            }
            super::within_bar_limit(state.runs.len())?;
        }
        let to = position.end(options)?;
        let mut open: Vec<(u32, (u64, Tick))> = state.running.drain().collect();
        open.sort_unstable();
        for (job, (order, start)) in open {
            let nodes = state.requests.get(&job).map_or(1, |r| r.0);
            if start < to {
                state.runs.push(Run { order, job, nodes, start, end: to, outcome: Outcome::Open });
            }
        }
        let bars = lay_out(state.runs, pool, &rows, options.from, to);
        // Late is drawn if a log has it (the audit refuses such a log), and listed then.
        let outcomes = vec![Outcome::OnTime, Outcome::Cut, Outcome::Late, Outcome::Open];
        let drawing = Drawing { bars, marks: state.marks, outcomes, ..Drawing::default() };
        Ok(chart(reader.header(), &format!("pool of {pool} nodes"), "node", rows, options, to, drawing))
    }
}

fn decision_into(decision: Decision, state: &mut State, position: &mut Position, options: &Options) {
    match decision {
        Decision::Reject { job, .. } => {
            state.requests.remove(&job);
            options.mark(&mut state.marks, state.last_request, job, MarkKind::Reject);
        }
        Decision::Start { t, job } => {
            position.saw(t);
            state.running.insert(job, (state.starts, t));
            state.starts += 1;
        }
        Decision::End { t, job, cut, .. } => {
            position.saw(t);
            let Some((order, start)) = state.running.remove(&job) else { return };
            let (nodes, deadline) = state.requests.remove(&job).unwrap_or((1, Tick::MAX));
            let outcome = if cut {
                Outcome::Cut
            } else if t > deadline {
                Outcome::Late
            } else {
                Outcome::OnTime
            };
            if overlaps(start, t, options.from, options.to) {
                state.runs.push(Run { order, job, nodes, start, end: t, outcome });
            }
        }
        Decision::Accept { .. } | Decision::Offer { .. } | Decision::Replan { .. } | Decision::Fix { .. } => {
        }
    }
}

/// Gives each run, in start order, the lowest-numbered nodes free at its start, and
/// returns one bar per band of consecutive nodes inside `rows`, clipped to the range.
pub(super) fn lay_out(mut runs: Vec<Run>, pool: u32, rows: &Range<u32>, from: Tick, to: Tick) -> Vec<Bar> {
    runs.sort_by_key(|r| (r.start, r.order));
    let mut free_from: Vec<Tick> = vec![0; pool as usize];
    let mut bars = Vec::new();
    for run in runs {
        let mut taken: Vec<u32> =
            (0..pool).filter(|&n| free_from[n as usize] <= run.start).take(run.nodes as usize).collect();
        if taken.len() < run.nodes as usize {
            // Only a log that overfills the pool gets here; draw it on the
            // earliest-freed nodes so that it still shows (overlapping).
            let mut by_free: Vec<u32> = (0..pool).collect();
            by_free.sort_by_key(|&n| (free_from[n as usize], n));
            taken = by_free.into_iter().take(run.nodes as usize).collect();
            taken.sort_unstable();
        }
        for &n in &taken {
            free_from[n as usize] = run.end;
        }
        for band in bands(&taken) {
            let clipped = band.start.max(rows.start)..band.end.min(rows.end);
            if clipped.start < clipped.end {
                let (start, end) = (run.start.max(from), run.end.min(to));
                bars.push(Bar { job: run.job, rows: clipped, start, end, outcome: run.outcome, class: None });
            }
        }
    }
    bars
}

/// Sorted node numbers as ranges of consecutive ones.
pub(super) fn bands(nodes: &[u32]) -> Vec<Range<u32>> {
    let mut bands: Vec<Range<u32>> = Vec::new();
    for &n in nodes {
        match bands.last_mut() {
            Some(last) if last.end == n => last.end = n + 1,
            _ => bands.push(n..n + 1),
        }
    }
    bands
}
