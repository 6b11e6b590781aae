//! Durations (`7d`, `12h`, `3600`) and the split of a workload into consecutive,
//! independent windows.
//!
//! Window `k` covers releases in `[origin + k * length, origin + (k + 1) * length)`,
//! where `origin` is the first job's release (the first usable job of a trace).
//! Each window is simulated from an empty system, with times measured from its own
//! start. Windows that hold no job are not simulated, but counted.

use std::ops::Range;
use thiserror::Error;

use kernel::Tick;
use replay::echo::echo;

use crate::workload::Job;

/// Parsing a duration such as `7d` or `3600`.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum DurationError {
    #[error("{} is not a duration: use a whole number with an optional unit s, m, h, d or w (e.g. 7d)", echo(.0))]
    Syntax(String),
    #[error("{} is negative; give a duration of at least one second (e.g. 1s, 6m, 7d)", echo(.0))]
    Negative(String),
    #[error("{} is zero: give at least one second (e.g. 1s, 6m, 7d)", echo(.0))]
    Zero(String),
    #[error("{} is too long to count in seconds (at most 18446744073709551615 s)", echo(.0))]
    Overflow(String),
}

/// Seconds per unit suffix.
const UNITS: [(char, u64); 5] = [('s', 1), ('m', 60), ('h', 3600), ('d', 86_400), ('w', 604_800)];

/// Parses a whole number of seconds with an optional unit: `s`, `m`, `h`, `d`, `w`.
pub fn parse_duration(text: &str) -> Result<u64, DurationError> {
    let trimmed = text.trim();
    if let Some(rest) = trimmed.strip_prefix('-')
        && !rest.starts_with('-')
        && !matches!(parse_duration(rest), Err(DurationError::Syntax(_)))
    {
        return Err(DurationError::Negative(text.to_owned()));
    }
    let (number, unit_seconds) = match trimmed.chars().last() {
        Some(last) if last.is_ascii_alphabetic() => {
            let seconds = UNITS
                .iter()
                .find(|(unit, _)| *unit == last.to_ascii_lowercase())
                .map(|&(_, seconds)| seconds)
                .ok_or_else(|| DurationError::Syntax(text.to_owned()))?;
            (&trimmed[..trimmed.len() - last.len_utf8()], seconds)
        }
        _ => (trimmed, 1),
    };
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
        return Err(DurationError::Syntax(text.to_owned()));
    }
    let count = number.parse::<u64>().map_err(|_| DurationError::Overflow(text.to_owned()))?;
    let seconds = count.checked_mul(unit_seconds).ok_or_else(|| DurationError::Overflow(text.to_owned()))?;
    if seconds == 0 {
        return Err(DurationError::Zero(text.to_owned()));
    }
    Ok(seconds)
}

/// Parses a `--window` value: a duration, or `all` for the whole workload as one window.
pub fn parse_window(text: &str) -> Result<Option<u64>, DurationError> {
    match text.trim() {
        "all" | "none" => Ok(None),
        _ => parse_duration(text).map(Some),
    }
}

/// One window that holds at least one job.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Window {
    /// `k`: the window's position counted from the first, empty windows included.
    pub index: u64,
    /// Its start, in the workload's ticks; job times inside it are `release - start`.
    pub start: Tick,
    /// Its jobs, as a range of the workload's (release-ordered) jobs.
    pub jobs: Range<usize>,
}

/// The windows of a workload.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Windows {
    pub windows: Vec<Window>,
    /// Windows between the first and the last that hold no job (not simulated).
    pub empty: u64,
}

/// The window of a job released at `release` (its index and start), in windows of
/// `length` ticks from `origin` (the first job's release); `None` makes the whole
/// workload window 0, starting at `origin`. [`split`] gives each job this window.
pub fn of(origin: Tick, length: Option<u64>, release: Tick) -> (u64, Tick) {
    match length.filter(|&l| l > 0) {
        None => (0, origin),
        Some(length) => {
            let index = release.saturating_sub(origin) / length;
            (index, origin.saturating_add(index.saturating_mul(length)))
        }
    }
}

