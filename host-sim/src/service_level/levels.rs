//! Service levels: parsing slack factors and prices, the thesis' level sets and
//! default prices, the seeded per-job level draw, and the greedy guarantee.
//!
//! - A slack factor is a decimal with at most three decimals (`2`, `1.5`, `1.125`),
//!   stored in thousandths ([`kernel::service_level::Level::slack_milli`]); it must be at least 1.
//! - The default price per tick of a level with slack factor `sf` is
//!   `max(1, ceil(21 - sf))` whole units: `u(sf) = 21 - sf` for `sf` in `1..=20`, as
//!   in the thesis' experiments. It decreases monotonically (not strictly past 20)
//!   as `sf` grows, linearly like the thesis' Fig. 8, so a tighter deadline always
//!   costs at least as much. `--prices` overrides it, one whole price per level.
//! - With several levels, each job's level is drawn uniformly from the list, in job
//!   order, by a ChaCha8 generator seeded with `--seed` on stream [`LEVEL_STREAM`]
//!   (the synthetic workload uses another stream), with integer draws only; so a
//!   trace's levels depend on the seed and the level count alone. A single level
//!   draws nothing.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use thiserror::Error;

use kernel::service_level::{Level, LevelId, SLACK_ONE_MILLI};

use crate::units::{DecimalError, ListError, items, parse_decimal};
use replay::echo::echo;

/// Parsing service levels, prices and other numeric options.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum LevelError {
    #[error("slack factor {0}")]
    SlackSyntax(DecimalError),
    #[error("slack factor {} is below 1: a deadline cannot come before the work is done", echo(.0))]
    SlackBelowOne(String),
    #[error("slack factor {} is too large (at most 1000000)", echo(.0))]
    SlackTooLarge(String),
    #[error("slack factor {} is given twice{}; list each level once", echo(text), first_as(text, first))]
    SlackTwice { text: String, first: String },
    #[error("price {} is not a whole number from 1 to 4294967295", echo(.0))]
    Price(String),
    #[error("{0}")]
    List(#[from] ListError),
    #[error("{prices} prices given for {levels} levels: give one price per level")]
    PriceCount { prices: usize, levels: usize },
    #[error("{0} service levels given: at least 1 and at most {max} are supported", max = MAX_LEVELS)]
    LevelCount(usize),
    #[error("--alpha: {0}")]
    Alpha(DecimalError),
    #[error("{} in a list is not a whole number from {min} to {max}", echo(text))]
    Whole { text: String, min: u64, max: u64 },
}

/// How a repeated slack factor was first written, when it was written otherwise.
fn first_as(text: &str, first: &str) -> String {
    if text == first { String::new() } else { format!(" (first as {})", echo(first)) }
}

/// The ChaCha8 stream the level draw uses.
pub const LEVEL_STREAM: u64 = 1;

/// The most levels a run may use: the compiled kernel's level table, one number for
/// the options, the engine and the header check.
pub use replay::engine::service_level::MAX_LEVELS;

/// The largest slack factor accepted, in thousandths (`sf` = one million).
pub const SLACK_MAX_MILLI: u32 = 1_000_000_000;

/// Parses one slack factor (`2`, `1.5`) into thousandths, at least 1.
pub fn parse_slack(text: &str) -> Result<u32, LevelError> {
    let milli = match parse_decimal(text) {
        Ok(milli) => milli,
        Err(DecimalError::Negative(text)) => return Err(LevelError::SlackBelowOne(text)),
        Err(e) => return Err(LevelError::SlackSyntax(e)),
    };
    if milli < u64::from(SLACK_ONE_MILLI) {
        return Err(LevelError::SlackBelowOne(text.to_owned()));
    }
    u32::try_from(milli)
        .ok()
        .filter(|&m| m <= SLACK_MAX_MILLI)
        .ok_or_else(|| LevelError::SlackTooLarge(text.to_owned()))
}

/// Parses a comma-separated list of slack factors (`1,2,3` or `1.5,3`), each once.
pub fn parse_slack_list(text: &str) -> Result<Vec<u32>, LevelError> {
    let texts = items(text)?;
    let slacks = texts.iter().copied().map(parse_slack).collect::<Result<Vec<_>, _>>()?;
    check_count(slacks.len())?;
    for (i, slack) in slacks.iter().enumerate() {
        if let Some(first) = slacks[..i].iter().position(|s| s == slack) {
            return Err(LevelError::SlackTwice { text: texts[i].to_owned(), first: texts[first].to_owned() });
        }
    }
    Ok(slacks)
}

