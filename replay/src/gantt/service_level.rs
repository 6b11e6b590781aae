//! The service-level model's chart: one row per machine, each run from a `Start` to
//! the `Preempt` or `Complete` that closes it on that machine. A completion after the
//! job's deadline (from its `Accept`) is drawn as late; the kernel never makes one,
//! so a late bar in a chart means a log that `replay verify` refuses too.

use std::collections::HashMap;
use std::io::Read;

use kernel::Tick;
use kernel::log::Body;
use kernel::service_level::{Decision, Event};

use super::{
    Bar, Chart, Drawn, GanttError, Mark, MarkKind, Options, Outcome, Position, chosen_rows, overlaps,
};
use super::{Drawing, chart};
use crate::contract::ServiceLevel;
use crate::format::{LogReader, ServiceLevelHeader};

/// What the collector keeps: only the jobs in flight and what falls in the range.
#[derive(Debug, Default)]
struct State {
    deadlines: HashMap<u32, Tick>,
    /// Running job -> (machine, start).
    running: HashMap<u32, (u16, Tick)>,
    last_submit: Tick,
    bars: Vec<Bar>,
    marks: Vec<Mark>,
}

impl State {
    fn close(&mut self, job: u32, t: Tick, outcome: Outcome, options: &Options, rows: &std::ops::Range<u32>) {
        let Some((machine, start)) = self.running.remove(&job) else { return };
        let row = u32::from(machine);
        if rows.contains(&row) && overlaps(start, t, options.from, options.to) {
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

    fn mark(&mut self, t: Tick, job: u32, kind: MarkKind, options: &Options) {
        options.mark(&mut self.marks, t, job, kind);
    }
}

impl Drawn for ServiceLevel {
    /// Streams a service-level log into its chart.
    fn collect<R: Read>(
        mut reader: LogReader<R>,
        header: &ServiceLevelHeader,
        options: &Options,
    ) -> Result<Chart, GanttError> {
        let rows = chosen_rows(options, u32::from(header.machines), "machine")?;
        let mut position = Position::default();
        let mut state = State::default();
        while let Some(record) = reader.next_record()? {
            match record.body {
                Body::Event(event) => {
                    if !position.event(event.time(), options) {
                        break;
                    }
                    if let Event::Submit { t, job, .. } = event
                        && position.in_window(options)
                    {
                        position.saw(t);
                        state.last_submit = t;
                        state.mark(t, job, MarkKind::Submit, options);
                    }
                }
                Body::Decision(decision) if position.in_window(options) => {
                    decision_into(decision, &mut state, &mut position, options, &rows);
                }
                _ => {}
            }
            super::within_bar_limit(state.bars.len())?;
        }
        let to = position.end(options)?;
        let mut open: Vec<(u32, (u16, Tick))> = state.running.drain().collect();
        open.sort_unstable();
        for (job, (machine, start)) in open {
            let row = u32::from(machine);
            if rows.contains(&row) && start < to {
                state.bars.push(Bar {
                    job,
                    rows: row..row + 1,
                    start: start.max(options.from),
                    end: to,
                    outcome: Outcome::Open,
                    class: None,
                });
            }
        }
        state.bars.sort_by_key(|b| (b.start, b.rows.start, b.job));
        let what = format!("{} machine{}", header.machines, if header.machines == 1 { "" } else { "s" });
        let outcomes = vec![Outcome::OnTime, Outcome::Preempted, Outcome::Late, Outcome::Open];
        let drawing = Drawing { bars: state.bars, marks: state.marks, outcomes, ..Drawing::default() };
        Ok(chart(reader.header(), &what, "machine", rows, options, to, drawing))
    }
}

fn decision_into(
    decision: Decision,
    state: &mut State,
    position: &mut Position,
    options: &Options,
    rows: &std::ops::Range<u32>,
) {
    match decision {
        Decision::Accept { job, deadline, .. } => {
            state.deadlines.insert(job, deadline);
        }
        Decision::Reject { job, .. } => {
            let t = state.last_submit;
            state.mark(t, job, MarkKind::Reject, options);
        }
        Decision::Start { t, job, machine } => {
            position.saw(t);
            state.running.insert(job, (machine, t));
        }
        Decision::Preempt { t, job, .. } => {
            position.saw(t);
            state.close(job, t, Outcome::Preempted, options, rows);
        }
        Decision::Complete { t, job, .. } => {
            position.saw(t);
            let late = state.deadlines.remove(&job).is_some_and(|d| t > d);
            state.close(job, t, if late { Outcome::Late } else { Outcome::OnTime }, options, rows);
        }
    }
}
