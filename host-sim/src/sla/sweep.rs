//! `sla-sweep`: the paper's experiment. Every heuristic over a grid of weights, each
//! over the same generated sets, in parallel (rayon, one kernel per heuristic and
//! thread), straight on the kernel (no log, for speed).
//!
//! # What runs
//! - **Pairs**: `min(h1 + w*h2)` and `max(h1 + w*h2)` for every ordered pair of the
//!   seven terms (84 families, the paper's Table 1 and 2 among them), each over
//!   [`GRID`] (`-inf`, `-100` ... `-0.01`, `0`, `0.01` ... `100`, `inf`, 31 weights) and the
//!   paper's own best weights for that family (Table 1's).
//! - **Single terms** `min(h)` and `max(h)` and a seeded random order (Figure 3),
//!   seeded with `--seed` (the kernel's `random_key(seed, index)`, as `host-sim sla
//!   --heuristic random` orders each set).
//! - **Three terms** `min(TF + w1*A + w2*tL)` over [`FIG7_W1`] x [`FIG7_W2`] (Figure 7);
//!   the row `w2 = 0` is `min(TF + w1*A)`, the column `w1 = 0` is `min(TF + w2*tL)`.
//!
//! Each point is the mean over the sets of the measures of [`super::metrics`].
//! "Best" is the highest mean over a family's weights; among equal means, the first in
//! grid order (from `-inf` up).
//!
//! This module plans and runs the points; [`shard`] splits them among shards and
//! joins the shards' parts, [`tables`] makes Tables 1 and 2 of them, [`findings`]
//! checks the paper's findings, and [`files`] writes the CSV and JSON.

pub mod files;
pub mod findings;
pub mod shard;
pub mod tables;

use indicatif::ProgressBar;
use rayon::prelude::*;
use serde::Serialize;

use kernel::Tick;
use kernel::sla::{Config, Decision, Direction, Event, Heuristic, Order, Request, SlaKernel, Term, Weight};

use super::generator::{self, FRAME_TICKS, NODES, SLOT_TICKS, Set, TICKS_PER_HOUR};
use super::heuristic::{weight_text, weight_value};
use super::metrics::{self, Summary, Terms};
use super::paper;

/// The sweep's kernel: 4,096 six-minute slots (410 hours, a set's 300 fit) and a batch
/// of 1,024 requests (a set has about 384).
pub type SweepKernel = SlaKernel<4096, 1024>;

/// The weights every pair family runs at, from `-inf` up: 0, `±inf`, and 0.01 to 100
/// on both sides, about three to a decade.
pub const GRID: [Weight; 31] = [
    Weight::MinusInf,
    Weight::Milli(-100_000),
    Weight::Milli(-30_000),
    Weight::Milli(-10_000),
    Weight::Milli(-5_000),
    Weight::Milli(-3_000),
    Weight::Milli(-2_000),
    Weight::Milli(-1_000),
    Weight::Milli(-500),
    Weight::Milli(-300),
    Weight::Milli(-200),
    Weight::Milli(-100),
    Weight::Milli(-60),
    Weight::Milli(-30),
    Weight::Milli(-10),
    Weight::Milli(0),
    Weight::Milli(10),
    Weight::Milli(30),
    Weight::Milli(60),
    Weight::Milli(100),
    Weight::Milli(200),
    Weight::Milli(300),
    Weight::Milli(500),
    Weight::Milli(1_000),
    Weight::Milli(2_000),
    Weight::Milli(3_000),
    Weight::Milli(5_000),
    Weight::Milli(10_000),
    Weight::Milli(30_000),
    Weight::Milli(100_000),
    Weight::PlusInf,
];

/// Figure 7's weights of `A` (CPU-hours; a set's `A` spans about 1 to 200).
pub const FIG7_W1: [i32; 9] = [-300, -100, -30, -10, 0, 10, 30, 100, 300];
/// Figure 7's weights of `tL` (hours; a set's `tL` spans about 0.5 to 11).
pub const FIG7_W2: [i32; 9] = [-3000, -1000, -300, -100, 0, 100, 300, 1000, 3000];

