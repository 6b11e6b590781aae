//! The SLA model's chart: one row per node of the machine. The kernel counts nodes and
//! does not name them, so the chart lays jobs out as the reservation chart does ([`super::layout`]): in
//! order of their start, each accepted job takes the lowest-numbered nodes free at its
//! start, for `[start, start + tD)`, drawn as one rectangle per band of consecutive
//! nodes. Rows are drawing positions, not physical nodes. Submits are marked at their
//! time, rejections at the time of the event that decided them (the submit, or the
//! plan). A `Reset` starts a new window (a new job set).

use std::collections::HashMap;
use std::ops::Range;

use kernel::Tick;
use kernel::sla::{Decision, Event, Request};

use super::layout::{Run, lay_out};
use super::{Collector, Drawing, Drawn, GanttError, Mark, MarkKind, Options, Outcome, Position};
use super::{chosen_rows, overlaps};
use crate::contract::Sla;
use crate::format::SlaHeader;

/// What the collector keeps while it streams the log.
#[derive(Debug)]
pub struct State {
    nodes: u32,
    rows: Range<u32>,
    /// What the title says of the machine: its nodes and its order.
    what: String,
    /// Submitted job -> its request, until it is accepted or rejected.
    requests: HashMap<u32, Request>,
    runs: Vec<Run>,
    marks: Vec<Mark>,
    /// The time of the chosen window's latest event: a rejection is marked at it, the
    /// time of the submit or the plan that decided it.
    now: Tick,
}

impl Drawn for Sla {
    type Collector = State;

    /// A reset has a time, but starts the next window all the same.
    fn window_time(event: &Event) -> Option<Tick> {
        match event {
            Event::Reset { .. } => None,
            _ => Some(event.time()),
        }
    }
}

impl Collector<Sla> for State {
    fn new(header: &SlaHeader, options: &Options) -> Result<Self, GanttError> {
        let nodes = header.config.nodes;
        Ok(Self {
            nodes,
            rows: chosen_rows(options, nodes, "node")?,
            what: format!("{nodes} nodes, {}", header.config.order),
            requests: HashMap::new(),
            runs: Vec::new(),
            marks: Vec::new(),
            now: 0,
        })
    }

    /// A submit keeps its request and is marked.
    fn event(&mut self, event: &Event, position: &mut Position, options: &Options) {
        self.now = event.time();
        position.saw(self.now);
        if let Event::Submit { t, request } = *event {
            self.requests.insert(request.job, request);
            options.mark(&mut self.marks, t, request.job, MarkKind::Submit);
        }
    }

    /// An accepted job becomes a run over `[start, start + tD)`, a rejected one a mark.
    fn decision(&mut self, decision: &Decision, position: &mut Position, options: &Options) {
        match *decision {
            Decision::Accept { job, start } => {
                let Some(request) = self.requests.remove(&job) else { return };
                let end = start.saturating_add(request.td);
                position.saw(end);
                if overlaps(start, end, options.from, options.to) {
                    let order = self.runs.len() as u64;
                    let (own, nodes, outcome) = (0..self.nodes, request.ncpu, Outcome::OnTime);
                    self.runs.push(Run { order, job, own, nodes, start, end, outcome, class: None });
                }
            }
            Decision::Reject { job, .. } => {
                self.requests.remove(&job);
                options.mark(&mut self.marks, self.now, job, MarkKind::Reject);
            }
        }
    }

    fn runs(&self) -> usize {
        self.runs.len()
    }

    fn finish(mut self, to: Tick, options: &Options) -> Drawing {
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
        Drawing {
            what: self.what,
            row_noun: "node",
            bars: lay_out(self.runs, self.nodes, &self.rows, options.from, to),
            rows: self.rows,
            marks: self.marks,
            outcomes,
            ..Drawing::default()
        }
    }
}
