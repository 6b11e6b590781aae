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

use std::path::Path;

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

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
}

impl Series {
    pub fn new(name: impl Into<String>, points: Vec<(f64, f64)>) -> Self {
        Self { name: name.into(), points }
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
#[derive(Clone, Debug, PartialEq)]
pub struct BarGroup {
    pub label: String,
    /// `(label written above the bar, height)`, drawn left to right.
    pub bars: Vec<(String, f64)>,
}

/// A grouped bar chart: bar `i` of every group has colour `i`, named by `bar_names[i]`.
#[derive(Clone, Debug, PartialEq)]
pub struct BarChart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub bar_names: Vec<String>,
    pub groups: Vec<BarGroup>,
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

impl LineChart {
    /// Points left out of the lines because their `y` is not finite.
    pub fn skipped_points(&self) -> usize {
        self.series
            .iter()
            .chain(&self.reference_lines)
            .flat_map(|s| &s.points)
            .filter(|p| !p.1.is_finite())
            .count()
    }

    /// The figure as SVG text.
    pub fn to_svg(&self) -> Result<String, PlotError> {
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, SIZE_PX).into_drawing_area();
            self.draw(&root).map_err(draw_error(&self.title))?;
            root.present().map_err(|e| e.to_string()).map_err(draw_error(&self.title))?;
        }
        Ok(svg)
    }

    fn draw(&self, root: &DrawingArea<SVGBackend<'_>, Shift>) -> Result<(), String> {
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let all = || self.series.iter().chain(&self.reference_lines).flat_map(|s| s.points.iter().copied());
        let (x_lo, x_hi) = padded_range(all().map(|p| p.0), false);
        let (y_lo, y_hi) = padded_range(all().map(|p| p.1), false);
        let names: Vec<&str> =
            self.series.iter().chain(&self.reference_lines).map(|s| s.name.as_str()).collect();
        let (corner, covered, _) =
            quietest_corner(&names, all().filter(|p| p.1.is_finite()), (x_lo, x_hi), (y_lo, y_hi));
        // No free corner: the legend goes to the right of the plot, in a margin made for it
        // (its width estimated from the longest name, as plotters lays text out).
        let outside = covered > 0;
        let longest = names.iter().map(|n| n.chars().count()).max().unwrap_or(0) as u32;
        let legend_px = if outside { 48 + longest * 8 } else { 0 };
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, ("sans-serif", 26))
            .margin(12)
            .margin_right(12 + legend_px)
            .x_label_area_size(56)
            .y_label_area_size(84)
            .build_cartesian_2d(x_lo..x_hi, y_lo..y_hi)
            .map_err(|e| e.to_string())?;
        let x_label = |x: &f64| {
            if self.x_ticks.is_empty() {
                return short_number(*x);
            }
            self.x_ticks
                .iter()
                .find(|(at, _)| (at - x).abs() < 1e-6)
                .map(|(_, text)| text.clone())
                .unwrap_or_default()
        };
        let mut mesh = chart.configure_mesh();
        mesh.x_desc(&self.x_label)
            .y_desc(&self.y_label)
            .label_style(("sans-serif", 18))
            .axis_desc_style(("sans-serif", 20))
            .light_line_style(TRANSPARENT)
            .bold_line_style(RGBColor(215, 215, 215))
            .x_label_formatter(&x_label)
            .y_label_formatter(&|y| short_number(*y));
        if !self.x_ticks.is_empty() {
            // Key points every half unit from the padded range, so that every whole
            // position a tick names is one of them.
            mesh.disable_x_mesh().x_labels(((x_hi - x_lo) * 2.0).ceil() as usize + 3);
        }
        mesh.draw().map_err(|e| e.to_string())?;
        for (i, series) in self.series.iter().enumerate() {
            let style = colour(i).stroke_width(2);
            let points: Vec<(f64, f64)> = series.points.iter().copied().filter(|p| p.1.is_finite()).collect();
            chart
                .draw_series(LineSeries::new(points.iter().copied(), style))
                .map_err(|e| e.to_string())?
                .label(&series.name)
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], style));
            chart
                .draw_series(points.iter().map(|&p| Circle::new(p, 3, colour(i).filled())))
                .map_err(|e| e.to_string())?;
        }
        for (i, line) in self.reference_lines.iter().enumerate() {
            let grey = REFERENCE_GREYS[i % REFERENCE_GREYS.len()];
            let style = grey.stroke_width(2);
            let points: Vec<(f64, f64)> = line.points.iter().copied().filter(|p| p.1.is_finite()).collect();
            let (dash, gap) = (8 - 3 * (i as i32 % 2), 4 + 2 * (i as i32 % 3));
            chart
                .draw_series(DashedLineSeries::new(points, dash, gap, style))
                .map_err(|e| e.to_string())?
                .label(&line.name)
                .legend(move |(x, y)| DashedPathElement::new(vec![(x, y), (x + 20, y)], 5, 3, style));
        }
        if outside {
            return self.legend_beside(root, legend_px);
        }
        chart
            .configure_series_labels()
            .position(corner)
            .label_font(("sans-serif", 17))
            .background_style(WHITE.mix(0.9))
            .border_style(RGBColor(120, 120, 120))
            .draw()
            .map_err(|e| e.to_string())
    }
}

