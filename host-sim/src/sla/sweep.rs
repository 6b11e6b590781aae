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

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

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
    mut points: Vec<Point>,
    bar: &ProgressBar,
) -> Result<Sweep, String> {
    let set_stats = generator::stats(sets);
    let prepared: Vec<Prepared> = sets.iter().map(prepare).collect();
    bar.set_length(points.len() as u64 * sets.len() as u64);
    let means: Vec<Result<Summary, String>> = points
        .par_iter()
        .map(|p| {
            let runs = run_point(p.order, config.step_ticks, &prepared)?;
            bar.inc(prepared.len() as u64);
            Ok(metrics::mean(&runs))
        })
        .collect();
    for (p, mean) in points.iter_mut().zip(means) {
        p.mean = mean?;
    }
    Ok(Sweep { sets: sets.len() as u64, seed: config.seed, step_ticks: config.step_ticks, set_stats, points })
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

/// One row of our Table 1 beside the paper's.
#[derive(Clone, Debug, Serialize)]
pub struct Table1 {
    pub heuristic: String,
    pub sla_pct: f64,
    pub sla_w: String,
    pub cpu_pct: f64,
    pub cpu_w: String,
    pub paper_sla_pct: f64,
    pub paper_sla_w: String,
    pub paper_cpu_pct: f64,
    pub paper_cpu_w: String,
}

/// One row of our Table 2 beside the paper's.
#[derive(Clone, Debug, Serialize)]
pub struct Table2 {
    pub heuristic: String,
    pub asap_sla: f64,
    pub asap_fair: f64,
    pub asap_cpu: f64,
    pub paper_asap_sla: f64,
    pub paper_asap_fair: f64,
    pub paper_asap_cpu: f64,
}

fn paper_w(w: paper::PaperWeight) -> String {
    w.map_or_else(|| "-inf".to_owned(), |v| format!("{v}"))
}

pub fn table1(sweep: &Sweep) -> Vec<Table1> {
    paper::TABLE1
        .iter()
        .map(|row| {
            let (sla, sla_at) = best(family(sweep, row.heuristic), SLA)
                .map_or((f64::NAN, String::new()), |(v, p)| (v, p.w.clone()));
            let (cpu, cpu_at) = best(family(sweep, row.heuristic), CPU)
                .map_or((f64::NAN, String::new()), |(v, p)| (v, p.w.clone()));
            Table1 {
                heuristic: row.heuristic.to_owned(),
                sla_pct: sla,
                sla_w: sla_at,
                cpu_pct: cpu,
                cpu_w: cpu_at,
                paper_sla_pct: row.sla_pct,
                paper_sla_w: paper_w(row.sla_w),
                paper_cpu_pct: row.cpu_pct,
                paper_cpu_w: paper_w(row.cpu_w),
            }
        })
        .collect()
}

pub fn table2(sweep: &Sweep) -> Vec<Table2> {
    paper::TABLE2
        .iter()
        .map(|row| {
            let top = |m: Measure| best(family(sweep, row.heuristic), m).map_or(f64::NAN, |(v, _)| v);
            Table2 {
                heuristic: row.heuristic.to_owned(),
                asap_sla: top(ASAP_SLA),
                asap_fair: top(ASAP_FAIR),
                asap_cpu: top(ASAP_CPU),
                paper_asap_sla: row.sla,
                paper_asap_fair: row.fair,
                paper_asap_cpu: row.cpu,
            }
        })
        .collect()
}

/// A paper's finding, our numbers, and whether it holds here.
#[derive(Clone, Debug, Serialize)]
pub struct Finding {
    pub paper: &'static str,
    pub ours: String,
    pub holds: bool,
}

/// The paper's four findings checked against the sweep.
pub fn findings(sweep: &Sweep) -> Vec<Finding> {
    let mut out = Vec::new();
    let value = |h: &str, m: Measure| single(sweep, h).map_or(f64::NAN, |p| m(&p.mean));
    // 1. TS and TF alone beat random, on both measures.
    let random = (value("random", SLA), value("random", CPU));
    let mut ours = format!("random: SLA {:.1} %, CPU {:.1} %", random.0, random.1);
    let mut holds = true;
    for h in ["min(TS)", "min(TF)"] {
        let (s, c) = (value(h, SLA), value(h, CPU));
        let _ = write!(ours, "; {h}: SLA {s:.1} %, CPU {c:.1} %");
        holds &= s > random.0 && c > random.1;
    }
    let others: Vec<String> = Term::ALL
        .iter()
        .filter(|t| !matches!(t, Term::Ts | Term::Tf))
        .map(|t| format!("min({})", t.name()))
        .filter(|h| value(h, SLA) > random.0 && value(h, CPU) > random.1)
        .collect();
    let _ = write!(
        ours,
        "; other single terms above random on both: {}",
        if others.is_empty() { "none".to_owned() } else { others.join(", ") }
    );
    out.push(Finding { paper: paper::FINDINGS[0], ours, holds });
    // 2. The best over w != 0 of every pair family reaches its first term alone.
    let families: Vec<String> = {
        let mut names: Vec<String> =
            sweep.points.iter().filter(|p| p.kind == Kind::Pair).map(|p| p.family.clone()).collect();
        names.dedup();
        names
    };
    let (mut reached, mut improved, mut worst) =
        ([0usize; 2], [0usize; 2], [(0.0f64, String::new()), (0.0, String::new())]);
    for name in &families {
        let first = sweep.points.iter().find(|p| p.family == *name).map(|p| p.order);
        let Some(Order::Heuristic(h)) = first else { continue };
        let alone = Heuristic::single(h.direction, h.h1).to_string();
        for (i, m) in [SLA, CPU].into_iter().enumerate() {
            let base = value(&alone, m);
            let nonzero = best(family(sweep, name).filter(|p| p.weight != Some(Weight::Milli(0))), m)
                .map_or(f64::NAN, |(v, _)| v);
            if nonzero >= base - 1e-9 {
                reached[i] += 1;
            } else if base - nonzero > worst[i].0 {
                worst[i] = (base - nonzero, name.clone());
            }
            if nonzero > base + 1e-9 {
                improved[i] += 1;
            }
        }
    }
    let n = families.len();
    let describe = |i: usize, label: &str| {
        let mut s = format!(
            "{label}: {}/{n} families reach their first term alone with some w != 0, {} exceed it",
            reached[i], improved[i]
        );
        if reached[i] < n {
            let _ = write!(s, " (furthest below: {} by {:.2} points)", worst[i].1, worst[i].0);
        }
        s
    };
    let three = sweep.points.iter().filter(|p| p.kind == Kind::ThreeTerm);
    let gain = fig7(sweep);
    out.push(Finding {
        paper: paper::FINDINGS[1],
        ours: format!(
            "{}; {}; with w = 0 in every grid the best can never be lower. Three terms (Figure 7): SLA {:.2} vs {:.2} / {:.2}, CPU {:.2} vs {:.2} / {:.2} ({} points)",
            describe(0, "SLA"),
            describe(1, "CPU"),
            gain.three[0],
            gain.only_a[0],
            gain.only_tl[0],
            gain.three[1],
            gain.only_a[1],
            gain.only_tl[1],
            three.count()
        ),
        holds: reached == [n, n],
    });
    // 3. Fair = (SLA + CPU) / 2, on every point, Rigid and ASAP.
    let gap = sweep
        .points
        .iter()
        .map(|p| {
            let i = &p.mean.income;
            ((i.rigid_fair - (i.rigid_sla + i.rigid_cpu) / 2.0).abs())
                .max((i.asap_fair - (i.asap_sla + i.asap_cpu) / 2.0).abs())
        })
        .fold(0.0f64, f64::max);
    out.push(Finding {
        paper: paper::FINDINGS[2],
        ours: format!(
            "largest |Fair - (SLA + CPU)/2| over all {} points: {gap:.2e} (it holds by construction: V_F = (1 + kA)/2 for every job)",
            sweep.points.len()
        ),
        holds: gap < 1e-6,
    });
    // 4. Under ASAP, max(TS) and max(TF) earn more than min(TS) and min(TF).
    let mut ours = String::new();
    let mut holds = true;
    for t in ["TS", "TF"] {
        let (lo, hi) = (format!("min({t})"), format!("max({t})"));
        for (label, m) in [("SLA", ASAP_SLA), ("Fair", ASAP_FAIR), ("CPU", ASAP_CPU)] {
            let (a, b) = (value(&lo, m), value(&hi, m));
            holds &= b > a;
            let _ =
                write!(ours, "{}{label} {hi} {b:.1} vs {lo} {a:.1}", if ours.is_empty() { "" } else { "; " });
        }
    }
    out.push(Finding { paper: paper::FINDINGS[3], ours, holds });
    out
}

/// Figure 7's comparison: the best SLA and CPU of the three-term grid, of its row
/// `w2 = 0` (`TF + w1*A`) and of its column `w1 = 0` (`TF + w2*tL`).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Fig7 {
    pub three: [f64; 2],
    pub only_a: [f64; 2],
    pub only_tl: [f64; 2],
}

