//! Figures as SVG, shared by every sweep: a line chart (series against a parameter,
//! with dashed reference lines such as a theorem's bound) and a grouped bar chart
//! (the criteria analysis' three best configurations per machine count).
//!
//! Drawn with `plotters`' SVG backend and no font crate: text is written as SVG
//! `<text>` elements in a generic `sans-serif` family and laid out by plotters' size
//! estimate, so no system font is read and the same figure gives the same bytes on
//! every machine. A sweep builds a [`LineChart`] or [`BarChart`] from its rows and
//! calls `to_svg`; [`write_svg`] puts the text in a file.
//!
//! Colours come from one fixed palette ([`PALETTE`], chosen to stay apart for readers
//! with common colour-vision deficiencies, then repeated with other markers); reference
//! lines are dashed and drawn in greys, so a series is never mistaken for a bound.
//!
//! The charts and their helpers live here; `line` draws a [`LineChart`], `legend`
//! places its legend, and `bar` draws a [`BarChart`].
//!
//! # The figures
//! `service_level::sweep::figures` (the thesis grid, and `policies`: the machine
//! policies side by side), `service_level::criteria::figures` (Figures 44-49),
//! `reservation::figures` (the paper's Figures 2-7, from the tables
//! `reservation::sweep::tables::write_figures` returns), `tiers::figures` (Figures
//! 8-13), `sla::figures` (Figures 3, 4, 7, 8, 9; weight axes that hold `±inf` are
//! categories labelled through `LineChart::x_ticks`) and `compare`'s four charts build
//! their charts from their rows. Intervals come from each sweep's own spread: the
//! service-level rows' windows and population `sd`, the reservation tables' `_sd`
//! columns with their windows, the tiers cells' per-seed runs, the SLA points'
//! per-set runs.
//!
//! The tests render every figure with `resvg` and count the series colours painted;
//! `tests::check_figure` and `check_text` also check that no text leaves the figure
//! and no legend nests parentheses, `error_bars` counts the intervals drawn and
//! `check_fitted` the y range.

use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;

mod bar;
pub mod interval;
mod legend;
mod line;

/// Width and height of every figure, in SVG pixels (about a column of a paper at
/// 100 dpi, twice as wide as tall would crowd the legend).
pub const SIZE_PX: (u32, u32) = (800, 520);

/// The series colours, in order (Okabe and Ito's palette without its black, which the
/// axes use, then darker tones).
pub const PALETTE: [RGBColor; 10] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(128, 128, 0),
    RGBColor(153, 0, 0),
    RGBColor(0, 76, 0),
    RGBColor(102, 51, 153),
];

/// Reference line colours: dark to light greys.
const REFERENCE_GREYS: [RGBColor; 3] =
    [RGBColor(60, 60, 60), RGBColor(120, 120, 120), RGBColor(170, 170, 170)];

/// One named series of `(x, y)` points; points whose `y` is not finite are left out
/// of the line (and counted by [`LineChart::skipped_points`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
    /// Per point (same order as `points`), the interval `(low, high)` drawn as an
    /// error bar around it, or `None` (fewer than two samples); empty for none at all.
    pub intervals: Vec<Option<(f64, f64)>>,
    /// What the error bars are, for the legend ([`interval::ci95_label`] or
    /// [`interval::spread_label`]); empty when there are none.
    pub interval_label: String,
}

impl Series {
    pub fn new(name: impl Into<String>, points: Vec<(f64, f64)>) -> Self {
        Self { name: name.into(), points, intervals: Vec::new(), interval_label: String::new() }
    }

    /// The series with an interval per point, labelled `label` in the legend.
    #[must_use]
    pub fn with_intervals(mut self, label: impl Into<String>, intervals: Vec<Option<(f64, f64)>>) -> Self {
        self.intervals = intervals;
        self.interval_label = label.into();
        self
    }

    /// The points with their intervals, where both are finite (`(x, low, high)`).
    pub fn error_bars(&self) -> impl Iterator<Item = (f64, f64, f64)> + '_ {
        self.points.iter().zip(&self.intervals).filter_map(|(p, i)| {
            let (lo, hi) = (*i)?;
            (p.0.is_finite() && lo.is_finite() && hi.is_finite()).then_some((p.0, lo, hi))
        })
    }
}

