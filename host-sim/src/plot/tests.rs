//! Figures rendered to bitmaps: not blank, and the expected number of series drawn.
//! The helpers are shared with the sweeps' and the criteria analysis' figure tests.

use std::collections::BTreeSet;

use super::*;

/// Renders `svg` with resvg (text is not rasterised: resvg is built without fonts)
/// and returns the bitmap's RGBA pixels.
pub(crate) fn render(svg: &str) -> resvg::tiny_skia::Pixmap {
    let tree = resvg::usvg::Tree::from_str(svg, &resvg::usvg::Options::default()).expect("the SVG parses");
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).expect("a bitmap");
    resvg::render(&tree, resvg::tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap
}

/// Pixels of exactly `colour` in the bitmap.
pub(crate) fn pixels_of(pixmap: &resvg::tiny_skia::Pixmap, colour: RGBColor) -> usize {
    pixmap
        .pixels()
        .iter()
        .filter(|p| (p.red(), p.green(), p.blue(), p.alpha()) == (colour.0, colour.1, colour.2, 255))
        .count()
}

/// Pixels that are not white.
pub(crate) fn ink(pixmap: &resvg::tiny_skia::Pixmap) -> usize {
    pixmap.pixels().iter().filter(|p| (p.red(), p.green(), p.blue()) != (255, 255, 255)).count()
}

/// The distinct stroke colours of `<polyline>` elements (the solid series' lines).
pub(crate) fn polyline_colours(svg: &str) -> BTreeSet<String> {
    svg.split("<polyline")
        .skip(1)
        .filter_map(|e| e.split("stroke=\"").nth(1)?.split('"').next().map(str::to_owned))
        .collect()
}

/// The texts of the `<text>` elements, trimmed.
pub(crate) fn texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .filter_map(|e| Some(e.split_once('>')?.1.split("</text>").next()?.trim().to_owned()))
        .collect()
}

/// Checks every figure's text: each `<text>` lies inside the view box by a
/// conservative width estimate (no clipped title or label), and no text holds
/// parentheses inside parentheses (a legend's "run (service levels (Lezama 2012))").
pub(crate) fn check_text(svg: &str) {
    let overflowing = replay::gantt::fit::overflowing_texts(svg);
    assert!(overflowing.is_empty(), "text leaves the figure: {overflowing:?}");
    for text in texts(svg) {
        let mut depth = 0i32;
        for c in text.chars() {
            depth += i32::from(c == '(') - i32::from(c == ')');
            assert!(depth <= 1, "doubled parentheses in {text:?}");
        }
    }
}

/// The error bars drawn: polylines of width 1 in a series colour or the bars' whisker
/// colour.
pub(crate) fn error_bars(svg: &str) -> usize {
    let hex = |c: RGBColor| format!("stroke=\"#{:02X}{:02X}{:02X}\"", c.0, c.1, c.2);
    let colours: Vec<String> = PALETTE.iter().copied().chain([bar::WHISKER]).map(hex).collect();
    svg.split("<polyline")
        .skip(1)
        .map(|e| e.split('>').next().unwrap_or(""))
        .filter(|e| e.contains("stroke-width=\"1\"") && colours.iter().any(|c| e.contains(c.as_str())))
        .count()
}

/// Checks that `range` fits `values`: it holds them all, and reaches past them by no
/// more than a fifth of their spread (or of their size, when they are all equal) on
/// either side, unless `from_zero` and the low end is 0.
pub(crate) fn check_fitted(range: (f64, f64), values: impl Iterator<Item = f64>, from_zero: bool) {
    let values: Vec<f64> = values.filter(|v| v.is_finite()).collect();
    let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let room = if hi > lo { (hi - lo) * 0.2 } else { hi.abs().max(1.0) * 0.2 };
    assert!(range.0 <= lo && range.1 >= hi, "{range:?} does not hold {lo}..{hi}");
    assert!(range.1 - hi <= room, "{range:?} reaches far above {hi}");
    if !(from_zero && range.0 <= 0.0 && lo >= 0.0) {
        assert!(lo - range.0 <= room, "{range:?} reaches far below {lo}");
    }
}

