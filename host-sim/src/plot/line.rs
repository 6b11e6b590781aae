//! Drawing a [`LineChart`]: the axes, the series with their markers, the dashed
//! reference lines, the error bars, and the legend in the quietest corner or under the
//! plot.

use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::element::DashedPathElement;
use plotters::prelude::*;

use super::legend::{LEGEND_LINE, legend_lines, quietest_corner};
use super::{
    LineChart, PlotError, REFERENCE_GREYS, SIZE_PX, TITLE_PX, axis_label_font, colour, draw_title,
    padded_range, render_sized, short_number,
};

/// The plotting area of a line chart, in data coordinates.
type Plot<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

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

    /// The y axis' range: the points (series and reference lines) and the error bars,
    /// padded by 5 %, not stretched to zero, so that the differences the figure exists
    /// to show stay visible.
    pub fn y_range(&self) -> (f64, f64) {
        let points =
            self.series.iter().chain(&self.reference_lines).flat_map(|s| s.points.iter().map(|p| p.1));
        let bounds = self.series.iter().flat_map(|s| s.error_bars().flat_map(|(_, lo, hi)| [lo, hi]));
        padded_range(points.chain(bounds), false)
    }

    /// The figure as SVG text.
    pub fn to_svg(&self) -> Result<String, PlotError> {
        let (_, outside) = self.legend_corner();
        let lines = if outside { legend_lines(&self.legend_names()) } else { 0 };
        let size = (SIZE_PX.0, SIZE_PX.1 + lines * LEGEND_LINE as u32 + if lines > 0 { 8 } else { 0 });
        render_sized(&self.title, size, |root| self.draw(root, outside))
    }

    /// The x axis' padded range.
    fn x_range(&self) -> (f64, f64) {
        let all = self.series.iter().chain(&self.reference_lines).flat_map(|s| s.points.iter());
        padded_range(all.map(|p| p.0), false)
    }

    /// The corner of the plot for the legend, and whether every corner would cover
    /// some data (the legend then goes under the plot).
    fn legend_corner(&self) -> (SeriesLabelPosition, bool) {
        let all = self.series.iter().chain(&self.reference_lines).flat_map(|s| s.points.iter().copied());
        let names = self.legend_names();
        let ends = self.whisker_ends();
        let (corner, covered, _) =
            quietest_corner(&names, all.filter(|p| p.1.is_finite()), &ends, self.x_range(), self.y_range());
        (corner, covered > 0)
    }

    fn draw(&self, root: &DrawingArea<SVGBackend<'_>, Shift>, outside: bool) -> Result<(), String> {
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        draw_title(root, &self.title)?;
        let (plot_area, legend_area) = root.split_vertically(SIZE_PX.1);
        let ((x_lo, x_hi), (y_lo, y_hi)) = (self.x_range(), self.y_range());
        let mut chart = ChartBuilder::on(&plot_area)
            .margin(12)
            .margin_top(TITLE_PX)
            .x_label_area_size(56)
            .y_label_area_size(84)
            .build_cartesian_2d(x_lo..x_hi, y_lo..y_hi)
            .map_err(|e| e.to_string())?;
        self.draw_mesh(&mut chart, x_hi - x_lo)?;
        self.draw_lines(&mut chart)?;
        if outside {
            return self.legend_below(&legend_area);
        }
        chart
            .configure_series_labels()
            .position(self.legend_corner().0)
            .label_font(("sans-serif", 17))
            .background_style(WHITE.mix(0.9))
            .border_style(RGBColor(120, 120, 120))
            .draw()
            .map_err(|e| e.to_string())
    }

    /// The axes, their labels and the grid; `x_span` is the padded x range's width.
    fn draw_mesh(&self, chart: &mut Plot<'_, '_>, x_span: f64) -> Result<(), String> {
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
        let area = chart.plotting_area().dim_in_pixel();
        let mut mesh = chart.configure_mesh();
        mesh.x_desc(&self.x_label)
            .y_desc(&self.y_label)
            .label_style(("sans-serif", 18))
            .axis_desc_style(("sans-serif", axis_label_font(&self.x_label, &self.y_label, area)))
            .light_line_style(TRANSPARENT)
            .bold_line_style(RGBColor(215, 215, 215))
            .x_label_formatter(&x_label)
            .y_label_formatter(&|y| short_number(*y));
        if !self.x_ticks.is_empty() {
            // Key points every half unit from the padded range, so that every whole
            // position a tick names is one of them.
            mesh.disable_x_mesh().x_labels((x_span * 2.0).ceil() as usize + 3);
        }
        mesh.draw().map_err(|e| e.to_string())
    }

    /// Both ends of every error bar, as points the legend must not cover.
    fn whisker_ends(&self) -> Vec<(f64, f64)> {
        self.series.iter().flat_map(|s| s.error_bars().flat_map(|(x, lo, hi)| [(x, lo), (x, hi)])).collect()
    }

    /// The legend's entries in order: series, reference lines, then one entry per
    /// distinct kind of error bar.
    pub(super) fn legend_names(&self) -> Vec<&str> {
        let lines = self.series.iter().chain(&self.reference_lines).map(|s| s.name.as_str());
        lines.chain(self.interval_labels()).collect()
    }

    /// The distinct labels of the series' error bars, in first-seen order.
    pub(super) fn interval_labels(&self) -> Vec<&str> {
        let mut labels: Vec<&str> = Vec::new();
        for s in &self.series {
            if s.error_bars().next().is_some() && !labels.contains(&s.interval_label.as_str()) {
                labels.push(&s.interval_label);
            }
        }
        labels
    }

    /// The series (solid, with markers and error bars), then the reference lines
    /// (dashed, grey), each with its legend entry, then the error bars' legend entry.
    fn draw_lines(&self, chart: &mut Plot<'_, '_>) -> Result<(), String> {
        for (i, series) in self.series.iter().enumerate() {
            let whisker = colour(i).stroke_width(1);
            // Each series' error bars a little apart from the others', so that bars at
            // one x do not hide each other.
            let x_span = chart.x_range().end - chart.x_range().start;
            let dodge = x_span * 0.004 * (i as f64 - (self.series.len() as f64 - 1.0) / 2.0);
            let bars = series
                .error_bars()
                .map(|(x, lo, hi)| PathElement::new(vec![(x + dodge, lo), (x + dodge, hi)], whisker));
            chart.draw_series(bars).map_err(|e| e.to_string())?;
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
        for label in self.interval_labels() {
            chart
                .draw_series(std::iter::empty::<PathElement<(f64, f64)>>())
                .map_err(|e| e.to_string())?
                .label(label)
                .legend(|(x, y)| super::error_bar_sample(x + 10, y));
        }
        Ok(())
    }
}
