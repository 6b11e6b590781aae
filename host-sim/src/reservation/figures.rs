//! The paper's Figures 2 to 7 (Netto, Bubendorfer and Buyya 2007, §4.2) as SVG,
//! drawn from the same tables as `fig2.csv` ... `fig7.csv`:
//!
//! | file | x axis | series |
//! |---|---|---|
//! | `fig2_load_<L>.svg` | interval size (mean widening, % of `Te`) | one per sorting criterion: utilisation minus the shuffle baseline's (the paper stacks the loads; one file per load here) |
//! | `fig3.svg`, `fig4.svg` | interval size | one per load: EDF utilisation, accurate and `poisson80` estimates |
//! | `fig5.svg` | when a job is fixed (share of its wait; 1 = never) | one per flexible interval size, load 1.25; fixed intervals as a dashed baseline |
//! | `fig6.svg` | `ϕ` max, or the interval's mean widening, as a share of `Te` | offers and flexible intervals, one per load each |
//! | `fig7.svg` | `ϕ` max | one per load: mean `ϕ` of accepted offers, beside `y = x` |
//!
//! Every point is a mean over the trace's windows; where its table has the column's
//! sd beside it (`utilisation_sd`, `diff_from_shuffle_sd`: every figure but 7), the
//! point is drawn with its 95 % interval over the windows ([`crate::plot::interval`]).
//!
//! Interval sizes are placed at their mean widening: none 0, short 25, medium 50 and
//! long 100 % of `Te` (see [`super::mapping::Flex::lambda_percent`]).

use std::path::{Path, PathBuf};

use super::mapping::Flex;
use super::sweep::tables::Table;
use crate::plot::{LineChart, PlotError, Series, interval};

const INTERVAL: &str = "interval size: mean widening [% of Te]";
const UTILISATION: &str = "utilisation [%]";

fn number(text: &str) -> f64 {
    text.parse().unwrap_or(f64::NAN)
}

fn widening(flex: &str) -> f64 {
    Flex::parse(flex).map_or(f64::NAN, |f| f64::from(f.lambda_percent()))
}

/// The distinct values of column `c`, in first-seen order.
fn distinct(table: &Table, c: usize) -> Vec<String> {
    let mut seen: Vec<String> = Vec::new();
    for row in &table.rows {
        if let Some(v) = row.get(c)
            && !seen.contains(v)
        {
            seen.push(v.clone());
        }
    }
    seen
}

/// `row`'s value of `y` and, when the table has `y`'s sd column (`_mean` become
/// `_sd`), its 95 % interval over the table's windows.
fn value_and_interval(table: &Table, row: &[String], y: &str) -> interval::Estimate {
    let cell = |name: &str| table.column(name).and_then(|c| row.get(c)).map_or(f64::NAN, |t| number(t));
    let mean = cell(y);
    let sd_column = y.strip_suffix("_mean").map(|stem| format!("{stem}_sd"));
    let interval = sd_column.and_then(|c| interval::ci95_from_population_sd(mean, cell(&c), table.windows));
    (mean, interval)
}

/// A series of `(x, value, interval)` points, labelled as 95 % intervals over the
/// table's windows.
fn series_with_intervals(table: &Table, name: String, points: Vec<(f64, interval::Estimate)>) -> Series {
    let intervals = points.iter().map(|(_, (_, i))| *i).collect();
    let points = points.into_iter().map(|(x, (y, _))| (x, y)).collect();
    Series::new(name, points).with_intervals(interval::ci95_label(table.windows, "windows"), intervals)
}

/// One series per distinct value of `by`, of `(x(row), y column)`.
fn series_by(
    table: &Table,
    by: &str,
    name: impl Fn(&str) -> String,
    x: impl Fn(&[String]) -> f64,
    y: &str,
    keep: impl Fn(&[String]) -> bool,
) -> Vec<Series> {
    let Some(b) = table.column(by) else { return Vec::new() };
    if table.column(y).is_none() {
        return Vec::new();
    }
    distinct(table, b)
        .iter()
        .map(|value| {
            let points = table
                .rows
                .iter()
                .filter(|r| r.get(b) == Some(value) && keep(r))
                .map(|r| (x(r), value_and_interval(table, r, y)))
                .collect();
            series_with_intervals(table, name(value), points)
        })
        .filter(|s| !s.points.is_empty())
        .collect()
}

fn chart(title: &str, x_label: &str, y_label: &str, series: Vec<Series>) -> LineChart {
    LineChart {
        title: title.to_owned(),
        x_label: x_label.to_owned(),
        y_label: y_label.to_owned(),
        series,
        reference_lines: Vec::new(),
        x_ticks: Vec::new(),
    }
}

fn find<'a>(tables: &'a [Table], name: &str) -> Option<&'a Table> {
    tables.iter().find(|t| t.name == name)
}

fn fig2(table: &Table) -> Vec<(String, LineChart)> {
    let (Some(load), Some(flex)) = (table.column("load"), table.column("flex")) else { return Vec::new() };
    distinct(table, load)
        .into_iter()
        .map(|l| {
            let series = series_by(
                table,
                "criterion",
                |c| c.to_uppercase(),
                |r| r.get(flex).map_or(f64::NAN, |f| widening(f)),
                "diff_from_shuffle_mean",
                |r| r.get(load) == Some(&l),
            );
            let title = format!("Fig. 2: sorting criteria against shuffle, load {l}");
            (
                format!("fig2_load_{l}"),
                chart(&title, INTERVAL, "utilisation minus shuffle's [% points]", series),
            )
        })
        .collect()
}

