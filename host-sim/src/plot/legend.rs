//! Where a line chart's legend goes: the corner of the plot that covers the fewest
//! data points, or, when every corner covers some, a margin to the right of the plot.

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{LineChart, REFERENCE_GREYS, colour};

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

impl LineChart {
    /// The legend in the right margin, drawn on the whole figure (plotters' own legend
    /// is clipped to the plotting area): a line sample and the name per entry.
    pub(super) fn legend_beside(
        &self,
        root: &DrawingArea<SVGBackend<'_>, Shift>,
        legend_px: u32,
    ) -> Result<(), String> {
        let (width, _) = root.dim_in_pixel();
        let left = width as i32 - legend_px as i32 + 4;
        let font = ("sans-serif", 17).into_font().color(&BLACK).pos(Pos::new(HPos::Left, VPos::Center));
        let intervals = self.interval_labels();
        let entries = self.series.len() + self.reference_lines.len() + intervals.len();
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
        for (k, label) in intervals.iter().enumerate() {
            let y = top + 22 * (self.series.len() + self.reference_lines.len() + k) as i32;
            root.draw(&super::line::error_bar_sample(left + 11, y)).map_err(|e| e.to_string())?;
            root.draw(&Text::new((*label).to_owned(), (left + 30, y), font.clone()))
                .map_err(|e| e.to_string())?;
        }
        Ok(())
    }
}