pub fn fig7(sweep: &Sweep) -> Fig7 {
    let three = || sweep.points.iter().filter(|p| p.kind == Kind::ThreeTerm);
    let top = |filter: &dyn Fn(&Point) -> bool| {
        [SLA, CPU].map(|m| best(three().filter(|p| filter(p)), m).map_or(f64::NAN, |(v, _)| v))
    };
    Fig7 { three: top(&|_| true), only_a: top(&|p| p.w2 == "0"), only_tl: top(&|p| p.w == "0") }
}

fn cell(v: f64) -> String {
    if v.is_nan() { "-".to_owned() } else { format!("{v:.1}") }
}

/// Our Table 1 beside the paper's, and where we differ by more than 3 points.
pub fn table1_text(rows: &[Table1]) -> String {
    let mut out =
        String::from("Table 1: best utilisation (mean over the sets) and its w; the paper's beside ours\n");
    let _ = writeln!(
        out,
        "{:<18} {:>6} {:>7} | {:>6} {:>7} || {:>6} {:>7} | {:>6} {:>7}",
        "heuristic", "SLA%", "w", "paper", "w", "CPU%", "w", "paper", "w"
    );
    for r in rows {
        let mark = |ours: f64, paper: f64| if (ours - paper).abs() > 3.0 { "*" } else { " " };
        let _ = writeln!(
            out,
            "{:<18} {:>5}{} {:>7} | {:>6} {:>7} || {:>5}{} {:>7} | {:>6} {:>7}",
            r.heuristic,
            cell(r.sla_pct),
            mark(r.sla_pct, r.paper_sla_pct),
            r.sla_w,
            cell(r.paper_sla_pct),
            r.paper_sla_w,
            cell(r.cpu_pct),
            mark(r.cpu_pct, r.paper_cpu_pct),
            r.cpu_w,
            cell(r.paper_cpu_pct),
            r.paper_cpu_w
        );
    }
    out.push_str("(* : more than 3 points from the paper)\n");
    out
}

