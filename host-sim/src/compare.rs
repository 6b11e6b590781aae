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
use crate::reservation;

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
}

/// What failed in one model's run.
#[derive(Debug, thiserror::Error)]
pub enum CompareError {
    #[error("service levels: {0}")]
    ServiceLevel(#[from] crate::service_level::sim::SimError),
    #[error("reservations: {0}")]
    Reservation(#[from] reservation::ReserveError),
    #[error("tiers: {0}")]
    Tiers(#[from] crate::tiers::TiersError),
    #[error("sla: {0}")]
    Sla(#[from] crate::sla::SlaError),
    /// `compare` ran every model it could and printed the others' errors in their rows'
    /// place; these could not run.
    #[error("compare: {} of the models could not run ({}); the others' rows are written", .0.len(), .0.join(", "))]
    Failed(Vec<&'static str>),
}

pub(crate) fn mean(values: impl ExactSizeIterator<Item = f64>) -> f64 {
    let count = values.len();
    if count == 0 { 0.0 } else { values.sum::<f64>() / count as f64 }
}

/// The measures in percent, one group each, a bar per model: `compare.svg`.
pub fn chart(trace: &str, rows: &[Row]) -> BarChart {
    let group = |label: &str, value: fn(&Row) -> f64| BarGroup {
        label: label.to_owned(),
        bars: rows.iter().map(|r| (format!("{:.1}", value(r)), value(r))).collect(),
    };
    BarChart {
        title: format!("The models side by side on {trace}"),
        x_label: "measure".to_owned(),
        y_label: "percent".to_owned(),
        bar_names: rows.iter().map(|r| format!("{} ({})", r.model, r.after)).collect(),
        groups: vec![group("accepted %", |r| r.accepted_pct), group("utilisation %", |r| r.utilisation_pct)],
    }
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

/// The rows as CSV, with a header line.
pub fn write_csv(rows: &[Row], mut out: impl Write) -> io::Result<()> {
    writeln!(out, "{}", COLUMNS.join(","))?;
    for row in rows {
        writeln!(out, "{}", cells(row).join(","))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plot::colour;
    use crate::plot::tests::{ink, pixels_of, render, texts};

    fn row(model: &'static str, accepted_pct: f64, utilisation_pct: f64) -> Row {
        Row {
            model,
            after: "a paper",
            requests: 10,
            accepted_pct,
            utilisation_pct,
            income: None,
            income_unit: "-",
            violations: 0,
            mean_wait_s: 0.0,
            mean_bounded_slowdown: 1.0,
        }
    }

    #[test]
    fn the_figure_draws_a_bar_per_model_and_measure() {
        let rows = [row("run", 20.0, 90.0), row("reserve", 80.0, 40.0), row("third", 50.0, 60.0)];
        let svg = chart("t.swf", &rows).to_svg().unwrap();
        let pixmap = render(&svg);
        assert!(ink(&pixmap) > 5_000, "the figure is nearly blank");
        for i in 0..rows.len() {
            assert!(pixels_of(&pixmap, colour(i)) > 200, "model {i} has no bars");
        }
        assert_eq!(pixels_of(&pixmap, colour(rows.len())), 0, "a bar too many");
        let labels = texts(&svg);
        for label in ["accepted %", "utilisation %", "80.0", "40.0"] {
            assert!(labels.iter().any(|t| t == label), "no {label:?} in {labels:?}");
        }
    }
}
