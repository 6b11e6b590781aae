//! The paper's Figures 8 to 13 (Tomás et al., §6.3) as SVG bar charts, drawn from the
//! sweep's cells (the means over seeds, as `tiers_cells.csv` holds them), each bar
//! with its 95 % interval over the seeds when there are two or more
//! ([`crate::plot::interval`]). Every chart has one group of bars per tier mix (A to
//! D: Silver 40 to 70 %); bars whose values sit far from zero become dots on a fitted
//! axis ([`crate::plot::BarChart`]):
//!
//! | file | the paper's figure | bars |
//! |---|---|---|
//! | `fig8a_rejected.svg`, `fig9a_…`, `fig10a_…` | 8a, 9a, 10a: rejection under No-QoS, QoS, QoS+ReS | Gold, Silver, Bronze, all (% of the tier's SLAs) |
//! | `fig8b_violated.svg`, `fig9b_…`, `fig10b_…` | 8b, 9b, 10b: violation under each policy | Gold, Silver, all (% of accepted SLAs) |
//! | `fig11a_rejected.svg`, `fig11b_violated.svg` | 11: the policies side by side | No-QoS, QoS, QoS+ReS (all tiers) |
//! | `fig12a_rescheduled.svg` | 12a: jobs rescheduled by QoS+ReS | % of accepted jobs |
//! | `fig12b_moves.svg` | 12b: how often a moved job moved | once, twice, three times or more (% of moved jobs) |
//! | `fig13_bronze_wait.svg` | 13a-c: Bronze waits | first quartile, median and third quartile, minutes, per policy |

use std::path::{Path, PathBuf};

use kernel::tiers::Policy;

use super::metrics::Summary;
use super::sweep::Cell;
use crate::plot::{BarChart, BarGroup, PlotError, interval};

const MIXES: [char; 4] = ['A', 'B', 'C', 'D'];

/// A bar's name and the measure it draws from a cell's summary.
type Measure<'a> = (&'a str, &'a dyn Fn(&Summary) -> f64);

fn cell(cells: &[Cell], policy: Policy, mix: char) -> Option<&Cell> {
    cells.iter().find(|c| c.policy == policy.name() && c.mix == mix)
}

/// `value` of a cell's mean, and its 95 % interval over the cell's seeds.
fn with_interval(cell: Option<&Cell>, value: &dyn Fn(&Summary) -> f64) -> interval::Estimate {
    let Some(cell) = cell else { return (f64::NAN, None) };
    let runs: Vec<f64> = cell.runs.iter().map(value).collect();
    (value(&cell.mean), interval::ci95(&runs).1)
}

/// One group per mix; bar `i` of each is `bars[i].1` of that mix's summary under
/// `policy` (NaN, and so no bar, where the sweep has no such cell).
fn per_mix(
    title: String,
    y_label: &str,
    bars: &[Measure<'_>],
    policy_of_bar: &dyn Fn(usize) -> Policy,
    cells: &[Cell],
) -> BarChart {
    let groups = MIXES
        .iter()
        .map(|&mix| {
            let drawn: Vec<interval::Estimate> = bars
                .iter()
                .enumerate()
                .map(|(i, (_, value))| with_interval(cell(cells, policy_of_bar(i), mix), *value))
                .collect();
            BarGroup {
                label: format!("mix {mix}"),
                bars: drawn.iter().map(|(v, _)| (format!("{v:.1}"), *v)).collect(),
                intervals: drawn.iter().map(|(_, i)| *i).collect(),
            }
        })
        .collect();
    let seeds = cells.iter().map(|c| c.runs.len()).max().unwrap_or(0) as u64;
    BarChart {
        interval_label: interval::ci95_label(seeds, "seeds"),
        title,
        x_label: "tier mix (Gold 20 %, Silver 40 / 50 / 60 / 70 %)".to_owned(),
        y_label: y_label.to_owned(),
        bar_names: bars.iter().map(|(name, _)| (*name).to_owned()).collect(),
        groups,
    }
}

fn label(policy: Policy) -> &'static str {
    match policy {
        Policy::NoQos => "No-QoS",
        Policy::Qos => "QoS",
        Policy::QosRes => "QoS+ReS",
    }
}

