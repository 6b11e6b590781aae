//! The paper's figures 2 to 7 as a grid of experiments, run in parallel, one CSV per
//! figure, and a table of whether each of its findings holds.
//!
//! What each figure plots, reconstructed from section 4.2 (all on 15-day windows,
//! loads 1.0, 1.25 and 1.5, accurate estimates, no fixing, no offers unless said):
//!
//! | file | paper | rows |
//! |---|---|---|
//! | `fig2.csv` | Fig. 2, utilisation by sorting criterion, as the difference from the shuffle baseline, per load | load x interval size x criterion |
//! | `fig3.csv` | Fig. 3, EDF utilisation by interval size | load x interval size |
//! | `fig4.csv` | Fig. 4, the same with inaccurate estimates (`poisson80`) | load x interval size |
//! | `fig5.csv` | Fig. 5, EDF utilisation by fixing time, medium load (1.25) | interval size x fixing |
//! | `fig6.csv` | Fig. 6, EDF utilisation with offers (fixed intervals) beside flexible intervals | load x (offers `ϕ` max, or interval size) |
//! | `fig7.csv` | Fig. 7, mean `ϕ` of accepted offers against the maximum `ϕ` | load x `ϕ` max |
//!
//! The grid: 5 criteria x 3 loads x 4 sizes (60 runs), EDF with `poisson80` (12), EDF
//! at 1.25 with 3 sizes x 4 fixing times (12), EDF with offers at `ϕ` max 0.25, 0.5
//! and 1 on fixed intervals (9): 93 runs.

use std::io::{self, Write};
use std::path::Path;

use indicatif::ProgressBar;
use rayon::prelude::*;

use kernel::reservation::{Criterion, Fixing};

use super::mapping::{Estimates, Flex};
use super::{Experiment, Input, Outcome, ReserveError, simulate};
use crate::units::format_milli;

pub const LOADS_MILLI: [u64; 3] = [1000, 1250, 1500];
pub const CRITERIA: [Criterion; 5] = [
    Criterion::Fifo,
    Criterion::Edf,
    Criterion::LeastFlexibleFirst,
    Criterion::BiggestJobFirst,
    Criterion::Shuffle,
];
pub const FIXINGS: [Fixing; 5] =
    [Fixing::AtAcceptance, Fixing::Quarter, Fixing::Half, Fixing::ThreeQuarters, Fixing::Never];
/// `ϕ` max of the offer runs, in thousandths, matched with the interval sizes of the
/// same mean widening.
pub const PHIS_MILLI: [(u64, Flex); 3] = [(250, Flex::Short), (500, Flex::Medium), (1000, Flex::Long)];
/// The medium load of Fig. 5.
pub const FIX_LOAD_MILLI: u64 = 1250;

/// Every experiment of the figures, in a fixed order.
pub fn grid(base: &Experiment) -> Vec<Experiment> {
    let mut grid = Vec::new();
    for load_milli in LOADS_MILLI {
        for flex in Flex::ALL {
            for criterion in CRITERIA {
                grid.push(Experiment { load_milli, flex, criterion, ..*base });
            }
            let edf = Experiment { load_milli, flex, criterion: Criterion::Edf, ..*base };
            grid.push(Experiment { estimates: Estimates::Poisson80, ..edf });
            if load_milli == FIX_LOAD_MILLI && flex != Flex::None {
                for fixing in &FIXINGS[..4] {
                    grid.push(Experiment { fixing: *fixing, ..edf });
                }
            }
        }
        for (phi, _) in PHIS_MILLI {
            grid.push(Experiment {
                load_milli,
                criterion: Criterion::Edf,
                offers_phi_milli: Some(phi),
                ..*base
            });
        }
    }
    grid
}

/// Runs the grid in parallel; results come back in grid order.
pub fn run(
    input: &Input<'_>,
    grid: &[Experiment],
    progress: &ProgressBar,
) -> Result<Vec<Outcome>, ReserveError> {
    grid.par_iter()
        .map(|e| {
            let outcome = simulate(input, e);
            progress.inc(1);
            outcome
        })
        .collect()
}

/// The results, looked up by configuration.
struct Results<'a>(&'a [Outcome]);

