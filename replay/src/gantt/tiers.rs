//! The tiers model's chart: one row per node, resource by resource in index order (a
//! cluster of three nodes is three rows, each desktop one), each row named by its
//! group (`cluster n0`, `desktop 4`) and a line between the groups. Each bar carries
//! its job's tier (Gold, Silver, Bronze), from the job's submit. A tiers job runs on one
//! node of the resource it was placed on; the kernel counts a resource's nodes and does
//! not name them, so each run takes the lowest-numbered row of its resource free at its
//! start, as the reservation chart does. Bars: on time, late (ended past its deadline),
//! or lost (its desktop left while it ran).

use std::collections::HashMap;
use std::io::Read;
use std::ops::Range;

use kernel::Tick;
use kernel::log::Body;
use kernel::tiers::{Decision, Event, Group, Resource, Tier};

use super::{
    Bar, Chart, Class, Drawn, GanttError, Mark, MarkKind, Options, Outcome, Position, chosen_rows, overlaps,
};
use super::{Drawing, chart};
use crate::contract::Tiers;
use crate::format::{LogReader, TiersHeader};

/// A run before it is given a row.
#[derive(Clone, Copy, Debug)]
struct Run {
    order: u64,
    job: u32,
    resource: u8,
    start: Tick,
    end: Tick,
    outcome: Outcome,
    class: Option<Class>,
}

#[derive(Debug, Default)]
struct State {
    /// Submitted job -> its tier, until it ends.
    tiers: HashMap<u32, Class>,
    /// Accepted job -> the resource of its latest placement.
    placed: HashMap<u32, u8>,
    /// Running job -> (start order, resource, start).
    running: HashMap<u32, (u64, u8, Tick)>,
    starts: u64,
    last_submit: Tick,
    runs: Vec<Run>,
    marks: Vec<Mark>,
}

impl Drawn for Tiers {
    /// Streams a tiers log into its chart.
    fn collect<R: Read>(
        mut reader: LogReader<R>,
        header: &TiersHeader,
        options: &Options,
    ) -> Result<Chart, GanttError> {
        // The first row of each resource, and the rows in all.
        let mut first_row = Vec::with_capacity(header.resources.len());
        let mut total: u32 = 0;
        for resource in &header.resources {
            first_row.push(total);
            total = total.saturating_add(resource.nodes);
        }
        let rows = chosen_rows(options, total, "node")?;
        let mut position = Position::default();
        let mut state = State::default();
        while let Some(record) = reader.next_record()? {
            match record.body {
                Body::TiersEvent(event) => {
                    if !position.event(event.time(), options) {
                        break;
                    }
                    if let Event::Submit(request) = event
                        && position.in_window(options)
                    {
                        position.saw(request.t);
                        state.last_submit = request.t;
                        state.tiers.insert(request.job, class(request.tier));
                        options.mark(&mut state.marks, request.t, request.job, MarkKind::Submit);
                    }
                }
                Body::TiersDecision(decision) if position.in_window(options) => {
                    decision_into(decision, &mut state, &mut position, options);
                }
                _ => {}
            }
            super::within_bar_limit(state.runs.len())?;
        }
        let to = position.end(options)?;
        let mut open: Vec<(u32, (u64, u8, Tick))> = state.running.drain().collect();
        open.sort_unstable();
        for (job, (order, resource, start)) in open {
            if start < to {
                let class = state.tiers.get(&job).copied();
                state.runs.push(Run { order, job, resource, start, end: to, outcome: Outcome::Open, class });
            }
        }
        let nodes: Vec<u32> = header.resources.iter().map(|r| r.nodes).collect();
        let bars = lay_out(state.runs, &first_row, &nodes, &rows, options.from, to);
        let what = format!("{} resources, {total} nodes", header.resources.len());
        let outcomes = vec![Outcome::OnTime, Outcome::Late, Outcome::Lost, Outcome::Open];
        let (row_names, group_starts) = row_names(&header.resources, &first_row);
        let drawing = Drawing { bars, marks: state.marks, outcomes, row_names, group_starts };
        Ok(chart(reader.header(), &what, "node", rows, options, to, drawing))
    }
}

fn class(tier: Tier) -> Class {
    match tier {
        Tier::Gold => Class::Gold,
        Tier::Silver => Class::Silver,
        Tier::Bronze => Class::Bronze,
    }
}

