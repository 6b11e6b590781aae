//! The service-level model's chart: one row per machine, each run from a `Start` to
//! the `Preempt` or `Complete` that closes it on that machine. A completion after the
//! job's deadline (from its `Accept`) is drawn as late; the kernel never makes one,
//! so a late bar in a chart means a log that `replay verify` refuses too.

use std::collections::HashMap;
use std::ops::Range;

use kernel::Tick;
use kernel::service_level::{Decision, Event};

use super::{Bar, Collector, Drawing, Drawn, GanttError, Mark, MarkKind, Options, Outcome, Position};
use super::{chosen_rows, overlaps};
use crate::contract::ServiceLevel;
use crate::format::ServiceLevelHeader;

/// What the collector keeps: only the jobs in flight and what falls in the range.
#[derive(Debug)]
pub struct State {
    machines: u16,
    rows: Range<u32>,
    deadlines: HashMap<u32, Tick>,
    /// Running job -> (machine, start).
    running: HashMap<u32, (u16, Tick)>,
    last_submit: Tick,
    bars: Vec<Bar>,
    marks: Vec<Mark>,
}

impl Drawn for ServiceLevel {
    type Collector = State;
}

impl Collector<ServiceLevel> for State {
    fn new(header: &ServiceLevelHeader, options: &Options) -> Result<Self, GanttError> {
        Ok(Self {
            machines: header.machines,
            rows: chosen_rows(options, u32::from(header.machines), "machine")?,
            deadlines: HashMap::new(),
            running: HashMap::new(),
            last_submit: 0,
            bars: Vec::new(),
            marks: Vec::new(),
        })
    }

    fn event(&mut self, event: &Event, position: &mut Position, options: &Options) {
        if let Event::Submit { t, job, .. } = *event {
            position.saw(t);
            self.last_submit = t;
            options.mark(&mut self.marks, t, job, MarkKind::Submit);
        }
    }

    fn decision(&mut self, decision: &Decision, position: &mut Position, options: &Options) {
        match *decision {
            Decision::Accept { job, deadline, .. } => {
                self.deadlines.insert(job, deadline);
            }
            Decision::Reject { job, .. } => {
                options.mark(&mut self.marks, self.last_submit, job, MarkKind::Reject);
            }
            Decision::Start { t, job, machine } => {
                position.saw(t);
                self.running.insert(job, (machine, t));
            }
            Decision::Preempt { t, job, .. } => {
                position.saw(t);
                self.close(job, t, Outcome::Preempted, options);
            }
            Decision::Complete { t, job, .. } => {
                position.saw(t);
                let late = self.deadlines.remove(&job).is_some_and(|d| t > d);
                self.close(job, t, if late { Outcome::Late } else { Outcome::OnTime }, options);
            }
        }
    }

    fn runs(&self) -> usize {
        self.bars.len()
    }

    fn finish(mut self, to: Tick, options: &Options) -> Drawing {
        let mut open: Vec<(u32, (u16, Tick))> = self.running.drain().collect();
        open.sort_unstable();
        for (job, (machine, start)) in open {
            let row = u32::from(machine);
            if self.rows.contains(&row) && start < to {
                self.bars.push(Bar {
                    job,
                    rows: row..row + 1,
                    start: start.max(options.from),
                    end: to,
                    outcome: Outcome::Open,
                    class: None,
                });
            }
        }
        self.bars.sort_by_key(|b| (b.start, b.rows.start, b.job));
        let machines = self.machines;
        Drawing {
            what: format!("{machines} machine{}", if machines == 1 { "" } else { "s" }),
            row_noun: "machine",
            rows: self.rows,
            bars: self.bars,
            marks: self.marks,
            outcomes: vec![Outcome::OnTime, Outcome::Preempted, Outcome::Late, Outcome::Open],
            ..Drawing::default()
        }
    }
}

impl State {
    /// Ends `job`'s run on its machine at `t`, as `outcome`.
    fn close(&mut self, job: u32, t: Tick, outcome: Outcome, options: &Options) {
        let Some((machine, start)) = self.running.remove(&job) else { return };
        let row = u32::from(machine);
        if self.rows.contains(&row) && overlaps(start, t, options.from, options.to) {
            let end = options.to.map_or(t, |to| t.min(to));
            self.bars.push(Bar {
                job,
                rows: row..row + 1,
                start: start.max(options.from),
                end,
                outcome,
                class: None,
            });
        }
    }
}