/// Checks a rendered figure: it has ink, and each of the first `series` palette colours
/// is both a polyline's stroke in the SVG and painted in the bitmap; and its text
/// ([`check_text`]).
pub(crate) fn check_figure(svg: &str, series: usize) {
    check_text(svg);
    let pixmap = render(svg);
    assert!(ink(&pixmap) > 5_000, "the figure is nearly blank");
    let hex = |c: RGBColor| format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2);
    // Series are drawn 2 px wide; error bars (1 px) in the same colours are not series.
    let wide: String = svg
        .split("<polyline")
        .filter(|e| !e.split('>').next().unwrap_or("").contains("stroke-width=\"1\""))
        .collect::<Vec<_>>()
        .join("<polyline");
    let colours = polyline_colours(&wide);
    let series_colours: BTreeSet<String> =
        colours.iter().filter(|c| PALETTE.iter().any(|p| &hex(*p) == *c)).cloned().collect();
    assert_eq!(series_colours.len(), series, "series colours drawn: {series_colours:?}");
    for i in 0..series {
        assert!(pixels_of(&pixmap, colour(i)) > 20, "series {i} is not visible");
    }
}

fn two_series_chart() -> LineChart {
    LineChart {
        title: "A test".into(),
        x_label: "x [s]".into(),
        y_label: "y [%]".into(),
        series: vec![
            Series::new("first", vec![(1.0, 1.0), (2.0, 4.0), (3.0, 9.0)]),
            Series::new("second", vec![(1.0, 2.0), (2.0, 3.0), (3.0, f64::NAN)]),
        ],
        reference_lines: vec![Series::new("bound", vec![(1.0, 0.5), (3.0, 0.5)])],
        x_ticks: Vec::new(),
    }
}

#[test]
fn a_line_chart_draws_each_series_and_its_reference_line() {
    let chart = two_series_chart();
    let svg = chart.to_svg().unwrap();
    check_figure(&svg, 2);
    assert_eq!(chart.skipped_points(), 1);
    for text in ["A test", "x [s]", "y [%]", "first", "second", "bound"] {
        assert!(texts(&svg).iter().any(|t| t == text), "{text} is written as text");
    }
    // The reference line is dashed in grey: drawn, but not as a series colour.
    assert!(pixels_of(&render(&svg), RGBColor(60, 60, 60)) > 20);
}

#[test]
fn figures_load_no_font_and_are_the_same_bytes_every_time() {
    let chart = two_series_chart();
    let svg = chart.to_svg().unwrap();
    assert_eq!(svg, chart.to_svg().unwrap());
    assert!(svg.contains("font-family=\"sans-serif\""));
}

#[test]
fn a_bar_chart_draws_each_bar_colour_and_its_labels() {
    let chart = BarChart {
        title: "Best three".into(),
        x_label: "machines".into(),
        y_label: "degradation [%]".into(),
        bar_names: vec!["1st".into(), "2nd".into(), "3rd".into()],
        groups: vec![
            BarGroup {
                label: "1".into(),
                bars: vec![("sf 8".into(), 2.0), ("sf 9".into(), 3.0), ("sf 7".into(), 4.0)],
                intervals: Vec::new(),
            },
            BarGroup {
                label: "2".into(),
                bars: vec![("sf 1".into(), 0.0), ("sf 2".into(), 1.0), ("sf 3".into(), 5.0)],
                intervals: Vec::new(),
            },
        ],
        interval_label: String::new(),
    };
    let svg = chart.to_svg().unwrap();
    check_text(&svg);
    assert!(chart.from_zero());
    check_fitted(chart.y_range(), [0.0, 5.0].into_iter(), true);
    let pixmap = render(&svg);
    assert!(ink(&pixmap) > 5_000);
    for i in 0..3 {
        assert!(pixels_of(&pixmap, colour(i)) > 100, "bar colour {i} is visible");
    }
    assert!(pixels_of(&pixmap, colour(3)) == 0);
    for text in ["sf 8", "sf 3", "degradation [%]", "3rd"] {
        assert!(texts(&svg).iter().any(|t| t == text), "{text} is written");
    }
}

