//! The cv grid's summary table and figures.
//!
//! `cv-summary.csv`: per trace (and `all` traces), mode and machine count, the windows
//! solved, how many exactly, the true factor's minimum and median over windows, the
//! widest bracket, the mean gaps `V/V* - c_V^l` and `V/V* - c_V^u`, and the windows
//! whose true factor falls below the greedy guarantee. A bracketed window counts with
//! `V / upper`, the low end of its range, so every figure is one the schedule found
//! proves.
//!
//! `cv_<mode>_m<M>.svg`: against `sf` or `k`, over every trace's sampled windows, the
//! true factor (its mean with each bracket at its low end and at its high end, and the
//! lowest window), `c_V^u` and `c_V^l` labelled as the lower bounds they are, and the
//! guarantee as a dashed line.

use std::io::Write;
use std::path::{Path, PathBuf};

use replay::staged;

use super::GridRow;
use super::exact::Status;
use crate::error::CliError;
use crate::path_error::PathError;
use crate::plot::{self, LineChart, PlotError, Series};
use crate::service_level::sweep::Mode;

/// One line of the summary.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub trace: String,
    pub mode: Mode,
    pub machines: u16,
    pub windows: usize,
    pub exact: usize,
    pub cv_min: f64,
    pub cv_median: f64,
    /// The widest `cv_high - cv_low` of a bracketed window (0 when all are exact).
    pub widest_bracket: f64,
    pub gap_l: f64,
    pub gap_u: f64,
    /// Windows whose `V / best` (the most the truth can be) is below the guarantee.
    pub below_bound: usize,
    /// Of `c_V^l`'s bound's excess over `V*` (summed over the windows), the share that
    /// is time outside every cluster's span or work past a cluster's capacity
    /// (`limited - clustered`); the rest (`clustered - V*`) is work the deadlines
    /// inside a cluster shut out, and lower prices than `u_max`.
    pub idle_share: f64,
}

/// The median of `values` (sorted here), the mean of the middle two when even.
pub fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    match n {
        0 => f64::NAN,
        _ if n % 2 == 1 => values[n / 2],
        _ => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    }
}

fn summarise(trace: &str, mode: Mode, machines: u16, rows: &[&GridRow]) -> Summary {
    let n = rows.len();
    let mean = |f: &dyn Fn(&GridRow) -> f64| rows.iter().map(|r| f(r)).sum::<f64>() / n as f64;
    let mut lows: Vec<f64> = rows.iter().map(|r| r.row.cv_low).collect();
    Summary {
        trace: trace.to_owned(),
        mode,
        machines,
        windows: n,
        exact: rows.iter().filter(|r| r.row.status == Status::Exact).count(),
        cv_min: lows.iter().copied().fold(f64::INFINITY, f64::min),
        cv_median: median(&mut lows),
        widest_bracket: rows.iter().map(|r| r.row.cv_high - r.row.cv_low).fold(0.0, f64::max),
        gap_l: mean(&|r| r.row.cv_low - r.row.cv_l),
        gap_u: mean(&|r| r.row.cv_low - r.row.cv_u),
        below_bound: rows.iter().filter(|r| r.row.cv_high < r.row.greedy_bound).count(),
        idle_share: {
            let idle: u128 = rows.iter().map(|r| r.row.bound_limited - r.row.bound_clustered).sum();
            let slack: u128 =
                rows.iter().map(|r| r.row.bound_limited.saturating_sub(r.row.v_star_best)).sum();
            if slack == 0 { 0.0 } else { idle as f64 / slack as f64 }
        },
    }
}

/// The summary lines: each trace in order of first appearance, then `all`; within
/// each, mode then machine count in order of first appearance.
pub fn summaries(rows: &[GridRow]) -> Vec<Summary> {
    let mut traces: Vec<&str> = Vec::new();
    let mut keys: Vec<(Mode, u16)> = Vec::new();
    for r in rows {
        if !traces.contains(&r.point.trace.as_str()) {
            traces.push(&r.point.trace);
        }
        if !keys.contains(&(r.point.mode, r.point.machines)) {
            keys.push((r.point.mode, r.point.machines));
        }
    }
    let mut out = Vec::new();
    for trace in traces.iter().copied().map(Some).chain([None]) {
        for &(mode, machines) in &keys {
            let group: Vec<&GridRow> = rows
                .iter()
                .filter(|r| r.point.mode == mode && r.point.machines == machines)
                .filter(|r| trace.is_none_or(|t| r.point.trace == t))
                .collect();
            if !group.is_empty() {
                out.push(summarise(trace.unwrap_or("all"), mode, machines, &group));
            }
        }
    }
    out
}

/// The columns of `cv-summary.csv`.
const SUMMARY_COLUMNS: [&str; 13] = [
    "trace",
    "mode",
    "machines",
    "windows",
    "exact",
    "bracketed",
    "cv_min",
    "cv_median",
    "widest_bracket",
    "mean_cv_minus_cv_l",
    "mean_cv_minus_cv_u",
    "below_bound",
    "idle_share",
];

