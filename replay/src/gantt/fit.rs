//! Whether a figure's text fits: every SVG figure of the project (the Gantt charts
//! here, host-sim's sweep figures) writes text as `<text>` elements laid out by an
//! estimate of its width, with no font read. The estimate is conservative: a
//! character is taken as [`EM_SHARE`] of the font size wide, wider than the average
//! sans-serif letter, so that text laid out by it fits in any common sans-serif font.
//! [`overflowing_texts`] checks a written SVG with the same estimate (the figures'
//! tests call it on every figure).

/// The width of one character as a share of the font size.
pub const EM_SHARE: f64 = 0.6;

/// The estimated width, in pixels, of `text` at `size` pixels.
pub fn text_width(text: &str, size: f64) -> f64 {
    text.chars().count() as f64 * size * EM_SHARE
}

/// The largest font size, at most `max`, at which `text` spans at most `room` pixels
/// (never below 9, which a reader still reads; a text that long is the caller's to cut).
pub fn fitting_size(text: &str, room: f64, max: f64) -> f64 {
    let chars = text.chars().count().max(1) as f64;
    (room / (chars * EM_SHARE)).floor().clamp(9.0, max)
}

/// The value of attribute `name` in the start tag `tag`.
fn attribute<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let at = tag.find(&key)? + key.len();
    tag.get(at..)?.split('"').next()
}

fn number(tag: &str, name: &str) -> Option<f64> {
    attribute(tag, name)?.trim_end_matches("px").parse().ok()
}

/// The view box's width and height (or the `width` and `height` attributes).
fn view_size(svg: &str) -> Option<(f64, f64)> {
    let tag = svg.split("<svg").nth(1)?.split('>').next()?;
    if let Some(view) = attribute(tag, "viewBox") {
        let v: Vec<f64> = view.split([' ', ',']).filter_map(|p| p.parse().ok()).collect();
        if let [_, _, w, h] = v[..] {
            return Some((w, h));
        }
    }
    Some((number(tag, "width")?, number(tag, "height")?))
}

/// The `<text>` elements of `svg` whose estimated box leaves the view box, each as
/// its text and the reason; an SVG without a size is one finding.
pub fn overflowing_texts(svg: &str) -> Vec<String> {
    let Some((width, height)) = view_size(svg) else { return vec!["the SVG has no size".to_owned()] };
    let mut found = Vec::new();
    for element in svg.split("<text").skip(1) {
        let Some((tag, rest)) = element.split_once('>') else { continue };
        let content = rest.split("</text>").next().unwrap_or("").trim();
        let content = content
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&apos;", "'")
            .replace("&quot;", "\"")
            .replace("&amp;", "&");
        let (Some(x), Some(y)) = (number(tag, "x"), number(tag, "y")) else { continue };
        let size = number(tag, "font-size").unwrap_or(16.0);
        let w = text_width(&content, size);
        let (before, after) = match attribute(tag, "text-anchor") {
            Some("middle") => (w / 2.0, w / 2.0),
            Some("end") => (w, 0.0),
            _ => (0.0, w),
        };
        // Rotated by a quarter turn (a y-axis label): the text runs along y.
        let rotated =
            attribute(tag, "transform").is_some_and(|t| t.contains("rotate(270") || t.contains("rotate(90"));
        let (lo, hi, limit, axis) = if rotated {
            (y - before.max(after), y + before.max(after), height, "y")
        } else {
            (x - before, x + after, width, "x")
        };
        let across = if rotated { x } else { y };
        let across_limit = if rotated { width } else { height };
        if lo < 0.0 || hi > limit || across < 0.0 || across > across_limit {
            found
                .push(format!("{content:?} spans {axis} {lo:.0}..{hi:.0} of 0..{limit:.0} (at {across:.0})"));
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_outside_the_view_box_is_found() {
        let svg = r#"<svg width="100" height="50"><text x="50" y="20" font-size="10" text-anchor="middle">fits</text>
<text x="50" y="40" font-size="10" text-anchor="middle">a much longer line of text</text></svg>"#;
        let found = overflowing_texts(svg);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].starts_with("\"a much longer"), "{found:?}");
        assert_eq!(fitting_size("abcdefghij", 60.0, 26.0), 10.0);
        assert_eq!(fitting_size("ab", 600.0, 26.0), 26.0);
    }
}