/// A line chart: solid series with markers, dashed reference lines, a legend.
#[derive(Clone, Debug, PartialEq)]
pub struct LineChart {
    pub title: String,
    /// Label of the x axis, with its unit in brackets where it has one.
    pub x_label: String,
    /// Label of the y axis, with its unit in brackets where it has one.
    pub y_label: String,
    pub series: Vec<Series>,
    /// Drawn dashed in grey, after the series, and named in the legend.
    pub reference_lines: Vec<Series>,
    /// When not empty, the x axis is labelled at these positions only, with these texts
    /// (an axis of categories, such as a grid of weights that holds `±∞`), and has no
    /// vertical grid lines; when empty, it is labelled by number.
    pub x_ticks: Vec<(f64, String)>,
}

/// One group of bars (one x position), e.g. one machine count.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BarGroup {
    pub label: String,
    /// `(label written above the bar, height)`, drawn left to right.
    pub bars: Vec<(String, f64)>,
    /// Per bar (same order), its interval `(low, high)` as an error bar, or `None`;
    /// empty for none at all.
    pub intervals: Vec<Option<(f64, f64)>>,
}

/// A grouped bar chart: bar `i` of every group has colour `i`, named by `bar_names[i]`.
/// When the values are far from zero compared with their differences, bars from 0
/// would hide those differences: the chart is then drawn as dots on an axis fitted to
/// the data (see [`bar`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BarChart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub bar_names: Vec<String>,
    pub groups: Vec<BarGroup>,
    /// What the groups' error bars are, for the legend; empty when there are none.
    pub interval_label: String,
}

/// A figure could not be drawn (plotters' error, as text) or written.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    #[error("drawing \"{title}\": {message}")]
    Draw { title: String, message: String },
    #[error("writing {path}: {source}")]
    Io { path: String, source: std::io::Error },
}

fn draw_error(title: &str) -> impl Fn(String) -> PlotError + '_ {
    move |message| PlotError::Draw { title: title.to_owned(), message }
}

/// The series colour of index `i`.
pub fn colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// `[min, max]` of `values` (finite ones), padded by 5 % on each side, never empty.
fn padded_range(values: impl Iterator<Item = f64>, include_zero: bool) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values.filter(|v| v.is_finite()) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if include_zero {
        lo = lo.min(0.0);
        hi = hi.max(0.0);
    }
    if lo > hi {
        return (0.0, 1.0);
    }
    let span = hi - lo;
    let pad = if span > 0.0 { span * 0.05 } else { lo.abs().max(1.0) * 0.05 };
    (lo - pad, hi + pad)
}

/// The title's font size: 26, smaller when the title would not fit in `width` pixels
/// less the margins ([`replay::gantt::fit`]'s estimate of text width).
fn caption_font(title: &str, width: u32) -> u32 {
    fit_font(title, f64::from(width) - 40.0, 26)
}

/// plotters writes a font of size `s` as `font-size = s / 1.24` in the SVG (points to
/// pixels); the estimates of text width work on the size written.
const PLOTTERS_FONT_SCALE: f64 = 1.24;

/// The estimated width in pixels of `text` in a plotters font of size `size`.
pub(crate) fn text_px(text: &str, size: u32) -> f64 {
    replay::gantt::fit::text_width(text, f64::from(size) / PLOTTERS_FONT_SCALE)
}

/// The largest plotters font size, at most `max`, at which `text` spans at most `room`
/// pixels ([`replay::gantt::fit::fitting_size`] on the size written).
pub(crate) fn fit_font(text: &str, room: f64, max: u32) -> u32 {
    let written = replay::gantt::fit::fitting_size(text, room, f64::from(max) / PLOTTERS_FONT_SCALE);
    ((written * PLOTTERS_FONT_SCALE).floor() as u32).min(max)
}

/// The axis labels' font size: 20, smaller when either label would not fit along its
/// side of a plotting area of `(width, height)` pixels.
fn axis_label_font(x_label: &str, y_label: &str, (width, height): (u32, u32)) -> u32 {
    fit_font(x_label, f64::from(width), 20).min(fit_font(y_label, f64::from(height), 20))
}

/// The legend's sample of an error bar: a black whisker with caps, centred on `(x, y)`.
fn error_bar_sample(x: i32, y: i32) -> PathElement<(i32, i32)> {
    let points = vec![(x - 3, y - 7), (x + 3, y - 7), (x, y - 7), (x, y + 7), (x - 3, y + 7), (x + 3, y + 7)];
    PathElement::new(points, BLACK.stroke_width(1))
}

/// The room the title takes at the top of a figure, in pixels.
const TITLE_PX: u32 = 40;