/// Each row's name, by its resource's group (`cluster` for the high-confidence group,
/// `desktop` for the low one) and the resource's number within it (left out when the
/// group has one resource), then the node's within the resource when it has several:
/// `cluster n2`, `desktop 4`; and the first row of each group after the first.
fn row_names(resources: &[Resource], first_row: &[u32]) -> (Vec<String>, Vec<u32>) {
    let mut names = Vec::new();
    let mut starts = Vec::new();
    let mut seen: [u32; 2] = [0; 2];
    let count = |g: Group| resources.iter().filter(|r| r.group == g).count();
    for (i, resource) in resources.iter().enumerate() {
        let (noun, slot) = match resource.group {
            Group::High => ("cluster", 0),
            Group::Low => ("desktop", 1),
        };
        if i > 0 && resources.get(i - 1).is_some_and(|p| p.group != resource.group) {
            starts.extend(first_row.get(i));
        }
        let index = seen.get(slot).copied().unwrap_or(0);
        if let Some(s) = seen.get_mut(slot) {
            *s += 1;
        }
        let numbered = if count(resource.group) > 1 { format!("{noun} {index}") } else { noun.to_owned() };
        for node in 0..resource.nodes {
            names.push(if resource.nodes > 1 { format!("{numbered} n{node}") } else { numbered.clone() });
        }
    }
    (names, starts)
}

fn decision_into(decision: Decision, state: &mut State, position: &mut Position, options: &Options) {
    let mut close = |state: &mut State, job: u32, t: Tick, outcome: Outcome| {
        position.saw(t);
        let Some((order, resource, start)) = state.running.remove(&job) else { return };
        if overlaps(start, t, options.from, options.to) {
            let class = state.tiers.get(&job).copied();
            state.runs.push(Run { order, job, resource, start, end: t, outcome, class });
        }
    };
    match decision {
        Decision::Accept { job, resource, .. }
        | Decision::Move { job, resource, .. }
        | Decision::Replace { job, resource, .. } => {
            state.placed.insert(job, resource);
        }
        Decision::Reject { job, .. } => {
            state.tiers.remove(&job);
            options.mark(&mut state.marks, state.last_submit, job, MarkKind::Reject);
        }
        Decision::Start { t, job } => {
            position.saw(t);
            let resource = state.placed.get(&job).copied().unwrap_or(0);
            state.running.insert(job, (state.starts, resource, t));
            state.starts += 1;
        }
        Decision::End { t, job, late } => {
            state.placed.remove(&job);
            close(state, job, t, if late { Outcome::Late } else { Outcome::OnTime });
            state.tiers.remove(&job);
        }
        Decision::Lost { t, job, running } => {
            if running {
                close(state, job, t, Outcome::Lost);
            }
        }
        Decision::Violate { t, job, .. } => {
            // A job violated while running ends here; one violated while waiting drew
            // nothing yet.
            close(state, job, t, Outcome::Late);
        }
    }
}

/// Gives each run, in start order, the lowest-numbered row of its resource free at its
/// start, and returns the bars inside `rows`, clipped to the range.
fn lay_out(
    mut runs: Vec<Run>,
    first_row: &[u32],
    nodes: &[u32],
    rows: &Range<u32>,
    from: Tick,
    to: Tick,
) -> Vec<Bar> {
    runs.sort_by_key(|r| (r.start, r.order));
    let total = first_row.last().zip(nodes.last()).map_or(0, |(f, n)| f + n);
    let mut free_from: Vec<Tick> = vec![0; total as usize];
    let mut bars = Vec::new();
    for run in runs {
        let index = usize::from(run.resource);
        let (Some(&first), Some(&count)) = (first_row.get(index), nodes.get(index)) else { continue };
        let own = first..first + count;
        // A resource over its nodes (only a log the audit refuses) draws on the
        // earliest-freed row, overlapping.
        let row = own
            .clone()
            .find(|&n| free_from[n as usize] <= run.start)
            .or_else(|| own.clone().min_by_key(|&n| (free_from[n as usize], n)));
        let Some(row) = row else { continue };
        free_from[row as usize] = run.end;
        if rows.contains(&row) {
            let (start, end) = (run.start.max(from), run.end.min(to));
            bars.push(Bar {
                job: run.job,
                rows: row..row + 1,
                start,
                end,
                outcome: run.outcome,
                class: run.class,
            });
        }
    }
    bars
}
