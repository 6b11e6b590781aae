//! `replay gantt` on the committed logs: what each model's chart holds (runs,
//! outcomes, marks, ranges, rows), the chart rendered to a bitmap, and one chart's
//! SVG text as an insta snapshot.

use std::path::{Path, PathBuf};

use replay::format::LogReader;
use replay::gantt::{self, Chart, MarkKind, Options, Outcome};

fn log(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("logs").join(format!("{name}.log"))
}

fn chart(name: &str, options: &Options) -> Chart {
    gantt::collect(LogReader::open(&log(name)).unwrap(), options).unwrap()
}

/// `(job, rows, start, end, outcome)` of every bar.
fn runs(chart: &Chart) -> Vec<(u32, std::ops::Range<u32>, u64, u64, Outcome)> {
    chart.bars.iter().map(|b| (b.job, b.rows.clone(), b.start, b.end, b.outcome)).collect()
}

#[test]
fn a_service_level_chart_has_every_run_with_how_it_ended() {
    let chart = chart("preemption", &Options::default());
    use Outcome::{OnTime, Preempted};
    assert_eq!(
        runs(&chart),
        vec![
            (1, 0..1, 0, 3, Preempted),
            (2, 0..1, 3, 5, OnTime),
            (1, 0..1, 5, 6, Preempted),
            (3, 0..1, 6, 10, OnTime),
            (1, 0..1, 10, 10, Preempted),
            (4, 0..1, 10, 11, OnTime),
            (1, 0..1, 11, 17, OnTime),
            (5, 0..1, 20, 20, Preempted),
            (6, 0..1, 20, 21, OnTime),
            (5, 0..1, 21, 26, OnTime),
        ]
    );
    assert_eq!((chart.from, chart.to), (0, 26));
    assert_eq!(chart.marks.iter().filter(|m| m.kind == MarkKind::Submit).count(), 6);
}

#[test]
fn a_range_keeps_only_what_falls_in_it_clipped() {
    let chart = chart("preemption", &Options { from: 5, to: Some(12), ..Options::default() });
    let jobs: Vec<(u32, u64, u64)> = chart.bars.iter().map(|b| (b.job, b.start, b.end)).collect();
    // Job 2's run [3, 5) only touches the range's start: left out.
    assert_eq!(jobs, vec![(1, 5, 6), (3, 6, 10), (1, 10, 10), (4, 10, 11), (1, 11, 12)]);
    let marks: Vec<u64> = chart.marks.iter().map(|m| m.t).collect();
    assert_eq!(marks, vec![6, 10]);
    // Job 1's last run goes on past the range and completes at 17, in the decisions
    // of the first event past the range (the submit at 20), which are still read:
    // it is drawn clipped at 12 in its true outcome. Reading stops at the next event.
    assert_eq!(chart.bars.last().unwrap().outcome, Outcome::OnTime);
    let short = gantt::collect(
        LogReader::open(&log("preemption")).unwrap(),
        &Options { from: 0, to: Some(2), ..Options::default() },
    )
    .unwrap();
    // Job 1 is preempted at 3, in the decisions of the submit at 3 (past 2): known.
    assert_eq!(runs(&short), vec![(1, 0..1, 0, 2, Outcome::Preempted)]);
}

#[test]
fn rows_and_rejections_on_parallel_machines() {
    let all = chart("parallel_machines", &Options::default());
    assert_eq!(all.marks.iter().filter(|m| m.kind == MarkKind::Reject).count(), 1);
    let one = chart("parallel_machines", &Options { rows: Some(1..2), ..Options::default() });
    assert!(!one.bars.is_empty());
    assert!(one.bars.iter().all(|b| b.rows == (1..2)));
    let error = gantt::collect(
        LogReader::open(&log("parallel_machines")).unwrap(),
        &Options { rows: Some(2..5), ..Options::default() },
    )
    .unwrap_err();
    assert_eq!(error.to_string(), "--machines 2..5: the log has 3 machines (rows 0..3)");
}

#[test]
fn each_window_is_drawn_on_its_own() {
    let first = chart("windows_reset", &Options::default());
    let second = chart("windows_reset", &Options { window: 1, ..Options::default() });
    let jobs = |c: &Chart| {
        let mut j: Vec<u32> = c.bars.iter().map(|b| b.job).collect();
        j.dedup();
        j
    };
    assert_eq!(jobs(&first), vec![1, 2]);
    assert_eq!(jobs(&second), vec![3, 4, 3]);
    let error = gantt::collect(
        LogReader::open(&log("windows_reset")).unwrap(),
        &Options { window: 5, ..Options::default() },
    )
    .unwrap_err();
    assert!(error.to_string().contains("--window 5"), "{error}");
}

