//! Drawing a [`BarChart`]: the axes with a label per group, the bars (or dots) of each
//! name in its colour with their error bars, a label above each, and the legend below
//! the plot.
//!
//! Bars start at 0, so their lengths compare; that only shows the differences when
//! zero is near the data. When the smallest value is further from zero than the
//! values spread (95.0 against 94.6 against 94.4), the chart is a dot chart instead:
//! each value a dot, on a y axis fitted to the values and their intervals.

use super::legend::{LEGEND_LINE, draw_below, legend_lines};
use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{
    BarChart, PlotError, SIZE_PX, TITLE_PX, axis_label_font, colour, draw_title, padded_range, render_sized,
    short_number,
};

/// The plotting area of a bar chart: groups at whole x positions, heights on y.
type Plot<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// The colour of a bar's error bar (a near-black, apart from the axes' black).
pub(super) const WHISKER: RGBColor = RGBColor(40, 40, 40);

impl BarChart {
    /// The figure as SVG text.
    pub fn to_svg(&self) -> Result<String, PlotError> {
        let lines = legend_lines(&self.legend_names());
        let size = (SIZE_PX.0, SIZE_PX.1 + lines * LEGEND_LINE as u32 + 8);
        render_sized(&self.title, size, |root| self.draw(root))
    }

    /// Whether the chart draws bars from 0 (else dots on a fitted axis): zero lies
    /// within the values' own spread of them.
    pub fn from_zero(&self) -> bool {
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for v in self.values().filter(|v| v.is_finite()) {
            lo = lo.min(v);
            hi = hi.max(v);
        }
        let span = hi - lo;
        lo > hi || (lo <= 0.0 && hi >= 0.0) || (lo > 0.0 && lo <= span) || (hi < 0.0 && -hi <= span)
    }

    /// The y axis' range: the values and their intervals padded by 5 %, from 0 when
    /// the chart draws bars ([`Self::from_zero`]), and room above for the labels.
    pub fn y_range(&self) -> (f64, f64) {
        let (lo, hi) = padded_range(self.values(), self.from_zero());
        (lo, hi + (hi - lo) * 0.08)
    }

    /// Every height and interval bound.
    fn values(&self) -> impl Iterator<Item = f64> + '_ {
        let heights = self.groups.iter().flat_map(|g| g.bars.iter().map(|b| b.1));
        let bounds =
            self.groups.iter().flat_map(|g| g.intervals.iter().flatten().flat_map(|(lo, hi)| [*lo, *hi]));
        heights.chain(bounds)
    }

    /// The legend's entries: the bar names, then the error bars' label when any is drawn.
    fn legend_names(&self) -> Vec<&str> {
        let any_interval = self.groups.iter().any(|g| g.intervals.iter().any(Option::is_some));
        let mut names: Vec<&str> = self.bar_names.iter().map(String::as_str).collect();
        if any_interval && !self.interval_label.is_empty() {
            names.push(&self.interval_label);
        }
        names
    }

    fn draw(&self, root: &DrawingArea<SVGBackend<'_>, Shift>) -> Result<(), String> {
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        draw_title(root, &self.title)?;
        let (plot_area, legend_area) = root.split_vertically(SIZE_PX.1);
        let groups = self.groups.len().max(1) as f64;
        let from_zero = self.from_zero();
        let (y_lo, y_hi) = self.y_range();
        let mut chart = ChartBuilder::on(&plot_area)
            .margin(12)
            .margin_top(TITLE_PX)
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
        let area = chart.plotting_area().dim_in_pixel();
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(self.groups.len() * 2 + 1)
            .x_label_formatter(&group_label)
            .y_label_formatter(&|y| short_number(*y))
            .x_desc(&self.x_label)
            .y_desc(&self.y_label)
            .label_style(("sans-serif", 18))
            .axis_desc_style(("sans-serif", axis_label_font(&self.x_label, &self.y_label, area)))
            .light_line_style(TRANSPARENT)
            .bold_line_style(RGBColor(215, 215, 215))
            .draw()
            .map_err(|e| e.to_string())?;
        self.draw_bars(&mut chart, from_zero)?;
        self.draw_legend(&legend_area)
    }

    /// The bars (or dots), name by name, their error bars, then every bar's label.
    fn draw_bars(&self, chart: &mut Plot<'_, '_>, from_zero: bool) -> Result<(), String> {
        let slots = self.bar_names.len().max(1) as f64;
        let width = 0.8 / slots;
        let centre = |g: usize, b: usize| g as f64 - 0.4 + (b as f64 + 0.5) * width;
        for b in 0..self.bar_names.len() {
            let fill = colour(b).filled();
            let heights = self.groups.iter().enumerate().filter_map(|(g, group)| {
                let (_, height) = group.bars.get(b)?;
                height.is_finite().then_some((g, *height))
            });
            if from_zero {
                let bars = heights.map(|(g, h)| {
                    let left = centre(g, b) - width / 2.0;
                    Rectangle::new([(left + width * 0.08, 0.0), (left + width * 0.92, h)], fill)
                });
                chart.draw_series(bars).map_err(|e| e.to_string())?;
            } else {
                let dots = heights.map(|(g, h)| Circle::new((centre(g, b), h), 6, fill));
                chart.draw_series(dots).map_err(|e| e.to_string())?;
            }
        }
        let whisker = WHISKER.stroke_width(1);
        let cap = width * 0.15;
        let mut tops: Vec<Vec<f64>> =
            self.groups.iter().map(|g| g.bars.iter().map(|b| b.1).collect()).collect();
        for (g, group) in self.groups.iter().enumerate() {
            for (b, interval) in group.intervals.iter().enumerate() {
                let Some((lo, hi)) = *interval else { continue };
                let x = centre(g, b);
                let path = vec![(x - cap, lo), (x + cap, lo), (x, lo), (x, hi), (x - cap, hi), (x + cap, hi)];
                chart.draw_series([PathElement::new(path, whisker)]).map_err(|e| e.to_string())?;
                if let Some(top) = tops.get_mut(g).and_then(|t| t.get_mut(b)) {
                    *top = top.max(hi);
                }
            }
        }
        let text = ("sans-serif", 17).into_font().color(&BLACK).pos(Pos::new(HPos::Center, VPos::Bottom));
        let mut labels = Vec::new();
        for (g, group) in self.groups.iter().enumerate() {
            for (b, (label, height)) in group.bars.iter().enumerate() {
                let top = tops.get(g).and_then(|t| t.get(b)).copied().unwrap_or(*height);
                let y = if from_zero { top.max(0.0) } else { top };
                if y.is_finite() {
                    labels.push(Text::new(label.clone(), (centre(g, b), y), text.clone()));
                }
            }
        }
        chart.draw_series(labels).map_err(|e| e.to_string())?;
        Ok(())
    }

    /// The legend under the plot: a swatch per bar name, a whisker for the intervals.
    fn draw_legend(&self, area: &DrawingArea<SVGBackend<'_>, Shift>) -> Result<(), String> {
        let bars = self.bar_names.len();
        draw_below(area, &self.legend_names(), |i, x, y| {
            let drawn = if i < bars {
                area.draw(&Rectangle::new([(x + 3, y - 6), (x + 17, y + 6)], colour(i).filled()))
            } else {
                area.draw(&super::error_bar_sample(x + 10, y))
            };
            drawn.map_err(|e| e.to_string())
        })
    }
}
