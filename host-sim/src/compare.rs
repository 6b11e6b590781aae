//! The models side by side: `host-sim compare --trace FILE` runs every model on the
//! same trace, each with its documented defaults and its own mapping of SWF jobs, and
//! puts the measures they share in one table (text, CSV and JSON).
//!
//! The measures, and how each model gives them:
//! - **requests**: what the model was asked to admit (its mapping may leave jobs
//!   out: the reservation model drops jobs under a minute and jobs without a
//!   processor count).
//! - **accepted %**: accepted over requested.
//! - **utilisation %**: the model's own: machine efficiency `ME` for service levels
//!   (one job at a time per machine), the executed node-time over the pool's for
//!   reservations and tiers (for tiers, from the first submit to the last event,
//!   time on desktops that later left included).
//! - **income**: in each model's own unit, or none: the provider benefit `G`
//!   (price units) for service levels; the reservation model prices nothing; the SLA
//!   model's ASAP income under Fair pricing (units: a request accepted at its earliest
//!   start earns about 1, so the ceiling is about the request count).
//! - **violations**: accepted requests whose promise was not kept. Service levels and
//!   reservations keep every promise by construction (and `replay verify` checks it),
//!   so both report 0. Tiers report the Gold and Silver SLAs violated (late, or lost
//!   with a desktop that left and not re-placed); Bronze is best effort and never
//!   violated. SLA reservations are never moved nor cut: 0.
//! - **mean wait** (seconds) and **mean bounded slowdown**
//!   `(completion - submit) / max(10, run time)`, over accepted requests.
//!
//! The defaults: service levels as `host-sim run` (1 machine, one level with
//! `sf = 2`, the whole trace as one window); reservations as `host-sim reserve`
//! (the pool from the trace's header, EDF, accurate estimates, strict windows, load
//! 1.0, 15-day windows, seed 1); SLA heuristics as `host-sim sla --trace` with
//! `--heuristic 'min(TF - 0.8*tD)' --batch 1h` (the pool as for reservations, windows
//! `TF = TS + f * tD` with the seeded factor `f`, seed 1, six-minute slots); tiers as
//! `host-sim tiers --trace` (a 3-node cluster and 9 desktops, policy `qos-res`, tier
//! mix A, the seeded availability and owner load, seed 1; each job one SLA due three
//! run times after its submission).

use std::io::{self, Write};

use serde::Serialize;

use crate::plot::{BarChart, BarGroup};

pub mod cli;

/// One model's row.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    /// The model's name, as its subcommand.
    pub model: &'static str,
    /// The paper it follows.
    pub after: &'static str,
    pub requests: u64,
    pub accepted_pct: f64,
    pub utilisation_pct: f64,
    /// In `income_unit`; `None` when the model prices nothing.
    pub income: Option<f64>,
    pub income_unit: &'static str,
    pub violations: u64,
    pub mean_wait_s: f64,
    pub mean_bounded_slowdown: f64,
    /// The model's setting, as the figure's legend states it (not in the CSV or JSON).
    #[serde(skip)]
    pub configuration: String,
    /// What `utilisation_pct` is a share of, as the figure states it.
    #[serde(skip)]
    pub utilisation_of: String,
}

