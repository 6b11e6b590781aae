//! The figures drawn from tables shaped as `write_figures` makes them (3 loads, 4
//! interval sizes, 5 criteria, ...), rendered: not blank, one series per criterion,
//! load, interval size or technique. `FIGURES_DIR=DIR` also writes them there.

use super::*;
use crate::plot::tests::{check_figure, check_fitted, error_bars, texts};
use crate::reservation::sweep::tables::{FIG2_HEADER, FIG3_4_HEADER, FIG5_HEADER, FIG6_HEADER, FIG7_HEADER};

const LOADS: [&str; 3] = ["1", "1.25", "1.5"];
const FLEX: [&str; 4] = ["none", "short", "medium", "long"];

fn s(x: f64) -> String {
    format!("{x:.3}")
}

fn tables() -> Vec<Table> {
    let mut fig2 = Vec::new();
    let mut fig34 = Vec::new();
    let mut fig6 = Vec::new();
    let mut fig7 = Vec::new();
    for (l, load) in LOADS.iter().enumerate() {
        for (f, flex) in FLEX.iter().enumerate() {
            for (c, criterion) in ["fifo", "edf", "lff", "bjf", "shuffle"].iter().enumerate() {
                let diff = if *criterion == "shuffle" { 0.0 } else { (f * (c + 1)) as f64 * 0.3 };
                fig2.push(vec![
                    load.to_string(),
                    flex.to_string(),
                    criterion.to_string(),
                    s(50.0),
                    s(3.0),
                    s(diff),
                    s(0.5),
                    s(0.8),
                ]);
            }
            let util = 45.0 + 5.0 * l as f64 + 2.0 * f as f64;
            fig34.push(vec![
                load.to_string(),
                flex.to_string(),
                s(util),
                s(3.0),
                s(2.0 * f as f64),
                s(0.8),
                "0".into(),
                "0".into(),
            ]);
            fig6.push(vec![load.to_string(), "flexible".into(), flex.to_string(), s(util), s(3.0), s(0.8)]);
        }
        for (p, phi) in ["0.25", "0.5", "1"].iter().enumerate() {
            let util = 45.0 + 5.0 * l as f64 + p as f64;
            fig6.push(vec![load.to_string(), "offers".into(), phi.to_string(), s(util), s(3.0), s(0.8)]);
            fig7.push(vec![
                load.to_string(),
                phi.to_string(),
                s(0.2 + 0.3 * p as f64),
                "5".into(),
                "9".into(),
                "100".into(),
            ]);
        }
    }
    let mut fig5 = Vec::new();
    for (f, flex) in FLEX.iter().enumerate() {
        // Fixed intervals are run once, never fixed (fixing cannot move them).
        let fixings: &[&str] =
            if *flex == "none" { &["never"] } else { &["0", "0.25", "0.5", "0.75", "never"] };
        for (i, fix) in fixings.iter().enumerate() {
            fig5.push(vec![
                "1.25".into(),
                flex.to_string(),
                fix.to_string(),
                s(50.0 + (f + i) as f64),
                s(3.0),
                s(0.8),
            ]);
        }
    }
    vec![
        Table { name: "fig2", header: FIG2_HEADER.to_vec(), rows: fig2, windows: 3 },
        Table { name: "fig3", header: FIG3_4_HEADER.to_vec(), rows: fig34.clone(), windows: 3 },
        Table { name: "fig4", header: FIG3_4_HEADER.to_vec(), rows: fig34, windows: 3 },
        Table { name: "fig5", header: FIG5_HEADER.to_vec(), rows: fig5, windows: 3 },
        Table { name: "fig6", header: FIG6_HEADER.to_vec(), rows: fig6, windows: 3 },
        Table { name: "fig7", header: FIG7_HEADER.to_vec(), rows: fig7, windows: 3 },
    ]
}

#[test]
fn figures_2_to_7_are_drawn_with_one_series_per_case() {
    let charts = charts(&tables());
    let stems: Vec<&str> = charts.iter().map(|(s, _)| s.as_str()).collect();
    assert_eq!(
        stems,
        ["fig2_load_1", "fig2_load_1.25", "fig2_load_1.5", "fig3", "fig4", "fig5", "fig6", "fig7"]
    );
    let dir = std::env::var_os("FIGURES_DIR").map(std::path::PathBuf::from);
    for (stem, chart) in &charts {
        // Five criteria; three loads; four interval sizes; offers and flexible
        // intervals at three loads each; three loads.
        let expected = match stem.as_str() {
            s if s.starts_with("fig2") => 5,
            "fig5" => 3,
            "fig6" => 6,
            _ => 3,
        };
        let svg = chart.to_svg().unwrap();
        if let Some(dir) = &dir {
            std::fs::create_dir_all(dir).unwrap();
            std::fs::write(dir.join(format!("{stem}.svg")), &svg).unwrap();
        }
        check_figure(&svg, expected);
        assert_eq!(chart.skipped_points(), 0, "{stem}");
        assert!(texts(&svg).iter().any(|t| t.contains("[%") || t.contains("[fraction")), "{stem}: a unit");
        // Every figure but 7 (no sd in its table) has a 95 % interval at each point.
        let points: usize = chart.series.iter().map(|s| s.points.len()).sum();
        assert_eq!(error_bars(&svg), if stem == "fig7" { 0 } else { points }, "{stem}");
        check_fitted(
            chart.y_range(),
            chart
                .series
                .iter()
                .flat_map(|s| s.points.iter().map(|p| p.1))
                .chain(chart.series.iter().flat_map(|s| s.error_bars().flat_map(|(_, l, h)| [l, h])))
                .chain(chart.reference_lines.iter().flat_map(|s| s.points.iter().map(|p| p.1))),
            false,
        );
    }
    // Interval sizes sit at their mean widening; "never" fixing at 1.
    let fig3 = &charts[3].1;
    let xs: Vec<f64> = fig3.series[0].points.iter().map(|p| p.0).collect();
    assert_eq!(xs, [0.0, 25.0, 50.0, 100.0]);
    let fig5 = &charts[5].1;
    assert_eq!(fig5.series[0].points.last().unwrap().0, 1.0);
    assert_eq!(fig5.series[0].name, "short windows (+25 % of Te)");
    assert_eq!(fig5.reference_lines[0].points, vec![(0.0, 50.0), (1.0, 50.0)]);
    // Fig. 6's flexible series leave out the fixed intervals (no widening to compare).
    assert_eq!(charts[6].1.series[3].points.len(), 3);
    assert_eq!(charts[7].1.reference_lines.len(), 1);
}
