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

/// Checks a rendered figure: it has ink, and each of the first `series` palette colours
/// is both a polyline's stroke in the SVG and painted in the bitmap.
pub(crate) fn check_figure(svg: &str, series: usize) {
    let pixmap = render(svg);
    assert!(ink(&pixmap) > 5_000, "the figure is nearly blank");
    let hex = |c: RGBColor| format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2);
    let colours = polyline_colours(svg);
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
            },
            BarGroup {
                label: "2".into(),
                bars: vec![("sf 1".into(), 0.0), ("sf 2".into(), 1.0), ("sf 3".into(), 5.0)],
            },
        ],
    };
    let svg = chart.to_svg().unwrap();
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
