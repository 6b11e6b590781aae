//! A [`Chart`] as SVG, written by hand (see the module above for why). Layout, top to
//! bottom: the title; a lane of submits (grey triangles) and a lane of rejections
//! (red crosses); the rows, each run a rectangle in its outcome's colour with the job
//! number inside when it fits and in a tooltip always; the time axis; the legend.
//! Every coordinate is written with one decimal, so the same chart gives the same bytes.

use std::fmt::Write as _;

use kernel::Tick;

use super::fit::{fitting_size, text_width};
use super::{Chart, Class, MarkKind, Outcome};

const WIDTH: f64 = 1000.0;
const LEFT: f64 = 110.0;
const RIGHT: f64 = 20.0;
const LANES_TOP: f64 = 40.0;
const LANE: f64 = 20.0;
const ROWS_TOP: f64 = LANES_TOP + 2.0 * LANE + 8.0;
const ROWS_HEIGHT_MAX: f64 = 480.0;

/// The fill of each outcome (Okabe and Ito's colours; grey for runs past the range).
pub fn colour(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::OnTime => "#0072B2",
        Outcome::Preempted => "#E69F00",
        Outcome::Late => "#D55E00",
        Outcome::Cut => "#CC79A7",
        Outcome::Open => "#9E9E9E",
        Outcome::Lost => "#009E73",
    }
}

/// The stripe colour of a class (dark goldenrod, grey, saddle brown) and its letter.
pub fn class_colour(class: Class) -> &'static str {
    match class {
        Class::Gold => "#B8860B",
        Class::Silver => "#6E6E6E",
        Class::Bronze => "#8B4513",
    }
}

fn class_letter(class: Class) -> char {
    match class {
        Class::Gold => 'G',
        Class::Silver => 'S',
        Class::Bronze => 'B',
    }
}

/// `&`, `<`, `>` and `"` escaped for SVG text and attributes.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

struct Scale {
    from: Tick,
    span: f64,
    row_height: f64,
    first_row: u32,
}

impl Scale {
    fn x(&self, t: Tick) -> f64 {
        LEFT + (t.saturating_sub(self.from)) as f64 / self.span * (WIDTH - LEFT - RIGHT)
    }

    fn y(&self, row: u32) -> f64 {
        ROWS_TOP + f64::from(row - self.first_row) * self.row_height
    }
}

/// The time axis' unit for a range of `span` seconds: seconds up to three hours,
/// hours up to three days, then days; `(seconds per unit, name)`.
fn time_unit(span: f64) -> (u64, &'static str) {
    if span > 3.0 * 86_400.0 {
        (86_400, "d")
    } else if span > 3.0 * 3_600.0 {
        (3_600, "h")
    } else {
        (1, "s")
    }
}

/// A tick step of 1, 2 or 5 times a power of ten giving about eight ticks.
fn tick_step(span: f64) -> u64 {
    let raw = (span / 8.0).max(1.0);
    let power = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0].into_iter().map(|m| m * power).find(|s| *s >= raw).unwrap_or(raw);
    step.round().max(1.0) as u64
}

#[cfg(test)]
pub(crate) fn tick_step_for_tests(span: f64) -> u64 {
    tick_step(span)
}

/// The chart as SVG text.
pub fn write(chart: &Chart) -> String {
    let row_count = chart.rows.end.saturating_sub(chart.rows.start).max(1);
    let row_height = (ROWS_HEIGHT_MAX / f64::from(row_count)).clamp(3.0, 28.0);
    let scale = Scale {
        from: chart.from,
        span: chart.to.saturating_sub(chart.from).max(1) as f64,
        row_height,
        first_row: chart.rows.start,
    };
    let rows_bottom = ROWS_TOP + f64::from(row_count) * row_height;
    let entries = legend_entries(chart);
    let legend_lines = entries.last().map_or(1, |e| e.2 + 1);
    let height = rows_bottom + 72.0 + 20.0 * legend_lines as f64;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height:.0}" viewBox="0 0 {WIDTH} {height:.0}" font-family="sans-serif">"#
    );
    let _ = writeln!(out, r##"<rect width="100%" height="100%" fill="#FFFFFF"/>"##);
    let _ = writeln!(
        out,
        r#"<text x="{:.1}" y="24" font-size="{:.0}" text-anchor="middle">{}</text>"#,
        WIDTH / 2.0,
        fitting_size(&chart.title, WIDTH - 20.0, 17.0),
        escape(&chart.title)
    );
    rows(&mut out, chart, &scale, row_count);
    lanes(&mut out, chart, &scale);
    bars(&mut out, chart, &scale);
    axis(&mut out, chart, &scale, rows_bottom);
    legend(&mut out, &entries, rows_bottom + 58.0);
    out.push_str("</svg>\n");
    out
}

