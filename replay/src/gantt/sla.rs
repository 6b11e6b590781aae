//! The SLA model's chart: one row per node of the machine. The kernel counts nodes and
//! does not name them, so the chart lays jobs out as the reservation chart does: in
//! order of their start, each accepted job takes the lowest-numbered nodes free at its
//! start, for `[start, start + tD)`, drawn as one rectangle per band of consecutive
//! nodes. Rows are drawing positions, not physical nodes. Submits are marked at their
//! time, rejections at the time of the event that decided them (the submit, or the
//! plan). A `Reset` starts a new window (a new job set).

use std::collections::HashMap;
use std::io::Read;

use kernel::Tick;
use kernel::log::Body;
use kernel::sla::{Decision, Event, Request};

use super::reservation::{Run, lay_out};
use super::{Chart, Drawn, GanttError, Mark, MarkKind, Options, Outcome, Position, chosen_rows, overlaps};
use crate::contract::Sla;
use crate::format::{LogReader, SlaHeader};

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
        let mut requests: HashMap<u32, Request> = HashMap::new();
        let mut runs: Vec<Run> = Vec::new();
        let mut marks: Vec<Mark> = Vec::new();
        let mut now: Tick = 0;
        while let Some(record) = reader.next_record()? {
            match record.body {
                Body::SlaEvent(event) => {
                    let time = match event {
                        Event::Reset { .. } => None,
                        _ => Some(event.time()),
                    };
                    if !position.event(time, options) {
                        break;
                    }
                    if !position.in_window(options) {
                        continue;
                    }
                    now = event.time();
                    position.saw(now);
                    if let Event::Submit { t, request } = event {
                        requests.insert(request.job, request);
                        if overlaps(t, t, options.from, options.to) {
                            marks.push(Mark { t, job: request.job, kind: MarkKind::Submit });
                        }
                    }
                }
                Body::SlaDecision(decision) if position.in_window(options) => match decision {
                    Decision::Accept { job, start } => {
                        let Some(request) = requests.remove(&job) else { continue };
                        let end = start.saturating_add(request.td);
                        position.saw(end);
                        if overlaps(start, end, options.from, options.to) {
                            let order = runs.len() as u64;
                            runs.push(Run {
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
                        requests.remove(&job);
                        if overlaps(now, now, options.from, options.to) {
                            marks.push(Mark { t: now, job, kind: MarkKind::Reject });
                        }
                    }
                },
                _ => {}
            }
            if runs.len() > super::MAX_BARS {
                return Err(GanttError::TooManyBars);
            }
        }
        let to = position.end(options)?;
        // A run that ends past the range is drawn as running past it, as the other
        // models' charts draw theirs.
        for run in &mut runs {
            if run.end > to {
                run.outcome = Outcome::Open;
            }
        }
        let outcomes = if runs.iter().any(|r| r.outcome == Outcome::Open) {
            vec![Outcome::OnTime, Outcome::Open]
        } else {
            vec![Outcome::OnTime]
        };
        let bars = lay_out(runs, nodes, &rows, options.from, to);
        Ok(Chart {
            title: format!(
                "{}: {nodes} nodes, {}, window {}, t {}..{} s",
                reader.header().input_names(),
                header.config.order,
                options.window,
                options.from,
                to
            ),
            row_noun: "node",
            rows,
            from: options.from,
            to,
            bars,
            marks,
            outcomes,
        })
    }
}
