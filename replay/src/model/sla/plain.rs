//! The model's rules restated plainly, for the reference and the audit: the terms and
//! the sort key in the documented fixed point, the tried starts of a request, and a
//! plain record of nodes in use per slot. Nothing here calls the kernel; only its
//! vocabulary types are shared.

use std::collections::VecDeque;

use kernel::Tick;
use kernel::sla::{Config, Direction, Order, Request, Term, Weight};

/// The value of `term` for `r`, in the fixed point of `kernel::sla`'s documentation:
/// micro-hours for times, millionths of a node, micro CPU-hours, millionths of
/// tightness. Computed in `u128`, where nothing overflows.
pub fn term_value(term: Term, r: &Request, ticks_per_hour: u64) -> i128 {
    let micro_hours = |ticks: u128| ticks * 1_000_000 / u128::from(ticks_per_hour);
    let value = match term {
        Term::Ts => micro_hours(r.ts.into()),
        Term::Tf => micro_hours(r.tf.into()),
        Term::Td => micro_hours(r.td.into()),
        Term::Ncpu => u128::from(r.ncpu) * 1_000_000,
        Term::A => micro_hours(u128::from(r.ncpu) * u128::from(r.td)),
        Term::Tt => u128::from(r.td) * 1_000_000 / u128::from(r.tf - r.ts),
        Term::Tl => micro_hours((r.tf - r.ts - r.td).into()),
    };
    value as i128
}

/// The seeded random key of request `index`: SplitMix64's output function applied to
/// `seed + (index + 1) * golden`, as documented in `kernel::sla`.
pub fn random_key(seed: u64, index: u64) -> u64 {
    let mut z = seed.wrapping_add((index + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The key a batch is sorted by (before the submit index): `(I, F)` ascending, the
/// priority negated for `max`. Sums and products saturate at the ends of `i128`, as
/// the kernel documents.
pub fn sort_key(order: &Order, r: &Request, index: u64, ticks_per_hour: u64) -> (i128, i128) {
    let h = match order {
        Order::Random { seed } => return (0, i128::from(random_key(*seed, index))),
        Order::Heuristic(h) => h,
    };
    let mut infinite: i128 = 0;
    let mut finite = term_value(h.h1, r, ticks_per_hour).saturating_mul(1000);
    for (weight, term) in [h.second, h.third].into_iter().flatten() {
        let value = term_value(term, r, ticks_per_hour);
        match weight {
            Weight::PlusInf => infinite = infinite.saturating_add(value),
            Weight::MinusInf => infinite = infinite.saturating_sub(value),
            Weight::Milli(w) => finite = finite.saturating_add(value.saturating_mul(i128::from(w))),
        }
    }
    match h.direction {
        Direction::Min => (infinite, finite),
        Direction::Max => (infinite.saturating_neg(), finite.saturating_neg()),
    }
}

/// Whether the request can be fitted at all on `nodes` nodes.
pub fn valid(r: &Request, nodes: u32) -> bool {
    r.td > 0 && r.ncpu > 0 && r.ncpu <= nodes && r.ts.checked_add(r.td).is_some_and(|end| end <= r.tf)
}

/// The slots `[s, s + td)` occupies: `floor(s / len) .. ceil((s + td) / len)`.
pub fn slots_of(s: Tick, td: Tick, slot_ticks: Tick) -> std::ops::Range<u64> {
    let end = u128::from(s) + u128::from(td);
    let last = end.div_ceil(u128::from(slot_ticks));
    s / slot_ticks..u64::try_from(last).unwrap_or(u64::MAX)
}

/// The answer first fit must give a valid request planned at `now`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fit {
    /// The first tried start whose slots all have room.
    Start(Tick),
    /// No tried start at all.
    Late,
    /// Nothing inside the horizon fits, and some tried start's run ends past it.
    Horizon,
    /// Every tried start lies inside the horizon and none fits.
    NoRoom,
}

impl std::fmt::Display for Fit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Start(t) => write!(f, "a start at {t}"),
            Self::Late => f.write_str("no start (late)"),
            Self::Horizon => f.write_str("no start inside the horizon"),
            Self::NoRoom => f.write_str("no start with room"),
        }
    }
}

