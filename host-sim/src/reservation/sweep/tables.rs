//! The tables of Figures 2 to 7, one per figure as its CSV holds it, built from the
//! grid's outcomes and written through the `csv` crate.

use std::io;
use std::path::Path;

use kernel::reservation::Criterion;

use super::super::mapping::{Estimates, Flex};
use super::super::{Experiment, Outcome, ReserveError};
use super::{CRITERIA, FIX_LOAD_MILLI, FIXINGS, LOADS_MILLI, PHIS_MILLI, Results};
use crate::path_error::PathError;
use crate::units::format_milli;

/// One figure's table, as written to its CSV: `name` (`fig2`), header and rows; and
/// (not written) the windows each row's means and sds are over, which the figures'
/// 95 % intervals need.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    pub name: &'static str,
    pub header: Vec<&'static str>,
    pub rows: Vec<Vec<String>>,
    pub windows: u64,
}

impl Table {
    /// The column named `name`, if any.
    pub fn column(&self, name: &str) -> Option<usize> {
        self.header.iter().position(|h| *h == name)
    }
}

fn csv_error(path: &Path) -> impl Fn(csv::Error) -> ReserveError + '_ {
    move |e| ReserveError::Io(PathError { path: path.display().to_string(), source: io::Error::other(e) })
}

fn write_csv(dir: &Path, table: &Table) -> Result<(), ReserveError> {
    let path = dir.join(format!("{}.csv", table.name));
    let error = csv_error(&path);
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record(&table.header).map_err(&error)?;
    for row in &table.rows {
        writer.write_record(row).map_err(&error)?;
    }
    let bytes = writer.into_inner().map_err(|e| {
        ReserveError::Io(PathError { path: path.display().to_string(), source: e.into_error() })
    })?;
    replay::staged::write_all(&path, &bytes).map_err(|e| ReserveError::Io(e.into()))
}

fn f(x: f64) -> String {
    format!("{x:.3}")
}

/// Per-window differences `a - b`: their mean and population sd.
fn differences(a: &Outcome, b: &Outcome) -> (f64, f64) {
    let d: Vec<f64> =
        a.windows.iter().zip(&b.windows).map(|(x, y)| x.utilisation() - y.utilisation()).collect();
    super::super::metrics::spread(&d)
}

/// Fig. 2: every criterion's utilisation and its difference from the shuffle baseline,
/// by load and interval size.
fn fig2(results: &Results<'_>, base: Experiment) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    for load_milli in LOADS_MILLI {
        for flex in Flex::ALL {
            let cell = Experiment { load_milli, flex, ..base };
            let shuffle = results.find(&Experiment { criterion: Criterion::Shuffle, ..cell });
            for criterion in CRITERIA {
                let Some(o) = results.find(&Experiment { criterion, ..cell }) else { continue };
                let (diff, diff_sd) = shuffle.map_or((f64::NAN, f64::NAN), |s| differences(o, s));
                rows.push(vec![
                    format_milli(load_milli),
                    flex.name().into(),
                    criterion.name().into(),
                    f(o.utilisation.0),
                    f(o.utilisation.1),
                    f(diff),
                    f(diff_sd),
                    f(o.acceptance_rate),
                ]);
            }
        }
    }
    rows
}

/// Figs. 3 and 4: EDF by interval size, with `estimates`, and the gain over fixed
/// intervals.
fn fig3_4(results: &Results<'_>, base: Experiment, estimates: Estimates) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    for load_milli in LOADS_MILLI {
        for flex in Flex::ALL {
            let e = Experiment { load_milli, flex, estimates, ..base };
            let fixed = Experiment { flex: Flex::None, ..e };
            let Some(o) = results.find(&e) else { continue };
            rows.push(vec![
                format_milli(load_milli),
                flex.name().into(),
                f(o.utilisation.0),
                f(o.utilisation.1),
                f(o.utilisation.0 - results.util(&fixed)),
                f(o.acceptance_rate),
                o.totals.early_finishes.to_string(),
                o.totals.cut_overruns.to_string(),
            ]);
        }
    }
    rows
}

/// A row of Figs. 5 and 6: what names the run (load and two settings), then its
/// utilisation's mean and sd and its acceptance rate.
fn utilisation_row(names: [String; 3], o: &Outcome) -> Vec<String> {
    let mut row = names.to_vec();
    row.extend([f(o.utilisation.0), f(o.utilisation.1), f(o.acceptance_rate)]);
    row
}

