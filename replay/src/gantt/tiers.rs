//! The tiers model's chart: one row per node, resource by resource in index order (a
//! cluster of three nodes is three rows, each desktop one), each row named by its
//! group (`cluster n0`, `desktop 4`) and a line between the groups. Each bar carries
//! its job's tier (Gold, Silver, Bronze), from the job's submit. A tiers job runs on one
//! node of the resource it was placed on; the kernel counts a resource's nodes and does
//! not name them, so each run takes the lowest-numbered row of its resource free at its
//! start ([`super::layout`]), as the reservation chart does. Bars: on time, late (ended past its deadline),
//! or lost (its desktop left while it ran).

use std::collections::HashMap;
use std::ops::Range;

use kernel::Tick;
use kernel::tiers::{Decision, Event, Group, Resource, Tier};

use super::layout::{Run, lay_out};
use super::{Class, Collector, Drawing, Drawn, GanttError, Mark, MarkKind, Options, Outcome, Position};
use super::{chosen_rows, overlaps};
use crate::contract::Tiers;
use crate::format::TiersHeader;

/// What the collector keeps while the log streams by.
#[derive(Debug)]
pub struct State {
    /// Each resource's rows.
    own: Vec<Range<u32>>,
    /// The rows in all, and those drawn.
    total: u32,
    rows: Range<u32>,
    /// As [`Drawing::row_names`] and [`Drawing::group_starts`].
    row_names: Vec<String>,
    group_starts: Vec<u32>,
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
    type Collector = State;
}

impl Collector<Tiers> for State {
    fn new(header: &TiersHeader, options: &Options) -> Result<Self, GanttError> {
        // The first row of each resource, and the rows in all.
        let mut first_row = Vec::with_capacity(header.resources.len());
        let mut own = Vec::with_capacity(header.resources.len());
        let mut total: u32 = 0;
        for resource in &header.resources {
            first_row.push(total);
            own.push(total..total.saturating_add(resource.nodes));
            total = total.saturating_add(resource.nodes);
        }
        let (row_names, group_starts) = row_names(&header.resources, &first_row);
        Ok(Self {
            own,
            total,
            rows: chosen_rows(options, total, "node")?,
            row_names,
            group_starts,
            tiers: HashMap::new(),
            placed: HashMap::new(),
            running: HashMap::new(),
            starts: 0,
            last_submit: 0,
            runs: Vec::new(),
            marks: Vec::new(),
        })
    }

    fn event(&mut self, event: &Event, position: &mut Position, options: &Options) {
        if let Event::Submit(request) = *event {
            position.saw(request.t);
            self.last_submit = request.t;
            self.tiers.insert(request.job, class(request.tier));
            options.mark(&mut self.marks, request.t, request.job, MarkKind::Submit);
        }
    }

    fn decision(&mut self, decision: &Decision, position: &mut Position, options: &Options) {
        match *decision {
            Decision::Accept { job, resource, .. }
            | Decision::Move { job, resource, .. }
            | Decision::Replace { job, resource, .. } => {
                self.placed.insert(job, resource);
            }
            Decision::Reject { job, .. } => {
                self.tiers.remove(&job);
                options.mark(&mut self.marks, self.last_submit, job, MarkKind::Reject);
            }
            Decision::Start { t, job } => {
                position.saw(t);
                let resource = self.placed.get(&job).copied().unwrap_or(0);
                self.running.insert(job, (self.starts, resource, t));
                self.starts += 1;
            }
            Decision::End { t, job, late } => {
                self.placed.remove(&job);
                self.close(job, t, if late { Outcome::Late } else { Outcome::OnTime }, position, options);
                self.tiers.remove(&job);
            }
            Decision::Lost { t, job, running } => {
                if running {
                    self.close(job, t, Outcome::Lost, position, options);
                }
            }
            Decision::Violate { t, job, .. } => {
                // A job violated while running ends here; one violated while waiting drew
                // nothing yet.
                self.close(job, t, Outcome::Late, position, options);
            }
        }
    }

    fn runs(&self) -> usize {
        self.runs.len()
    }

    fn finish(mut self, to: Tick, options: &Options) -> Drawing {
        let mut open: Vec<(u32, (u64, u8, Tick))> = self.running.drain().collect();
        open.sort_unstable();
        for (job, (order, resource, start)) in open {
            if start < to {
                self.push(order, job, resource, (start, to), Outcome::Open);
            }
        }
        let (resources, total) = (self.own.len(), self.total);
        Drawing {
            what: format!("{resources} resources, {total} nodes"),
            row_noun: "node",
            bars: lay_out(self.runs, total, &self.rows, options.from, to),
            rows: self.rows,
            marks: self.marks,
            outcomes: vec![Outcome::OnTime, Outcome::Late, Outcome::Lost, Outcome::Open],
            row_names: self.row_names,
            group_starts: self.group_starts,
        }
    }
}

impl State {
    /// Ends `job`'s run at `t`, as `outcome`.
    fn close(&mut self, job: u32, t: Tick, outcome: Outcome, position: &mut Position, options: &Options) {
        position.saw(t);
        let Some((order, resource, start)) = self.running.remove(&job) else { return };
        if overlaps(start, t, options.from, options.to) {
            self.push(order, job, resource, (start, t), outcome);
        }
    }

    /// Keeps a run over `[start, end)` on one node of `resource` (on no row, for a
    /// resource the header lacks).
    fn push(&mut self, order: u64, job: u32, resource: u8, (start, end): (Tick, Tick), outcome: Outcome) {
        let own = self.own.get(usize::from(resource)).cloned().unwrap_or(0..0);
        let class = self.tiers.get(&job).copied();
        self.runs.push(Run { order, job, own, nodes: 1, start, end, outcome, class });
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
