//! Decimal numbers in thousandths, as every model's options and outputs write them
//! (`1.5` is 1500): parsed exactly, without floating point, and written back short.

/// Parses a decimal with at most three decimals into thousandths.
pub fn parse_milli(text: &str) -> Option<u64> {
    let text = text.trim();
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || !all_digits(whole) || !all_digits(fraction) || fraction.len() > 3 {
        return None;
    }
    if text.ends_with('.') {
        return None;
    }
    let whole = whole.parse::<u64>().ok()?;
    let mut milli = whole.checked_mul(1000)?;
    let mut scale = 100;
    for digit in fraction.bytes() {
        milli = milli.checked_add(u64::from(digit - b'0') * scale)?;
        scale /= 10;
    }
    Some(milli)
}

/// A number in thousandths, written back as a short decimal (`1500 -> 1.5`).
pub fn format_milli(milli: u64) -> String {
    let (whole, fraction) = (milli / 1000, milli % 1000);
    if fraction == 0 {
        return whole.to_string();
    }
    format!("{whole}.{fraction:03}").trim_end_matches('0').to_owned()
}