/// Every figure, by file name.
pub fn charts(cells: &[Cell]) -> Vec<(String, BarChart)> {
    let mut out = Vec::new();
    for (number, policy) in [(8, Policy::NoQos), (9, Policy::Qos), (10, Policy::QosRes)] {
        out.extend(one_policy(number, policy, cells));
    }
    out.extend(side_by_side(cells));
    out.extend(rescheduling(cells));
    out.push(bronze_waits(cells));
    out
}

/// Figures 8 to 10 (`number`): rejection and violation by tier under `policy`.
fn one_policy(number: u32, policy: Policy, cells: &[Cell]) -> [(String, BarChart); 2] {
    let same = move |_| policy;
    [
        (
            format!("fig{number}a_rejected.svg"),
            per_mix(
                format!("Fig. {number}a: SLAs rejected under {}", label(policy)),
                "rejected [% of the tier's SLAs]",
                &[
                    ("Gold", &|s| s.rejected_pct.gold),
                    ("Silver", &|s| s.rejected_pct.silver),
                    ("Bronze", &|s| s.rejected_pct.bronze),
                    ("all", &|s| s.rejected_pct.all),
                ],
                &same,
                cells,
            ),
        ),
        (
            format!("fig{number}b_violated.svg"),
            per_mix(
                format!("Fig. {number}b: accepted SLAs violated under {}", label(policy)),
                "violated [% of the tier's accepted SLAs]",
                &[
                    ("Gold", &|s| s.violated_pct.gold),
                    ("Silver", &|s| s.violated_pct.silver),
                    ("all", &|s| s.violated_pct.all),
                ],
                &same,
                cells,
            ),
        ),
    ]
}

/// Figure 11: rejection and violation of all tiers, the policies side by side.
fn side_by_side(cells: &[Cell]) -> [(String, BarChart); 2] {
    let by_policy = |i: usize| Policy::ALL[i];
    [
        (
            "fig11a_rejected.svg".to_owned(),
            per_mix(
                "Fig. 11a: SLAs rejected, the policies side by side".to_owned(),
                "rejected [% of SLAs]",
                &[
                    ("No-QoS", &|s| s.rejected_pct.all),
                    ("QoS", &|s| s.rejected_pct.all),
                    ("QoS+ReS", &|s| s.rejected_pct.all),
                ],
                &by_policy,
                cells,
            ),
        ),
        (
            "fig11b_violated.svg".to_owned(),
            per_mix(
                "Fig. 11b: accepted SLAs violated, the policies side by side".to_owned(),
                "violated [% of accepted SLAs]",
                &[
                    ("No-QoS", &|s| s.violated_pct.all),
                    ("QoS", &|s| s.violated_pct.all),
                    ("QoS+ReS", &|s| s.violated_pct.all),
                ],
                &by_policy,
                cells,
            ),
        ),
    ]
}

/// Figure 12: how many jobs QoS+ReS rescheduled, and how often.
fn rescheduling(cells: &[Cell]) -> [(String, BarChart); 2] {
    let rescheduling = |_| Policy::QosRes;
    [
        (
            "fig12a_rescheduled.svg".to_owned(),
            per_mix(
                "Fig. 12a: accepted jobs rescheduled under QoS+ReS".to_owned(),
                "rescheduled [% of accepted jobs]",
                &[("rescheduled at least once", &|s| s.rescheduled_pct)],
                &rescheduling,
                cells,
            ),
        ),
        (
            "fig12b_moves.svg".to_owned(),
            per_mix(
                "Fig. 12b: how often a moved job was moved, QoS+ReS".to_owned(),
                "moved jobs [%]",
                &[
                    ("once", &|s| s.moved_once_pct),
                    ("twice", &|s| s.moved_twice_pct),
                    ("three times or more", &|s| s.moved_more_pct),
                ],
                &rescheduling,
                cells,
            ),
        ),
    ]
}

