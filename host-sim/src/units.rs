//! Decimal numbers in thousandths, as every model's options and outputs write them
//! (`1.5` is 1500): parsed exactly, without floating point, and written back short;
//! and lists of seeds, as every model's `--seeds` takes them.

/// Parses a decimal with at most three decimals into thousandths.
pub fn parse_milli(text: &str) -> Option<u64> {
    parse_decimal(text).ok()
}

/// Why a text is not a decimal of thousandths; the message quotes it, and the caller
/// puts the option's name in front (`--alpha: "-1" is negative; ...`).
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecimalError {
    #[error("\"{0}\" is negative; give a number of at least 0")]
    Negative(String),
    #[error("\"{0}\" has more than three decimals; give at most three (e.g. 0.125)")]
    TooPrecise(String),
    #[error("\"{0}\" is too large for a number in thousandths (at most 18446744073709551.615)")]
    TooLarge(String),
    #[error("\"{0}\" is not a number; write a decimal such as 2, 1.5 or 0.25")]
    NotANumber(String),
}

/// Parses a decimal with at most three decimals into thousandths, saying why not.
pub fn parse_decimal(text: &str) -> Result<u64, DecimalError> {
    let trimmed = text.trim();
    let (whole, fraction) = trimmed.split_once('.').unwrap_or((trimmed, ""));
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let owned = || text.to_owned();
    if let Some(rest) = trimmed.strip_prefix('-')
        && parse_decimal(rest).is_ok()
    {
        return Err(DecimalError::Negative(owned()));
    }
    if whole.is_empty() || !all_digits(whole) || !all_digits(fraction) || trimmed.ends_with('.') {
        return Err(DecimalError::NotANumber(owned()));
    }
    if fraction.len() > 3 {
        return Err(DecimalError::TooPrecise(owned()));
    }
    let mut milli = whole.parse::<u64>().ok().and_then(|w| w.checked_mul(1000));
    let mut scale = 100;
    for digit in fraction.bytes() {
        milli = milli.and_then(|m| m.checked_add(u64::from(digit - b'0') * scale));
        scale /= 10;
    }
    milli.ok_or_else(|| DecimalError::TooLarge(owned()))
}

/// A number in thousandths, written back as a short decimal (`1500 -> 1.5`).
pub fn format_milli(milli: u64) -> String {
    let (whole, fraction) = (milli / 1000, milli % 1000);
    if fraction == 0 {
        return whole.to_string();
    }
    format!("{whole}.{fraction:03}").trim_end_matches('0').to_owned()
}

/// Why a `--seeds` value is not a list of seeds.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum SeedsError {
    #[error("\"{0}\" is not a seed (a whole number from 0 to 18446744073709551615)")]
    NotWhole(String),
    #[error("\"{text}\" runs backwards; write the smaller seed first ({last}..{first})")]
    Backwards { text: String, first: u64, last: u64 },
    #[error("seed {0} is given twice")]
    Twice(u64),
}

/// Seeds as `A..B` (both included, `1..30` is thirty seeds) or a comma list.
pub fn parse_seeds(text: &str) -> Result<Vec<u64>, SeedsError> {
    let whole = |s: &str| s.trim().parse::<u64>().map_err(|_| SeedsError::NotWhole(s.trim().to_owned()));
    let seeds: Vec<u64> = match text.split_once("..") {
        Some((a, b)) => {
            let (first, last) = (whole(a)?, whole(b)?);
            if first > last {
                return Err(SeedsError::Backwards { text: text.to_owned(), first, last });
            }
            (first..=last).collect()
        }
        None => text.split(',').map(whole).collect::<Result<_, _>>()?,
    };
    let mut sorted = seeds.clone();
    sorted.sort_unstable();
    if let Some(pair) = sorted.windows(2).find(|pair| pair[0] == pair[1]) {
        return Err(SeedsError::Twice(pair[0]));
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
        let backwards = parse_seeds("5..1").unwrap_err().to_string();
        assert!(backwards.contains("runs backwards") && backwards.contains("(1..5)"), "{backwards}");
        assert_eq!(parse_seeds("1,x"), Err(SeedsError::NotWhole("x".into())));
        assert_eq!(parse_seeds("1,2,1"), Err(SeedsError::Twice(1)));
    }

    #[test]
    fn decimals_say_why_not() {
        assert_eq!(parse_decimal("1.5"), Ok(1500));
        assert_eq!(parse_decimal(" 0.125 "), Ok(125));
        assert_eq!(parse_decimal("-1"), Err(DecimalError::Negative("-1".into())));
        assert_eq!(parse_decimal("0.0001"), Err(DecimalError::TooPrecise("0.0001".into())));
        assert_eq!(
            parse_decimal("99999999999999999999"),
            Err(DecimalError::TooLarge("99999999999999999999".into()))
        );
        for text in ["nan", "inf", "-inf", "1e3", "", "1.", ".5", "--1"] {
            assert_eq!(parse_decimal(text), Err(DecimalError::NotANumber(text.into())), "{text}");
        }
    }
}