/// The sweep's options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SweepConfig {
    pub sets: u64,
    pub seed: u64,
    /// `Δt`, ticks (a multiple of the six-minute slot).
    pub step_ticks: Tick,
}

/// What a point belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Pair,
    Single,
    Random,
    ThreeTerm,
}

/// One heuristic's means over the sets.
#[derive(Clone, Debug, Serialize)]
pub struct Point {
    pub kind: Kind,
    /// The family with `w` for the weight(s): `min(TF + w*tD)`, `min(TF + w1*A + w2*tL)`;
    /// for single terms and random, the heuristic itself.
    pub family: String,
    /// The heuristic as the parser reads it.
    pub heuristic: String,
    /// `w` (or `w1`) and `w2`, as text (`-0.8`, `inf`); empty where there is none.
    pub w: String,
    pub w2: String,
    #[serde(skip)]
    pub order: Order,
    #[serde(skip)]
    pub weight: Option<Weight>,
    pub mean: Summary,
    /// Each set's measures (what `mean` is the mean of), for the figures' intervals.
    #[serde(skip)]
    pub runs: Vec<Summary>,
}

fn family_name(direction: Direction, h1: Term, h2: Term) -> String {
    format!("{}({} + w*{})", direction.name(), h1.name(), h2.name())
}

/// The paper's best weights of a family (Table 1's two columns, `-inf` included).
fn paper_weights(family: &str) -> Vec<Weight> {
    let to_weight = |w: paper::PaperWeight| match w {
        None => Weight::MinusInf,
        Some(v) => Weight::Milli((v * 1000.0).round() as i32),
    };
    paper::TABLE1
        .iter()
        .filter(|r| r.heuristic == family)
        .flat_map(|r| [to_weight(r.sla_w), to_weight(r.cpu_w)])
        .collect()
}

/// The weights a pair family runs at: the grid and the paper's, from `-inf` up.
pub fn weights(family: &str) -> Vec<Weight> {
    let mut all: Vec<Weight> = GRID.to_vec();
    for w in paper_weights(family) {
        if !all.contains(&w) {
            all.push(w);
        }
    }
    all.sort_by(|a, b| weight_value(*a).total_cmp(&weight_value(*b)));
    all
}

/// Every point of the sweep, in output order: pairs (by direction, `h1`, `h2`, `w`),
/// single terms, random, three terms.
pub fn plan(seed: u64) -> Vec<Point> {
    let point = |kind, family: String, order: Order, weight: Option<Weight>, w2: Option<Weight>| Point {
        kind,
        heuristic: match order {
            Order::Heuristic(h) => h.to_string(),
            Order::Random { .. } => "random".to_owned(),
        },
        family,
        w: weight.map(weight_text).unwrap_or_default(),
        w2: w2.map(weight_text).unwrap_or_default(),
        order,
        weight,
        mean: Summary::default(),
        runs: Vec::new(),
    };
    let mut points = Vec::new();
    for direction in [Direction::Min, Direction::Max] {
        for h1 in Term::ALL {
            for h2 in Term::ALL.into_iter().filter(|&t| t != h1) {
                let family = family_name(direction, h1, h2);
                for w in weights(&family) {
                    let order = Order::Heuristic(Heuristic::pair(direction, h1, w, h2));
                    points.push(point(Kind::Pair, family.clone(), order, Some(w), None));
                }
            }
        }
    }
    for direction in [Direction::Min, Direction::Max] {
        for h in Term::ALL {
            let order = Order::Heuristic(Heuristic::single(direction, h));
            points.push(point(Kind::Single, order.to_string(), order, None, None));
        }
    }
    points.push(point(Kind::Random, "random".to_owned(), Order::Random { seed }, None, None));
    for w1 in FIG7_W1 {
        for w2 in FIG7_W2 {
            let (w1, w2) = (Weight::Milli(w1), Weight::Milli(w2));
            let h = Heuristic {
                direction: Direction::Min,
                h1: Term::Tf,
                second: Some((w1, Term::A)),
                third: Some((w2, Term::Tl)),
            };
            points.push(point(
                Kind::ThreeTerm,
                "min(TF + w1*A + w2*tL)".to_owned(),
                Order::Heuristic(h),
                Some(w1),
                Some(w2),
            ));
        }
    }
    points
}

