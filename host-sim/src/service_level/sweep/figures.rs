//! The thesis grid's figures (Lezama 2012, chapters 4 to 6): every metric of Table 1
//! against `sf` (single mode) or the number of SLAs `k` (multi mode), one series per
//! machine count, written as `DIR/<mode>_<metric>.svg`; and per machine count the
//! competitive factor as the thesis' Figures 13 and 14 show it (`c_V^u` and `c_V^l`
//! beside the theorems' guarantee), as `DIR/<mode>_cv_m<M>.svg`. A sweep over
//! several policies draws each policy's figures apart: first fit's under the names
//! above, every other policy's with its name appended (`DIR/single_prj_best-fit.svg`,
//! titles prefixed by the policy).
//!
//! Every point is the mean over the trace's windows, drawn with its 95 % interval
//! ([`crate::plot::interval`], from the row's `windows` and population `sd`) when a
//! row has two windows or more. A sweep over several policies also draws them side
//! by side ([`policies`]): `DIR/<mode>_policies_m<M>.svg`.
//!
//! The greedy guarantee on the `c_V` figures is the row's `greedy_bound`
//! ([`crate::service_level::levels::greedy_bound`]): `1 - 1/sf` for one level, `(u_min/u_max)(1 -
//! 1/f_min)` for the set `1..k`.

use std::path::{Path, PathBuf};

use super::{Mode, Row};
use crate::plot::{self, LineChart, PlotError, Series, file_stem, interval};
use crate::service_level::metrics::Metrics;

/// One metric's figure: key, title, y-axis label with unit, and how to read it.
#[derive(Debug)]
pub struct MetricFigure {
    pub key: &'static str,
    pub title: &'static str,
    pub y_label: &'static str,
    pub value: fn(&Metrics) -> f64,
}

/// Table 1's metrics, in the thesis' order. Times are in ticks, which are seconds for
/// SWF traces.
pub const METRIC_FIGURES: [MetricFigure; 9] = [
    MetricFigure { key: "prj", title: "Rejected jobs (PRJ)", y_label: "PRJ [%]", value: |m| m.prj },
    MetricFigure {
        key: "mbsd",
        title: "Mean bounded slowdown (MBSD)",
        y_label: "MBSD [ratio]",
        value: |m| m.mbsd,
    },
    MetricFigure { key: "mwt", title: "Mean waiting time (MWT)", y_label: "MWT [s]", value: |m| m.mwt },
    MetricFigure { key: "tpt", title: "Total processing time (TPT)", y_label: "TPT [s]", value: |m| m.tpt },
    MetricFigure {
        key: "mni",
        title: "Interruptions per accepted job (MNI)",
        y_label: "MNI [interruptions / job]",
        value: |m| m.mni,
    },
    MetricFigure { key: "me", title: "Machine efficiency (ME)", y_label: "ME [fraction]", value: |m| m.me },
    MetricFigure { key: "g", title: "Provider benefit (G)", y_label: "G [price units]", value: |m| m.g },
    MetricFigure {
        key: "cv_u",
        title: "Competitive factor, unlimited bound (c_V^u)",
        y_label: "c_V^u [ratio]",
        value: |m| m.cv_u,
    },
    MetricFigure {
        key: "cv_l",
        title: "Competitive factor, limited bound (c_V^l)",
        y_label: "c_V^l [ratio]",
        value: |m| m.cv_l,
    },
];

/// The x-axis label of a mode.
pub fn x_label(mode: Mode) -> &'static str {
    match mode {
        Mode::Single => "slack factor sf",
        Mode::Multi => "number of SLAs k (slack factors 1..k)",
    }
}

pub(crate) fn mode_title(mode: Mode) -> &'static str {
    match mode {
        Mode::Single => "SSL",
        Mode::Multi => "MSL",
    }
}

/// `sf` or `k` as a number (rows carry it as a decimal string).
fn x_of(row: &Row) -> f64 {
    row.sf_or_k.parse().unwrap_or(f64::NAN)
}

pub(crate) fn machine_counts(rows: &[&Row]) -> Vec<u16> {
    let mut counts: Vec<u16> = rows.iter().map(|r| r.machines).collect();
    counts.sort_unstable();
    counts.dedup();
    counts
}