#[test]
fn a_reservation_chart_lays_reservations_over_node_bands() {
    let chart = chart("resv_flexible", &Options::default());
    assert_eq!(chart.row_noun, "node");
    // Job 2 holds both nodes over [0, 20) and finishes on time; job 3 is never
    // reported and is cut at 30; job 1 finishes early at 40.
    assert_eq!(
        runs(&chart),
        vec![
            (2, 0..2, 0, 20, Outcome::OnTime),
            (3, 0..2, 20, 30, Outcome::Cut),
            (1, 0..2, 30, 40, Outcome::OnTime)
        ]
    );
    let rejected: Vec<u32> =
        chart.marks.iter().filter(|m| m.kind == MarkKind::Reject).map(|m| m.job).collect();
    assert_eq!(rejected, vec![4, 5]);
}

#[test]
fn an_sla_chart_lays_accepted_jobs_over_node_bands_and_marks_rejections() {
    // sla_reject_no_room: 2 nodes; job 1 on both [0, 50), job 2 on both [50, 100),
    // job 4 on one from 100; job 3 rejected at the plan (t = 0).
    let first = chart("sla_reject_no_room", &Options::default());
    use Outcome::OnTime;
    assert_eq!(
        runs(&first),
        vec![(1, 0..2, 0, 50, OnTime), (2, 0..2, 50, 100, OnTime), (4, 0..1, 100, 130, OnTime)]
    );
    assert_eq!((first.from, first.to, first.rows.clone()), (0, 130, 0..2));
    let rejected: Vec<(u32, u64)> =
        first.marks.iter().filter(|m| m.kind == MarkKind::Reject).map(|m| (m.job, m.t)).collect();
    assert_eq!(rejected, vec![(3, 0)]);
    assert_eq!(first.marks.iter().filter(|m| m.kind == MarkKind::Submit).count(), 4);
    // A reset starts another window: the second job set of sla_reject_time_and_reset.
    let second = chart("sla_reject_time_and_reset", &Options { window: 1, ..Options::default() });
    assert_eq!(runs(&second), vec![(3, 0..1, 0, 10, OnTime)]);
}

fn render(svg: &str) -> resvg::tiny_skia::Pixmap {
    let tree = resvg::usvg::Tree::from_str(svg, &resvg::usvg::Options::default()).unwrap();
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
    resvg::render(&tree, resvg::tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap
}

fn pixels(pixmap: &resvg::tiny_skia::Pixmap, hex: &str) -> usize {
    let channel = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).unwrap();
    let rgb = (channel(1), channel(3), channel(5));
    pixmap.pixels().iter().filter(|p| (p.red(), p.green(), p.blue()) == rgb && p.alpha() == 255).count()
}

#[test]
fn charts_render_with_each_outcome_that_occurs_and_none_other() {
    for (name, present, absent) in [
        ("preemption", vec![Outcome::OnTime, Outcome::Preempted], vec![Outcome::Late, Outcome::Cut]),
        ("resv_flexible", vec![Outcome::OnTime, Outcome::Cut], vec![Outcome::Preempted, Outcome::Late]),
        ("tiers_leave_qos", vec![Outcome::OnTime, Outcome::Lost], vec![Outcome::Late, Outcome::Cut]),
    ] {
        let svg = gantt::svg::write(&chart(name, &Options::default()));
        let pixmap = render(&svg);
        let ink =
            pixmap.pixels().iter().filter(|p| (p.red(), p.green(), p.blue()) != (255, 255, 255)).count();
        assert!(ink > 10_000, "{name} is nearly blank");
        // Bars are large in these small logs; the legend's swatches are 14 x 12.
        for outcome in present {
            assert!(pixels(&pixmap, gantt::svg::colour(outcome)) > 1_000, "{name}: {outcome:?} is drawn");
        }
        for outcome in absent {
            assert!(pixels(&pixmap, gantt::svg::colour(outcome)) <= 14 * 12, "{name}: no {outcome:?} run");
        }
    }
}

#[test]
fn the_preemption_chart_svg() {
    insta::assert_snapshot!(gantt::svg::write(&chart("preemption", &Options::default())));
}

