//! Every figure of a small sweep, rendered: not blank, one series per machine count
//! (or `c_V^u` and `c_V^l`), the greedy guarantee drawn on the `c_V` figures.
//! `FIGURES_DIR=DIR` also writes them there, to look at.

use indicatif::ProgressBar;

use super::*;
use crate::plot::tests::{check_figure, check_fitted, error_bars, texts};
use crate::service_level::sweep::{SweepConfig, run};
use crate::synthetic::{SyntheticParams, generate};

fn small_sweep() -> Vec<Row> {
    let config = SweepConfig {
        modes: vec![Mode::Single, Mode::Multi],
        slacks_milli: vec![1000, 2000, 3000, 5000],
        machine_counts: vec![1, 2, 4],
        policies: vec![kernel::service_level::Policy::FirstFit],
        queue_capacity: 256,
        seed: 1,
        window_ticks: Some(2 * 86_400),
        alpha_milli: 1000,
    };
    let workload = generate(&SyntheticParams::new(600, 3));
    run(&config, &workload.jobs, &ProgressBar::hidden()).unwrap()
}

#[test]
fn every_metric_is_drawn_per_machine_count_and_c_v_with_its_guarantee() {
    let rows = small_sweep();
    let charts = charts(&rows);
    // Nine metrics and three c_V panels (one per machine count), for each mode.
    assert_eq!(charts.len(), 2 * (9 + 3));
    let dir = std::env::var_os("FIGURES_DIR").map(std::path::PathBuf::from);
    assert!(rows.iter().all(|r| r.windows > 1), "the sweep has several windows");
    for (stem, chart) in &charts {
        let svg = chart.to_svg().unwrap();
        check_figure(&svg, if stem.contains("_cv_m") { 2 } else { 3 });
        // Every point is a mean over windows, drawn with its 95 % interval (none where
        // the windows agree exactly: a zero-width interval is still drawn).
        let points: usize = chart.series.iter().map(|s| s.points.len()).sum();
        assert_eq!(error_bars(&svg), points, "{stem}");
        let values = chart.series.iter().flat_map(|s| {
            s.points.iter().map(|p| p.1).chain(s.error_bars().flat_map(|(_, lo, hi)| [lo, hi]))
        });
        let lines = chart.reference_lines.iter().flat_map(|s| s.points.iter().map(|p| p.1));
        check_fitted(chart.y_range(), values.chain(lines), false);
        let guarantee = texts(&svg).iter().any(|t| t == "greedy guarantee (theorems)");
        assert_eq!(guarantee, stem.contains("cv"), "{stem}: the guarantee is on the c_V figures only");
        assert_eq!(chart.skipped_points(), 0, "{stem}");
        if let Some(dir) = &dir {
            std::fs::create_dir_all(dir).unwrap();
            std::fs::write(dir.join(format!("{stem}.svg")), svg).unwrap();
        }
    }
    let single_prj = &charts.iter().find(|(s, _)| s == "single_prj").unwrap().1;
    assert_eq!(single_prj.x_label, "slack factor sf");
    assert_eq!(single_prj.series[0].points.len(), 4);
    let multi_g = &charts.iter().find(|(s, _)| s == "multi_g").unwrap().1;
    assert!(multi_g.x_label.starts_with("number of SLAs k"));
}

#[test]
fn a_second_policy_gets_its_own_figures_named_after_it() {
    let config = SweepConfig {
        modes: vec![Mode::Single],
        slacks_milli: vec![1000, 3000],
        machine_counts: vec![2, 4],
        policies: vec![kernel::service_level::Policy::FirstFit, kernel::service_level::Policy::WorstFit],
        queue_capacity: 256,
        seed: 1,
        window_ticks: None,
        alpha_milli: 1000,
    };
    let workload = generate(&SyntheticParams::new(300, 3));
    let rows = run(&config, &workload.jobs, &ProgressBar::hidden()).unwrap();
    assert_eq!(rows.len(), 2 * 2 * 2);
    assert_eq!(rows.iter().map(|r| r.policy).take(2).collect::<Vec<_>>(), ["first-fit", "worst-fit"]);
    let charts = charts(&rows);
    // Each policy's nine metrics and two c_V panels, then the policies side by side:
    // PRJ and ME per machine count.
    assert_eq!(charts.len(), 2 * (9 + 2) + 2 * 2);
    let stems: Vec<&str> = charts.iter().map(|(s, _)| s.as_str()).collect();
    assert!(stems.contains(&"single_prj") && stems.contains(&"single_prj_worst-fit"), "{stems:?}");
    assert!(stems.contains(&"single_cv_m4_worst-fit"), "{stems:?}");
    let worst = &charts.iter().find(|(s, _)| s == "single_prj_worst-fit").unwrap().1;
    assert!(worst.title.starts_with("worst-fit, "), "{}", worst.title);
    let side_by_side = &charts.iter().find(|(s, _)| s == "single_policies_m4").unwrap().1;
    let names: Vec<&str> = side_by_side.series.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["first-fit", "worst-fit"]);
    assert!(side_by_side.title.contains("PRJ"), "{}", side_by_side.title);
    check_figure(&side_by_side.to_svg().unwrap(), 2);
    assert!(stems.contains(&"single_policies_me_m2"), "{stems:?}");
}
