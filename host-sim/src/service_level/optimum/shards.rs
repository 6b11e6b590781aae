//! `--shard K/N` and `--plan N` of `optimum` and `cv-sweep`: the windows to solve,
//! in grid order, split by their expected solve time ([`super::plan`]) as they come,
//! trace after trace, each batch balanced on what the earlier ones left; a shard
//! solves its own and writes its part, a plan solves none and prints each shard's
//! expected time.

use std::io::Write;
use std::path::Path;

use clap::Args;
use rayon::prelude::*;

use super::capture::CapturedWindow;
use super::plan::{Estimate, estimate};
use crate::error::CliError;
use crate::path_error::PathError;
use crate::shard::{Shard, ShardArgs, split_onto};

/// The options that split the windows of `optimum` and `cv-sweep`.
#[derive(Clone, Debug, Default, Args)]
pub struct SplitArgs {
    #[command(flatten)]
    pub shard: ShardArgs,
    /// Solve nothing: print each window's expected solve time and each of N shards'
    /// (as `--shard K/N` would split them), to size a job array. Without it, the
    /// windows are solved.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..), conflicts_with = "shard")]
    pub plan: Option<u32>,
}

/// A window of the plan: its leading columns, its estimate and its shard (from 1).
#[derive(Debug)]
pub struct Planned {
    pub lead: Vec<String>,
    pub window: u64,
    pub estimate: Estimate,
    pub shard: u32,
}

/// Where the windows of a run go, batch after batch.
#[derive(Debug)]
pub struct Split {
    shard: Option<Shard>,
    planning: bool,
    loads: Vec<u64>,
    /// Windows seen so far, in grid order.
    pub seen: usize,
    /// Every window's estimate and shard (with `--plan`).
    pub plan: Vec<Planned>,
}

impl Split {
    pub fn new(args: &SplitArgs) -> Self {
        let count = args.shard.shard.map(|s| s.count).or(args.plan).unwrap_or(1);
        Self {
            shard: args.shard.shard,
            planning: args.plan.is_some(),
            loads: vec![0; count as usize],
            seen: 0,
            plan: Vec::new(),
        }
    }

    /// Whether windows are solved here at all (not a plan).
    pub fn solves(&self) -> bool {
        !self.planning
    }

    /// The next `n` windows in grid order, `window(i)` giving the `i`th one's leading
    /// columns, window index, machines and captured jobs: the positions (among the `n`)
    /// of those this run solves, each with its index in the grid.
    pub fn take<'a>(
        &mut self,
        n: usize,
        window: impl Fn(usize) -> (Vec<String>, u64, usize, &'a CapturedWindow) + Sync,
        limit_millis: u64,
    ) -> Vec<(usize, usize)> {
        let first = self.seen;
        self.seen += n;
        if self.shard.is_none() && !self.planning {
            return (0..n).map(|i| (i, first + i)).collect();
        }
        let estimates: Vec<(Vec<String>, u64, Estimate)> = (0..n)
            .into_par_iter()
            .map(|i| {
                let (lead, index, machines, captured) = window(i);
                (lead, index, estimate(captured, machines, limit_millis))
            })
            .collect();
        let costs: Vec<u64> = estimates.iter().map(|(_, _, e)| e.millis).collect();
        let shards = split_onto(&costs, &mut self.loads);
        if self.planning {
            let planned = estimates.into_iter().zip(&shards);
            self.plan.extend(planned.map(|((lead, window, estimate), &s)| Planned {
                lead,
                window,
                estimate,
                shard: s + 1,
            }));
            return Vec::new();
        }
        let mine = self.shard.map_or(0, |s| s.index - 1);
        shards.iter().enumerate().filter(|&(_, &s)| s == mine).map(|(i, _)| (i, first + i)).collect()
    }
}

/// The plan's table on `out`: each shard's windows, those the solver gets, and its
/// expected and longest time on one core.
pub fn write_plan(
    plan: &[Planned],
    count: u32,
    limit_millis: u64,
    mut out: impl Write,
) -> std::io::Result<()> {
    writeln!(
        out,
        "{:>9} {:>8} {:>8} {:>12} {:>12}",
        "shard", "windows", "solver", "expected_s", "at_most_s"
    )?;
    let seconds = |millis: u64| millis as f64 / 1000.0;
    let mut total = (0, 0, 0u64, 0u64);
    for k in 1..=count {
        let mine = plan.iter().filter(|p| p.shard == k);
        let (mut windows, mut solver, mut expected, mut most) = (0, 0, 0u64, 0u64);
        for p in mine {
            windows += 1;
            if p.estimate.solver_clusters > 0 {
                solver += 1;
                most += limit_millis;
            }
            expected += p.estimate.millis;
        }
        let name = format!("{k}/{count}");
        writeln!(
            out,
            "{name:>9} {windows:>8} {solver:>8} {:>12.1} {:>12.1}",
            seconds(expected),
            seconds(most)
        )?;
        total = (total.0 + windows, total.1 + solver, total.2 + expected, total.3 + most);
    }
    let (windows, solver, expected, most) = total;
    writeln!(
        out,
        "{:>9} {windows:>8} {solver:>8} {:>12.1} {:>12.1}",
        "all",
        seconds(expected),
        seconds(most)
    )?;
    out.flush()
}

/// The columns of a plan's CSV after its leading ones.
pub const PLAN_COLUMNS: [&str; 7] =
    ["window", "jobs", "clusters", "solver_clusters", "columns", "expected_seconds", "shard"];

/// The plan as CSV: one row per window, after the leading columns `lead` names.
pub fn write_plan_csv(path: &Path, lead: &[&str], plan: &[Planned]) -> Result<(), CliError> {
    let named = |source: csv::Error| {
        CliError::Io(PathError { path: path.display().to_string(), source: std::io::Error::from(source) })
    };
    replay::staged::write(path, |file, _| {
        let mut out = csv::Writer::from_writer(file);
        out.write_record(lead.iter().copied().chain(PLAN_COLUMNS)).map_err(named)?;
        for p in plan {
            let e = &p.estimate;
            let fields = [
                p.window.to_string(),
                e.jobs.to_string(),
                e.clusters.to_string(),
                e.solver_clusters.to_string(),
                e.columns.to_string(),
                format!("{:.3}", e.millis as f64 / 1000.0),
                p.shard.to_string(),
            ];
            out.write_record(p.lead.iter().chain(&fields)).map_err(named)?;
        }
        out.flush().map_err(|e| named(e.into()))
    })
}
