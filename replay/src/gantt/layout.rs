//! Rows for runs on nodes the kernel counts but does not name (reservations, tiers,
//! SLA): in order of their start, each run takes the lowest-numbered rows of its own
//! free at that instant, and is drawn as one rectangle per band of consecutive rows.
//! Rows are therefore drawing positions, not physical nodes.

use std::ops::Range;

use kernel::Tick;

use super::{Bar, Class, Outcome};

/// A run before it is given rows.
#[derive(Clone, Debug)]
pub struct Run {
    /// Its place among the starts: runs that start at the same instant take rows in it.
    pub order: u64,
    pub job: u32,
    /// The rows it may take (its resource's, or the whole pool).
    pub own: Range<u32>,
    /// How many of them it holds.
    pub nodes: u32,
    pub start: Tick,
    pub end: Tick,
    pub outcome: Outcome,
    pub class: Option<Class>,
}

/// Gives each run, in start order, the lowest-numbered rows of its own free at its
/// start, and returns one bar per band of consecutive rows inside `rows` (of
/// `total`), clipped to `[from, to)`.
pub fn lay_out(mut runs: Vec<Run>, total: u32, rows: &Range<u32>, from: Tick, to: Tick) -> Vec<Bar> {
    runs.sort_by_key(|r| (r.start, r.order));
    let mut free_from: Vec<Tick> = vec![0; total as usize];
    let mut bars = Vec::new();
    for run in runs {
        let mut taken: Vec<u32> = run
            .own
            .clone()
            .filter(|&n| free_from[n as usize] <= run.start)
            .take(run.nodes as usize)
            .collect();
        if taken.len() < run.nodes as usize {
            // Only a log that overfills its rows gets here (the audit refuses it); draw
            // it on the earliest-freed rows so that it still shows (overlapping).
            let mut by_free: Vec<u32> = run.own.clone().collect();
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
                let (job, outcome, class) = (run.job, run.outcome, run.class);
                bars.push(Bar { job, rows: clipped, start, end, outcome, class });
            }
        }
    }
    bars
}

/// Sorted row numbers as ranges of consecutive ones.
pub fn bands(rows: &[u32]) -> Vec<Range<u32>> {
    let mut bands: Vec<Range<u32>> = Vec::new();
    for &n in rows {
        match bands.last_mut() {
            Some(last) if last.end == n => last.end = n + 1,
            _ => bands.push(n..n + 1),
        }
    }
    bands
}
