//! The analysis against a small sweep computed by hand (every number below is worked
//! out in the comments), the file errors, and the figures rendered.

use super::*;
use crate::plot::colour;
use crate::plot::tests::{ink, pixels_of, render, texts};

const SWEEP: &str = "\
mode,sf_or_k,machines,windows,g_mean,prj_mean,mwt_mean,mbsd_mean,cv_l_mean
single,1,1,30,-50,40,0,1,0.8
single,2,1,30,100,20,10,2,0.5
single,4,1,30,200,10,40,4,0.4
single,1,2,30,-20,30,0,1,0.9
single,2,2,30,150,10,5,1.5,0.6
single,4,2,30,250,0,20,3,0.5
multi,1,1,30,-100,10,5,2,0.5
multi,2,1,30,-50,10,5,2,0.5
multi,3,1,30,-50,10,5,2,0.5
";

/// A fresh directory per call: tests run in parallel and must not share files.
fn sweep_dir(name: &str, text: &str) -> std::path::PathBuf {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("host-sim-criteria-{name}-{}-{call}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("sweep.csv"), text).unwrap();
    dir
}

fn analysed() -> Vec<ModeAnalysis> {
    analyse(&read_sweep(&sweep_dir("hand", SWEEP)).unwrap(), &[])
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

fn find(analysis: &ModeAnalysis, sf: f64, machines: u16) -> &Degraded {
    analysis.degraded.iter().find(|d| d.config.sf_or_k == sf && d.config.machines == machines).unwrap()
}

#[test]
fn degradations_match_the_hand_computation() {
    let analyses = analysed();
    let single = &analyses[0];
    assert_eq!(single.mode, Mode::Single);
    assert_eq!(single.machine_counts, vec![1, 2]);
    // Bests over the six single rows: G 250 (max), PRJ 0 (min, so the scale is the
    // largest PRJ, 40), MWT 0 (scale 40), MBSD 1, c_V^l 0.9 (max).
    // Order: [G, PRJ, MWT, MBSD, c_V], then [system, user, algorithm].
    let expected: [(f64, u16, [f64; 5], [f64; 3]); 6] = [
        // G (250 - -50)/250 = 120 %; PRJ 40/40 = 100 %; c_V 0.1/0.9 = 11.1 %.
        (1.0, 1, [120.0, 100.0, 0.0, 0.0, 100.0 / 9.0], [110.0, 0.0, 100.0 / 9.0]),
        // G 150/250 = 60; PRJ 20/40 = 50; MWT 10/40 = 25; MBSD (2-1)/1 = 100; c_V 0.4/0.9.
        (2.0, 1, [60.0, 50.0, 25.0, 100.0, 400.0 / 9.0], [55.0, 62.5, 400.0 / 9.0]),
        (4.0, 1, [20.0, 25.0, 100.0, 300.0, 500.0 / 9.0], [22.5, 200.0, 500.0 / 9.0]),
        // G (250 - -20)/250 = 108; PRJ 30/40 = 75.
        (1.0, 2, [108.0, 75.0, 0.0, 0.0, 0.0], [91.5, 0.0, 0.0]),
        (2.0, 2, [40.0, 25.0, 12.5, 50.0, 300.0 / 9.0], [32.5, 31.25, 300.0 / 9.0]),
        (4.0, 2, [0.0, 0.0, 50.0, 200.0, 400.0 / 9.0], [0.0, 125.0, 400.0 / 9.0]),
    ];
    for (sf, m, metrics, groups) in expected {
        let d = find(single, sf, m);
        for (got, want) in d.metrics.iter().zip(metrics) {
            assert!(close(*got, want), "sf {sf} on {m}: metrics {:?}, expected {metrics:?}", d.metrics);
        }
        for (got, want) in d.groups.iter().zip(groups) {
            assert!(close(*got, want), "sf {sf} on {m}: groups {:?}, expected {groups:?}", d.groups);
        }
    }
}

fn ranked(analysis: &ModeAnalysis, machines: u16, group: Group) -> Vec<f64> {
    ranking(&analysis.degraded, machines, group).iter().map(|d| d.config.sf_or_k).collect()
}

#[test]
fn rankings_are_per_machine_count_lowest_first() {
    let analyses = analysed();
    let single = &analyses[0];
    assert_eq!(ranked(single, 1, Group::System), vec![4.0, 2.0, 1.0]);
    assert_eq!(ranked(single, 1, Group::User), vec![1.0, 2.0, 4.0]);
    assert_eq!(ranked(single, 1, Group::Algorithm), vec![1.0, 2.0, 4.0]);
    assert_eq!(ranked(single, 2, Group::System), vec![4.0, 2.0, 1.0]);
    assert_eq!(ranked(single, 2, Group::User), vec![1.0, 2.0, 4.0]);
}

#[test]
fn a_negative_best_benefit_still_degrades_upwards_and_ties_go_to_the_smaller_k() {
    let analyses = analysed();
    let multi = &analyses[1];
    assert_eq!(multi.mode, Mode::Multi);
    // Best G is -50: G -100 is (-50 - -100) / |-50| = 100 % worse, not -100 %.
    assert!(close(find(multi, 1.0, 1).metrics[0], 100.0));
    assert!(close(find(multi, 2.0, 1).metrics[0], 0.0));
    // Every other metric is equal, so all are 0; k 2 and 3 tie on the system group.
    assert!(close(find(multi, 1.0, 1).groups[0], 50.0));
    assert_eq!(ranked(multi, 1, Group::System), vec![2.0, 3.0, 1.0]);
}

#[test]
fn the_machine_counts_chosen_decide_the_best() {
    let configs = read_sweep(&sweep_dir("chosen", SWEEP)).unwrap();
    let only_one = analyse(&configs, &[1]);
    // On one machine alone the best G is 200, so sf 4 loses nothing on G.
    assert!(close(find(&only_one[0], 4.0, 1).metrics[0], 0.0));
    assert!(close(find(&only_one[0], 2.0, 1).metrics[0], 50.0));
}

#[test]
fn the_report_prints_ours_beside_the_thesis() {
    let text = report(&analysed());
    assert!(text.contains("ours: sf 4 (22.5), sf 2 (55.0), sf 1 (110.0)"), "{text}");
    assert!(text.contains("thesis: sf 9, 10, 8"), "{text}");
    assert!(text.contains("thesis: k 14, 11, 10"), "{text}");
}

#[test]
fn errors_name_the_file_line_and_field() {
    let dir = sweep_dir(
        "bad",
        "mode,sf_or_k,machines,g_mean,prj_mean,mwt_mean,mbsd_mean,cv_l_mean\nsingle,1,1,x,1,1,1,1\n",
    );
    let error = read_sweep(&dir).unwrap_err().to_string();
    assert!(error.contains("sweep.csv, line 2, field g_mean: `x` is not a finite number"), "{error}");
    let header = "mode,sf_or_k,machines,g_mean,prj_mean,mwt_mean,mbsd_mean,cv_l_mean\n";
    for (name, row, expected) in [
        ("nan", "single,1,1,NaN,1,1,1,1", "field g_mean: `NaN` is not a finite number"),
        ("inf", "single,1,1,1,inf,1,1,1", "field prj_mean: `inf` is not a percentage from 0 to 100"),
        ("prj", "single,1,1,1,250,1,1,1", "field prj_mean: `250` is not a percentage from 0 to 100"),
        ("negative", "single,1,1,1,1,-3,1,1", "field mwt_mean: `-3` is not a finite number of at least 0"),
        ("sf", "single,0.5,1,1,1,1,1,1", "field sf_or_k: `0.5` is not a finite number of at least 1"),
        ("k", "multi,1.5,1,1,1,1,1,1", "field sf_or_k: `1.5` is not a level count k from 1 to 32"),
        ("machines", "single,1,0,1,1,1,1,1", "field machines: `0` is not a machine count from 1 to 64"),
    ] {
        let dir = sweep_dir(name, &format!("{header}{row}\n"));
        let error = read_sweep(&dir).unwrap_err().to_string();
        assert!(error.contains(&format!("line 2, {expected}")), "{name}: {error}");
    }
    let twice = format!("{header}single,2,4,1,1,1,1,1\nsingle,1,4,1,1,1,1,1\nsingle,2.0,4,1,1,1,1,1\n");
    let error = read_sweep(&sweep_dir("twice", &twice)).unwrap_err().to_string();
    assert!(error.contains("line 4: single sf_or_k 2.0 on 4 machines again (first on line 2)"), "{error}");
    let dir = sweep_dir("column", "mode,sf_or_k,machines\nsingle,1,1\n");
    let error = read_sweep(&dir).unwrap_err().to_string();
    assert!(error.contains("no column \"g_mean\""), "{error}");
}

#[test]
fn figures_44_to_49_draw_three_bars_per_machine_count() {
    let charts = figures::charts(&analysed());
    assert_eq!(charts.len(), 6);
    for (stem, chart) in &charts {
        let svg = chart.to_svg().unwrap();
        crate::plot::tests::check_text(&svg);
        let pixmap = render(&svg);
        assert!(ink(&pixmap) > 5_000, "{stem} is blank");
        let bars = chart.groups.iter().map(|g| g.bars.len()).max().unwrap();
        for i in 0..bars {
            assert!(pixels_of(&pixmap, colour(i)) > 50, "{stem}: bar {i} is drawn");
        }
        assert_eq!(pixels_of(&pixmap, colour(bars)), 0, "{stem}: no more bars than configurations");
    }
    let (_, system) = &charts[0];
    assert!(system.title.contains("Fig. 44"));
    let svg = system.to_svg().unwrap();
    for label in ["sf 4", "sf 2", "sf 1", "mean degradation [%]", "machines"] {
        assert!(texts(&svg).iter().any(|t| t == label), "{label}");
    }
}

#[test]
fn of_a_sweep_over_policies_only_first_fit_rows_are_read() {
    let text = "\
mode,sf_or_k,machines,policy,windows,g_mean,prj_mean,mwt_mean,mbsd_mean,cv_l_mean
single,1,1,first-fit,30,-50,40,0,1,0.8
single,1,1,best-fit,30,-40,30,0,1,0.9
single,2,1,first-fit,30,100,20,10,2,0.5
single,2,1,round-robin,30,110,20,10,2,0.5
";
    let dir = sweep_dir("policies", text);
    let configs = read_sweep(&dir).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(configs.len(), 2);
    assert_eq!((configs[0].g, configs[1].g), (-50.0, 100.0));
}

#[test]
fn every_row_is_checked_whether_or_not_it_is_analysed() {
    let header = "mode,sf_or_k,machines,policy,windows,g_mean,prj_mean,prj_sd,mwt_mean,mbsd_mean,cv_l_mean\n";
    for (name, row, expected) in [
        ("policy", "single,1,1,firstfit,30,1,1,0,1,1,1", "field policy: `firstfit` is not a policy"),
        ("empty-policy", "single,1,1,,30,1,1,0,1,1,1", "field policy: `` is not a policy"),
        (
            "windows",
            "single,1,1,first-fit,0,1,1,0,1,1,1",
            "field windows: `0` is not a whole number of windows",
        ),
        (
            "sd",
            "single,1,1,first-fit,30,1,1,-1,1,1,1",
            "field prj_sd: `-1` is not a finite standard deviation",
        ),
        ("other", "single,1,0,best-fit,30,1,1,0,1,1,1", "field machines: `0` is not a machine count"),
    ] {
        let good = "single,2,1,first-fit,30,1,1,0,1,1,1\n";
        let dir = sweep_dir(name, &format!("{header}{good}{row}\n"));
        let error = read_sweep(&dir).unwrap_err().to_string();
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(error.contains(&format!("sweep.csv, line 3, {expected}")), "{name}: {error}");
    }
}