impl<'a> Results<'a> {
    fn find(&self, wanted: &Experiment) -> Option<&'a Outcome> {
        self.0.iter().find(|o| o.experiment == *wanted)
    }

    fn base(&self) -> Option<Experiment> {
        self.0.first().map(|o| Experiment {
            criterion: Criterion::Edf,
            load_milli: 1000,
            flex: Flex::None,
            fixing: Fixing::Never,
            estimates: Estimates::Accurate,
            offers_phi_milli: None,
            ..o.experiment
        })
    }

    fn util(&self, e: &Experiment) -> f64 {
        self.find(e).map_or(f64::NAN, |o| o.utilisation.0)
    }
}

fn csv_error(path: &Path) -> impl Fn(csv::Error) -> ReserveError + '_ {
    move |e| ReserveError::Io { path: path.display().to_string(), source: io::Error::other(e) }
}

fn write_csv(dir: &Path, name: &str, header: &[&str], rows: Vec<Vec<String>>) -> Result<(), ReserveError> {
    let path = dir.join(name);
    let error = csv_error(&path);
    let mut writer = csv::Writer::from_path(&path).map_err(&error)?;
    writer.write_record(header).map_err(&error)?;
    for row in rows {
        writer.write_record(&row).map_err(&error)?;
    }
    writer.flush().map_err(|source| ReserveError::Io { path: path.display().to_string(), source })
}

fn f(x: f64) -> String {
    format!("{x:.3}")
}

/// Per-window differences `a - b`: their mean and population sd.
fn differences(a: &Outcome, b: &Outcome) -> (f64, f64) {
    let d: Vec<f64> =
        a.windows.iter().zip(&b.windows).map(|(x, y)| x.utilisation() - y.utilisation()).collect();
    super::metrics::spread(&d)
}

/// One figure's table, as written to its CSV: `name` (`fig2`), header and rows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    pub name: &'static str,
    pub header: Vec<&'static str>,
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// The column named `name`, if any.
    pub fn column(&self, name: &str) -> Option<usize> {
        self.header.iter().position(|h| *h == name)
    }
}

