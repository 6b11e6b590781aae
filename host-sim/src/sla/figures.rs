//! The paper's figures as SVG, drawn from the sweep's points (the means over sets):
//!
//! | file | the paper's figure | series |
//! |---|---|---|
//! | `fig3_min.svg`, `fig3_max.svg` | 3: single terms against a random order | bars: SLA %, CPU % per term, and random |
//! | `fig4_ts_ncpu.svg` | 4: `min(TS + w*NCPU)` against `w` | SLA %, CPU % |
//! | `fig7_three_terms.svg` | 7: `min(TF + w1*A + w2*tL)` against its two-term rows | bars: best SLA %, CPU % of the three forms |
//! | `fig8_ts_td_income.svg` | 8: Rigid income of `min(TS + w*tD)` against `w` | SLA, CPU, Fair pricing |
//! | `fig9a_ts_ncpu_asap.svg` ... `fig9d_max_ts_ncpu_asap.svg` | 9 (a)-(d): ASAP income of `min(TS + w*NCPU)`, `min(A + w*tL)`, `max(TS + w*tD)`, `max(TS + w*NCPU)` | SLA, CPU, Fair pricing |
//!
//! Every point and bar of Figures 3, 4, 8 and 9 is a mean over the job sets, drawn
//! with its 95 % interval over the sets when there are two or more
//! ([`crate::plot::interval`]); Figure 7 draws the best over the weights, a maximum
//! of means, which has no such interval, and draws none.
//!
//! The weight axes hold `±inf`, so they are drawn as the grid's positions, labelled
//! with the weights at `-inf`, `-10`, `-1`, `-0.1`, `0`, `0.1`, `1`, `10` and `inf`
//! (the CSV beside each figure has every point).

use std::path::{Path, PathBuf};

use super::sweep::{self, Kind, Point, Sweep};
use crate::plot::{BarChart, BarGroup, LineChart, PlotError, Series, ToSvg, interval};

/// One figure.
#[derive(Clone, Debug)]
pub enum Figure {
    Line(LineChart),
    Bar(BarChart),
}

impl ToSvg for Figure {
    fn to_svg(&self) -> Result<String, PlotError> {
        match self {
            Self::Line(chart) => chart.to_svg(),
            Self::Bar(chart) => chart.to_svg(),
        }
    }
}

impl Figure {
    /// How many series (lines or bar colours) it draws.
    pub fn series(&self) -> usize {
        match self {
            Self::Line(chart) => chart.series.len(),
            Self::Bar(chart) => chart.bar_names.len(),
        }
    }
}

/// `measure` of `point`'s mean and its 95 % interval over the point's sets.
fn with_interval(point: &Point, measure: sweep::Measure) -> interval::Estimate {
    let runs: Vec<f64> = point.runs.iter().map(measure).collect();
    (measure(&point.mean), interval::ci95(&runs).1)
}

/// The legend text of the intervals over the sweep's sets.
fn sets_label(points: &[&Point]) -> String {
    interval::ci95_label(points.iter().map(|p| p.runs.len()).max().unwrap_or(0) as u64, "job sets")
}

const LABELLED: [&str; 9] = ["-inf", "-10", "-1", "-0.1", "0", "0.1", "1", "10", "inf"];

/// A family's curves against its weights: one series per measure.
fn w_curves(title: &str, y_label: &str, points: &[&Point], measures: &[(&str, sweep::Measure)]) -> LineChart {
    let series = measures
        .iter()
        .map(|(name, m)| {
            let drawn: Vec<interval::Estimate> = points.iter().map(|p| with_interval(p, *m)).collect();
            let line = drawn.iter().enumerate().map(|(i, (v, _))| (i as f64, *v)).collect();
            Series::new(*name, line).with_intervals(sets_label(points), drawn.iter().map(|d| d.1).collect())
        })
        .collect();
    let x_ticks = points
        .iter()
        .enumerate()
        .filter(|(_, p)| LABELLED.contains(&p.w.as_str()))
        .map(|(i, p)| (i as f64, p.w.clone()))
        .collect();
    LineChart {
        title: title.to_owned(),
        x_label: "w, in the grid's order (±inf: by the second term alone)".to_owned(),
        y_label: y_label.to_owned(),
        series,
        reference_lines: Vec::new(),
        x_ticks,
    }
}