/// A generated set as the kernel and the measures take it.
#[derive(Debug)]
struct Prepared {
    requests: Vec<Request>,
    terms: Vec<Terms>,
}

fn prepare(set: &Set) -> Prepared {
    let requests =
        set.jobs.iter().map(|j| Request { job: j.id, ts: j.ts, tf: j.tf, td: j.td, ncpu: j.ncpu }).collect();
    let terms = set.jobs.iter().map(|j| Terms { ts: j.ts, tf: j.tf, td: j.td, ncpu: j.ncpu }).collect();
    Prepared { requests, terms }
}

/// The kernel's configuration of a sweep point.
pub fn kernel_config(order: Order, step_ticks: Tick) -> Config {
    Config { nodes: NODES, slot_ticks: SLOT_TICKS, step_ticks, ticks_per_hour: TICKS_PER_HOUR, order }
}

fn build_kernel(order: Order, step_ticks: Tick) -> Result<Box<SweepKernel>, String> {
    SweepKernel::new(kernel_config(order, step_ticks)).map(Box::new).map_err(|e| e.to_string())
}

/// Schedules one set on `kernel` (reset first, the whole set in one plan at 0) into
/// `starts` (by request order).
fn schedule(kernel: &mut SweepKernel, set: &Prepared, starts: &mut Vec<Option<Tick>>) {
    starts.clear();
    starts.resize(set.requests.len(), None);
    let mut sink = |d: Decision| {
        if let Decision::Accept { job, start } = d
            && let Some(slot) = starts.get_mut(job as usize - 1)
        {
            *slot = Some(start);
        }
    };
    kernel.step(Event::Reset { t: 0 }, &mut sink);
    for &request in &set.requests {
        kernel.step(Event::Submit { t: 0, request }, &mut sink);
    }
    kernel.step(Event::Plan { t: 0 }, &mut sink);
}

/// Runs `order` over `sets` on one kernel (reset before each set) and returns the
/// per-set summaries.
fn run_point(order: Order, step_ticks: Tick, sets: &[Prepared]) -> Result<Vec<Summary>, String> {
    let capacity = u128::from(NODES) * u128::from(FRAME_TICKS);
    let mut kernel = build_kernel(order, step_ticks)?;
    let mut starts: Vec<Option<Tick>> = Vec::new();
    let mut out = Vec::with_capacity(sets.len());
    for set in sets {
        schedule(&mut kernel, set, &mut starts);
        out.push(metrics::summarise(&set.terms, &starts, capacity));
    }
    Ok(out)
}

/// The starts `order` gives each job of each of `sets`, as the sweep schedules them
/// (`starts[s][i]`: job `i + 1` of set `s`, `None` if rejected).
pub fn starts(order: Order, step_ticks: Tick, sets: &[Set]) -> Result<Vec<Vec<Option<Tick>>>, String> {
    let mut kernel = build_kernel(order, step_ticks)?;
    Ok(sets
        .iter()
        .map(|set| {
            let mut out = Vec::new();
            schedule(&mut kernel, &prepare(set), &mut out);
            out
        })
        .collect())
}

/// The sweep's result: every point's means, and the sets' own figures.
#[derive(Clone, Debug, Serialize)]
pub struct Sweep {
    pub sets: u64,
    pub seed: u64,
    pub step_ticks: Tick,
    pub set_stats: generator::Stats,
    pub points: Vec<Point>,
}

