//! Decimal numbers in thousandths, as every model's options and outputs write them
//! (`1.5` is 1500): parsed exactly, without floating point, and written back short;
//! lists of seeds, as every model's `--seeds` takes them; the items of a
//! comma-separated option; and whole-number options, which clap parses through
//! [`whole`].

use replay::echo::echo;

/// Parses a decimal with at most three decimals into thousandths.
pub fn parse_milli(text: &str) -> Option<u64> {
    parse_decimal(text).ok()
}

/// Why a text is not a decimal of thousandths; the message quotes it, and the caller
/// puts the option's name in front (``--alpha: `-1` is negative; ...``).
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecimalError {
    #[error("{} is negative; give a number of at least 0", echo(.0))]
    Negative(String),
    #[error("{} has more than three decimals; give at most three (e.g. 0.125)", echo(.0))]
    TooPrecise(String),
    #[error("{} is too large for a number in thousandths (at most 18446744073709551.615)", echo(.0))]
    TooLarge(String),
    #[error("{} is not a number; write a decimal such as 2, 1.5 or 0.25", echo(.0))]
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

/// Serializes a short decimal (as [`format_milli`] writes it) as a JSON number, so
/// that a summary's numbers are numbers (`"sf":1.5`, not `"sf":"1.5"`).
pub fn decimal_number<S: serde::Serializer>(text: &str, serializer: S) -> Result<S::Ok, S::Error> {
    match text.parse::<f64>() {
        Ok(value) => serializer.serialize_f64(value),
        Err(_) => serializer.serialize_str(text),
    }
}

/// [`decimal_number`] for an optional decimal.
pub fn optional_decimal<S: serde::Serializer>(
    text: &Option<String>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match text {
        Some(text) => decimal_number(text, serializer),
        None => serializer.serialize_none(),
    }
}

/// The most seeds one `--seeds` runs: each is a whole run, so more is a typing
/// slip (`0..18446744073709551615`), not a plan; split a longer list over calls.
pub const MAX_SEEDS: u64 = 100_000;

/// Why a `--seeds` value is not a list of seeds.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum SeedsError {
    #[error("{} is negative; a seed is a whole number from 0 to 18446744073709551615", echo(.0))]
    Negative(String),
    #[error("{} is not a seed (a whole number from 0 to 18446744073709551615)", echo(.0))]
    NotWhole(String),
    #[error("{} runs backwards; write the smaller seed first ({last}..{first})", echo(text))]
    Backwards { text: String, first: u64, last: u64 },
    #[error("seed {0} is given twice")]
    Twice(u64),
    #[error("{} is {count} seeds; at most {max} run in one call (split the list over several)", echo(text), max = MAX_SEEDS)]
    TooMany { text: String, count: u128 },
    #[error("{0}")]
    List(#[from] ListError),
}

/// Seeds as `A..B` (both included, `1..30` is thirty seeds) or a comma list.
pub fn parse_seeds(text: &str) -> Result<Vec<u64>, SeedsError> {
    let whole = |s: &str| {
        let s = s.trim();
        match s.strip_prefix('-') {
            Some(rest) if !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()) => {
                Err(SeedsError::Negative(s.to_owned()))
            }
            _ => s.parse::<u64>().map_err(|_| SeedsError::NotWhole(s.to_owned())),
        }
    };
    let seeds: Vec<u64> = match text.split_once("..") {
        Some((a, b)) => {
            let (first, last) = (whole(a)?, whole(b)?);
            if first > last {
                return Err(SeedsError::Backwards { text: text.to_owned(), first, last });
            }
            let count = u128::from(last - first) + 1;
            if count > u128::from(MAX_SEEDS) {
                return Err(SeedsError::TooMany { text: text.to_owned(), count });
            }
            (first..=last).collect()
        }
        None => items(text)?.into_iter().map(whole).collect::<Result<_, _>>()?,
    };
    if seeds.len() as u64 > MAX_SEEDS {
        return Err(SeedsError::TooMany { text: text.to_owned(), count: seeds.len() as u128 });
    }
    let mut sorted = seeds.clone();
    sorted.sort_unstable();
    if let Some(pair) = sorted.windows(2).find(|pair| pair[0] == pair[1]) {
        return Err(SeedsError::Twice(pair[0]));
    }
    Ok(seeds)
}

/// Why a comma-separated option's value has no list in it.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum ListError {
    #[error("the list is empty; give at least one item")]
    Empty,
    #[error("item {position} of {} is empty (two commas in a row, or a comma at an end)", echo(text))]
    EmptyItem { text: String, position: usize },
}