/// Splits release-ordered `jobs` into windows of `length` ticks; `None` makes the
/// whole workload one window starting at the first release.
pub fn split(jobs: &[Job], length: Option<u64>) -> Windows {
    let Some(origin) = jobs.first().map(|j| j.release) else { return Windows::default() };
    let Some(length) = length.filter(|&l| l > 0) else {
        let whole = Window { index: 0, start: origin, jobs: 0..jobs.len() };
        return Windows { windows: vec![whole], empty: 0 };
    };
    let mut windows: Vec<Window> = Vec::new();
    for (position, job) in jobs.iter().enumerate() {
        let index = job.release.saturating_sub(origin) / length;
        match windows.last_mut() {
            Some(window) if window.index == index => window.jobs.end = position + 1,
            _ => {
                let start = origin.saturating_add(index.saturating_mul(length));
                windows.push(Window { index, start, jobs: position..position + 1 });
            }
        }
    }
    let spanned = windows.last().map_or(0, |w| w.index + 1);
    let empty = spanned - windows.len() as u64;
    Windows { windows, empty }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(id: u32, release: Tick) -> Job {
        Job { id, release, p: 1, procs: 1 }
    }

    #[test]
    fn durations_take_every_suffix() {
        assert_eq!(parse_duration("3600"), Ok(3600));
        assert_eq!(parse_duration("45s"), Ok(45));
        assert_eq!(parse_duration("10m"), Ok(600));
        assert_eq!(parse_duration("12h"), Ok(43_200));
        assert_eq!(parse_duration("7d"), Ok(604_800));
        assert_eq!(parse_duration("2w"), Ok(1_209_600));
        assert_eq!(parse_duration("7D"), Ok(604_800));
        assert_eq!(parse_window("all"), Ok(None));
        assert_eq!(parse_window("1d"), Ok(Some(86_400)));
    }

    #[test]
    fn bad_durations_say_why() {
        assert_eq!(parse_duration("7x"), Err(DurationError::Syntax("7x".into())));
        assert_eq!(parse_duration("d"), Err(DurationError::Syntax("d".into())));
        assert_eq!(parse_duration("1.5h"), Err(DurationError::Syntax("1.5h".into())));
        assert_eq!(parse_duration("-3"), Err(DurationError::Negative("-3".into())));
        assert_eq!(parse_duration("-1d"), Err(DurationError::Negative("-1d".into())));
        assert_eq!(parse_duration("-0"), Err(DurationError::Negative("-0".into())));
        assert_eq!(parse_duration("--1d"), Err(DurationError::Syntax("--1d".into())));
        assert_eq!(parse_duration("0d"), Err(DurationError::Zero("0d".into())));
        assert_eq!(
            parse_duration("99999999999999999999w"),
            Err(DurationError::Overflow("99999999999999999999w".into()))
        );
        assert_eq!(parse_duration("40000000000000w"), Err(DurationError::Overflow("40000000000000w".into())));
        assert_eq!(
            parse_duration("7x").unwrap_err().to_string(),
            "`7x` is not a duration: use a whole number with an optional unit s, m, h, d or w (e.g. 7d)"
        );
    }

    #[test]
    fn windows_skip_and_count_empty_ones() {
        let jobs = [job(1, 100), job(2, 105), job(3, 109), job(4, 110), job(5, 135), job(6, 139)];
        let split = split(&jobs, Some(10));
        let expected = vec![
            Window { index: 0, start: 100, jobs: 0..3 },
            Window { index: 1, start: 110, jobs: 3..4 },
            Window { index: 3, start: 130, jobs: 4..6 },
        ];
        assert_eq!(split.windows, expected);
        assert_eq!(split.empty, 1);
    }

    #[test]
    fn no_window_is_one_window() {
        let jobs = [job(1, 5), job(2, 1_000_000)];
        let split = split(&jobs, None);
        assert_eq!(split.windows, vec![Window { index: 0, start: 5, jobs: 0..2 }]);
        assert_eq!(split.empty, 0);
        assert_eq!(super::split(&[], Some(10)), Windows::default());
    }
}