/// Runs every point of [`plan`]; `bar` counts runs (points times sets).
pub fn run(config: &SweepConfig, bar: &ProgressBar) -> Result<Sweep, String> {
    let sets = generator::generate_sets(config.seed, config.sets);
    run_on(config, &sets, plan(config.seed), bar)
}

/// Runs `points` (some of [`plan`]'s) over `sets` (made with `config.seed`, perhaps with
/// other [`generator::Params`]); `bar` counts runs.
pub fn run_on(
    config: &SweepConfig,
    sets: &[Set],
    points: Vec<Point>,
    bar: &ProgressBar,
) -> Result<Sweep, String> {
    let prepared = prepare_sets(sets);
    let runs = run_points(config, &prepared, &points.iter().collect::<Vec<_>>(), bar)?;
    Ok(assemble(config, sets, points, runs))
}

/// `sets` as the kernel and the measures take them, for [`run_points`].
#[derive(Debug)]
pub struct PreparedSets(Vec<Prepared>);

/// Prepares `sets` for [`run_points`].
pub fn prepare_sets(sets: &[Set]) -> PreparedSets {
    PreparedSets(sets.iter().map(prepare).collect())
}

/// Runs `mine` over `sets` in parallel: each point's per-set summaries, in their order;
/// `bar` counts runs (points times sets).
pub fn run_points(
    config: &SweepConfig,
    sets: &PreparedSets,
    mine: &[&Point],
    bar: &ProgressBar,
) -> Result<Vec<Vec<Summary>>, String> {
    let prepared = &sets.0;
    bar.set_length(mine.len() as u64 * prepared.len() as u64);
    mine.par_iter()
        .map(|p| {
            let runs = run_point(p.order, config.step_ticks, prepared)?;
            bar.inc(prepared.len() as u64);
            Ok(runs)
        })
        .collect()
}

/// The sweep of `points` over `sets` from each point's per-set summaries (`runs`, in
/// the points' order).
pub fn assemble(
    config: &SweepConfig,
    sets: &[Set],
    mut points: Vec<Point>,
    runs: Vec<Vec<Summary>>,
) -> Sweep {
    for (p, runs) in points.iter_mut().zip(runs) {
        p.mean = metrics::mean(&runs);
        p.runs = runs;
    }
    let set_stats = generator::stats(sets);
    Sweep { sets: sets.len() as u64, seed: config.seed, step_ticks: config.step_ticks, set_stats, points }
}

/// A measure of a point.
pub type Measure = fn(&Summary) -> f64;

/// The best of `measure` over a family's points: `(value, w)`.
pub fn best<'a>(points: impl Iterator<Item = &'a Point>, measure: Measure) -> Option<(f64, &'a Point)> {
    let mut found: Option<(f64, &Point)> = None;
    for p in points {
        let v = measure(&p.mean);
        if found.is_none_or(|(b, _)| v > b) {
            found = Some((v, p));
        }
    }
    found
}

/// The points of a pair family, from `-inf` up.
pub fn family<'a>(sweep: &'a Sweep, name: &'a str) -> impl Iterator<Item = &'a Point> + 'a {
    sweep.points.iter().filter(move |p| p.kind == Kind::Pair && p.family == name)
}

/// A single term's (or random's) point.
pub fn single<'a>(sweep: &'a Sweep, heuristic: &str) -> Option<&'a Point> {
    sweep.points.iter().find(|p| matches!(p.kind, Kind::Single | Kind::Random) && p.heuristic == heuristic)
}

pub const SLA: Measure = |s| s.sla_factor;
pub const CPU: Measure = |s| s.cpu_utilisation;
pub const ASAP_SLA: Measure = |s| s.income.asap_sla;
pub const ASAP_FAIR: Measure = |s| s.income.asap_fair;
pub const ASAP_CPU: Measure = |s| s.income.asap_cpu;