/// Writes `fig2.csv` ... `fig7.csv` into `dir` (created if needed) and returns their
/// tables (which [`super::figures`] draws).
pub fn write_figures(dir: &Path, outcomes: &[Outcome]) -> Result<Vec<Table>, ReserveError> {
    std::fs::create_dir_all(dir)
        .map_err(|source| ReserveError::Io { path: dir.display().to_string(), source })?;
    let results = Results(outcomes);
    let Some(base) = results.base() else { return Ok(Vec::new()) };
    let mut fig2 = Vec::new();
    let mut fig3 = Vec::new();
    let mut fig4 = Vec::new();
    let mut fig5 = Vec::new();
    let mut fig6 = Vec::new();
    let mut fig7 = Vec::new();
    for load_milli in LOADS_MILLI {
        let load = format_milli(load_milli);
        for flex in Flex::ALL {
            let cell = Experiment { load_milli, flex, ..base };
            let shuffle = results.find(&Experiment { criterion: Criterion::Shuffle, ..cell });
            for criterion in CRITERIA {
                let Some(o) = results.find(&Experiment { criterion, ..cell }) else { continue };
                let (diff, diff_sd) = shuffle.map_or((f64::NAN, f64::NAN), |s| differences(o, s));
                fig2.push(vec![
                    load.clone(),
                    flex.name().into(),
                    criterion.name().into(),
                    f(o.utilisation.0),
                    f(o.utilisation.1),
                    f(diff),
                    f(diff_sd),
                    f(o.acceptance_rate),
                ]);
            }
            for (estimates, rows) in [(Estimates::Accurate, &mut fig3), (Estimates::Poisson80, &mut fig4)] {
                let e = Experiment { estimates, ..cell };
                let fixed = Experiment { flex: Flex::None, ..e };
                let Some(o) = results.find(&e) else { continue };
                rows.push(vec![
                    load.clone(),
                    flex.name().into(),
                    f(o.utilisation.0),
                    f(o.utilisation.1),
                    f(o.utilisation.0 - results.util(&fixed)),
                    f(o.acceptance_rate),
                    o.totals.early_finishes.to_string(),
                    o.totals.cut_overruns.to_string(),
                ]);
            }
            if load_milli == FIX_LOAD_MILLI {
                for fixing in FIXINGS {
                    let Some(o) = results.find(&Experiment { fixing, ..cell }) else { continue };
                    let share =
                        fixing.percent().map_or("never".to_owned(), |p| format!("{}", f64::from(p) / 100.0));
                    fig5.push(vec![
                        load.clone(),
                        flex.name().into(),
                        share,
                        f(o.utilisation.0),
                        f(o.utilisation.1),
                        f(o.acceptance_rate),
                    ]);
                }
            }
            if let Some(o) = results.find(&cell) {
                fig6.push(vec![
                    load.clone(),
                    "flexible".into(),
                    flex.name().into(),
                    f(o.utilisation.0),
                    f(o.utilisation.1),
                    f(o.acceptance_rate),
                ]);
            }
        }
        for (phi, _) in PHIS_MILLI {
            let e = Experiment { load_milli, offers_phi_milli: Some(phi), ..base };
            let Some(o) = results.find(&e) else { continue };
            fig6.push(vec![
                load.clone(),
                "offers".into(),
                format_milli(phi),
                f(o.utilisation.0),
                f(o.utilisation.1),
                f(o.acceptance_rate),
            ]);
            fig7.push(vec![
                load.clone(),
                format_milli(phi),
                f(o.offer_phi_mean),
                o.totals.offers_accepted.to_string(),
                o.totals.offers_made.to_string(),
                o.totals.requests.to_string(),
            ]);
        }
    }
    let util = ["utilisation_mean", "utilisation_sd"];
    let h2 = [
        "load",
        "flex",
        "criterion",
        util[0],
        util[1],
        "diff_from_shuffle_mean",
        "diff_from_shuffle_sd",
        "acceptance_rate",
    ];
    let mut tables = vec![Table { name: "fig2", header: h2.to_vec(), rows: fig2 }];
    let h34 = [
        "load",
        "flex",
        util[0],
        util[1],
        "gain_over_fixed",
        "acceptance_rate",
        "early_finishes",
        "cut_overruns",
    ];
    tables.push(Table { name: "fig3", header: h34.to_vec(), rows: fig3 });
    tables.push(Table { name: "fig4", header: h34.to_vec(), rows: fig4 });
    let h5 = vec!["load", "flex", "fix_at", util[0], util[1], "acceptance_rate"];
    tables.push(Table { name: "fig5", header: h5, rows: fig5 });
    let h6 = vec!["load", "technique", "setting", util[0], util[1], "acceptance_rate"];
    tables.push(Table { name: "fig6", header: h6, rows: fig6 });
    let h7 = vec!["load", "phi_max", "offer_phi_mean", "offers_accepted", "offers_made", "requests"];
    tables.push(Table { name: "fig7", header: h7, rows: fig7 });
    for table in &tables {
        write_csv(dir, &format!("{}.csv", table.name), &table.header, table.rows.clone())?;
    }
    Ok(tables)
}

/// One finding: how many of its cases hold, and the numbers behind it.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    pub claim: &'static str,
    pub held: usize,
    pub cases: usize,
    pub detail: String,
}