/// Figure 13: the quartiles of the Bronze waits, per policy, in minutes.
fn bronze_waits(cells: &[Cell]) -> (String, BarChart) {
    let minutes = |t: u64| t as f64 / 60.0;
    let quartiles: [Measure<'_>; 9] = [
        ("No-QoS q1", &|s| minutes(s.bronze_wait_s.q1)),
        ("No-QoS median", &|s| minutes(s.bronze_wait_s.median)),
        ("No-QoS q3", &|s| minutes(s.bronze_wait_s.q3)),
        ("QoS q1", &|s| minutes(s.bronze_wait_s.q1)),
        ("QoS median", &|s| minutes(s.bronze_wait_s.median)),
        ("QoS q3", &|s| minutes(s.bronze_wait_s.q3)),
        ("QoS+ReS q1", &|s| minutes(s.bronze_wait_s.q1)),
        ("QoS+ReS median", &|s| minutes(s.bronze_wait_s.median)),
        ("QoS+ReS q3", &|s| minutes(s.bronze_wait_s.q3)),
    ];
    (
        "fig13_bronze_wait.svg".to_owned(),
        per_mix(
            "Fig. 13: Bronze waits (first start minus submission), quartiles per policy".to_owned(),
            "wait [min]",
            &quartiles,
            &|i| Policy::ALL[i / 3],
            cells,
        ),
    )
}

/// Writes every figure into `dir` and returns their paths.
pub fn write(dir: &Path, cells: &[Cell]) -> Result<Vec<PathBuf>, PlotError> {
    crate::plot::write_all(dir, charts(cells))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plot::colour;
    use crate::plot::tests::{check_fitted, check_text, error_bars, ink, pixels_of, render, texts};
    use crate::tiers::faults::DEFAULT_FAULTS;

    #[test]
    fn every_figure_renders_with_its_bars_and_labels() {
        // Two seeds: each bar a mean over two runs, with its 95 % interval.
        let cells =
            super::super::sweep::sweep(&[1, 2], DEFAULT_FAULTS, &indicatif::ProgressBar::hidden()).unwrap();
        let charts = charts(&cells);
        assert_eq!(charts.len(), 11);
        for (name, chart) in &charts {
            let svg = chart.to_svg().unwrap();
            check_text(&svg);
            let bars = chart.groups.iter().flat_map(|g| &g.bars).filter(|b| b.1.is_finite()).count();
            assert_eq!(error_bars(&svg), bars, "{name}: an interval per bar");
            assert!(texts(&svg).iter().any(|t| t == "95 % interval (n = 2 seeds)"), "{name}");
            let values = chart.groups.iter().flat_map(|g| {
                g.bars.iter().map(|b| b.1).chain(g.intervals.iter().flatten().flat_map(|(lo, hi)| [*lo, *hi]))
            });
            let (lo, hi) = chart.y_range();
            // The label room above the highest value is part of the range.
            check_fitted((lo, hi - (hi - lo) * 0.08 / 1.08), values, chart.from_zero());
            let pixmap = render(&svg);
            assert!(ink(&pixmap) > 5_000, "{name} is nearly blank");
            let labels = texts(&svg);
            for mix in MIXES {
                assert!(labels.contains(&format!("mix {mix}")), "{name}: no mix {mix} in {labels:?}");
            }
            // Each bar's value is written above it, from the cell it draws.
            assert_eq!(chart.groups.len(), 4, "{name}");
            assert!(chart.groups.iter().all(|g| g.bars.len() == chart.bar_names.len()), "{name}");
        }
        // QoS rejects Gold (the cluster is full) and never Silver or Bronze.
        let (_, fig9a) = charts.iter().find(|(n, _)| n == "fig9a_rejected.svg").unwrap();
        let svg = fig9a.to_svg().unwrap();
        assert!(pixels_of(&render(&svg), colour(0)) > 500, "Gold's rejection bars are drawn");
        for group in &fig9a.groups {
            assert!(group.bars[0].1 > 0.0 && group.bars[1].1 == 0.0 && group.bars[2].1 == 0.0, "{group:?}");
        }
    }
}
