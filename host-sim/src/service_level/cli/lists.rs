//! The list options of `run` and `sweep` (and `cv-sweep`, `criteria`): modes,
//! machine counts and policies, each item once, an empty item refused.

use kernel::service_level::SLACK_ONE_MILLI;
use replay::echo::echo;
use replay::engine::service_level::{MAX_LEVELS, MAX_MACHINES};

use crate::error::CliError;
use crate::service_level::levels::LevelError;
use crate::service_level::sweep::Mode;
use crate::units::Refused;

/// A comma-separated list as a typed option holds it (a type of its own: clap reads a
/// `Vec` as a repeated option).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct List<T>(pub Vec<T>);

/// `--modes`: single, multi, both of them (`single,multi`), or `both`; each once.
pub(crate) fn parse_modes(text: &str) -> Result<List<Mode>, Refused> {
    if text.trim() == "both" {
        return Ok(List(vec![Mode::Single, Mode::Multi]));
    }
    let mut modes = Vec::new();
    for item in crate::units::items(text).map_err(Refused::of)? {
        let mode = match item {
            "single" => Mode::Single,
            "multi" => Mode::Multi,
            other => return Err(Refused(format!("{} is not a mode; use single, multi or both", echo(other)))),
        };
        if modes.contains(&mode) {
            return Err(Refused(format!("{} is given twice", mode.name())));
        }
        modes.push(mode);
    }
    Ok(List(modes))
}

/// `--slack`: one slack factor, in thousandths.
pub(super) fn parse_slack(text: &str) -> Result<u32, Refused> {
    crate::service_level::levels::parse_slack(text).map_err(Refused::of)
}

/// `--levels`, `--slacks`: slack factors, in thousandths.
pub(crate) fn parse_slacks(text: &str) -> Result<List<u32>, Refused> {
    crate::service_level::levels::parse_slack_list(text).map(List).map_err(Refused::of)
}

/// `--prices`: prices per tick, one per level.
pub(super) fn parse_prices(text: &str) -> Result<List<u32>, Refused> {
    crate::service_level::levels::parse_prices(text).map(List).map_err(Refused::of)
}

/// `--seeds`: the seeds of the replications.
pub(super) fn parse_seeds(text: &str) -> Result<List<u64>, Refused> {
    crate::units::parse_seeds(text).map(List).map_err(Refused::of)
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
pub(crate) fn parse_machine_counts(text: &str) -> Result<List<u16>, Refused> {
    let mut counts: Vec<u16> = Vec::new();
    for item in crate::units::items(text).map_err(Refused::of)? {
        let count =
            item.parse::<u16>().ok().filter(|&m| (1..=MAX_MACHINES).contains(&m)).ok_or_else(|| {
                Refused::of(LevelError::Whole { text: item.to_owned(), min: 1, max: u64::from(MAX_MACHINES) })
            })?;
        if counts.contains(&count) {
            return Err(Refused(format!("{count} is given twice")));
        }
        counts.push(count);
    }
    Ok(List(counts))
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
pub(crate) fn parse_window(text: &str) -> Result<WindowTicks, Refused> {
    crate::window::parse_window(text).map_err(Refused::of)
}