/// First fit of `r` at `now` over `used` (nodes in use per slot), trying `TS + k*Δt`
/// one start at a time and every slot of each: brute force. The horizon is the
/// `horizon_slots` slots from `now`'s.
pub fn first_fit(config: &Config, horizon_slots: u64, used: &Usage, r: &Request, now: Tick) -> Fit {
    let (len, step) = (config.slot_ticks, config.step_ticks);
    let horizon_end = u128::from(now / len) + u128::from(horizon_slots);
    let latest = r.tf - r.td;
    let skipped = now.saturating_sub(r.ts).div_ceil(step);
    let mut s = match skipped.checked_mul(step).and_then(|d| r.ts.checked_add(d)) {
        Some(s) if s <= latest => s,
        _ => return Fit::Late,
    };
    loop {
        let slots = slots_of(s, r.td, len);
        if u128::from(slots.end) > horizon_end {
            // This and every later start run past the horizon.
            return Fit::Horizon;
        }
        if slots.clone().all(|slot| used.get(slot) + r.ncpu <= config.nodes) {
            return Fit::Start(s);
        }
        match s.checked_add(step) {
            Some(next) if next <= latest => s = next,
            _ => return Fit::NoRoom,
        }
    }
}

/// Nodes in use per slot, from `base` on (earlier slots are forgotten as time passes).
#[derive(Clone, Debug, Default)]
pub struct Usage {
    base: u64,
    used: VecDeque<u32>,
}

impl Usage {
    /// Nodes in use in `slot` (0 before the base: the past is forgotten).
    pub fn get(&self, slot: u64) -> u32 {
        slot.checked_sub(self.base)
            .and_then(|i| usize::try_from(i).ok())
            .and_then(|i| self.used.get(i).copied())
            .unwrap_or(0)
    }

    /// Adds `nodes` to every slot of `slots` and returns the highest count reached.
    pub fn add(&mut self, slots: std::ops::Range<u64>, nodes: u32) -> u32 {
        let mut highest = 0;
        for slot in slots.start.max(self.base)..slots.end {
            let i = (slot - self.base) as usize;
            if self.used.len() <= i {
                self.used.resize(i + 1, 0);
            }
            self.used[i] += nodes;
            highest = highest.max(self.used[i]);
        }
        highest
    }

    /// Forgets the slots before `base`.
    pub fn forget_before(&mut self, base: u64) {
        while self.base < base {
            if self.used.pop_front().is_none() {
                self.base = base;
                break;
            }
            self.base += 1;
        }
    }

    /// Empty, from `base`.
    pub fn reset(&mut self, base: u64) {
        self.used.clear();
        self.base = base;
    }
}

/// [`first_fit`] in one pass over the slots the tried starts cover, for long logs: each
/// slot is marked short of room once, and a start fits when its run holds no short
/// slot (prefix counts); the pass ends at the first fit. Every start is `TS + k*Δt`, all occupy the same number of
/// slots (a whole number of slots apart), so the runs are `first + k*(Δt/len)`.
pub fn first_fit_linear(config: &Config, horizon_slots: u64, used: &Usage, r: &Request, now: Tick) -> Fit {
    let (len, step) = (config.slot_ticks, config.step_ticks);
    let stride = step / len;
    let horizon_end = u128::from(now / len) + u128::from(horizon_slots);
    let latest = r.tf - r.td;
    let skipped = now.saturating_sub(r.ts).div_ceil(step);
    let first_start = match skipped.checked_mul(step).and_then(|d| r.ts.checked_add(d)) {
        Some(s) if s <= latest => s,
        _ => return Fit::Late,
    };
    let tried = (latest - first_start) / step + 1;
    let run = slots_of(first_start, r.td, len);
    let (first, n) = (u128::from(run.start), u128::from(run.end - run.start));
    // Starts whose run ends inside the horizon: `first + k * stride + n <= horizon_end`.
    let inside = match horizon_end.checked_sub(first + n) {
        None => 0,
        Some(room) => (room / u128::from(stride) + 1).min(u128::from(tried)),
    };
    let past_horizon = inside < u128::from(tried);
    // `shorts[i]`: how many of the slots `first .. first + i` are short of room, filled
    // only as far as the starts tried so far need, so that the pass stops at the
    // first fit as the kernel's does. Every index stays within `H` slots of now's.
    let mut shorts: Vec<u32> = vec![0];
    for k in 0..inside {
        let from = (k * u128::from(stride)) as usize;
        let to = from + n as usize;
        while shorts.len() <= to {
            let i = shorts.len() - 1;
            let short = used.get((first + i as u128) as u64) + r.ncpu > config.nodes;
            shorts.push(shorts[i] + u32::from(short));
        }
        if shorts[to] == shorts[from] {
            return Fit::Start(first_start + (k as u64) * step);
        }
    }
    if past_horizon { Fit::Horizon } else { Fit::NoRoom }
}
