//! The thesis' Figures 44 to 49: per mode and group, the three best configurations
//! of each machine count as bars of their mean degradation, labelled with their `sf`
//! or `k`; written as `criteria_<mode>_<group>.svg`.

use std::path::{Path, PathBuf};

use super::{Group, ModeAnalysis, group_index, parameter, thesis};
use crate::plot::{self, BarChart, BarGroup, PlotError};
use crate::service_level::sweep::Mode;

fn mode_title(mode: Mode) -> &'static str {
    match mode {
        Mode::Single => "SSL-PM",
        Mode::Multi => "MSL-PM",
    }
}

/// Every chart, keyed by file stem.
pub fn charts(analyses: &[ModeAnalysis]) -> Vec<(String, BarChart)> {
    let mut charts = Vec::new();
    for analysis in analyses {
        for group in Group::ALL {
            let groups = analysis
                .machine_counts
                .iter()
                .map(|&m| BarGroup {
                    label: m.to_string(),
                    bars: analysis
                        .best_three(m, group)
                        .iter()
                        .map(|d| {
                            let label = format!("{} {}", parameter(analysis.mode), d.config.sf_or_k_text);
                            (label, d.groups[group_index(group)])
                        })
                        .collect(),
                    intervals: Vec::new(),
                })
                .collect();
            let chart = BarChart {
                interval_label: String::new(),
                title: format!(
                    "{} {} group (thesis Fig. {})",
                    mode_title(analysis.mode),
                    group.name(),
                    thesis::figure(analysis.mode, group)
                ),
                x_label: "machines".to_owned(),
                y_label: "mean degradation [%]".to_owned(),
                bar_names: vec!["best".to_owned(), "second".to_owned(), "third".to_owned()],
                groups,
            };
            let stem =
                format!("criteria_{}_{}", analysis.mode.name(), group.name().trim_end_matches("-centric"));
            charts.push((stem, chart));
        }
    }
    charts
}

/// Writes every chart as `DIR/<stem>.svg`; returns the paths written.
pub fn write(dir: &Path, analyses: &[ModeAnalysis]) -> Result<Vec<PathBuf>, PlotError> {
    plot::write_all(dir, charts(analyses).into_iter().map(|(stem, chart)| (format!("{stem}.svg"), chart)))
}