/// The items of a comma-separated list, trimmed; an empty list or item is refused
/// rather than read as nothing or as an empty value.
pub fn items(text: &str) -> Result<Vec<&str>, ListError> {
    if text.trim().is_empty() {
        return Err(ListError::Empty);
    }
    let items: Vec<&str> = text.split(',').map(str::trim).collect();
    match items.iter().position(|item| item.is_empty()) {
        Some(at) => Err(ListError::EmptyItem { text: text.to_owned(), position: at + 1 }),
        None => Ok(items),
    }
}

/// A value a typed option refused, worded as host-sim's own checks word it: `main`
/// prints it after the option's name (`host-sim: error: --policy: ...`) and exits with
/// 1, as it did when the option was a text checked after parsing; clap's own refusals
/// (`invalid value 'X' for ...`) exit with 2.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Refused(pub String);

impl Refused {
    /// The refusal that `error` words.
    pub fn of(error: impl std::fmt::Display) -> Self {
        Self(error.to_string())
    }
}

/// A decimal in thousandths as a typed option (`--alpha`, `--load`).
pub fn milli(text: &str) -> Result<u64, Refused> {
    parse_decimal(text).map_err(Refused::of)
}

/// A whole number from `min` to `max`, said in words when it is not one: what
/// clap shows after `invalid value 'X' for '--option <N>':`.
pub fn whole(text: &str, min: u64, max: u64) -> Result<u64, String> {
    let trimmed = text.trim();
    let range = format!("give a whole number from {min} to {max}");
    if let Some(rest) = trimmed.strip_prefix('-')
        && !rest.is_empty()
        && rest.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(format!("{} is negative; {range}", echo(text)));
    }
    if trimmed.is_empty() || !trimmed.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("{} is not a whole number; {range}", echo(text)));
    }
    match trimmed.parse::<u64>() {
        Ok(n) if n < min => Err(format!("{} is below {min}; {range}", echo(text))),
        Ok(n) if n <= max => Ok(n),
        _ => Err(format!("{} is above {max}; {range}", echo(text))),
    }
}

/// A seed option (`--seed`): any whole number that fits 64 bits.
pub fn seed(text: &str) -> Result<u64, String> {
    whole(text, 0, u64::MAX)
}

/// A count of 1 or more (`--windows`).
pub fn count(text: &str) -> Result<u64, String> {
    whole(text, 1, u64::MAX)
}

/// A whole number that fits 32 bits (`--jobs`, `--queue-capacity`).
pub fn whole32(text: &str) -> Result<u32, String> {
    whole(text, 0, u64::from(u32::MAX)).and_then(|n| u32::try_from(n).map_err(|e| e.to_string()))
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
        assert!(backwards.contains("`5..1` runs backwards") && backwards.contains("(1..5)"), "{backwards}");
        assert_eq!(parse_seeds("1,x"), Err(SeedsError::NotWhole("x".into())));
        assert_eq!(parse_seeds("1,2,1"), Err(SeedsError::Twice(1)));
        assert_eq!(parse_seeds("-1..3"), Err(SeedsError::Negative("-1".into())));
        assert_eq!(
            parse_seeds("1,,2"),
            Err(SeedsError::List(ListError::EmptyItem { text: "1,,2".into(), position: 2 }))
        );
        assert_eq!(parse_seeds(""), Err(SeedsError::List(ListError::Empty)));
        let huge = parse_seeds("0..18446744073709551615").unwrap_err().to_string();
        assert!(huge.contains("is 18446744073709551616 seeds; at most 100000"), "{huge}");
    }

    #[test]
    fn whole_numbers_say_why_not() {
        assert_eq!(whole("7", 1, 10), Ok(7));
        assert_eq!(whole("-1", 0, 10).unwrap_err(), "`-1` is negative; give a whole number from 0 to 10");
        assert_eq!(whole("0", 1, 10).unwrap_err(), "`0` is below 1; give a whole number from 1 to 10");
        assert_eq!(whole("11", 1, 10).unwrap_err(), "`11` is above 10; give a whole number from 1 to 10");
        let huge = "9".repeat(25);
        assert!(whole(&huge, 0, u64::MAX).unwrap_err().contains("is above 18446744073709551615"));
        for text in ["", "x", "1.5", "nan", "--1"] {
            assert!(whole(text, 0, 10).unwrap_err().contains("is not a whole number"), "{text}");
        }
        assert_eq!(
            whole32("4294967296").unwrap_err(),
            "`4294967296` is above 4294967295; give a whole number from 0 to 4294967295"
        );
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
