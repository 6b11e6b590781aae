//! How the waiting queue is ordered before a re-plan (the paper's section 3.1), and
//! when a waiting reservation is frozen in place (its section 4.2).

use serde::{Deserialize, Serialize};

use super::request::Reservation;
use crate::types::Tick;

/// The order in which the waiting queue is re-planned.
///
/// Variants are only ever added at the end: the discriminant is part of the log header.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Criterion {
    /// First in, first out: acceptance order.
    Fifo,
    /// Earliest deadline first.
    Edf,
    /// Least flexible first: smallest [`Reservation::flexibility`] at the time of the
    /// plan.
    LeastFlexibleFirst,
    /// Biggest job first: largest `nodes * estimate`.
    BiggestJobFirst,
    /// The paper's random baseline: ascending [`Reservation::shuffle_key`], which the
    /// host draws from its seeded generator.
    Shuffle,
}

/// A total order on reservations: the criterion's value, then the acceptance number.
/// Acceptance numbers are unique, so no two reservations compare equal and an
/// unstable sort gives one answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct SortKey {
    pub primary: u128,
    pub seq: u64,
}

impl Criterion {
    /// Every criterion, in declaration order.
    pub const ALL: [Self; 5] =
        [Self::Fifo, Self::Edf, Self::LeastFlexibleFirst, Self::BiggestJobFirst, Self::Shuffle];

    /// The sort key of `r` for a plan made at `now`.
    pub fn key(self, r: &Reservation, now: Tick) -> SortKey {
        let primary = match self {
            Self::Fifo => 0,
            Self::Edf => u128::from(r.deadline),
            Self::LeastFlexibleFirst => u128::from(r.flexibility(now)),
            // `u32 * u64` always fits in a `u128`; biggest first is the smallest
            // complement.
            Self::BiggestJobFirst => {
                u128::MAX.saturating_sub(u128::from(r.nodes).saturating_mul(u128::from(r.estimate)))
            }
            Self::Shuffle => u128::from(r.shuffle_key),
        };
        SortKey { primary, seq: r.seq }
    }

    /// A short stable name.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Fifo => "fifo",
            Self::Edf => "edf",
            Self::LeastFlexibleFirst => "lff",
            Self::BiggestJobFirst => "bjf",
            Self::Shuffle => "shuffle",
        }
    }
}

/// When an accepted reservation stops being re-planned and stays where it is until it
/// runs. The share is of its *waiting time*, measured from acceptance to the start it
/// was given then: a job accepted at `a` with start `s` is fixed at
/// `a + floor(share * (s - a))`. A later re-plan can move the start, but not that
/// moment; a job whose start comes first simply starts (starting fixes it too), and
/// only a job still waiting when its moment comes gets a `Fix` decision.
///
/// Variants are only ever added at the end: the discriminant is part of the log header.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Fixing {
    /// Re-plannable until it starts.
    #[default]
    Never,
    /// Fixed as soon as it is accepted (0% of the waiting time).
    AtAcceptance,
    /// After 25% of the waiting time.
    Quarter,
    /// After 50%.
    Half,
    /// After 75%.
    ThreeQuarters,
}

impl Fixing {
    /// Every fixing, in declaration order.
    pub const ALL: [Self; 5] =
        [Self::Never, Self::AtAcceptance, Self::Quarter, Self::Half, Self::ThreeQuarters];

    /// The share of the waiting time, in percent; `None` for [`Fixing::Never`].
    pub const fn percent(self) -> Option<u8> {
        match self {
            Self::Never => None,
            Self::AtAcceptance => Some(0),
            Self::Quarter => Some(25),
            Self::Half => Some(50),
            Self::ThreeQuarters => Some(75),
        }
    }

    /// When a job accepted at `accepted` with start `start` is fixed.
    pub fn fix_at(self, accepted: Tick, start: Tick) -> Tick {
        let Some(percent) = self.percent() else {
            return Tick::MAX;
        };
        let waiting = u128::from(start.saturating_sub(accepted));
        // `percent <= 75`, so the share is at most the waiting time and the sum is at
        // most `start`.
        let share = waiting.saturating_mul(u128::from(percent)).checked_div(100).unwrap_or(0);
        accepted.saturating_add(Tick::try_from(share).unwrap_or(Tick::MAX))
    }

    /// A short stable name.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Never => "never",
            Self::AtAcceptance => "at_acceptance",
            Self::Quarter => "quarter",
            Self::Half => "half",
            Self::ThreeQuarters => "three_quarters",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reservation::RequestKind;

    fn reservation(seq: u64, nodes: u32, estimate: Tick, ready: Tick, deadline: Tick) -> Reservation {
        Reservation {
            job: 0,
            seq,
            nodes,
            estimate,
            ready,
            deadline,
            kind: RequestKind::Flexible,
            shuffle_key: (seq as u32).wrapping_mul(2654435761),
            start: ready,
            fix_at: Tick::MAX,
            fixed: false,
        }
    }

    #[test]
    fn keys_order_by_the_criterion_then_by_acceptance() {
        let a = reservation(0, 1, 10, 0, 100); // Δ at 0: 90, area 10
        let b = reservation(1, 4, 10, 50, 70); // Δ at 0: 10, area 40
        let c = reservation(2, 4, 10, 0, 100); // Δ 90, area 40
        let sorted = |criterion: Criterion, now| {
            let mut v = [a, b, c];
            v.sort_unstable_by_key(|r| criterion.key(r, now));
            v.map(|r| r.seq)
        };
        assert_eq!(sorted(Criterion::Fifo, 0), [0, 1, 2]);
        assert_eq!(sorted(Criterion::Edf, 0), [1, 0, 2]);
        assert_eq!(sorted(Criterion::LeastFlexibleFirst, 0), [1, 0, 2]);
        // At 60, b's window has opened: Δ = 70 - 60 - 10 = 0; a and c have 30.
        assert_eq!(sorted(Criterion::LeastFlexibleFirst, 60), [1, 0, 2]);
        assert_eq!(sorted(Criterion::BiggestJobFirst, 0), [1, 2, 0]);
        assert_eq!(b.flexibility(65), 0);
    }

    #[test]
    fn fixing_times() {
        assert_eq!(Fixing::Never.fix_at(10, 110), Tick::MAX);
        assert_eq!(Fixing::AtAcceptance.fix_at(10, 110), 10);
        assert_eq!(Fixing::Quarter.fix_at(10, 110), 35);
        assert_eq!(Fixing::Half.fix_at(10, 111), 60);
        assert_eq!(Fixing::ThreeQuarters.fix_at(10, 110), 85);
        assert_eq!(Fixing::ThreeQuarters.fix_at(Tick::MAX - 1, Tick::MAX), Tick::MAX - 1);
    }
}