fn by_load(table: &Table, title: &str) -> LineChart {
    let flex = table.column("flex");
    let series = series_by(
        table,
        "load",
        |l| format!("load {l}"),
        |r| flex.and_then(|f| r.get(f)).map_or(f64::NAN, |f| widening(f)),
        "utilisation_mean",
        |_| true,
    );
    chart(title, INTERVAL, UTILISATION, series)
}

fn fig5(table: &Table) -> LineChart {
    let fix = table.column("fix_at");
    let at = |r: &[String]| {
        fix.and_then(|c| r.get(c)).map_or(f64::NAN, |t| if t == "never" { 1.0 } else { number(t) })
    };
    let flexible = |r: &[String]| table.column("flex").and_then(|c| r.get(c)).is_some_and(|f| f != "none");
    let name = |f: &str| format!("{f} windows (+{} % of Te)", widening(f));
    let series = series_by(table, "flex", name, at, "utilisation_mean", flexible);
    let mut figure = chart(
        "Fig. 5: EDF utilisation by fixing time, load 1.25",
        "job fixed after this share of its wait [fraction; 1 = never]",
        UTILISATION,
        series,
    );
    // Fixed intervals cannot move, so fixing changes nothing: their one run is the
    // baseline, drawn across the whole axis.
    let fixed = series_by(table, "flex", |_| String::new(), at, "utilisation_mean", |r| !flexible(r));
    if let Some(level) = fixed.first().and_then(|s| s.points.first()).map(|p| p.1) {
        figure.reference_lines = vec![Series::new("fixed intervals", vec![(0.0, level), (1.0, level)])];
    }
    figure
}

fn fig6(table: &Table) -> LineChart {
    let (Some(technique), Some(setting), Some(load)) =
        (table.column("technique"), table.column("setting"), table.column("load"))
    else {
        return chart("Fig. 6", "", "", Vec::new());
    };
    let x = |r: &[String]| match (r.get(technique).map(String::as_str), r.get(setting)) {
        (Some("offers"), Some(phi)) => number(phi),
        (_, Some(flex)) => widening(flex) / 100.0,
        _ => f64::NAN,
    };
    let mut series = Vec::new();
    for kind in ["offers", "flexible"] {
        for l in distinct(table, load) {
            let points = table
                .rows
                .iter()
                .filter(|r| r.get(technique).map(String::as_str) == Some(kind) && r.get(load) == Some(&l))
                .filter(|r| kind == "offers" || r.get(setting).map(String::as_str) != Some("none"))
                .map(|r| (x(r), value_and_interval(table, r, "utilisation_mean")))
                .collect();
            let label = if kind == "offers" { "offers" } else { "flexible intervals" };
            series.push(series_with_intervals(table, format!("{label}, load {l}"), points));
        }
    }
    chart(
        "Fig. 6: EDF utilisation, offers against flexible intervals",
        "ϕ max, or the interval's mean widening [fraction of Te]",
        UTILISATION,
        series,
    )
}

fn fig7(table: &Table) -> LineChart {
    let phi = table.column("phi_max");
    let x = |r: &[String]| phi.and_then(|c| r.get(c)).map_or(f64::NAN, |t| number(t));
    let series = series_by(table, "load", |l| format!("load {l}"), x, "offer_phi_mean", |_| true);
    let mut maxima: Vec<f64> = table.rows.iter().map(|r| x(r)).filter(|v| v.is_finite()).collect();
    maxima.sort_by(f64::total_cmp);
    maxima.dedup();
    let mut figure = chart(
        "Fig. 7: mean ϕ of accepted offers",
        "ϕ max [fraction of Te]",
        "mean ϕ of accepted offers [fraction of Te]",
        series,
    );
    figure.reference_lines = vec![Series::new("ϕ = ϕ max", maxima.iter().map(|&m| (m, m)).collect())];
    figure
}

/// Every chart of the figures' tables, keyed by file stem.
pub fn charts(tables: &[Table]) -> Vec<(String, LineChart)> {
    let mut charts = Vec::new();
    if let Some(t) = find(tables, "fig2") {
        charts.extend(fig2(t));
    }
    if let Some(t) = find(tables, "fig3") {
        charts.push(("fig3".to_owned(), by_load(t, "Fig. 3: EDF utilisation by interval size")));
    }
    if let Some(t) = find(tables, "fig4") {
        let title = "Fig. 4: EDF utilisation by interval size, inaccurate estimates";
        charts.push(("fig4".to_owned(), by_load(t, title)));
    }
    if let Some(t) = find(tables, "fig5") {
        charts.push(("fig5".to_owned(), fig5(t)));
    }
    if let Some(t) = find(tables, "fig6") {
        charts.push(("fig6".to_owned(), fig6(t)));
    }
    if let Some(t) = find(tables, "fig7") {
        charts.push(("fig7".to_owned(), fig7(t)));
    }
    charts
}

/// Writes every chart as `DIR/<stem>.svg`; returns the paths written.
pub fn write(dir: &Path, tables: &[Table]) -> Result<Vec<PathBuf>, PlotError> {
    crate::plot::write_all(
        dir,
        charts(tables).into_iter().map(|(stem, chart)| (format!("{stem}.svg"), chart)),
    )
}

#[cfg(test)]
mod tests;