/// Parses a comma-separated list of whole prices, each at least 1.
pub fn parse_prices(text: &str) -> Result<Vec<u32>, LevelError> {
    items(text)?
        .into_iter()
        .map(|p| {
            p.trim().parse::<u32>().ok().filter(|&p| p >= 1).ok_or_else(|| LevelError::Price(p.to_owned()))
        })
        .collect()
}

fn check_count(count: usize) -> Result<(), LevelError> {
    if count == 0 || count > MAX_LEVELS { Err(LevelError::LevelCount(count)) } else { Ok(()) }
}

/// The default price per tick: `max(1, ceil(21 - sf))`, computed in thousandths.
pub fn default_price(slack_milli: u32) -> u32 {
    let left = (21 * SLACK_ONE_MILLI).saturating_sub(slack_milli);
    left.div_ceil(SLACK_ONE_MILLI).max(1)
}

/// The level table: one level per slack factor, with `prices` or the default prices.
pub fn build(slacks_milli: &[u32], prices: Option<&[u32]>) -> Result<Vec<Level>, LevelError> {
    check_count(slacks_milli.len())?;
    match prices {
        Some(prices) if prices.len() != slacks_milli.len() => {
            Err(LevelError::PriceCount { prices: prices.len(), levels: slacks_milli.len() })
        }
        Some(prices) => Ok(slacks_milli
            .iter()
            .zip(prices)
            .map(|(&slack_milli, &price_per_tick)| Level { slack_milli, price_per_tick })
            .collect()),
        None => Ok(slacks_milli
            .iter()
            .map(|&slack_milli| Level { slack_milli, price_per_tick: default_price(slack_milli) })
            .collect()),
    }
}

/// The thesis' set of `k` levels (Table 2): slack factors `1, 2, ..., k`, default prices.
pub fn thesis_set(k: u32) -> Vec<Level> {
    (1..=k).map(|sf| Level::whole(sf, default_price(sf.saturating_mul(SLACK_ONE_MILLI)))).collect()
}

/// One level, with the default price.
pub fn single(slack_milli: u32) -> Vec<Level> {
    vec![Level { slack_milli, price_per_tick: default_price(slack_milli) }]
}

/// The seeded, uniform, per-job level draw.
#[derive(Clone, Debug)]
pub struct LevelDraw {
    rng: ChaCha8Rng,
    count: u32,
}

impl LevelDraw {
    /// A draw over `count` levels seeded with `seed` on [`LEVEL_STREAM`].
    pub fn new(seed: u64, count: usize) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(LEVEL_STREAM);
        let count = u32::try_from(count.clamp(1, MAX_LEVELS)).unwrap_or(1);
        Self { rng, count }
    }

    /// The next job's level index. A single level draws nothing.
    pub fn next_level(&mut self) -> LevelId {
        if self.count <= 1 {
            return 0;
        }
        LevelId::try_from(self.rng.random_range(0..self.count)).unwrap_or(0)
    }
}

/// The greedy guarantee from the theorems: `1 - 1/f` for one level (Theorems 2 and
/// 5), and `(u_min / u_max) (1 - 1/f_min)` for several, which generalises the
/// two-level Corollaries 7 and 11, `(u_II / u_I)(1 - 1/f_I)`, to any number of levels
/// (our generalisation, not a theorem of the thesis). With one level the two agree.
pub fn greedy_bound(levels: &[Level]) -> f64 {
    let Some(f_min) = levels.iter().map(|l| l.slack_milli).min() else { return 0.0 };
    let u_min = levels.iter().map(|l| l.price_per_tick).min().unwrap_or(0);
    let u_max = levels.iter().map(|l| l.price_per_tick).max().unwrap_or(0);
    if u_max == 0 || f_min == 0 {
        return 0.0;
    }
    let f_min = f64::from(f_min) / f64::from(SLACK_ONE_MILLI);
    f64::from(u_min) / f64::from(u_max) * (1.0 - 1.0 / f_min)
}

#[cfg(test)]
mod tests;