/// What failed in one model's run.
#[derive(Debug, thiserror::Error)]
pub enum CompareError {
    /// A model's own error, after the model's name.
    #[error("{model}: {error}")]
    Model { model: &'static str, error: Box<dyn std::error::Error + Send + Sync> },
    /// A model that gives each request the job's processor count, on a trace whose
    /// jobs have none.
    #[error(
        "{model}: no job of the trace has a processor count (SWF fields 5 and 8 are -1 or 0 on all {jobs} \
         usable jobs), and the model asks each request for its processors, so it has nothing to run"
    )]
    NoSizes { model: &'static str, jobs: usize },
    /// `compare` ran every model it could and printed the others' errors in their rows'
    /// place; these could not run.
    #[error("compare: {} of the models could not run ({}); the others' rows are written", .0.len(), .0.join(", "))]
    Failed(Vec<&'static str>),
}

/// The service level's run loop has no model error of its own: its `SimError` is the
/// command line's too.
impl From<crate::service_level::sim::SimError> for CompareError {
    fn from(error: crate::service_level::sim::SimError) -> Self {
        Self::Model { model: "service levels", error: Box::new(error) }
    }
}

pub(crate) fn mean(values: impl ExactSizeIterator<Item = f64>) -> f64 {
    let count = values.len();
    if count == 0 { 0.0 } else { values.sum::<f64>() / count as f64 }
}

/// One figure of the comparison: `(file name, chart)`.
pub type Figure = (&'static str, BarChart);

/// A model's legend entry: its subcommand, its paper's authors, its configuration
/// and, when `utilisation` is drawn, what its utilisation is a share of.
fn legend_entry(row: &Row, utilisation: bool) -> String {
    let authors = row.after.split_once(" (").map_or(row.after, |(_, a)| a.trim_end_matches(')'));
    let of = if utilisation { format!("; utilisation of {}", row.utilisation_of) } else { String::new() };
    format!("{}, {authors}: {}{of}", row.model, row.configuration)
}

/// The figures, one measure each, a bar or dot per model whose legend entry states the
/// model's configuration: `compare.svg`, accepted requests in percent of each model's
/// own, which every model defines alike; `compare_wait.svg` and `compare_slowdown.svg`,
/// the mean wait and mean bounded slowdown of accepted requests, also alike; and
/// `compare_utilisation.svg`, each model's utilisation of its own resources, which
/// differ (one machine, a pool, a cluster and desktops): each entry says what its
/// utilisation is of, and the figure does not put them on one measure with the others.
pub fn charts(trace: &str, rows: &[Row]) -> Vec<Figure> {
    let group = |label: &str, value: fn(&Row) -> f64, digits: usize| BarGroup {
        label: label.to_owned(),
        bars: rows.iter().map(|r| (format!("{:.digits$}", value(r)), value(r))).collect(),
        intervals: Vec::new(),
    };
    let chart = |title: String, y_label: &str, groups: Vec<BarGroup>, utilisation: bool| BarChart {
        title,
        x_label: "measure (one run of each model)".to_owned(),
        y_label: y_label.to_owned(),
        bar_names: rows.iter().map(|r| legend_entry(r, utilisation)).collect(),
        groups,
        interval_label: String::new(),
    };
    vec![
        (
            "compare.svg",
            chart(
                format!("Accepted requests, the models on {trace}"),
                "accepted [% of its requests]",
                vec![group("accepted", |r| r.accepted_pct, 1)],
                false,
            ),
        ),
        (
            "compare_wait.svg",
            chart(
                format!("Mean wait of accepted requests on {trace}"),
                "mean wait [s]",
                vec![group("mean wait", |r| r.mean_wait_s, 0)],
                false,
            ),
        ),
        (
            "compare_slowdown.svg",
            chart(
                format!("Mean bounded slowdown on {trace}"),
                "mean bounded slowdown [ratio]",
                vec![group("mean bounded slowdown (10 s bound)", |r| r.mean_bounded_slowdown, 2)],
                false,
            ),
        ),
        (
            "compare_utilisation.svg",
            chart(
                format!("Utilisation, each model of its own resources, on {trace}"),
                "utilisation [% of its own resources]",
                vec![group("utilisation (see each model's resources)", |r| r.utilisation_pct, 1)],
                true,
            ),
        ),
    ]
}

/// The header of the CSV and the columns of the table.
const COLUMNS: [&str; 9] = [
    "model",
    "requests",
    "accepted_pct",
    "utilisation_pct",
    "income",
    "income_unit",
    "violations",
    "mean_wait_s",
    "mean_bounded_slowdown",
];

fn cells(row: &Row) -> [String; 9] {
    [
        row.model.to_owned(),
        row.requests.to_string(),
        format!("{:.2}", row.accepted_pct),
        format!("{:.2}", row.utilisation_pct),
        row.income.map_or_else(|| "-".to_owned(), |i| format!("{i:.0}")),
        row.income_unit.to_owned(),
        row.violations.to_string(),
        format!("{:.1}", row.mean_wait_s),
        format!("{:.2}", row.mean_bounded_slowdown),
    ]
}

/// The rows as an aligned table, each model followed by the paper it follows.
pub fn write_table(rows: &[Row], mut out: impl Write) -> io::Result<()> {
    let all: Vec<[String; 9]> = rows.iter().map(cells).collect();
    let width = |c: usize| all.iter().map(|r| r[c].len()).chain([COLUMNS[c].len()]).max().unwrap_or(0);
    let widths: Vec<usize> = (0..COLUMNS.len()).map(width).collect();
    let line = |cells: &[&str]| {
        cells.iter().zip(&widths).map(|(c, &w)| format!("{c:>w$}")).collect::<Vec<_>>().join("  ")
    };
    writeln!(out, "{}", line(&COLUMNS))?;
    for (row, text) in rows.iter().zip(&all) {
        let refs: Vec<&str> = text.iter().map(String::as_str).collect();
        writeln!(out, "{}   {}", line(&refs), row.after)?;
    }
    Ok(())
}

/// The rows as CSV, with a header line, written by the `csv` crate: a unit such as
/// `G, price units` is quoted, so every row has the header's nine fields.
pub fn write_csv(rows: &[Row], out: impl Write) -> io::Result<()> {
    let mut writer = csv::Writer::from_writer(out);
    writer.write_record(COLUMNS)?;
    for row in rows {
        writer.write_record(cells(row))?;
    }
    writer.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plot::colour;
    use crate::plot::tests::{check_text, ink, pixels_of, render, texts};

    fn row(model: &'static str, accepted_pct: f64, utilisation_pct: f64) -> Row {
        Row {
            model,
            after: "some model (Its Authors 2007)",
            requests: 10,
            accepted_pct,
            utilisation_pct,
            income: None,
            income_unit: "-",
            violations: 0,
            mean_wait_s: 0.0,
            mean_bounded_slowdown: 1.0,
            configuration: "its defaults, stated at length to try the legend's width".to_owned(),
            utilisation_of: "its pool of 100 nodes, from its first submit to its last deadline".to_owned(),
        }
    }

    #[test]
    fn a_unit_with_a_comma_is_quoted_so_every_csv_row_has_the_headers_fields() {
        let mut priced = row("sla", 50.0, 40.0);
        (priced.income, priced.income_unit) = (Some(12.0), "ASAP Fair income, units");
        let mut out = Vec::new();
        write_csv(&[row("tiers", 90.0, 80.0), priced], &mut out).unwrap();
        let mut reader = csv::Reader::from_reader(&out[..]);
        let records: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        assert!(records.iter().all(|r| r.len() == COLUMNS.len()));
        assert_eq!(&records[1][5], "ASAP Fair income, units");
        assert!(String::from_utf8(out).unwrap().contains(",\"ASAP Fair income, units\","));
    }

    #[test]
    fn the_figure_draws_a_bar_per_model_and_measure() {
        let rows = [row("run", 20.0, 90.0), row("reserve", 80.0, 40.0), row("third", 50.0, 60.0)];
        let figures = charts("t.swf", &rows);
        let names: Vec<&str> = figures.iter().map(|f| f.0).collect();
        assert_eq!(
            names,
            ["compare.svg", "compare_wait.svg", "compare_slowdown.svg", "compare_utilisation.svg"]
        );
        for (_, chart) in &figures {
            check_text(&chart.to_svg().unwrap());
        }
        // Each legend entry states the model's configuration and, on the utilisation
        // figure, what its utilisation is of; the paper's authors without nested
        // parentheses.
        assert_eq!(
            figures[3].1.bar_names[0],
            "run, Its Authors 2007: its defaults, stated at length to try the legend's width; \
             utilisation of its pool of 100 nodes, from its first submit to its last deadline"
        );
        assert!(!figures[0].1.bar_names[0].contains("utilisation"));
        assert_eq!(figures[0].1.groups.len(), 1, "compare.svg draws accepted requests only");
        let svg = figures[0].1.to_svg().unwrap();
        let pixmap = render(&svg);
        assert!(ink(&pixmap) > 5_000, "the figure is nearly blank");
        for i in 0..rows.len() {
            assert!(pixels_of(&pixmap, colour(i)) > 200, "model {i} has no bars");
        }
        assert_eq!(pixels_of(&pixmap, colour(rows.len())), 0, "a bar too many");
        let labels = texts(&svg);
        for label in ["accepted [% of its requests]", "80.0", "20.0"] {
            assert!(labels.iter().any(|t| t == label), "no {label:?} in {labels:?}");
        }
    }
}
