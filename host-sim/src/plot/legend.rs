//! Where a line chart's legend goes: the corner of the plot that covers the fewest
//! data points, or, when every corner covers some, under the plot (as a bar chart's
//! legend always is), in lines that fit the figure's width.

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{LineChart, REFERENCE_GREYS, SIZE_PX, colour};

/// The corner of the plot where a legend with `names` would cover the fewest data
/// points (ties: upper right, upper left, lower right, lower left), how many it would
/// cover there, and the legend's height as a share of the plot's. The legend's size is
/// estimated from its text, as plotters lays it out.
pub(super) fn quietest_corner(
    names: &[&str],
    points: impl Iterator<Item = (f64, f64)>,
    whisker_ends: &[(f64, f64)],
    (x_lo, x_hi): (f64, f64),
    (y_lo, y_hi): (f64, f64),
) -> (SeriesLabelPosition, usize, f64) {
    let longest = names.iter().map(|n| n.chars().count()).max().unwrap_or(0) as f64;
    let width = (longest * 0.016 + 0.08).min(1.0);
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
        .chain(whisker_ends.iter().map(|(x, y)| ((x - x_lo) / (x_hi - x_lo), (y - y_lo) / (y_hi - y_lo))))
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

/// Height of one line of a legend under the plot, and its font size.
pub(super) const LEGEND_LINE: i32 = 24;
const LEGEND_FONT: u32 = 16;

/// The room for a legend entry's text on a line of its own, in pixels.
const ENTRY_ROOM: f64 = SIZE_PX.0 as f64 - 28.0 - 26.0;

/// `name` in lines that each fit [`ENTRY_ROOM`], broken at spaces (one line when it
/// fits).
fn wrapped(name: &str) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in name.split(' ') {
        match lines.last_mut() {
            Some(line) if super::text_px(&format!("{line} {word}"), LEGEND_FONT) <= ENTRY_ROOM => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_owned()),
        }
    }
    lines
}

/// A legend under the plot: each of `names` as its lines of text, its left edge and
/// its first line, filling lines of the figure's width (a name's width by
/// [`super::text_px`]); a name too long for a line is wrapped over several.
pub(super) fn layout_below(names: &[&str]) -> Vec<(Vec<String>, i32, usize)> {
    let (mut x, mut line) = (14, 0);
    let mut out = Vec::new();
    for name in names {
        let text = wrapped(name);
        let widest = text.iter().map(|t| super::text_px(t, LEGEND_FONT)).fold(0.0, f64::max);
        let width = 30 + widest.ceil() as i32;
        if x > 14 && (x + width > SIZE_PX.0 as i32 - 14 || text.len() > 1) {
            (x, line) = (14, line + 1);
        }
        let taken = text.len();
        out.push((text, x, line));
        if taken > 1 {
            (x, line) = (SIZE_PX.0 as i32, line + taken - 1);
        } else {
            x += width + 18;
        }
    }
    out
}

/// The lines a legend of `names` under the plot takes.
pub(super) fn legend_lines(names: &[&str]) -> u32 {
    layout_below(names).last().map_or(0, |e| (e.2 + e.0.len()) as u32)
}

/// Draws a legend of `names` on `area` (under the plot): `swatch(i, x, y)` draws entry
/// `i`'s sample at its left edge `x`, centred on `y`, then its name follows.
pub(super) fn draw_below(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    names: &[&str],
    swatch: impl Fn(usize, i32, i32) -> Result<(), String>,
) -> Result<(), String> {
    let font = ("sans-serif", LEGEND_FONT).into_font().color(&BLACK).pos(Pos::new(HPos::Left, VPos::Center));
    for (i, (text, x, line)) in layout_below(names).into_iter().enumerate() {
        let y = LEGEND_LINE / 2 + LEGEND_LINE * line as i32;
        swatch(i, x, y)?;
        for (j, part) in text.into_iter().enumerate() {
            area.draw(&Text::new(part, (x + 26, y + LEGEND_LINE * j as i32), font.clone()))
                .map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

impl LineChart {
    /// The legend under the plot: a line sample (with its marker), a dashed sample or
    /// an error bar per entry, then the name.
    pub(super) fn legend_below(&self, area: &DrawingArea<SVGBackend<'_>, Shift>) -> Result<(), String> {
        let names = self.legend_names();
        let (series, lines) = (self.series.len(), self.reference_lines.len());
        draw_below(area, &names, |i, x, y| {
            let drawn = if i < series {
                area.draw(&PathElement::new(vec![(x, y), (x + 20, y)], colour(i).stroke_width(2)))
                    .and_then(|()| area.draw(&Circle::new((x + 10, y), 3, colour(i).filled())))
            } else if i < series + lines {
                let style = REFERENCE_GREYS[(i - series) % REFERENCE_GREYS.len()].stroke_width(2);
                area.draw(&DashedPathElement::new(vec![(x, y), (x + 20, y)], 5, 3, style))
            } else {
                area.draw(&super::error_bar_sample(x + 10, y))
            };
            drawn.map_err(|e| e.to_string())
        })
    }
}