/// Writes `title` centred at the top of `root`. (plotters' own caption is placed by
/// its estimate of the text's width but anchored at its middle, which shifts a long
/// title off the left edge; this one is anchored and placed at the middle.)
fn draw_title(root: &DrawingArea<SVGBackend<'_>, Shift>, title: &str) -> Result<(), String> {
    use plotters::style::text_anchor::{HPos, Pos, VPos};
    let (width, _) = root.dim_in_pixel();
    let font = ("sans-serif", caption_font(title, width))
        .into_font()
        .color(&BLACK)
        .pos(Pos::new(HPos::Center, VPos::Top));
    root.draw(&Text::new(title.to_owned(), (width as i32 / 2, 10), font)).map_err(|e| e.to_string())
}

/// Draws a figure with `draw` on a drawing area of `size` pixels ([`SIZE_PX`], taller
/// for a legend under the plot) and returns its SVG text; errors name the figure by
/// `title`.
fn render_sized(
    title: &str,
    size: (u32, u32),
    draw: impl FnOnce(&DrawingArea<SVGBackend<'_>, Shift>) -> Result<(), String>,
) -> Result<String, PlotError> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        draw(&root).map_err(draw_error(title))?;
        root.present().map_err(|e| e.to_string()).map_err(draw_error(title))?;
    }
    Ok(svg)
}

/// A tick label: at most four significant digits, `k`/`M` for thousands and millions.
pub fn short_number(x: f64) -> String {
    let a = x.abs();
    let (value, suffix) = if a >= 1e6 {
        (x / 1e6, "M")
    } else if a >= 1e4 {
        (x / 1e3, "k")
    } else {
        (x, "")
    };
    let text = if value.fract().abs() < 1e-9 || value.abs() >= 100.0 {
        format!("{value:.0}")
    } else if value.abs() >= 1.0 {
        format!("{value:.1}")
    } else {
        format!("{value:.2}")
    };
    let text =
        if text.contains('.') { text.trim_end_matches('0').trim_end_matches('.').to_owned() } else { text };
    format!("{text}{suffix}")
}

/// The figures' switch every sweep shares: `--plots` (the default) writes the SVG
/// figures beside the CSV, `--no-plots` leaves them out; the last one given wins.
#[derive(Clone, Copy, Debug, Default, clap::Args)]
pub struct PlotArgs {
    /// Write the figures as SVG beside the CSV (the default).
    // On by default, so that `config --defaults` prints `plots = true`: figures are
    // written unless `--no-plots` comes last ([`PlotArgs::enabled`]).
    #[arg(long, overrides_with = "no_plots", default_value_t = true)]
    pub plots: bool,
    /// Write no SVG figures.
    #[arg(long, overrides_with = "plots")]
    pub no_plots: bool,
}

impl PlotArgs {
    /// Whether figures are wanted.
    pub fn enabled(self) -> bool {
        !self.no_plots
    }

    /// Writes a sweep's figures into `dir` with `write` when they are wanted, and says
    /// on standard error how many were written where, as every sweep does.
    pub fn write_figures(
        self,
        dir: &Path,
        write: impl FnOnce() -> Result<Vec<PathBuf>, PlotError>,
    ) -> Result<(), PlotError> {
        if self.enabled() {
            let figures = write()?;
            eprintln!("host-sim: wrote {} figures to {}", figures.len(), dir.join("*.svg").display());
        }
        Ok(())
    }
}

/// Writes `svg` to `path`, whole or not at all ([`replay::staged`]).
pub fn write_svg(path: &Path, svg: &str) -> Result<(), PlotError> {
    replay::staged::write_all(path, svg.as_bytes())
        .map_err(|e| PlotError::Io { path: e.path.display().to_string(), source: e.source })
}

/// Anything drawn to SVG text: a [`LineChart`], a [`BarChart`], or a sweep's own mix
/// of them.
pub trait ToSvg {
    fn to_svg(&self) -> Result<String, PlotError>;
}

impl ToSvg for LineChart {
    fn to_svg(&self) -> Result<String, PlotError> {
        LineChart::to_svg(self)
    }
}

impl ToSvg for BarChart {
    fn to_svg(&self) -> Result<String, PlotError> {
        BarChart::to_svg(self)
    }
}

/// Writes every `(file name, chart)` into `dir`, in order; returns the paths written.
/// Every sweep's figures go out through here.
pub fn write_all<C: ToSvg>(
    dir: &Path,
    charts: impl IntoIterator<Item = (String, C)>,
) -> Result<Vec<PathBuf>, PlotError> {
    let mut written = Vec::new();
    for (name, chart) in charts {
        let path = dir.join(name);
        write_svg(&path, &chart.to_svg()?)?;
        written.push(path);
    }
    Ok(written)
}

/// A file name from a figure's key: lower case letters, digits and `_`.
pub fn file_stem(key: &str) -> String {
    key.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' }).collect()
}

#[cfg(test)]
pub(crate) mod tests;