/// Writes `cv-summary.csv`, by the `csv` crate.
pub fn write_summary(path: &Path, rows: &[GridRow]) -> Result<(), CliError> {
    let named = |source: csv::Error| {
        CliError::Io(PathError { path: path.display().to_string(), source: std::io::Error::from(source) })
    };
    staged::write(path, |file, _| {
        let mut out = csv::Writer::from_writer(file);
        out.write_record(SUMMARY_COLUMNS).map_err(named)?;
        for s in summaries(rows) {
            out.write_record(cells(&s, 6)).map_err(named)?;
        }
        out.flush().map_err(|e| named(e.into()))
    })
}

/// The cv figures, one per mode and machine count.
pub fn write(dir: &Path, rows: &[GridRow]) -> Result<Vec<PathBuf>, PlotError> {
    let mut keys: Vec<(Mode, u16)> = Vec::new();
    for r in rows {
        if !keys.contains(&(r.point.mode, r.point.machines)) {
            keys.push((r.point.mode, r.point.machines));
        }
    }
    let charts = keys.into_iter().map(|(mode, machines)| {
        let group: Vec<&GridRow> =
            rows.iter().filter(|r| r.point.mode == mode && r.point.machines == machines).collect();
        (format!("cv_{}_m{machines}.svg", mode.name()), chart(mode, machines, &group))
    });
    plot::write_all(dir, charts)
}

fn chart(mode: Mode, machines: u16, rows: &[&GridRow]) -> LineChart {
    let mut xs: Vec<u32> = rows.iter().map(|r| r.point.x_milli).collect();
    xs.sort_unstable();
    xs.dedup();
    let at = |f: &dyn Fn(&[&GridRow]) -> f64| -> Vec<(f64, f64)> {
        xs.iter()
            .map(|&x| {
                let here: Vec<&GridRow> = rows.iter().copied().filter(|r| r.point.x_milli == x).collect();
                (f64::from(x) / 1000.0, f(&here))
            })
            .collect()
    };
    let mean =
        |g: fn(&GridRow) -> f64| move |h: &[&GridRow]| h.iter().map(|r| g(r)).sum::<f64>() / h.len() as f64;
    let lowest = |h: &[&GridRow]| h.iter().map(|r| r.row.cv_low).fold(f64::INFINITY, f64::min);
    let (x_label, guarantee) = match mode {
        Mode::Single => ("slack factor sf", "Theorem 2's guarantee 1 - 1/sf"),
        Mode::Multi => ("number of SLAs k (slack factors 1..k)", "guarantee (u_min/u_max)(1 - 1/f_min)"),
    };
    LineChart {
        title: format!("V/V* and its lower bounds, {} mode, m = {machines}", mode.name()),
        x_label: x_label.to_owned(),
        y_label: "competitive factor [ratio]".to_owned(),
        series: vec![
            Series::new("V/V*, mean (a bracket at its low end)", at(&mean(|r| r.row.cv_low))),
            Series::new("V/V*, mean (a bracket at its high end)", at(&mean(|r| r.row.cv_high))),
            Series::new("V/V*, lowest window (low end)", at(&lowest)),
            Series::new("c_V^u, mean: a lower bound of V/V*", at(&mean(|r| r.row.cv_u))),
            Series::new("c_V^l, mean: a lower bound of V/V*", at(&mean(|r| r.row.cv_l))),
        ],
        reference_lines: vec![Series::new(guarantee, at(&mean(|r| r.row.greedy_bound)))],
        x_ticks: Vec::new(),
    }
}

/// One summary line's fields, in the column order of both tables: ratios to `digits`
/// decimals, the idle share to `digits - 2` (the CSV keeps 6 and 4, the printed
/// Markdown 4 and 2).
fn cells(s: &Summary, digits: usize) -> [String; 13] {
    let ratio = |x: f64| format!("{x:.digits$}");
    [
        s.trace.clone(),
        s.mode.name().to_owned(),
        s.machines.to_string(),
        s.windows.to_string(),
        s.exact.to_string(),
        (s.windows - s.exact).to_string(),
        ratio(s.cv_min),
        ratio(s.cv_median),
        ratio(s.widest_bracket),
        ratio(s.gap_l),
        ratio(s.gap_u),
        s.below_bound.to_string(),
        format!("{:.*}", digits - 2, s.idle_share),
    ]
}

/// The summary as a Markdown table (what `cv-sweep` prints).
pub fn write_markdown(rows: &[GridRow], mut out: impl Write) -> std::io::Result<()> {
    writeln!(
        out,
        "| trace | mode | m | windows | exact | bracketed | min V/V* | median V/V* | widest bracket | mean V/V* - c_V^l | mean V/V* - c_V^u | below guarantee | c_V^l slack from idle time |"
    )?;
    writeln!(out, "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")?;
    for s in summaries(rows) {
        writeln!(out, "| {} |", cells(&s, 4).join(" | "))?;
    }
    out.flush()
}
