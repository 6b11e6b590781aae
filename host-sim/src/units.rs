//! Decimal numbers in thousandths, as every model's options and outputs write them
//! (`1.5` is 1500): parsed exactly, without floating point, and written back short;
//! and lists of seeds, as every model's `--seeds` takes them.

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

/// A list item that is not a whole number in its range.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[error("\"{text}\" in a list is not a whole number from {min} to {max}")]
pub struct NotWhole {
    pub text: String,
    pub min: u64,
    pub max: u64,
}

/// Seeds as `A..B` (both included, `1..30` is thirty seeds) or a comma list.
pub fn parse_seeds(text: &str) -> Result<Vec<u64>, NotWhole> {
    let whole = |s: &str| {
        s.trim().parse::<u64>().map_err(|_| NotWhole { text: s.trim().to_owned(), min: 0, max: u64::MAX })
    };
    let seeds: Vec<u64> = match text.split_once("..") {
        Some((a, b)) => {
            let (a, b) = (whole(a)?, whole(b)?);
            if a > b {
                return Err(NotWhole { text: text.to_owned(), min: a, max: u64::MAX });
            }
            (a..=b).collect()
        }
        None => text.split(',').map(whole).collect::<Result<_, _>>()?,
    };
    let mut unique = seeds.clone();
    unique.sort_unstable();
    unique.dedup();
    if unique.len() != seeds.len() {
        return Err(NotWhole { text: format!("{text} (a seed given twice)"), min: 0, max: u64::MAX });
    }
    Ok(seeds)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_as_ranges_and_lists() {
        assert_eq!(parse_seeds("1..30").unwrap().len(), 30);
        assert_eq!(parse_seeds("3..3").unwrap(), [3]);
        assert_eq!(parse_seeds("7, 2,9").unwrap(), [7, 2, 9]);
        assert!(parse_seeds("5..1").is_err());
        assert!(parse_seeds("1,x").is_err());
        assert!(parse_seeds("1,2,1").is_err());
    }
}
