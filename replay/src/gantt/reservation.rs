//! The reservation model's chart: one row per node of the pool. The kernel counts
//! nodes and does not name them, so the chart lays reservations out itself
//! ([`super::layout`]): in order of their start, each takes the lowest-numbered nodes
//! free at that instant, and is drawn as one rectangle per band of consecutive nodes
//! (one band, unless the pool is fragmented). Rows are drawing positions, not
//! physical nodes; what the chart shows faithfully is when each reservation ran, how
//! many nodes it held, and how it ended (on time, early finishes included; cut at its
//! end; or past its deadline, which the kernel never does).

use std::collections::HashMap;
use std::ops::Range;

use kernel::Tick;
use kernel::reservation::{Decision, Event};

use super::layout::{Run, lay_out};
use super::{Collector, Drawing, Drawn, GanttError, Mark, MarkKind, Options, Outcome, Position};
use super::{chosen_rows, overlaps};
use crate::contract::Reservation;
use crate::format::ReservationHeader;

/// What the collector keeps while the log streams by.
#[derive(Debug)]
pub struct State {
    pool: u32,
    rows: Range<u32>,
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
    type Collector = State;
}

impl Collector<Reservation> for State {
    fn new(header: &ReservationHeader, options: &Options) -> Result<Self, GanttError> {
        let pool = header.config.nodes;
        Ok(Self {
            pool,
            rows: chosen_rows(options, pool, "node")?,
            requests: HashMap::new(),
            running: HashMap::new(),
            starts: 0,
            last_request: 0,
            runs: Vec::new(),
            marks: Vec::new(),
        })
    }

    fn event(&mut self, event: &Event, position: &mut Position, options: &Options) {
        if let Event::Request(request) = *event {
            position.saw(request.t);
            self.last_request = request.t;
            self.requests.insert(request.job, (request.nodes, request.deadline));
            options.mark(&mut self.marks, request.t, request.job, MarkKind::Submit);
        }
    }

    fn decision(&mut self, decision: &Decision, position: &mut Position, options: &Options) {
        match *decision {
            Decision::Reject { job, .. } => {
                self.requests.remove(&job);
                options.mark(&mut self.marks, self.last_request, job, MarkKind::Reject);
            }
            Decision::Start { t, job } => {
                position.saw(t);
                self.running.insert(job, (self.starts, t));
                self.starts += 1;
            }
            Decision::End { t, job, cut, .. } => {
                position.saw(t);
                let Some((order, start)) = self.running.remove(&job) else { return };
                let (nodes, deadline) = self.requests.remove(&job).unwrap_or((1, Tick::MAX));
                let outcome = if cut {
                    Outcome::Cut
                } else if t > deadline {
                    Outcome::Late
                } else {
                    Outcome::OnTime
                };
                if overlaps(start, t, options.from, options.to) {
                    self.runs.push(self.run(order, job, nodes, (start, t), outcome));
                }
            }
            Decision::Accept { .. }
            | Decision::Offer { .. }
            | Decision::Replan { .. }
            | Decision::Fix { .. } => {}
        }
    }

    fn runs(&self) -> usize {
        self.runs.len()
    }

    fn finish(mut self, to: Tick, options: &Options) -> Drawing {
        let mut open: Vec<(u32, (u64, Tick))> = self.running.drain().collect();
        open.sort_unstable();
        for (job, (order, start)) in open {
            let nodes = self.requests.get(&job).map_or(1, |r| r.0);
            if start < to {
                self.runs.push(self.run(order, job, nodes, (start, to), Outcome::Open));
            }
        }
        let pool = self.pool;
        Drawing {
            what: format!("pool of {pool} nodes"),
            row_noun: "node",
            bars: lay_out(self.runs, pool, &self.rows, options.from, to),
            rows: self.rows,
            marks: self.marks,
            // Late is drawn if a log has it (the audit refuses such a log), and listed then.
            outcomes: vec![Outcome::OnTime, Outcome::Cut, Outcome::Late, Outcome::Open],
            ..Drawing::default()
        }
    }
}

impl State {
    /// A run of `nodes` of the pool over `[start, end)`.
    fn run(&self, order: u64, job: u32, nodes: u32, (start, end): (Tick, Tick), outcome: Outcome) -> Run {
        Run { order, job, own: 0..self.pool, nodes, start, end, outcome, class: None }
    }
}
