//! Drawing a [`LineChart`]: the axes, the series with their markers, the dashed
//! reference lines, and the legend in the quietest corner or beside the plot.

use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::element::DashedPathElement;
use plotters::prelude::*;

use super::legend::quietest_corner;
use super::{LineChart, PlotError, REFERENCE_GREYS, colour, padded_range, render, short_number};

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

    /// The figure as SVG text.
    pub fn to_svg(&self) -> Result<String, PlotError> {
        render(&self.title, |root| self.draw(root))
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
        self.draw_mesh(&mut chart, x_hi - x_lo)?;
        self.draw_lines(&mut chart)?;
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
            mesh.disable_x_mesh().x_labels((x_span * 2.0).ceil() as usize + 3);
        }
        mesh.draw().map_err(|e| e.to_string())
    }

    /// The series (solid, with markers), then the reference lines (dashed, grey), each
    /// with its legend entry.
    fn draw_lines(&self, chart: &mut Plot<'_, '_>) -> Result<(), String> {
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
        Ok(())
    }
}