fn income_curves(title: &str, points: &[&Point], asap: bool) -> LineChart {
    let measures: [(&str, sweep::Measure); 3] = if asap {
        [
            ("SLA pricing", |s| s.income.asap_sla),
            ("CPU pricing", |s| s.income.asap_cpu),
            ("Fair pricing", |s| s.income.asap_fair),
        ]
    } else {
        [
            ("SLA pricing", |s| s.income.rigid_sla),
            ("CPU pricing", |s| s.income.rigid_cpu),
            ("Fair pricing", |s| s.income.rigid_fair),
        ]
    };
    w_curves(title, "income [units; ceiling = jobs per set]", points, &measures)
}

/// A group of two bars, SLA factor and CPU utilisation, of `p`, with their intervals.
fn sla_and_cpu(label: &str, p: &Point) -> BarGroup {
    let drawn = [with_interval(p, sweep::SLA), with_interval(p, sweep::CPU)];
    BarGroup {
        label: label.to_owned(),
        bars: drawn.iter().map(|(v, _)| (format!("{v:.1}"), *v)).collect(),
        intervals: drawn.iter().map(|(_, i)| *i).collect(),
    }
}

fn single_terms(sweep: &Sweep, direction: &str) -> BarChart {
    let mut drawn: Vec<&Point> = Vec::new();
    let mut groups: Vec<BarGroup> = kernel::sla::Term::ALL
        .iter()
        .filter_map(|t| {
            let p = sweep::single(sweep, &format!("{direction}({})", t.name()))?;
            drawn.push(p);
            Some(sla_and_cpu(t.name(), p))
        })
        .collect();
    if let Some(p) = sweep.points.iter().find(|p| p.kind == Kind::Random) {
        drawn.push(p);
        groups.push(sla_and_cpu("random", p));
    }
    BarChart {
        interval_label: sets_label(&drawn),
        title: format!("Fig. 3: single terms, {direction}(h), against a random order"),
        x_label: format!("the term h of {direction}(h)"),
        y_label: "percent of the complete schedule".to_owned(),
        bar_names: vec!["SLA factor".to_owned(), "CPU utilisation".to_owned()],
        groups,
    }
}

fn three_terms(sweep: &Sweep) -> BarChart {
    let f = sweep::findings::fig7(sweep);
    let group = |label: &str, i: usize| BarGroup {
        label: label.to_owned(),
        bars: [f.three[i], f.only_a[i], f.only_tl[i]].iter().map(|&v| (format!("{v:.1}"), v)).collect(),
        intervals: Vec::new(),
    };
    BarChart {
        interval_label: String::new(),
        title: "Fig. 7: three terms against two (best over the weights)".to_owned(),
        x_label: "measure".to_owned(),
        y_label: "percent of the complete schedule".to_owned(),
        bar_names: vec![
            "min(TF + w1*A + w2*tL)".to_owned(),
            "min(TF + w1*A)".to_owned(),
            "min(TF + w2*tL)".to_owned(),
        ],
        groups: vec![group("SLA factor", 0), group("CPU utilisation", 1)],
    }
}