fn rows(out: &mut String, chart: &Chart, scale: &Scale, row_count: u32) {
    // Label every row when there is room, else every k-th.
    let every = (14.0 / scale.row_height).ceil().max(1.0) as u32;
    for row in chart.rows.clone() {
        let y = scale.y(row);
        if (row - chart.rows.start) % 2 == 1 {
            let _ = writeln!(
                out,
                r##"<rect x="{LEFT}" y="{y:.1}" width="{:.1}" height="{:.1}" fill="#F4F4F4"/>"##,
                WIDTH - LEFT - RIGHT,
                scale.row_height
            );
        }
        if (row - chart.rows.start).is_multiple_of(every) {
            let name = chart
                .row_names
                .get(row as usize)
                .cloned()
                .unwrap_or_else(|| format!("{} {row}", chart.row_noun));
            let _ = writeln!(
                out,
                r#"<text x="{:.1}" y="{:.1}" font-size="{:.0}" text-anchor="end" dominant-baseline="middle">{}</text>"#,
                LEFT - 6.0,
                y + if every == 1 { scale.row_height / 2.0 } else { 6.0 },
                fitting_size(&name, LEFT - 10.0, 12.0),
                escape(&name)
            );
        }
        if chart.group_starts.contains(&row) && row > chart.rows.start {
            let _ = writeln!(
                out,
                r##"<line x1="4" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#333333" stroke-width="1.5"/>"##,
                WIDTH - RIGHT
            );
        }
    }
    let _ = writeln!(
        out,
        r##"<rect x="{LEFT}" y="{ROWS_TOP}" width="{:.1}" height="{:.1}" fill="none" stroke="#555555"/>"##,
        WIDTH - LEFT - RIGHT,
        f64::from(row_count) * scale.row_height
    );
}

fn lanes(out: &mut String, chart: &Chart, scale: &Scale) {
    for (i, name) in ["submitted", "rejected"].iter().enumerate() {
        let y = LANES_TOP + i as f64 * LANE;
        let _ = writeln!(
            out,
            r#"<text x="{:.1}" y="{:.1}" font-size="12" text-anchor="end" dominant-baseline="middle">{name}</text>"#,
            LEFT - 6.0,
            y + LANE / 2.0
        );
    }
    for mark in &chart.marks {
        let x = scale.x(mark.t);
        match mark.kind {
            MarkKind::Submit => {
                let y = LANES_TOP + 5.0;
                let _ = writeln!(
                    out,
                    r##"<path d="M{:.1} {y:.1}h8l-4 9z" fill="#666666"><title>job {} submitted at {}</title></path>"##,
                    x - 4.0,
                    mark.job,
                    mark.t
                );
            }
            MarkKind::Reject => {
                let y = LANES_TOP + LANE + 5.0;
                let _ = writeln!(
                    out,
                    r##"<path d="M{:.1} {y:.1}l8 9m0 -9l-8 9" stroke="#C00000" stroke-width="2"><title>job {} rejected at {}</title></path>"##,
                    x - 4.0,
                    mark.job,
                    mark.t
                );
            }
        }
    }
}

