//! The thesis' criteria analysis (Lezama 2012, §3.5 and chapter 7) of a sweep's
//! output: each metric's degradation from the best configuration, the mean per group
//! of metrics, the ranking per machine count, the three best configurations per group
//! and machine count (the thesis' Figures 44 to 49), and the thesis' findings beside
//! ours.
//!
//! Groups (the thesis' Table 3): system-centric G and PRJ, user-centric MWT and MBSD,
//! algorithm-centric `c_V`. The thesis has two experimental `c_V` bounds and does not
//! say which its analysis used; we use `c_V^l`, the limited-resources bound, which its
//! chapter 4 finds the tighter one.
//!
//! Degradation. The thesis writes `(value / best - 1) * 100`, with the best the
//! maximum for G and `c_V` and the minimum for PRJ, MWT and MBSD. Read literally it is
//! negative for the maximised metrics and changes sign when the best G is negative
//! (G is negative whenever the income is below `alpha` times the submitted work). We
//! use the distance from the best relative to the best's magnitude, which is never
//! negative and is 0 for the best:
//!
//! - minimised: `(value - best) / |best| * 100` (the thesis' formula when `best > 0`);
//! - maximised: `(best - value) / |best| * 100` (the thesis' formula with its sign
//!   turned, when `best > 0`; still a distance when `best < 0`);
//! - when `best` is 0 (no rejection, no waiting), the denominator is the largest
//!   `|value|` of that metric instead, so degradations stay within 0 to 100; when every
//!   value is 0, every degradation is 0.
//!
//! The best is taken per mode over every analysed configuration (every `sf` or `k` and
//! every analysed machine count, 1, 2 and 4 by default as in the thesis' chapter 7),
//! so that machine counts can be compared, as the thesis does ("the systems with larger
//! number of machines are the ones that obtain lower degradation values"). The ranking
//! is per machine count: lowest mean degradation first, ties by smaller `sf` or `k`.

use std::fmt::Write as _;

use serde::Serialize;

use crate::service_level::sweep::Mode;

pub mod cli;
pub mod figures;
mod files;
pub mod thesis;

/// One configuration of a sweep, as read back from `sweep.csv`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Config {
    pub mode: Mode,
    /// `sf` or `k`.
    pub sf_or_k: f64,
    /// As written in the sweep (`"1.5"`).
    pub sf_or_k_text: String,
    pub machines: u16,
    pub g: f64,
    pub prj: f64,
    pub mwt: f64,
    pub mbsd: f64,
    pub cv_l: f64,
}

/// A metric of the analysis and whether more is better.
#[derive(Clone, Copy, Debug)]
pub struct Metric {
    pub key: &'static str,
    pub maximised: bool,
    pub value: fn(&Config) -> f64,
}

pub const G: Metric = Metric { key: "g", maximised: true, value: |c| c.g };
pub const PRJ: Metric = Metric { key: "prj", maximised: false, value: |c| c.prj };
pub const MWT: Metric = Metric { key: "mwt", maximised: false, value: |c| c.mwt };
pub const MBSD: Metric = Metric { key: "mbsd", maximised: false, value: |c| c.mbsd };
pub const CV: Metric = Metric { key: "cv_l", maximised: true, value: |c| c.cv_l };

/// The thesis' three groups of metrics (Table 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Group {
    System,
    User,
    Algorithm,
}

impl Group {
    pub const ALL: [Self; 3] = [Self::System, Self::User, Self::Algorithm];

    pub fn name(self) -> &'static str {
        match self {
            Self::System => "system-centric",
            Self::User => "user-centric",
            Self::Algorithm => "algorithm-centric",
        }
    }

    pub fn metrics(self) -> &'static [Metric] {
        match self {
            Self::System => &[G, PRJ],
            Self::User => &[MWT, MBSD],
            Self::Algorithm => &[CV],
        }
    }
}

/// One configuration's degradations: per metric (in [`ALL_METRICS`] order) and the
/// group means (in [`Group::ALL`] order).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Degraded {
    pub config: Config,
    pub metrics: [f64; 5],
    pub groups: [f64; 3],
}

/// Every metric of the analysis, in the order of [`Degraded::metrics`].
pub const ALL_METRICS: [Metric; 5] = [G, PRJ, MWT, MBSD, CV];

/// The degradation of `value` from `best`; `scale` is the denominator used when
/// `best` is 0 (the largest magnitude of the metric).
pub fn degradation(metric: Metric, value: f64, best: f64, scale: f64) -> f64 {
    let distance = if metric.maximised { best - value } else { value - best };
    let denominator = if best != 0.0 { best.abs() } else { scale };
    if denominator == 0.0 { 0.0 } else { distance / denominator * 100.0 }
}

/// The best value of `metric` over `configs`, and its fallback scale.
fn best_of(metric: Metric, configs: &[&Config]) -> (f64, f64) {
    let values = configs.iter().map(|c| (metric.value)(c)).filter(|v| v.is_finite());
    let best = values.clone().fold(None, |best: Option<f64>, v| {
        Some(match best {
            None => v,
            Some(b) if metric.maximised => b.max(v),
            Some(b) => b.min(v),
        })
    });
    let scale = values.map(f64::abs).fold(0.0, f64::max);
    (best.unwrap_or(0.0), scale)
}

