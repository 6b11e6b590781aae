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
    /// The product is taken in `u64` when it fits and in `u128` otherwise, where
    /// `u32 * u64` cannot overflow, so the only failure is a deadline past
    /// `Tick::MAX`. (A `u128` division is a call to a library routine; the `u64` one
    /// by a constant is a multiplication.)
    pub fn deadline(&self, release: Tick, p: Tick) -> Option<Tick> {
        let slack_ticks = match u64::from(self.slack_milli).checked_mul(p) {
            Some(scaled) => scaled.div_ceil(u64::from(SLACK_ONE_MILLI)),
            None => {
                let scaled = u128::from(self.slack_milli).checked_mul(u128::from(p))?;
                Tick::try_from(scaled.div_ceil(u128::from(SLACK_ONE_MILLI))).ok()?
            }
        };
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
    fn both_widths_give_the_same_deadline() {
        let slacks = [1000, 1001, 1500, 2000, 20_000, u32::MAX];
        let values = [0, 1, 2, 999, 1000, 1001, u64::from(u32::MAX), u64::MAX / 2000, u64::MAX / 3, u64::MAX];
        for slack_milli in slacks {
            let level = Level { slack_milli, price_per_tick: 1 };
            for release in values {
                for p in values {
                    let wide = u128::from(slack_milli) * u128::from(p);
                    let want = Tick::try_from(wide.div_ceil(1000)).ok().and_then(|s| release.checked_add(s));
                    assert_eq!(level.deadline(release, p), want, "{level:?} {release} {p}");
                }
            }
        }
    }

    #[test]
    fn deadline_overflow_is_none() {
        assert_eq!(Level::whole(2, 1).deadline(0, Tick::MAX), None);
        assert_eq!(Level::whole(1, 1).deadline(Tick::MAX, 1), None);
        assert_eq!(Level::whole(1, 1).deadline(Tick::MAX - 1, 1), Some(Tick::MAX));
    }
}