fn bars(out: &mut String, chart: &Chart, scale: &Scale) {
    let gap = if scale.row_height >= 8.0 { 1.5 } else { 0.0 };
    for bar in &chart.bars {
        let (x0, x1) = (scale.x(bar.start), scale.x(bar.end));
        let width = (x1 - x0).max(0.8);
        let y = scale.y(bar.rows.start) + gap;
        let height = f64::from(bar.rows.end - bar.rows.start) * scale.row_height - 2.0 * gap;
        // A thin white edge separates back-to-back runs of one colour, where it fits.
        let edge = if width >= 3.0 { r##" stroke="#FFFFFF" stroke-width="0.6""## } else { "" };
        let class = bar.class.map(|c| format!(", {}", c.name())).unwrap_or_default();
        let _ = writeln!(
            out,
            r#"<rect x="{x0:.1}" y="{y:.1}" width="{width:.1}" height="{height:.1}" fill="{}"{edge}><title>job {}{class}: {}..{} {}</title></rect>"#,
            colour(bar.outcome),
            bar.job,
            bar.start,
            bar.end,
            bar.outcome.name()
        );
        if let Some(c) = bar.class {
            let _ = writeln!(
                out,
                r#"<rect x="{x0:.1}" y="{y:.1}" width="{width:.1}" height="{:.1}" fill="{}"/>"#,
                (height / 4.0).clamp(1.0, 4.0),
                class_colour(c)
            );
        }
        let label = match bar.class {
            Some(c) => format!("{}{}", class_letter(c), bar.job),
            None => bar.job.to_string(),
        };
        if height >= 11.0 && width >= 7.0 * label.len() as f64 + 6.0 {
            let _ = writeln!(
                out,
                r##"<text x="{:.1}" y="{:.1}" font-size="10" fill="#FFFFFF" text-anchor="middle" dominant-baseline="middle">{label}</text>"##,
                x0 + width / 2.0,
                y + height / 2.0
            );
        }
    }
}

fn axis(out: &mut String, chart: &Chart, scale: &Scale, bottom: f64) {
    let (unit, unit_name) = time_unit(scale.span);
    // Steps of whole units (1, 2 or 5 times a power of ten of them).
    let step = tick_step(scale.span / unit as f64).saturating_mul(unit);
    let mut t = chart.from.div_ceil(step).saturating_mul(step);
    while t <= chart.to {
        let x = scale.x(t);
        let _ = writeln!(
            out,
            r##"<line x1="{x:.1}" y1="{bottom:.1}" x2="{x:.1}" y2="{:.1}" stroke="#555555"/>"##,
            bottom + 5.0
        );
        let _ = writeln!(
            out,
            r#"<text x="{x:.1}" y="{:.1}" font-size="12" text-anchor="middle">{}</text>"#,
            bottom + 18.0,
            t / unit
        );
        t = match t.checked_add(step) {
            Some(next) => next,
            None => break,
        };
    }
    let _ = writeln!(
        out,
        r#"<text x="{:.1}" y="{:.1}" font-size="13" text-anchor="middle">time [{unit_name}]</text>"#,
        LEFT + (WIDTH - LEFT - RIGHT) / 2.0,
        bottom + 36.0
    );
}

/// A legend entry's swatch.
#[derive(Clone, Copy)]
enum Swatch {
    Outcome(Outcome),
    Class(Class),
    Submit,
    Reject,
}

/// The legend's entries (outcomes drawn, classes drawn, the marks drawn), each with its
/// left edge and line, in lines that fit the figure's width.
fn legend_entries(chart: &Chart) -> Vec<(Swatch, String, usize, f64)> {
    let outcomes = chart.outcomes.iter().map(|o| (Swatch::Outcome(*o), o.name().to_owned()));
    let classes = Class::ALL
        .into_iter()
        .filter(|c| chart.bars.iter().any(|b| b.class == Some(*c)))
        .map(|c| (Swatch::Class(c), format!("{} ({}: stripe, letter)", c.name(), class_letter(c))));
    // The marks too only when some are drawn.
    let marks =
        [(Swatch::Submit, MarkKind::Submit, "submit"), (Swatch::Reject, MarkKind::Reject, "rejection")]
            .into_iter()
            .filter(|(_, kind, _)| chart.marks.iter().any(|m| m.kind == *kind))
            .map(|(swatch, _, name)| (swatch, name.to_owned()));
    let (mut x, mut line) = (LEFT, 0);
    let mut out = Vec::new();
    for (swatch, name) in outcomes.chain(classes).chain(marks) {
        let width = 18.0 + text_width(&name, 12.0);
        if x > LEFT && x + width > WIDTH - RIGHT {
            (x, line) = (LEFT, line + 1);
        }
        out.push((swatch, name, line, x));
        x += width + 16.0;
    }
    out
}

fn legend(out: &mut String, entries: &[(Swatch, String, usize, f64)], top: f64) {
    for (swatch, name, line, x) in entries {
        let y = top + 20.0 * *line as f64;
        let _ = match swatch {
            Swatch::Outcome(o) => {
                writeln!(
                    out,
                    r#"<rect x="{x:.1}" y="{:.1}" width="14" height="12" fill="{}"/>"#,
                    y - 6.0,
                    colour(*o)
                )
            }
            Swatch::Class(c) => writeln!(
                out,
                r#"<rect x="{x:.1}" y="{:.1}" width="14" height="4" fill="{}"/>"#,
                y - 6.0,
                class_colour(*c)
            ),
            Swatch::Submit => writeln!(out, r##"<path d="M{x:.1} {:.1}h8l-4 9z" fill="#666666"/>"##, y - 5.0),
            Swatch::Reject => writeln!(
                out,
                r##"<path d="M{x:.1} {:.1}l8 9m0 -9l-8 9" stroke="#C00000" stroke-width="2"/>"##,
                y - 5.0
            ),
        };
        let _ = writeln!(
            out,
            r#"<text x="{:.1}" y="{y:.1}" font-size="12" dominant-baseline="middle">{}</text>"#,
            x + 18.0,
            escape(name)
        );
    }
}
