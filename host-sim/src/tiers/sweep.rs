//! `tiers-sweep`: the three policies by the four mixes by the seeds, in parallel;
//! one CSV row per run and per cell (the mean over seeds), a JSON document, and the
//! paper's statements (§6.3) checked against our cells. The runs are [`points`],
//! which `tiers-sweep --shard K/N` splits among shards ([`crate::shard::rows`]); the
//! cells are made from every run's summary ([`cells`]).

use std::fmt::Write as _;
use std::path::Path;

use indicatif::ProgressBar;
use rayon::prelude::*;
use serde::Serialize;

use kernel::tiers::Policy;

use super::faults::Faults;
use super::metrics::{self, Summary};
use super::testbed::{MIXES, Mix};
use super::{Scenario, TiersError};
use crate::findings::Finding;
use crate::path_error::PathError;

/// One cell of the grid: a policy and a mix, over the seeds.
#[derive(Clone, Debug, Serialize)]
pub struct Cell {
    pub policy: &'static str,
    pub mix: char,
    pub runs: Vec<Summary>,
    pub mean: Summary,
}

/// One run of the grid: a policy, a mix and a seed.
pub type Point = (Policy, Mix, u64);

/// Every run of the grid in the cells' order: by policy, then mix, then seed.
pub fn points(seeds: &[u64]) -> Vec<Point> {
    Policy::ALL
        .into_iter()
        .flat_map(|p| MIXES.into_iter().flat_map(move |m| seeds.iter().map(move |&s| (p, m, s))))
        .collect()
}

/// A run's expected cost, for balancing shards: 1 for every run, since the paper's
/// runs take about the same time whatever the policy, mix and seed (measured: every
/// policy with mixes A and D within 10 % of each other).
pub fn cost(_: &Point) -> u64 {
    1
}

/// Runs `mine` (points of [`points`]) in parallel; their summaries in their order.
/// `bar` ticks once per run.
pub fn run(mine: &[&Point], faults: Faults, bar: &ProgressBar) -> Result<Vec<Summary>, TiersError> {
    mine.par_iter()
        .map(|&&(policy, mix, seed)| {
            let summary = Scenario::paper(policy, mix, seed, faults).run().map(|(s, _)| s);
            bar.inc(1);
            summary
        })
        .collect()
}

/// The cells of the grid from the summaries of every run of [`points`] (over `seeds`
/// seeds), in its order.
pub fn cells(runs: Vec<Summary>, seeds: usize) -> Vec<Cell> {
    let mut cells = Vec::new();
    let mut runs = runs.into_iter();
    for policy in Policy::ALL {
        for mix in MIXES {
            let runs: Vec<Summary> = runs.by_ref().take(seeds).collect();
            let mean = metrics::mean(&runs);
            cells.push(Cell { policy: policy.name(), mix: mix.name, runs, mean });
        }
    }
    cells
}

/// Runs every cell; `bar` ticks once per run.
pub fn sweep(seeds: &[u64], faults: Faults, bar: &ProgressBar) -> Result<Vec<Cell>, TiersError> {
    let points = points(seeds);
    let runs = run(&points.iter().collect::<Vec<_>>(), faults, bar)?;
    Ok(cells(runs, seeds.len()))
}

const HEADER: [&str; 19] = [
    "policy",
    "mix",
    "seed",
    "rejected_gold",
    "rejected_silver",
    "rejected_bronze",
    "rejected_all",
    "violated_gold",
    "violated_silver",
    "violated_all",
    "rescheduled",
    "moved_once",
    "moved_twice",
    "moved_more",
    "bronze_wait_min",
    "bronze_wait_q1",
    "bronze_wait_median",
    "bronze_wait_q3",
    "bronze_wait_max",
];

/// One CSV row: the run's (or the cell's, with `seed` "mean") measures as plain
/// numbers, in [`HEADER`]'s order.
fn row(policy: &str, mix: char, seed: &str, s: &Summary) -> Vec<String> {
    let (r, v, w) = (&s.rejected_pct, &s.violated_pct, &s.bronze_wait_s);
    let mut row = vec![policy.to_owned(), mix.to_string(), seed.to_owned()];
    row.extend([r.gold, r.silver, r.bronze, r.all, v.gold, v.silver, v.all].map(|x| x.to_string()));
    row.extend(
        [s.rescheduled_pct, s.moved_once_pct, s.moved_twice_pct, s.moved_more_pct].map(|x| x.to_string()),
    );
    row.extend([w.min, w.q1, w.median, w.q3, w.max].map(|x| x.to_string()));
    row
}

/// Writes [`HEADER`] and `rows` to `path` through the `csv` crate, whole or not at all.
fn write_csv(path: &Path, rows: impl IntoIterator<Item = Vec<String>>) -> Result<(), TiersError> {
    let io = |source| TiersError::Io(PathError { path: path.display().to_string(), source });
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record(HEADER).map_err(|e| io(std::io::Error::other(e)))?;
    for row in rows {
        writer.write_record(&row).map_err(|e| io(std::io::Error::other(e)))?;
    }
    let bytes = writer.into_inner().map_err(|e| io(e.into_error()))?;
    replay::staged::write_all(path, &bytes).map_err(|e| TiersError::Io(e.into()))
}

