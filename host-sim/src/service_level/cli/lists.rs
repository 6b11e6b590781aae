//! The list options of `run` and `sweep` (and `cv-sweep`, `criteria`): modes,
//! machine counts and policies, each item once, an empty item refused.

use kernel::service_level::SLACK_ONE_MILLI;
use replay::echo::echo;
use replay::engine::service_level::{MAX_LEVELS, MAX_MACHINES};

use crate::error::CliError;
use crate::service_level::levels::LevelError;
use crate::service_level::sweep::Mode;
use crate::units::Refused;

/// `--modes`: single, multi, both of them (`single,multi`), or `both`; each once.
pub(crate) fn parse_modes(text: &str) -> Result<Vec<Mode>, CliError> {
    let usage = |e: String| CliError::Usage(format!("--modes: {e}"));
    if text.trim() == "both" {
        return Ok(vec![Mode::Single, Mode::Multi]);
    }
    let mut modes = Vec::new();
    for item in crate::units::items(text).map_err(|e| usage(e.to_string()))? {
        let mode = match item {
            "single" => Mode::Single,
            "multi" => Mode::Multi,
            other => return Err(usage(format!("{} is not a mode; use single, multi or both", echo(other)))),
        };
        if modes.contains(&mode) {
            return Err(usage(format!("{} is given twice", mode.name())));
        }
        modes.push(mode);
    }
    Ok(modes)
}

/// `sweep --slacks` in multi mode: each a level count k, whole and at most the
/// compiled kernel's levels.
pub(crate) fn check_ks(slacks_milli: &[u32]) -> Result<(), CliError> {
    let max = MAX_LEVELS as u32;
    match slacks_milli.iter().find(|&&s| s % SLACK_ONE_MILLI != 0 || s > max * SLACK_ONE_MILLI) {
        None => Ok(()),
        Some(&k) => Err(CliError::Usage(format!(
            "--slacks: {} is not a level count k for multi mode: a whole number from 1 to {max} (the \
             compiled kernel's levels); fractional or larger slack factors take --modes single",
            crate::units::format_milli(u64::from(k))
        ))),
    }
}

/// `--machine-counts`: whole numbers from 1 to 64, each once.
pub(crate) fn parse_machine_counts(text: &str) -> Result<Vec<u16>, CliError> {
    let mut counts: Vec<u16> = Vec::new();
    let items = crate::units::items(text).map_err(|e| CliError::Usage(format!("--machine-counts: {e}")))?;
    for item in items {
        let count =
            item.parse::<u16>().ok().filter(|&m| (1..=MAX_MACHINES).contains(&m)).ok_or_else(|| {
                let whole = LevelError::Whole { text: item.to_owned(), min: 1, max: u64::from(MAX_MACHINES) };
                CliError::Usage(format!("--machine-counts: {whole}"))
            })?;
        if counts.contains(&count) {
            return Err(CliError::Usage(format!("--machine-counts: {count} is given twice")));
        }
        counts.push(count);
    }
    Ok(counts)
}

/// `sweep --policy`'s policies, in the order given (a type of its own: clap reads a
/// `Vec` as a repeated option).
#[derive(Clone, Debug)]
pub struct Policies(pub Vec<kernel::service_level::Policy>);

/// `sweep --policy`: policies, each once.
pub(super) fn parse_policies(text: &str) -> Result<Policies, Refused> {
    let mut policies = Vec::new();
    for item in crate::units::items(text).map_err(Refused::of)? {
        let policy = parse_policy(item)?;
        if policies.contains(&policy) {
            return Err(Refused(format!("{} is given twice", policy.name())));
        }
        policies.push(policy);
    }
    Ok(Policies(policies))
}

/// One `--policy` name.
pub(super) fn parse_policy(text: &str) -> Result<kernel::service_level::Policy, Refused> {
    crate::service_level::policy::parse(text).map_err(Refused::of)
}

/// A `--window`'s length in ticks, `None` for `all`: a name of its own, so that clap
/// takes it as the option's value, not as an option that may be left out.
pub type WindowTicks = Option<u64>;

/// A `--window`: a duration, or `all`.
pub(super) fn parse_window(text: &str) -> Result<WindowTicks, Refused> {
    crate::window::parse_window(text).map_err(Refused::of)
}