/// Fig. 5: EDF by fixing time at the medium load.
fn fig5(results: &Results<'_>, base: Experiment) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let load_milli = FIX_LOAD_MILLI;
    for flex in Flex::ALL {
        for fixing in FIXINGS {
            let Some(o) = results.find(&Experiment { load_milli, flex, fixing, ..base }) else { continue };
            let share = fixing.percent().map_or("never".to_owned(), |p| format!("{}", f64::from(p) / 100.0));
            rows.push(utilisation_row([format_milli(load_milli), flex.name().into(), share], o));
        }
    }
    rows
}

/// Fig. 6: per load, EDF on flexible intervals of every size, then with offers at each
/// `ϕ` max on fixed intervals.
fn fig6(results: &Results<'_>, base: Experiment) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    for load_milli in LOADS_MILLI {
        let load = format_milli(load_milli);
        let flexible = Flex::ALL.into_iter().filter_map(|flex| {
            let o = results.find(&Experiment { load_milli, flex, ..base })?;
            Some((o, "flexible", flex.name().to_owned()))
        });
        let offers = PHIS_MILLI.into_iter().filter_map(|(phi, _)| {
            let o = results.find(&Experiment { load_milli, offers_phi_milli: Some(phi), ..base })?;
            Some((o, "offers", format_milli(phi)))
        });
        for (o, technique, setting) in flexible.chain(offers) {
            rows.push(utilisation_row([load.clone(), technique.into(), setting], o));
        }
    }
    rows
}

/// Fig. 7: the mean `ϕ` of accepted offers by `ϕ` max.
fn fig7(results: &Results<'_>, base: Experiment) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    for load_milli in LOADS_MILLI {
        for (phi, _) in PHIS_MILLI {
            let e = Experiment { load_milli, offers_phi_milli: Some(phi), ..base };
            let Some(o) = results.find(&e) else { continue };
            rows.push(vec![
                format_milli(load_milli),
                format_milli(phi),
                f(o.offer_phi_mean),
                o.totals.offers_accepted.to_string(),
                o.totals.offers_made.to_string(),
                o.totals.requests.to_string(),
            ]);
        }
    }
    rows
}

/// Fig. 2's columns.
pub const FIG2_HEADER: [&str; 8] = [
    "load",
    "flex",
    "criterion",
    "utilisation_mean",
    "utilisation_sd",
    "diff_from_shuffle_mean",
    "diff_from_shuffle_sd",
    "acceptance_rate",
];
/// Figs. 3 and 4's columns.
pub const FIG3_4_HEADER: [&str; 8] = [
    "load",
    "flex",
    "utilisation_mean",
    "utilisation_sd",
    "gain_over_fixed",
    "acceptance_rate",
    "early_finishes",
    "cut_overruns",
];
/// Fig. 5's columns.
pub const FIG5_HEADER: [&str; 6] =
    ["load", "flex", "fix_at", "utilisation_mean", "utilisation_sd", "acceptance_rate"];
/// Fig. 6's columns.
pub const FIG6_HEADER: [&str; 6] =
    ["load", "technique", "setting", "utilisation_mean", "utilisation_sd", "acceptance_rate"];
/// Fig. 7's columns.
pub const FIG7_HEADER: [&str; 6] =
    ["load", "phi_max", "offer_phi_mean", "offers_accepted", "offers_made", "requests"];

/// The tables of Figures 2 to 7, in that order.
fn tables(results: &Results<'_>, base: Experiment) -> Vec<Table> {
    let windows = results.0.first().map_or(0, |o| o.windows.len() as u64);
    vec![
        Table { name: "fig2", header: FIG2_HEADER.to_vec(), rows: fig2(results, base), windows },
        Table {
            name: "fig3",
            header: FIG3_4_HEADER.to_vec(),
            rows: fig3_4(results, base, Estimates::Accurate),
            windows,
        },
        Table {
            name: "fig4",
            header: FIG3_4_HEADER.to_vec(),
            rows: fig3_4(results, base, Estimates::Poisson80),
            windows,
        },
        Table { name: "fig5", header: FIG5_HEADER.to_vec(), rows: fig5(results, base), windows },
        Table { name: "fig6", header: FIG6_HEADER.to_vec(), rows: fig6(results, base), windows },
        Table { name: "fig7", header: FIG7_HEADER.to_vec(), rows: fig7(results, base), windows },
    ]
}

/// Writes `fig2.csv` ... `fig7.csv` into `dir` (created if needed) and returns their
/// tables (which [`super::super::figures`] draws).
pub fn write_figures(dir: &Path, outcomes: &[Outcome]) -> Result<Vec<Table>, ReserveError> {
    std::fs::create_dir_all(dir)
        .map_err(|source| ReserveError::Io(PathError { path: dir.display().to_string(), source }))?;
    let results = Results(outcomes);
    let Some(base) = results.base() else { return Ok(Vec::new()) };
    let tables = tables(&results, base);
    for table in &tables {
        write_csv(dir, table)?;
    }
    Ok(tables)
}