/// Checks the paper's findings on the results.
pub fn findings(outcomes: &[Outcome]) -> Vec<Finding> {
    let results = Results(outcomes);
    let Some(base) = results.base() else { return Vec::new() };
    let mut out = Vec::new();
    // EDF the best criterion: in every cell with flexible intervals (the paper's "in
    // all cases, EDF with flexible intervals").
    let (mut held, mut cases, mut detail) = (0, 0, Vec::new());
    for load_milli in LOADS_MILLI {
        for flex in &Flex::ALL[1..] {
            let cell = Experiment { load_milli, flex: *flex, ..base };
            let best = CRITERIA
                .iter()
                .map(|&c| (c, results.util(&Experiment { criterion: c, ..cell })))
                .max_by(|a, b| a.1.total_cmp(&b.1));
            if let Some((c, u)) = best {
                cases += 1;
                held += usize::from(c == Criterion::Edf);
                detail.push(format!("{}/{}: {} {:.1}", format_milli(load_milli), flex.name(), c.name(), u));
            }
        }
    }
    out.push(Finding {
        claim: "EDF is the best criterion (flexible cells)",
        held,
        cases,
        detail: detail.join("; "),
    });
    // Longer windows raise utilisation (EDF, accurate).
    let monotone = |values: &[f64]| values.windows(2).all(|w| w[0] < w[1]);
    let (mut held, mut cases, mut detail) = (0, 0, Vec::new());
    for estimates in [Estimates::Accurate, Estimates::Poisson80] {
        for load_milli in LOADS_MILLI {
            let u: Vec<f64> = Flex::ALL
                .iter()
                .map(|&flex| results.util(&Experiment { load_milli, flex, estimates, ..base }))
                .collect();
            cases += 1;
            held += usize::from(monotone(&u));
            detail.push(format!("{} {}: {}", estimates.name(), format_milli(load_milli), join(&u)));
        }
    }
    out.push(Finding {
        claim: "longer windows raise utilisation (none<short<medium<long)",
        held,
        cases,
        detail: detail.join("; "),
    });
    // Later fixing raises utilisation (load 1.25).
    let (mut held, mut cases, mut detail) = (0, 0, Vec::new());
    for flex in &Flex::ALL[1..] {
        let u: Vec<f64> = FIXINGS
            .iter()
            .map(|&fixing| {
                results.util(&Experiment { load_milli: FIX_LOAD_MILLI, flex: *flex, fixing, ..base })
            })
            .collect();
        cases += 1;
        held += usize::from(monotone(&u));
        detail.push(format!("{}: {}", flex.name(), join(&u)));
    }
    out.push(Finding {
        claim: "later fixing raises utilisation (0<.25<.5<.75<never)",
        held,
        cases,
        detail: detail.join("; "),
    });
    // Offers raise utilisation, less than flexible windows of the same mean widening.
    let (mut held, mut cases, mut detail) = (0, 0, Vec::new());
    for load_milli in LOADS_MILLI {
        let fixed = results.util(&Experiment { load_milli, ..base });
        for (phi, flex) in PHIS_MILLI {
            let offers =
                results.util(&Experiment { load_milli, offers_phi_milli: Some(phi), ..base }) - fixed;
            let flexible = results.util(&Experiment { load_milli, flex, ..base }) - fixed;
            cases += 1;
            held += usize::from(offers > 0.0 && offers < flexible);
            detail.push(format!(
                "{} phi {} {:+.1} vs {} {:+.1}",
                format_milli(load_milli),
                format_milli(phi),
                offers,
                flex.name(),
                flexible
            ));
        }
    }
    out.push(Finding {
        claim: "offers raise utilisation, less than flexible windows",
        held,
        cases,
        detail: detail.join("; "),
    });
    // Flexible windows help more with inaccurate estimates.
    let (mut held, mut cases, mut detail) = (0, 0, Vec::new());
    for load_milli in LOADS_MILLI {
        for flex in &Flex::ALL[1..] {
            let gain = |estimates| {
                let e = Experiment { load_milli, estimates, ..base };
                results.util(&Experiment { flex: *flex, ..e }) - results.util(&e)
            };
            let (accurate, inaccurate) = (gain(Estimates::Accurate), gain(Estimates::Poisson80));
            cases += 1;
            held += usize::from(inaccurate > accurate);
            detail.push(format!(
                "{}/{}: {:+.1} vs {:+.1}",
                format_milli(load_milli),
                flex.name(),
                inaccurate,
                accurate
            ));
        }
    }
    out.push(Finding {
        claim: "flexible windows gain more with inaccurate estimates",
        held,
        cases,
        detail: detail.join("; "),
    });
    out
}

fn join(values: &[f64]) -> String {
    values.iter().map(|v| format!("{v:.1}")).collect::<Vec<_>>().join(" ")
}

pub fn write_findings(outcomes: &[Outcome], mut out: impl Write) -> io::Result<()> {
    writeln!(out, "{:<58} {:<16} numbers", "finding of the paper", "here")?;
    for finding in findings(outcomes) {
        let verdict = if finding.held == finding.cases {
            "holds".to_owned()
        } else if finding.held == 0 {
            "does not hold".to_owned()
        } else {
            "partly".to_owned()
        };
        writeln!(
            out,
            "{:<58} {:<16} {}",
            finding.claim,
            format!("{verdict} {}/{}", finding.held, finding.cases),
            finding.detail
        )?;
    }
    // Capacity must not shape the figures: say how close any run came.
    let deepest = outcomes.iter().map(|o| o.totals.deepest_waiting).max().unwrap_or(0);
    let mut other = std::collections::BTreeMap::new();
    for o in outcomes {
        for (reason, n) in o.totals.rejected.iter().filter(|(r, _)| **r != "no_room") {
            *other.entry(*reason).or_insert(0u64) += n;
        }
    }
    writeln!(
        out,
        "capacity: deepest waiting queue {deepest} of {}; rejections other than no_room: {other:?}",
        super::run::WAITING
    )
}