/// Writes `tiers_runs.csv`, `tiers_cells.csv` and `tiers.json` into `dir`.
pub fn write(dir: &Path, cells: &[Cell], seeds: &[u64]) -> Result<(), TiersError> {
    let io = |path: &Path| {
        let path = path.display().to_string();
        move |source| TiersError::Io(PathError { path, source })
    };
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let json = serde_json::to_string_pretty(&serde_json::json!({ "seeds": seeds, "cells": cells }))
        .map_err(|e| TiersError::Usage(e.to_string()))?;
    let runs = cells
        .iter()
        .flat_map(|c| c.runs.iter().zip(seeds).map(|(s, seed)| row(c.policy, c.mix, &seed.to_string(), s)));
    write_csv(&dir.join("tiers_runs.csv"), runs)?;
    write_csv(&dir.join("tiers_cells.csv"), cells.iter().map(|c| row(c.policy, c.mix, "mean", &c.mean)))?;
    let path = dir.join("tiers.json");
    replay::staged::write_all(&path, json.as_bytes()).map_err(|e| TiersError::Io(e.into()))
}

/// The 3 x 4 table of means.
pub fn table(cells: &[Cell]) -> String {
    let mut out = String::from(
        "policy   mix  rej G/S/B/all %             viol G/S/all %        resched %  once %  bronze wait q1/med/q3 min\n",
    );
    for c in cells {
        let (r, v, w) = (&c.mean.rejected_pct, &c.mean.violated_pct, &c.mean.bronze_wait_s);
        let rejected = columns(&[r.gold, r.silver, r.bronze, r.all]);
        let violated = columns(&[v.gold, v.silver, v.all]);
        let _ = writeln!(
            out,
            "{:<8} {}    {rejected}   {violated}     {:>6.2}   {:>6.2}  {:>4} {:>4} {:>4}",
            c.policy,
            c.mix,
            c.mean.rescheduled_pct,
            c.mean.moved_once_pct,
            w.q1 / 60,
            w.median / 60,
            w.q3 / 60
        );
    }
    out
}

/// Percentages of the table, each five wide with two decimals, a space apart.
fn columns(values: &[f64]) -> String {
    values.iter().map(|v| format!("{v:>5.2}")).collect::<Vec<_>>().join(" ")
}

fn cell(cells: &[Cell], policy: Policy, mix: char) -> Option<&Summary> {
    cells.iter().find(|c| c.policy == policy.name() && c.mix == mix).map(|c| &c.mean)
}

/// The paper's statements, each with ours and whether it holds.
pub fn statements(cells: &[Cell]) -> Vec<Finding> {
    let mixes = ['A', 'B', 'C', 'D'];
    let per = |p: Policy, f: &dyn Fn(&Summary) -> f64| -> Vec<f64> {
        mixes.iter().map(|&m| cell(cells, p, m).map_or(f64::NAN, f)).collect()
    };
    let show = |v: &[f64]| v.iter().map(|x| format!("{x:.2}")).collect::<Vec<_>>().join(" / ");
    let rising = |v: &[f64]| v.windows(2).all(|w| w[1] >= w[0]);
    let mut out = Vec::new();
    let mut add = |paper, ours, holds| out.push(Finding::checked(paper, ours, holds));
    let v = per(Policy::NoQos, &|s| s.rejected_pct.all);
    add("No-QoS: rejection under 2% (A-D)", show(&v), v.iter().all(|&x| x < 2.0));
    let v = per(Policy::NoQos, &|s| s.violated_pct.all);
    add("No-QoS: violations rise with Silver, over 4% at D", show(&v), rising(&v) && v[3] > 4.0);
    let v = per(Policy::NoQos, &|s| s.violated_pct.gold);
    add("No-QoS: Gold violated too (A-D)", show(&v), v.iter().all(|&x| x > 0.0));
    let v = per(Policy::Qos, &|s| s.violated_pct.gold);
    add("QoS: 0% Gold violations (A-D)", show(&v), v.iter().all(|&x| x == 0.0));
    let v = per(Policy::Qos, &|s| s.rejected_pct.gold);
    add("QoS: more Gold rejections as Silver grows", show(&v), v[3] > v[0]);
    let v = per(Policy::QosRes, &|s| 100.0 - s.rejected_pct.all);
    add("QoS+ReS: 96-98% accepted (A-D)", show(&v), v.iter().all(|&x| (96.0..=98.0).contains(&x)));
    let v = per(Policy::QosRes, &|s| s.violated_pct.all);
    add("QoS+ReS: at most 1.5% violated (A-D)", show(&v), v.iter().all(|&x| x <= 1.5));
    let v = per(Policy::QosRes, &|s| s.violated_pct.gold);
    add("QoS+ReS: 0% Gold violations (A-D)", show(&v), v.iter().all(|&x| x == 0.0));
    let v = per(Policy::QosRes, &|s| s.rescheduled_pct);
    let top = v.iter().cloned().fold(f64::MIN, f64::max);
    // The paper's 31% is a maximum reached at C and D: ours must peak there, near it.
    let near = (20.0..=40.0).contains(&top);
    add(
        "QoS+ReS: up to 31% of accepted jobs rescheduled, at C and D",
        show(&v),
        (v[2] == top || v[3] == top) && near,
    );
    let v = per(Policy::QosRes, &|s| s.moved_once_pct);
    add("QoS+ReS: about 80% of moved jobs moved once at A", show(&v), (70.0..=90.0).contains(&v[0]));
    let v = per(Policy::NoQos, &|s| s.bronze_wait_s.q1 as f64 / 60.0);
    add("No-QoS: 75% of Bronze wait over 40 min (q1, min)", show(&v), v.iter().all(|&x| x > 40.0));
    let mut q3 = per(Policy::Qos, &|s| s.bronze_wait_s.q3 as f64 / 60.0);
    q3.extend(per(Policy::QosRes, &|s| s.bronze_wait_s.q3 as f64 / 60.0));
    add("QoS, QoS+ReS: 75% of Bronze wait under 30 min (q3, min)", show(&q3), q3.iter().all(|&x| x < 30.0));
    out
}
