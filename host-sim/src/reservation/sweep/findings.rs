//! The paper's findings (section 4.2) checked on the grid's outcomes, case by case,
//! and the table of them that `reserve-sweep` prints.

use std::io::{self, Write};

use kernel::reservation::Criterion;

use super::super::mapping::{Estimates, Flex};
use super::super::{Experiment, Outcome};
use super::{CRITERIA, FIX_LOAD_MILLI, FIXINGS, LOADS_MILLI, PHIS_MILLI, Results};
use crate::findings::{Finding, Tally};
use crate::units::format_milli;

/// Checks the paper's findings on the results.
pub fn findings(outcomes: &[Outcome]) -> Vec<Finding> {
    let results = Results(outcomes);
    let Some(base) = results.base() else { return Vec::new() };
    vec![
        edf_is_best(&results, base),
        longer_windows(&results, base),
        later_fixing(&results, base),
        offers(&results, base),
        inaccurate_estimates(&results, base),
    ]
}

fn monotone(values: &[f64]) -> bool {
    values.windows(2).all(|w| w[0] < w[1])
}

/// EDF the best criterion: in every cell with flexible intervals (the paper's "in all
/// cases, EDF with flexible intervals").
fn edf_is_best(results: &Results<'_>, base: Experiment) -> Finding {
    let mut tally = Tally::default();
    for load_milli in LOADS_MILLI {
        for flex in &Flex::ALL[1..] {
            let cell = Experiment { load_milli, flex: *flex, ..base };
            let best = CRITERIA
                .iter()
                .map(|&c| (c, results.util(&Experiment { criterion: c, ..cell })))
                .max_by(|a, b| a.1.total_cmp(&b.1));
            if let Some((c, u)) = best {
                let detail = format!("{}/{}: {} {:.1}", format_milli(load_milli), flex.name(), c.name(), u);
                tally.case(c == Criterion::Edf, detail);
            }
        }
    }
    tally.finding("EDF is the best criterion (flexible cells)")
}

/// Longer windows raise utilisation (EDF, accurate and inaccurate estimates).
fn longer_windows(results: &Results<'_>, base: Experiment) -> Finding {
    let mut tally = Tally::default();
    for estimates in [Estimates::Accurate, Estimates::Poisson80] {
        for load_milli in LOADS_MILLI {
            let u: Vec<f64> = Flex::ALL
                .iter()
                .map(|&flex| results.util(&Experiment { load_milli, flex, estimates, ..base }))
                .collect();
            tally.case(
                monotone(&u),
                format!("{} {}: {}", estimates.name(), format_milli(load_milli), join(&u)),
            );
        }
    }
    tally.finding("longer windows raise utilisation (none<short<medium<long)")
}

/// Later fixing raises utilisation (load 1.25).
fn later_fixing(results: &Results<'_>, base: Experiment) -> Finding {
    let mut tally = Tally::default();
    for flex in &Flex::ALL[1..] {
        let u: Vec<f64> = FIXINGS
            .iter()
            .map(|&fixing| {
                results.util(&Experiment { load_milli: FIX_LOAD_MILLI, flex: *flex, fixing, ..base })
            })
            .collect();
        tally.case(monotone(&u), format!("{}: {}", flex.name(), join(&u)));
    }
    tally.finding("later fixing raises utilisation (0<.25<.5<.75<never)")
}

/// Offers raise utilisation, less than flexible windows of the same mean widening.
fn offers(results: &Results<'_>, base: Experiment) -> Finding {
    let mut tally = Tally::default();
    for load_milli in LOADS_MILLI {
        let fixed = results.util(&Experiment { load_milli, ..base });
        for (phi, flex) in PHIS_MILLI {
            let offers =
                results.util(&Experiment { load_milli, offers_phi_milli: Some(phi), ..base }) - fixed;
            let flexible = results.util(&Experiment { load_milli, flex, ..base }) - fixed;
            let detail = format!(
                "{} phi {} {:+.1} vs {} {:+.1}",
                format_milli(load_milli),
                format_milli(phi),
                offers,
                flex.name(),
                flexible
            );
            tally.case(offers > 0.0 && offers < flexible, detail);
        }
    }
    tally.finding("offers raise utilisation, less than flexible windows")
}

/// Flexible windows help more with inaccurate estimates.
fn inaccurate_estimates(results: &Results<'_>, base: Experiment) -> Finding {
    let mut tally = Tally::default();
    for load_milli in LOADS_MILLI {
        for flex in &Flex::ALL[1..] {
            let gain = |estimates| {
                let e = Experiment { load_milli, estimates, ..base };
                results.util(&Experiment { flex: *flex, ..e }) - results.util(&e)
            };
            let (accurate, inaccurate) = (gain(Estimates::Accurate), gain(Estimates::Poisson80));
            let detail = format!(
                "{}/{}: {:+.1} vs {:+.1}",
                format_milli(load_milli),
                flex.name(),
                inaccurate,
                accurate
            );
            tally.case(inaccurate > accurate, detail);
        }
    }
    tally.finding("flexible windows gain more with inaccurate estimates")
}

fn join(values: &[f64]) -> String {
    values.iter().map(|v| format!("{v:.1}")).collect::<Vec<_>>().join(" ")
}

/// Prints every finding (claim, verdict, numbers) and how close any run came to a
/// capacity of the engine.
pub fn write_findings(outcomes: &[Outcome], mut out: impl Write) -> io::Result<()> {
    writeln!(out, "{:<58} {:<16} numbers", "finding of the paper", "here")?;
    for finding in findings(outcomes) {
        // Every finding here is checked case by case, so it always has its count.
        let verdict = finding.cases.map(|c| c.verdict()).unwrap_or_default();
        writeln!(out, "{:<58} {:<16} {}", finding.paper, verdict, finding.ours)?;
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
        super::super::run::WAITING
    )
}