fn greedy_line(rows: &[&Row]) -> Series {
    let mut points: Vec<(f64, f64)> = rows.iter().map(|r| (x_of(r), r.mean.greedy_bound)).collect();
    points.sort_by(|a, b| a.0.total_cmp(&b.0));
    points.dedup_by(|a, b| a.0 == b.0);
    Series::new("greedy guarantee (theorems)", points)
}

mod policies;

/// `(x, mean)` of each row, as a series named `name`, with each row's 95 % interval
/// over its windows.
pub(crate) fn with_intervals(name: String, rows: &[&Row], value: fn(&Metrics) -> f64) -> Series {
    let points = rows.iter().map(|r| (x_of(r), value(&r.mean))).collect();
    let intervals = rows
        .iter()
        .map(|r| interval::ci95_from_population_sd(value(&r.mean), value(&r.sd), r.windows))
        .collect();
    let windows = rows.iter().map(|r| r.windows).max().unwrap_or(0);
    Series::new(name, points).with_intervals(interval::ci95_label(windows, "windows"), intervals)
}

/// Every chart of the grid, keyed by file stem, in a fixed order: policy by policy
/// in the rows' order, first fit's stems unchanged, the others' suffixed `_<policy>`.
pub fn charts(rows: &[Row]) -> Vec<(String, LineChart)> {
    let mut policies: Vec<&'static str> = Vec::new();
    for row in rows {
        if !policies.contains(&row.policy) {
            policies.push(row.policy);
        }
    }
    let mut charts = Vec::new();
    for policy in policies {
        let of_policy: Vec<&Row> = rows.iter().filter(|r| r.policy == policy).collect();
        let named = policy != kernel::service_level::Policy::FirstFit.name();
        for (stem, mut chart) in policy_charts(&of_policy) {
            if named {
                chart.title = format!("{policy}, {}", chart.title);
                charts.push((format!("{stem}_{policy}"), chart));
            } else {
                charts.push((stem, chart));
            }
        }
    }
    charts.extend(policies::charts(rows));
    charts
}

/// The charts of one policy's rows.
fn policy_charts(rows: &[&Row]) -> Vec<(String, LineChart)> {
    let mut charts = Vec::new();
    for mode in [Mode::Single, Mode::Multi] {
        let rows: Vec<&Row> = rows.iter().copied().filter(|r| r.mode == mode).collect();
        if rows.is_empty() {
            continue;
        }
        let counts = machine_counts(&rows);
        for figure in &METRIC_FIGURES {
            let series = counts
                .iter()
                .map(|&m| {
                    let on_m: Vec<&Row> = rows.iter().copied().filter(|r| r.machines == m).collect();
                    with_intervals(
                        format!("{m} machine{}", if m == 1 { "" } else { "s" }),
                        &on_m,
                        figure.value,
                    )
                })
                .collect();
            let reference_lines =
                if figure.key.starts_with("cv") { vec![greedy_line(&rows)] } else { Vec::new() };
            let chart = LineChart {
                title: format!("{}: {}", mode_title(mode), figure.title),
                x_label: x_label(mode).to_owned(),
                y_label: figure.y_label.to_owned(),
                series,
                reference_lines,
                x_ticks: Vec::new(),
            };
            charts.push((file_stem(&format!("{}_{}", mode.name(), figure.key)), chart));
        }
        for &m in &counts {
            let on_m: Vec<&Row> = rows.iter().copied().filter(|r| r.machines == m).collect();
            let series =
                |name: &str, value: fn(&Metrics) -> f64| with_intervals(name.to_owned(), &on_m, value);
            let chart = LineChart {
                title: format!(
                    "{}: competitive factor on {m} machine{}",
                    mode_title(mode),
                    if m == 1 { "" } else { "s" }
                ),
                x_label: x_label(mode).to_owned(),
                y_label: "c_V [ratio]".to_owned(),
                series: vec![
                    series("c_V^u (unlimited resources)", |x| x.cv_u),
                    series("c_V^l (limited resources)", |x| x.cv_l),
                ],
                reference_lines: vec![greedy_line(&on_m)],
                x_ticks: Vec::new(),
            };
            charts.push((format!("{}_cv_m{m}", mode.name()), chart));
        }
    }
    charts
}

/// Writes every chart as `DIR/<stem>.svg`; returns the paths written.
pub fn write(dir: &Path, rows: &[Row]) -> Result<Vec<PathBuf>, PlotError> {
    plot::write_all(dir, charts(rows).into_iter().map(|(stem, chart)| (format!("{stem}.svg"), chart)))
}

#[cfg(test)]
mod tests;