/// The corner of the plot where a legend with `names` would cover the fewest data
/// points (ties: upper right, upper left, lower right, lower left), how many it would
/// cover there, and the legend's height as a share of the plot's. The legend's size is
/// estimated from its text, as plotters lays it out.
fn quietest_corner(
    names: &[&str],
    points: impl Iterator<Item = (f64, f64)>,
    (x_lo, x_hi): (f64, f64),
    (y_lo, y_hi): (f64, f64),
) -> (SeriesLabelPosition, usize, f64) {
    let longest = names.iter().map(|n| n.chars().count()).max().unwrap_or(0) as f64;
    let width = (longest * 0.012 + 0.08).min(1.0);
    let height = (names.len() as f64 * 0.06 + 0.05).min(1.0);
    let normalised: Vec<(f64, f64)> =
        points.map(|(x, y)| ((x - x_lo) / (x_hi - x_lo), (y - y_lo) / (y_hi - y_lo))).collect();
    // Sample along the segments too: a line crossing a corner is covered as well.
    let samples: Vec<(f64, f64)> = normalised
        .windows(2)
        .flat_map(|w| {
            (0..8).map(move |i| {
                let t = f64::from(i) / 8.0;
                (w[0].0 + (w[1].0 - w[0].0) * t, w[0].1 + (w[1].1 - w[0].1) * t)
            })
        })
        .chain(normalised.iter().copied())
        .collect();
    let covered = |left: bool, top: bool| {
        samples
            .iter()
            .filter(|(x, y)| {
                let in_x = if left { *x <= width } else { *x >= 1.0 - width };
                let in_y = if top { *y >= 1.0 - height } else { *y <= height };
                in_x && in_y
            })
            .count()
    };
    let corners = [
        (SeriesLabelPosition::UpperRight, covered(false, true)),
        (SeriesLabelPosition::UpperLeft, covered(true, true)),
        (SeriesLabelPosition::LowerRight, covered(false, false)),
        (SeriesLabelPosition::LowerLeft, covered(true, false)),
    ];
    let mut best = SeriesLabelPosition::UpperRight;
    let mut fewest = usize::MAX;
    for (corner, count) in corners {
        if count < fewest {
            fewest = count;
            best = corner;
        }
    }
    (best, fewest, height)
}

impl LineChart {
    /// The legend in the right margin, drawn on the whole figure (plotters' own legend
    /// is clipped to the plotting area): a line sample and the name per entry.
    fn legend_beside(&self, root: &DrawingArea<SVGBackend<'_>, Shift>, legend_px: u32) -> Result<(), String> {
        let (width, _) = root.dim_in_pixel();
        let left = width as i32 - legend_px as i32 + 4;
        let font = ("sans-serif", 17).into_font().color(&BLACK).pos(Pos::new(HPos::Left, VPos::Center));
        let entries = self.series.len() + self.reference_lines.len();
        let top = 56;
        let bottom = top + 22 * entries as i32;
        let frame = [(left - 6, top - 14), (width as i32 - 8, bottom - 8)];
        root.draw(&Rectangle::new(frame, RGBColor(120, 120, 120).stroke_width(1)))
            .map_err(|e| e.to_string())?;
        for (i, series) in self.series.iter().enumerate() {
            let y = top + 22 * i as i32;
            let style = colour(i).stroke_width(2);
            root.draw(&PathElement::new(vec![(left, y), (left + 22, y)], style))
                .map_err(|e| e.to_string())?;
            root.draw(&Circle::new((left + 11, y), 3, colour(i).filled())).map_err(|e| e.to_string())?;
            root.draw(&Text::new(series.name.clone(), (left + 30, y), font.clone()))
                .map_err(|e| e.to_string())?;
        }
        for (j, line) in self.reference_lines.iter().enumerate() {
            let y = top + 22 * (self.series.len() + j) as i32;
            let style = REFERENCE_GREYS[j % REFERENCE_GREYS.len()].stroke_width(2);
            root.draw(&DashedPathElement::new(vec![(left, y), (left + 22, y)], 5, 3, style))
                .map_err(|e| e.to_string())?;
            root.draw(&Text::new(line.name.clone(), (left + 30, y), font.clone()))
                .map_err(|e| e.to_string())?;
        }
        Ok(())
    }
}

