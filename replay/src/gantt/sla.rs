//! The SLA model's chart: one row per node of the machine. The kernel counts nodes and
//! does not name them, so the chart lays jobs out as the reservation chart does: in
//! order of their start, each accepted job takes the lowest-numbered nodes free at its
//! start, for `[start, start + tD)`, drawn as one rectangle per band of consecutive
//! nodes. Rows are drawing positions, not physical nodes. Submits are marked at their
//! time, rejections at the time of the event that decided them (the submit, or the
//! plan). A `Reset` starts a new window (a new job set).

use std::collections::HashMap;
use std::io::Read;
use std::ops::Range;

use kernel::Tick;
use kernel::log::Body;
use kernel::sla::{Decision, Event, Request};

use super::reservation::{Run, lay_out};
use super::{
    Bar, Chart, Drawn, GanttError, Mark, MarkKind, Options, Outcome, Position, chosen_rows, overlaps,
};
use super::{Drawing, chart};
use crate::contract::Sla;
use crate::format::{LogReader, SlaHeader};

/// What the collector keeps while it streams the log.
#[derive(Debug, Default)]
struct State {
    /// Submitted job -> its request, until it is accepted or rejected.
    requests: HashMap<u32, Request>,
    runs: Vec<Run>,
    marks: Vec<Mark>,
    /// The time of the chosen window's latest event: a rejection is marked at it, the
    /// time of the submit or the plan that decided it.
    now: Tick,
}

impl Drawn for Sla {
    /// Streams an SLA log into its chart.
    fn collect<R: Read>(
        mut reader: LogReader<R>,
        header: &SlaHeader,
        options: &Options,
    ) -> Result<Chart, GanttError> {
        let nodes = header.config.nodes;
        let rows = chosen_rows(options, nodes, "node")?;
        let mut position = Position::default();
        let mut state = State::default();
        while let Some(record) = reader.next_record()? {
            if !state.record(record.body, &mut position, options) {
                break;
            }
            super::within_bar_limit(state.runs.len())?;
        }
        let to = position.end(options)?;
        let marks = std::mem::take(&mut state.marks);
        let (bars, outcomes) = state.bars(nodes, &rows, options.from, to);
        let what = format!("{nodes} nodes, {}", header.config.order);
        let drawing = Drawing { bars, marks, outcomes, ..Drawing::default() };
        Ok(chart(reader.header(), &what, "node", rows, options, to, drawing))
    }
}

impl State {
    /// Takes in one record; returns `false` once reading can stop.
    fn record(&mut self, body: Body, position: &mut Position, options: &Options) -> bool {
        match body {
            Body::SlaEvent(event) => return self.event(event, position, options),
            Body::SlaDecision(decision) if position.in_window(options) => {
                self.decision(decision, position, options);
            }
            _ => {}
        }
        true
    }

    /// Takes in one event: a submit keeps its request and is marked. Returns `false`
    /// once reading can stop.
    fn event(&mut self, event: Event, position: &mut Position, options: &Options) -> bool {
        let time = match event {
            Event::Reset { .. } => None,
            _ => Some(event.time()),
        };
        if !position.event(time, options) {
            return false;
        }
        if !position.in_window(options) {
            return true;
        }
        self.now = event.time();
        position.saw(self.now);
        if let Event::Submit { t, request } = event {
            self.requests.insert(request.job, request);
            options.mark(&mut self.marks, t, request.job, MarkKind::Submit);
        }
        true
    }

    /// Takes in one decision of the chosen window: an accepted job becomes a run over
    /// `[start, start + tD)`, a rejected one a mark.
    fn decision(&mut self, decision: Decision, position: &mut Position, options: &Options) {
        match decision {
            Decision::Accept { job, start } => {
                let Some(request) = self.requests.remove(&job) else { return };
                let end = start.saturating_add(request.td);
                position.saw(end);
                if overlaps(start, end, options.from, options.to) {
                    let order = self.runs.len() as u64;
                    self.runs.push(Run {
                        order,
                        job,
                        nodes: request.ncpu,
                        start,
                        end,
                        outcome: Outcome::OnTime,
                    });
                }
            }
            Decision::Reject { job, .. } => {
                self.requests.remove(&job);
                options.mark(&mut self.marks, self.now, job, MarkKind::Reject);
            }
        }
    }

    /// The runs laid out on the rows drawn, and the outcomes the legend lists.
    fn bars(mut self, nodes: u32, rows: &Range<u32>, from: Tick, to: Tick) -> (Vec<Bar>, Vec<Outcome>) {
        // A run that ends past the range is drawn as running past it, as the other
        // models' charts draw theirs.
        for run in &mut self.runs {
            if run.end > to {
                run.outcome = Outcome::Open;
            }
        }
        let outcomes = if self.runs.iter().any(|r| r.outcome == Outcome::Open) {
            vec![Outcome::OnTime, Outcome::Open]
        } else {
            vec![Outcome::OnTime]
        };
        (lay_out(self.runs, nodes, rows, from, to), outcomes)
    }
}
