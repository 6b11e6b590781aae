//! The paper's four findings checked against a sweep, and Figure 7's comparison of the
//! three-term grid with its two-term row and column.

use std::fmt::Write as _;

use serde::Serialize;

use kernel::sla::{Heuristic, Order, Term, Weight};

use super::super::paper;
use super::{ASAP_CPU, ASAP_FAIR, ASAP_SLA, CPU, Kind, Measure, Point, SLA, Sweep, best, family, single};
use crate::findings::Finding;

/// The paper's four findings checked against the sweep.
pub fn findings(sweep: &Sweep) -> Vec<Finding> {
    vec![beat_random(sweep), pairs_reach_first_term(sweep), fair_is_mean(sweep), asap_prefers_max(sweep)]
}

/// `measure` of a single term's (or random's) point; NaN when the sweep lacks it.
fn value(sweep: &Sweep, heuristic: &str, measure: Measure) -> f64 {
    single(sweep, heuristic).map_or(f64::NAN, |p| measure(&p.mean))
}

/// 1. TS and TF alone beat random, on both measures.
fn beat_random(sweep: &Sweep) -> Finding {
    let value = |h: &str, m: Measure| value(sweep, h, m);
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
    Finding::checked(paper::FINDINGS[0], ours, holds)
}

/// How the pair families compare with their first term alone, per measure (SLA, CPU):
/// how many reach it with some `w != 0`, how many exceed it, and the furthest below.
struct Reach {
    families: usize,
    reached: [usize; 2],
    improved: [usize; 2],
    worst: [(f64, String); 2],
}

impl Reach {
    fn of(sweep: &Sweep) -> Self {
        let mut names: Vec<String> =
            sweep.points.iter().filter(|p| p.kind == Kind::Pair).map(|p| p.family.clone()).collect();
        names.dedup();
        let mut reach = Self {
            families: names.len(),
            reached: [0; 2],
            improved: [0; 2],
            worst: [(0.0, String::new()), (0.0, String::new())],
        };
        for name in &names {
            let first = sweep.points.iter().find(|p| p.family == *name).map(|p| p.order);
            let Some(Order::Heuristic(h)) = first else { continue };
            let alone = Heuristic::single(h.direction, h.h1).to_string();
            for (i, m) in [SLA, CPU].into_iter().enumerate() {
                let base = value(sweep, &alone, m);
                let nonzero = best(family(sweep, name).filter(|p| p.weight != Some(Weight::Milli(0))), m)
                    .map_or(f64::NAN, |(v, _)| v);
                if nonzero >= base - 1e-9 {
                    reach.reached[i] += 1;
                } else if base - nonzero > reach.worst[i].0 {
                    reach.worst[i] = (base - nonzero, name.clone());
                }
                if nonzero > base + 1e-9 {
                    reach.improved[i] += 1;
                }
            }
        }
        reach
    }

    fn describe(&self, i: usize, label: &str) -> String {
        let n = self.families;
        let mut s = format!(
            "{label}: {}/{n} families reach their first term alone with some w != 0, {} exceed it",
            self.reached[i], self.improved[i]
        );
        if self.reached[i] < n {
            let _ = write!(s, " (furthest below: {} by {:.2} points)", self.worst[i].1, self.worst[i].0);
        }
        s
    }
}

/// 2. The best over `w != 0` of every pair family reaches its first term alone.
fn pairs_reach_first_term(sweep: &Sweep) -> Finding {
    let reach = Reach::of(sweep);
    let n = reach.families;
    let three = sweep.points.iter().filter(|p| p.kind == Kind::ThreeTerm);
    let gain = fig7(sweep);
    Finding::checked(
        paper::FINDINGS[1],
        format!(
            "{}; {}; with w = 0 in every grid the best can never be lower. Three terms (Figure 7): SLA {:.2} vs {:.2} / {:.2}, CPU {:.2} vs {:.2} / {:.2} ({} points)",
            reach.describe(0, "SLA"),
            reach.describe(1, "CPU"),
            gain.three[0],
            gain.only_a[0],
            gain.only_tl[0],
            gain.three[1],
            gain.only_a[1],
            gain.only_tl[1],
            three.count()
        ),
        reach.reached == [n, n],
    )
}

/// 3. Fair = (SLA + CPU) / 2, on every point, Rigid and ASAP.
fn fair_is_mean(sweep: &Sweep) -> Finding {
    let gap = sweep
        .points
        .iter()
        .map(|p| {
            let i = &p.mean.income;
            ((i.rigid_fair - (i.rigid_sla + i.rigid_cpu) / 2.0).abs())
                .max((i.asap_fair - (i.asap_sla + i.asap_cpu) / 2.0).abs())
        })
        .fold(0.0f64, f64::max);
    Finding::checked(
        paper::FINDINGS[2],
        format!(
            "largest |Fair - (SLA + CPU)/2| over all {} points: {gap:.2e} (it holds by construction: V_F = (1 + kA)/2 for every job)",
            sweep.points.len()
        ),
        gap < 1e-6,
    )
}

/// 4. Under ASAP, max(TS) and max(TF) earn more than min(TS) and min(TF).
fn asap_prefers_max(sweep: &Sweep) -> Finding {
    let mut ours = String::new();
    let mut holds = true;
    for t in ["TS", "TF"] {
        let (lo, hi) = (format!("min({t})"), format!("max({t})"));
        for (label, m) in [("SLA", ASAP_SLA), ("Fair", ASAP_FAIR), ("CPU", ASAP_CPU)] {
            let (a, b) = (value(sweep, &lo, m), value(sweep, &hi, m));
            holds &= b > a;
            let _ =
                write!(ours, "{}{label} {hi} {b:.1} vs {lo} {a:.1}", if ours.is_empty() { "" } else { "; " });
        }
    }
    Finding::checked(paper::FINDINGS[3], ours, holds)
}

/// Figure 7's comparison: the best SLA and CPU of the three-term grid, of its row
/// `w2 = 0` (`TF + w1*A`) and of its column `w1 = 0` (`TF + w2*tL`).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Fig7 {
    pub three: [f64; 2],
    pub only_a: [f64; 2],
    pub only_tl: [f64; 2],
}

/// Figure 7's comparison of the sweep's three-term points.
pub fn fig7(sweep: &Sweep) -> Fig7 {
    let three = || sweep.points.iter().filter(|p| p.kind == Kind::ThreeTerm);
    let top = |filter: &dyn Fn(&Point) -> bool| {
        [SLA, CPU].map(|m| best(three().filter(|p| filter(p)), m).map_or(f64::NAN, |(v, _)| v))
    };
    Fig7 { three: top(&|_| true), only_a: top(&|p| p.w2 == "0"), only_tl: top(&|p| p.w == "0") }
}