impl BarChart {
    /// The figure as SVG text.
    pub fn to_svg(&self) -> Result<String, PlotError> {
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, SIZE_PX).into_drawing_area();
            self.draw(&root).map_err(draw_error(&self.title))?;
            root.present().map_err(|e| e.to_string()).map_err(draw_error(&self.title))?;
        }
        Ok(svg)
    }

    fn draw(&self, root: &DrawingArea<SVGBackend<'_>, Shift>) -> Result<(), String> {
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let groups = self.groups.len().max(1) as f64;
        let (y_lo, mut y_hi) =
            padded_range(self.groups.iter().flat_map(|g| g.bars.iter().map(|b| b.1)), true);
        // Room above the tallest bar for its label, and above that for the legend
        // (three entries take about a quarter of the plot's height).
        y_hi += (y_hi - y_lo) * (0.1 + 0.07 * self.bar_names.len() as f64);
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, ("sans-serif", 26))
            .margin(12)
            .x_label_area_size(56)
            .y_label_area_size(84)
            .build_cartesian_2d(-0.5..groups - 0.5, y_lo..y_hi)
            .map_err(|e| e.to_string())?;
        let labels: Vec<String> = self.groups.iter().map(|g| g.label.clone()).collect();
        let group_label = move |x: &f64| {
            let i = x.round();
            if (x - i).abs() < 1e-6 && i >= 0.0 {
                labels.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        };
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(self.groups.len() * 2 + 1)
            .x_label_formatter(&group_label)
            .y_label_formatter(&|y| short_number(*y))
            .x_desc(&self.x_label)
            .y_desc(&self.y_label)
            .label_style(("sans-serif", 18))
            .axis_desc_style(("sans-serif", 20))
            .light_line_style(TRANSPARENT)
            .bold_line_style(RGBColor(215, 215, 215))
            .draw()
            .map_err(|e| e.to_string())?;
        let slots = self.bar_names.len().max(1) as f64;
        let width = 0.8 / slots;
        for (b, name) in self.bar_names.iter().enumerate() {
            let fill = colour(b).filled();
            let bars = self.groups.iter().enumerate().filter_map(|(g, group)| {
                let (_, height) = group.bars.get(b)?;
                let left = g as f64 - 0.4 + b as f64 * width;
                Some(Rectangle::new([(left + width * 0.08, 0.0), (left + width * 0.92, *height)], fill))
            });
            chart
                .draw_series(bars)
                .map_err(|e| e.to_string())?
                .label(name)
                .legend(move |(x, y)| Rectangle::new([(x, y - 6), (x + 14, y + 6)], fill));
        }
        let text = ("sans-serif", 17).into_font().color(&BLACK).pos(Pos::new(HPos::Center, VPos::Bottom));
        let mut labels = Vec::new();
        for (g, group) in self.groups.iter().enumerate() {
            for (b, (label, height)) in group.bars.iter().enumerate() {
                let x = g as f64 - 0.4 + (b as f64 + 0.5) * width;
                labels.push(Text::new(label.clone(), (x, height.max(0.0)), text.clone()));
            }
        }
        chart.draw_series(labels).map_err(|e| e.to_string())?;
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .label_font(("sans-serif", 17))
            .background_style(WHITE.mix(0.85))
            .border_style(RGBColor(120, 120, 120))
            .draw()
            .map_err(|e| e.to_string())
    }
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
    #[arg(long, overrides_with = "no_plots")]
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
}

/// Writes `svg` to `path`.
pub fn write_svg(path: &Path, svg: &str) -> Result<(), PlotError> {
    std::fs::write(path, svg).map_err(|source| PlotError::Io { path: path.display().to_string(), source })
}

/// A file name from a figure's key: lower case letters, digits and `_`.
pub fn file_stem(key: &str) -> String {
    key.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' }).collect()
}

#[cfg(test)]
pub(crate) mod tests;