/// Our Table 2 beside the paper's.
pub fn table2_text(rows: &[Table2], sets: &generator::Stats) -> String {
    let mut out = format!(
        "Table 2: best ASAP income (mean over the sets; ceiling = jobs per set, ours {:.1}, the paper's about {})\n",
        sets.jobs,
        paper::JOBS_PER_SET
    );
    let _ = writeln!(
        out,
        "{:<18} {:>6} {:>6} | {:>6} {:>6} | {:>6} {:>6}",
        "heuristic", "V_SLA", "paper", "V_F", "paper", "V_CPU", "paper"
    );
    for r in rows {
        let _ = writeln!(
            out,
            "{:<18} {:>6} {:>6} | {:>6} {:>6} | {:>6} {:>6}",
            r.heuristic,
            cell(r.asap_sla),
            cell(r.paper_asap_sla),
            cell(r.asap_fair),
            cell(r.paper_asap_fair),
            cell(r.asap_cpu),
            cell(r.paper_asap_cpu)
        );
    }
    out
}

const POINT_HEADER: &str = "kind,family,heuristic,w,w2,requests,accepted,sla_factor,cpu_utilisation,rigid_sla,rigid_cpu,rigid_fair,asap_sla,asap_cpu,asap_fair";

fn point_row(out: &mut String, p: &Point) {
    let s = &p.mean;
    let i = &s.income;
    let kind = match p.kind {
        Kind::Pair => "pair",
        Kind::Single => "single",
        Kind::Random => "random",
        Kind::ThreeTerm => "three_term",
    };
    let _ = writeln!(
        out,
        "{kind},\"{}\",\"{}\",{},{},{},{},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4}",
        p.family,
        p.heuristic,
        p.w,
        p.w2,
        s.requests,
        s.accepted,
        s.sla_factor,
        s.cpu_utilisation,
        i.rigid_sla,
        i.rigid_cpu,
        i.rigid_fair,
        i.asap_sla,
        i.asap_cpu,
        i.asap_fair
    );
}