/// Degradations of every configuration of one mode (bests over all of them).
pub fn degrade(configs: &[&Config]) -> Vec<Degraded> {
    let bests = ALL_METRICS.map(|m| best_of(m, configs));
    configs
        .iter()
        .map(|c| {
            let metrics: [f64; 5] = std::array::from_fn(|i| {
                degradation(ALL_METRICS[i], (ALL_METRICS[i].value)(c), bests[i].0, bests[i].1)
            });
            let groups = Group::ALL.map(|g| {
                let keys = g.metrics();
                let sum: f64 = keys
                    .iter()
                    .map(|m| ALL_METRICS.iter().position(|a| a.key == m.key).map_or(0.0, |i| metrics[i]))
                    .sum();
                sum / keys.len() as f64
            });
            Degraded { config: (*c).clone(), metrics, groups }
        })
        .collect()
}

/// The configurations of one machine count ranked for `group`: lowest mean
/// degradation first, ties by smaller `sf` or `k`.
pub fn ranking(degraded: &[Degraded], machines: u16, group: Group) -> Vec<&Degraded> {
    let g = Group::ALL.iter().position(|x| *x == group).unwrap_or(0);
    let mut ranked: Vec<&Degraded> = degraded.iter().filter(|d| d.config.machines == machines).collect();
    ranked.sort_by(|a, b| {
        a.groups[g].total_cmp(&b.groups[g]).then(a.config.sf_or_k.total_cmp(&b.config.sf_or_k))
    });
    ranked
}

/// The analysis of one mode.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ModeAnalysis {
    pub mode: Mode,
    pub machine_counts: Vec<u16>,
    pub degraded: Vec<Degraded>,
}

impl ModeAnalysis {
    /// The three best configurations of `group` on `machines`.
    pub fn best_three(&self, machines: u16, group: Group) -> Vec<&Degraded> {
        ranking(&self.degraded, machines, group).into_iter().take(3).collect()
    }
}

/// Analyses every mode of `configs` over the machine counts in `machine_counts` (all
/// of the sweep's when empty).
pub fn analyse(configs: &[Config], machine_counts: &[u16]) -> Vec<ModeAnalysis> {
    let mut analyses = Vec::new();
    for mode in [Mode::Single, Mode::Multi] {
        let chosen: Vec<&Config> = configs
            .iter()
            .filter(|c| c.mode == mode && (machine_counts.is_empty() || machine_counts.contains(&c.machines)))
            .collect();
        if chosen.is_empty() {
            continue;
        }
        let mut counts: Vec<u16> = chosen.iter().map(|c| c.machines).collect();
        counts.sort_unstable();
        counts.dedup();
        analyses.push(ModeAnalysis { mode, machine_counts: counts, degraded: degrade(&chosen) });
    }
    analyses
}

/// The parameter's name in text: `sf` or `k`.
pub fn parameter(mode: Mode) -> &'static str {
    match mode {
        Mode::Single => "sf",
        Mode::Multi => "k",
    }
}

/// The report: per mode, group and machine count the three best configurations with
/// their mean degradation, beside the thesis' finding for that cell.
pub fn report(analyses: &[ModeAnalysis]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Criteria analysis (Lezama 2012, ch. 7): mean degradation [%] per group, three best per machine count"
    );
    for analysis in analyses {
        let p = parameter(analysis.mode);
        let _ = writeln!(out, "\n{} mode ({p} on the x axis of the thesis' figures)", analysis.mode.name());
        for group in Group::ALL {
            let _ = writeln!(out, "  {}:", group.name());
            for &m in &analysis.machine_counts {
                let best: Vec<String> = analysis
                    .best_three(m, group)
                    .iter()
                    .map(|d| format!("{p} {} ({:.1})", d.config.sf_or_k_text, d.groups[group_index(group)]))
                    .collect();
                let finding = thesis::finding(analysis.mode, group, m, best.join(", "));
                let _ = writeln!(
                    out,
                    "    {m:>2} machine{:<1}  ours: {:<40} thesis: {}",
                    if m == 1 { "" } else { "s" },
                    finding.ours,
                    finding.paper
                );
            }
            let lowest: Vec<String> = analysis
                .machine_counts
                .iter()
                .map(|&m| {
                    let best = analysis
                        .best_three(m, group)
                        .first()
                        .map_or(f64::NAN, |d| d.groups[group_index(group)]);
                    format!("{m}: {best:.1}")
                })
                .collect();
            let _ = writeln!(out, "    lowest degradation by machines: {}", lowest.join(", "));
        }
        let _ = writeln!(out, "  each metric alone, best {p} per machine count (what drives the groups):");
        for &m in &analysis.machine_counts {
            let on_m: Vec<&Degraded> = analysis.degraded.iter().filter(|d| d.config.machines == m).collect();
            let bests: Vec<String> = ALL_METRICS
                .iter()
                .enumerate()
                .filter_map(|(i, metric)| {
                    let best = on_m.iter().min_by(|a, b| {
                        a.metrics[i]
                            .total_cmp(&b.metrics[i])
                            .then(a.config.sf_or_k.total_cmp(&b.config.sf_or_k))
                    })?;
                    Some(format!("{} {p} {}", metric.key, best.config.sf_or_k_text))
                })
                .collect();
            let _ =
                writeln!(out, "    {m:>2} machine{:<1}  {}", if m == 1 { "" } else { "s" }, bests.join(", "));
        }
    }
    out
}

pub fn group_index(group: Group) -> usize {
    Group::ALL.iter().position(|g| *g == group).unwrap_or(0)
}

pub use files::{CriteriaError, read_sweep, write_csv};

#[cfg(test)]
mod tests;