#[test]
fn a_tiers_chart_has_a_row_per_node_and_the_runs_lost_when_a_desktop_left() {
    // r0 (the cluster's one node), r1 and r2 (desktops): rows 0, 1 and 2.
    let chart = chart("tiers_leave_qos", &Options::default());
    use Outcome::{Lost, OnTime};
    assert_eq!(
        runs(&chart),
        vec![
            (1, 0..1, 0, 100, OnTime),
            // Silver 2 is lost when r1 leaves at 10 (and violated: it is not re-placed).
            (2, 1..2, 0, 10, Lost),
            // Bronze 3 is lost when r2 leaves at 12, re-placed on r1 and runs 20..50.
            (3, 2..3, 0, 12, Lost),
            (3, 1..2, 20, 50, OnTime),
        ]
    );
    assert_eq!((chart.rows.clone(), chart.from, chart.to), (0..3, 0, 100));
    assert_eq!(chart.marks.iter().filter(|m| m.kind == MarkKind::Submit).count(), 3);
    assert!(chart.outcomes.contains(&Lost));
}

/// Every committed log whose chart can be drawn (the invalid-input log aside).
fn drawable_logs() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("logs"))
        .unwrap()
        .filter_map(|e| e.ok()?.path().file_stem()?.to_str().map(str::to_owned))
        .collect();
    names.sort();
    names.retain(|n| gantt::collect(LogReader::open(&log(n)).unwrap(), &Options::default()).is_ok());
    names
}

#[test]
fn every_chart_keeps_its_text_inside_and_lists_only_outcomes_it_draws() {
    let names = drawable_logs();
    assert!(names.len() > 60, "{names:?}");
    for name in &names {
        let chart = chart(name, &Options::default());
        let svg = gantt::svg::write(&chart);
        let overflowing = gantt::fit::overflowing_texts(&svg);
        assert!(overflowing.is_empty(), "{name}: {overflowing:?}");
        for outcome in &chart.outcomes {
            assert!(
                chart.bars.iter().any(|b| b.outcome == *outcome),
                "{name}: {outcome:?} listed, not drawn"
            );
        }
        for outcome in Outcome::ALL {
            let drawn = chart.bars.iter().any(|b| b.outcome == outcome);
            assert_eq!(drawn, chart.outcomes.contains(&outcome), "{name}: {outcome:?}");
            assert_eq!(drawn, svg.contains(&format!(">{}</text>", outcome.name())), "{name}: {outcome:?}");
        }
    }
    // No reservation is ever late: no reservation chart's legend says so.
    let flexible = gantt::svg::write(&chart("resv_flexible", &Options::default()));
    assert!(!flexible.contains("late or violated"));
}

#[test]
fn a_tiers_chart_names_its_resource_groups_and_each_job_s_tier() {
    let chart = chart("tiers_groups_qos", &Options::default());
    let svg = gantt::svg::write(&chart);
    let labels: Vec<&str> = chart.row_names.iter().map(String::as_str).collect();
    assert!(labels.iter().any(|l| l.starts_with("cluster")), "{labels:?}");
    assert!(labels.iter().any(|l| l.starts_with("desktop")), "{labels:?}");
    for label in &labels {
        assert!(svg.contains(&format!(">{label}</text>")), "{label} is written");
    }
    assert!(!chart.group_starts.is_empty(), "a line between the groups");
    // Every run carries its job's tier, drawn as a stripe and named in the legend.
    assert!(chart.bars.iter().all(|b| b.class.is_some()), "{:?}", chart.bars);
    for bar in &chart.bars {
        let class = bar.class.unwrap();
        assert!(svg.contains(&format!("fill=\"{}\"", gantt::svg::class_colour(class))));
        assert!(svg.contains(&format!(">{} (", class.name())), "{class:?} in the legend");
    }
    // The other models have no tiers.
    assert!(self::chart("resv_flexible", &Options::default()).bars.iter().all(|b| b.class.is_none()));
}

#[test]
fn long_time_axes_are_in_hours_or_days() {
    let base = chart("preemption", &Options::default());
    let axis = |to: u64| {
        let svg = gantt::svg::write(&Chart { from: 0, to, ..base.clone() });
        assert!(gantt::fit::overflowing_texts(&svg).is_empty());
        let unit = ["s", "h", "d"].into_iter().find(|u| svg.contains(&format!(">time [{u}]<"))).unwrap();
        // The largest tick, in that unit.
        let ticks: Vec<u64> = svg
            .split("text-anchor=\"middle\">")
            .skip(1)
            .filter_map(|t| t.split('<').next()?.parse().ok())
            .collect();
        (unit, ticks.into_iter().max().unwrap())
    };
    assert_eq!(axis(600), ("s", 600));
    assert_eq!(axis(12 * 3_600), ("h", 12));
    // 1,655,775 s (a reservation window of about 19 days): days.
    assert_eq!(axis(1_655_775), ("d", 15));
}