/// The files of one figure's points: `(file, points)`.
pub fn figure_points(sweep: &Sweep) -> BTreeMap<&'static str, Vec<&Point>> {
    let mut out = BTreeMap::new();
    out.insert(
        "sla_fig3.csv",
        sweep.points.iter().filter(|p| matches!(p.kind, Kind::Single | Kind::Random)).collect(),
    );
    out.insert("sla_fig4.csv", family(sweep, "min(TS + w*NCPU)").collect());
    out.insert("sla_fig8.csv", family(sweep, "min(TS + w*tD)").collect());
    out.insert("sla_fig7.csv", sweep.points.iter().filter(|p| p.kind == Kind::ThreeTerm).collect());
    out
}

/// Writes `sla_points.csv` (every point), `sla_table1.csv`, `sla_table2.csv`,
/// `sla_families.csv` (every pair family's best of each measure and its `w`), the
/// figures' points (`sla_fig3.csv`, `sla_fig4.csv`, `sla_fig7.csv`, `sla_fig8.csv`)
/// and `sla.json` (all of it) into `dir`.
pub fn write(dir: &Path, sweep: &Sweep) -> std::io::Result<Vec<std::path::PathBuf>> {
    std::fs::create_dir_all(dir)?;
    let mut files: Vec<(String, String)> = Vec::new();
    let mut all = format!("{POINT_HEADER}\n");
    sweep.points.iter().for_each(|p| point_row(&mut all, p));
    files.push(("sla_points.csv".to_owned(), all));
    for (name, points) in figure_points(sweep) {
        let mut text = format!("{POINT_HEADER}\n");
        points.iter().for_each(|p| point_row(&mut text, p));
        files.push((name.to_owned(), text));
    }
    let t1 = table1(sweep);
    let mut text = String::from(
        "heuristic,sla_pct,sla_w,cpu_pct,cpu_w,paper_sla_pct,paper_sla_w,paper_cpu_pct,paper_cpu_w\n",
    );
    for r in &t1 {
        let _ = writeln!(
            text,
            "\"{}\",{:.4},{},{:.4},{},{},{},{},{}",
            r.heuristic,
            r.sla_pct,
            r.sla_w,
            r.cpu_pct,
            r.cpu_w,
            r.paper_sla_pct,
            r.paper_sla_w,
            r.paper_cpu_pct,
            r.paper_cpu_w
        );
    }
    files.push(("sla_table1.csv".to_owned(), text));
    let t2 = table2(sweep);
    let mut text =
        String::from("heuristic,asap_sla,asap_fair,asap_cpu,paper_asap_sla,paper_asap_fair,paper_asap_cpu\n");
    for r in &t2 {
        let _ = writeln!(
            text,
            "\"{}\",{:.4},{:.4},{:.4},{},{},{}",
            r.heuristic,
            r.asap_sla,
            r.asap_fair,
            r.asap_cpu,
            r.paper_asap_sla,
            r.paper_asap_fair,
            r.paper_asap_cpu
        );
    }
    files.push(("sla_table2.csv".to_owned(), text));
    let mut text = String::from(
        "family,sla_pct,sla_w,cpu_pct,cpu_w,asap_sla,asap_sla_w,asap_fair,asap_fair_w,asap_cpu,asap_cpu_w\n",
    );
    let mut names: Vec<&str> =
        sweep.points.iter().filter(|p| p.kind == Kind::Pair).map(|p| p.family.as_str()).collect();
    names.dedup();
    for name in names {
        let _ = write!(text, "\"{name}\"");
        for m in [SLA, CPU, ASAP_SLA, ASAP_FAIR, ASAP_CPU] {
            if let Some((v, p)) = best(family(sweep, name), m) {
                let _ = write!(text, ",{v:.4},{}", p.w);
            }
        }
        text.push('\n');
    }
    files.push(("sla_families.csv".to_owned(), text));
    let json = serde_json::json!({
        "sets": sweep.sets,
        "seed": sweep.seed,
        "step_ticks": sweep.step_ticks,
        "slot_ticks": SLOT_TICKS,
        "set_stats": sweep.set_stats,
        "table1": t1,
        "table2": t2,
        "fig7": fig7(sweep),
        "findings": findings(sweep),
        "points": sweep.points,
    });
    files.push(("sla.json".to_owned(), format!("{json:#}\n")));
    let mut written = Vec::new();
    for (name, text) in files {
        let path = dir.join(name);
        std::fs::write(&path, text)?;
        written.push(path);
    }
    Ok(written)
}
