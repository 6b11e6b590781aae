//! Service levels: a slack factor and a price, and the deadline they give a job.

use serde::{Deserialize, Serialize};

use crate::types::Tick;

/// Slack factors are fixed point with three decimals: `1500` means `sf = 1.5`.
pub const SLACK_ONE_MILLI: u32 = 1000;

/// One service level of the provider's offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Level {
    /// The slack factor in thousandths; at least [`SLACK_ONE_MILLI`].
    pub slack_milli: u32,
    /// The price of one tick of processing on this level.
    pub price_per_tick: u32,
}

impl Level {
    /// A level with a whole slack factor.
    pub const fn whole(slack: u32, price_per_tick: u32) -> Self {
        Self { slack_milli: slack.saturating_mul(SLACK_ONE_MILLI), price_per_tick }
    }

    /// The deadline of a job released at `release` with processing time `p`:
    /// `release + ceil(sf * p)`, or `None` when it does not fit in a [`Tick`].
    ///
    /// The product is taken in `u128`, where `u32 * u64` cannot overflow, so the
    /// only failure is a deadline past `Tick::MAX`.
    pub fn deadline(&self, release: Tick, p: Tick) -> Option<Tick> {
        let scaled = u128::from(self.slack_milli).checked_mul(u128::from(p))?;
        let slack_ticks = scaled.div_ceil(u128::from(SLACK_ONE_MILLI));
        let slack_ticks = Tick::try_from(slack_ticks).ok()?;
        release.checked_add(slack_ticks)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deadline_rounds_up() {
        let level = Level { slack_milli: 1500, price_per_tick: 1 };
        assert_eq!(level.deadline(10, 3), Some(15)); // 4.5 rounds up to 5
        assert_eq!(level.deadline(10, 4), Some(16));
        assert_eq!(Level::whole(1, 1).deadline(7, 5), Some(12));
    }

    #[test]
    fn deadline_overflow_is_none() {
        assert_eq!(Level::whole(2, 1).deadline(0, Tick::MAX), None);
        assert_eq!(Level::whole(1, 1).deadline(Tick::MAX, 1), None);
        assert_eq!(Level::whole(1, 1).deadline(Tick::MAX - 1, 1), Some(Tick::MAX));
    }
}