/// Every figure, by file name.
pub fn charts(sweep: &Sweep) -> Vec<(String, Figure)> {
    let points = |name: &'static str| sweep::family(sweep, name).collect::<Vec<_>>();
    let utilisation: [(&str, sweep::Measure); 2] =
        [("SLA factor", sweep::SLA), ("CPU utilisation", sweep::CPU)];
    let mut out = vec![
        ("fig3_min.svg".to_owned(), Figure::Bar(single_terms(sweep, "min"))),
        ("fig3_max.svg".to_owned(), Figure::Bar(single_terms(sweep, "max"))),
        (
            "fig4_ts_ncpu.svg".to_owned(),
            Figure::Line(w_curves(
                "Fig. 4: utilisation of min(TS + w*NCPU)",
                "percent of the complete schedule",
                &points("min(TS + w*NCPU)"),
                &utilisation,
            )),
        ),
        ("fig7_three_terms.svg".to_owned(), Figure::Bar(three_terms(sweep))),
        (
            "fig8_ts_td_income.svg".to_owned(),
            Figure::Line(income_curves(
                "Fig. 8: Rigid income of min(TS + w*tD)",
                &points("min(TS + w*tD)"),
                false,
            )),
        ),
    ];
    for (file, family) in [
        ("fig9a_ts_ncpu_asap.svg", "min(TS + w*NCPU)"),
        ("fig9b_a_tl_asap.svg", "min(A + w*tL)"),
        ("fig9c_max_ts_td_asap.svg", "max(TS + w*tD)"),
        ("fig9d_max_ts_ncpu_asap.svg", "max(TS + w*NCPU)"),
    ] {
        let title = format!("Fig. 9: ASAP income of {family}");
        out.push((file.to_owned(), Figure::Line(income_curves(&title, &points(family), true))));
    }
    out
}

/// Writes every figure into `dir` and returns their paths.
pub fn write(dir: &Path, sweep: &Sweep) -> Result<Vec<PathBuf>, PlotError> {
    crate::plot::write_all(dir, charts(sweep))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plot::colour;
    use crate::plot::tests::{check_figure, check_text, error_bars, ink, pixels_of, render, texts};

    #[test]
    fn every_figure_renders_with_its_series() {
        // Two sets: each point a mean over two, with its 95 % interval (but Figure 7's).
        let config = sweep::SweepConfig { sets: 2, seed: 1, step_ticks: super::super::generator::SLOT_TICKS };
        let result = sweep::run(&config, &indicatif::ProgressBar::hidden()).unwrap();
        let charts = charts(&result);
        assert_eq!(charts.len(), 9);
        for (name, figure) in &charts {
            let svg = figure.to_svg().unwrap();
            check_text(&svg);
            let drawn = match figure {
                Figure::Line(chart) => chart.series.iter().map(|s| s.points.len()).sum(),
                Figure::Bar(_) if name.starts_with("fig7") => 0,
                Figure::Bar(chart) => chart.groups.iter().map(|g| g.bars.len()).sum(),
            };
            assert_eq!(error_bars(&svg), drawn, "{name}: an interval per mean over the sets");
            match figure {
                Figure::Line(chart) => {
                    check_figure(&svg, figure.series());
                    // Every weight of the grid (and the paper's, for its families), and
                    // the weight labels at ±inf and 0.
                    assert!(chart.series.iter().all(|s| s.points.len() >= sweep::GRID.len()), "{name}");
                    let labels = texts(&svg);
                    for w in ["-inf", "0", "inf", "1", "-1"] {
                        assert!(labels.iter().any(|t| t == w), "{name}: no label {w} in {labels:?}");
                    }
                }
                Figure::Bar(chart) => {
                    let pixmap = render(&svg);
                    assert!(ink(&pixmap) > 5_000, "{name} is nearly blank");
                    for i in 0..figure.series() {
                        assert!(pixels_of(&pixmap, colour(i)) > 200, "{name}: series {i} has no bars");
                    }
                    assert_eq!(pixels_of(&pixmap, colour(figure.series())), 0, "{name}: a series too many");
                    assert!(chart.groups.iter().all(|g| g.bars.len() == chart.bar_names.len()), "{name}");
                }
            }
        }
        let (_, fig3) = &charts[0];
        let Figure::Bar(fig3) = fig3 else { panic!("Figure 3 is a bar chart") };
        let groups: Vec<&str> = fig3.groups.iter().map(|g| g.label.as_str()).collect();
        assert_eq!(groups, ["TS", "TF", "tD", "NCPU", "A", "tT", "tL", "random"]);
    }
}
