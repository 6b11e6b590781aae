//! Drawing a [`BarChart`]: the axes with a label per group, the bars of each name in
//! its colour, a label above each bar, and the legend.

use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{BarChart, PlotError, colour, padded_range, render, short_number};

/// The plotting area of a bar chart: groups at whole x positions, heights on y.
type Plot<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

impl BarChart {
    /// The figure as SVG text.
    pub fn to_svg(&self) -> Result<String, PlotError> {
        render(&self.title, |root| self.draw(root))
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
        self.draw_bars(&mut chart)?;
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .label_font(("sans-serif", 17))
            .background_style(WHITE.mix(0.85))
            .border_style(RGBColor(120, 120, 120))
            .draw()
            .map_err(|e| e.to_string())
    }

    /// The bars, name by name (each with its legend entry), then every bar's label.
    fn draw_bars(&self, chart: &mut Plot<'_, '_>) -> Result<(), String> {
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
        Ok(())
    }
}