#[test]
fn tick_labels_are_short() {
    assert_eq!(short_number(20.0), "20");
    assert_eq!(short_number(0.25), "0.25");
    assert_eq!(short_number(12_500.0), "12.5k");
    assert_eq!(short_number(3_000_000.0), "3M");
    assert_eq!(short_number(-1.5), "-1.5");
}

#[test]
fn error_bars_are_drawn_around_points_with_two_samples_or_more() {
    let mut chart = two_series_chart();
    let (m1, i1) = interval::ci95(&[0.5, 1.5]);
    let (m2, i2) = interval::ci95(&[3.0, 4.0, 5.0]);
    chart.series[0] = Series::new("first", vec![(1.0, m1), (2.0, m2), (3.0, 9.0)])
        .with_intervals(interval::ci95_label(3, "windows"), vec![i1, i2, interval::ci95(&[9.0]).1]);
    let svg = chart.to_svg().unwrap();
    check_figure(&svg, 2);
    // Two points with an interval, the third (one sample) without; and the legend says
    // what they are.
    assert_eq!(error_bars(&svg), 2, "{svg}");
    assert!(texts(&svg).iter().any(|t| t == "95 % interval (n = 3 windows)"));
    // The axis holds the error bars and fits them.
    let (lo, hi) = (i1.unwrap().0, i1.unwrap().1.max(9.0));
    check_fitted(chart.y_range(), [lo, hi, 0.5].into_iter(), false);
    assert_eq!(error_bars(&two_series_chart().to_svg().unwrap()), 0);
}

#[test]
fn close_values_far_from_zero_are_dots_on_a_fitted_axis() {
    let group = |label: &str, v: [f64; 3]| BarGroup {
        label: label.into(),
        bars: v.iter().map(|x| (format!("{x:.1}"), *x)).collect(),
        intervals: v.iter().map(|x| Some((x - 0.2, x + 0.2))).collect(),
    };
    let chart = BarChart {
        title: "Utilisation of three policies".into(),
        x_label: "load".into(),
        y_label: "utilisation [%]".into(),
        bar_names: vec!["first".into(), "second".into(), "third".into()],
        groups: vec![group("1", [95.0, 94.6, 94.4]), group("2", [93.0, 94.0, 94.2])],
        interval_label: interval::ci95_label(5, "seeds"),
    };
    assert!(!chart.from_zero());
    check_fitted(chart.y_range(), [92.8, 95.2].into_iter(), false);
    let svg = chart.to_svg().unwrap();
    check_text(&svg);
    assert_eq!(error_bars(&svg), 6);
    let pixmap = render(&svg);
    for i in 0..3 {
        assert!(pixels_of(&pixmap, colour(i)) > 50, "dot colour {i} is visible");
    }
    assert!(texts(&svg).iter().any(|t| t == "95 % interval (n = 5 seeds)"));
}

#[test]
fn a_long_title_is_set_smaller_to_fit_and_parentheses_are_checked() {
    let mut chart = two_series_chart();
    chart.title =
        "Fig. 4: EDF utilisation by interval size, inaccurate estimates, and more words still".into();
    check_text(&chart.to_svg().unwrap());
    let nested = std::panic::catch_unwind(|| {
        check_text(
            "<svg width=\"800\" height=\"100\"><text x=\"10\" y=\"50\" font-size=\"10\">run (a (b))</text></svg>",
        )
    });
    assert!(nested.is_err(), "doubled parentheses are found");
}
