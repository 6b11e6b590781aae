//! The policies side by side: for a sweep over two machine-choice policies or more,
//! per mode and machine count, the share of rejected jobs (PRJ) and the machine
//! efficiency (ME) of every policy against `sf` (or `k`), each point with its 95 %
//! interval over the windows: `DIR/<mode>_policies_m<M>.svg` (PRJ) and
//! `DIR/<mode>_policies_me_m<M>.svg` (ME).

use super::{METRIC_FIGURES, Mode, Row, machine_counts, mode_title, with_intervals, x_label};
use crate::plot::LineChart;

/// The comparison charts, keyed by file stem; none for a sweep of one policy.
pub fn charts(rows: &[Row]) -> Vec<(String, LineChart)> {
    let mut policies: Vec<&'static str> = Vec::new();
    for row in rows {
        if !policies.contains(&row.policy) {
            policies.push(row.policy);
        }
    }
    if policies.len() < 2 {
        return Vec::new();
    }
    let mut charts = Vec::new();
    for mode in [Mode::Single, Mode::Multi] {
        let of_mode: Vec<&Row> = rows.iter().filter(|r| r.mode == mode).collect();
        for m in machine_counts(&of_mode) {
            for (key, suffix) in [("prj", ""), ("me", "_me")] {
                let Some(figure) = METRIC_FIGURES.iter().find(|f| f.key == key) else { continue };
                let series = policies
                    .iter()
                    .map(|&policy| {
                        let on: Vec<&Row> = of_mode
                            .iter()
                            .copied()
                            .filter(|r| r.machines == m && r.policy == policy)
                            .collect();
                        with_intervals(policy.to_owned(), &on, figure.value)
                    })
                    .filter(|s| !s.points.is_empty())
                    .collect();
                let chart = LineChart {
                    title: format!(
                        "{}: {}, the policies on {m} machine{}",
                        mode_title(mode),
                        figure.title,
                        if m == 1 { "" } else { "s" }
                    ),
                    x_label: x_label(mode).to_owned(),
                    y_label: figure.y_label.to_owned(),
                    series,
                    reference_lines: Vec::new(),
                    x_ticks: Vec::new(),
                };
                charts.push((format!("{}_policies{suffix}_m{m}", mode.name()), chart));
            }
        }
    }
    charts
}
