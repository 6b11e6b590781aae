//! The vocabulary of the SLA model: the seven terms, weights, heuristics and orders,
//! requests, the configuration and the reasons for a rejection.

use serde::{Deserialize, Serialize};

use crate::types::{JobId, Tick};

/// One of the paper's seven quantities of a request (its §4).
///
/// Variants are only ever added at the end: the discriminant is part of the log format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Term {
    /// `TS`, the earliest start, in micro-hours.
    Ts,
    /// `TF`, the latest finish, in micro-hours.
    Tf,
    /// `tD`, the duration, in micro-hours.
    Td,
    /// `NCPU`, the node count, in millionths of a node.
    Ncpu,
    /// `A = NCPU * tD`, the size, in micro CPU-hours.
    A,
    /// `tT = tD / (TF - TS)`, the tightness, in millionths.
    Tt,
    /// `tL = TF - (TS + tD)`, the laxity, in micro-hours.
    Tl,
}

impl Term {
    pub const ALL: [Self; 7] = [Self::Ts, Self::Tf, Self::Td, Self::Ncpu, Self::A, Self::Tt, Self::Tl];

    /// The paper's spelling: `TS`, `TF`, `tD`, `NCPU`, `A`, `tT`, `tL`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Ts => "TS",
            Self::Tf => "TF",
            Self::Td => "tD",
            Self::Ncpu => "NCPU",
            Self::A => "A",
            Self::Tt => "tT",
            Self::Tl => "tL",
        }
    }

    /// The inverse of [`Term::name`], ignoring ASCII case (`ts`, `TS` and `Ts` are `TS`).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.name().eq_ignore_ascii_case(name))
    }

    /// The term's value for `request`, in the fixed point of the module documentation:
    /// times in micro-hours (`ticks * 1_000_000 / ticks_per_hour`, floor), `NCPU` in
    /// millionths, `A` in micro CPU-hours (`ncpu * td * 1_000_000 / ticks_per_hour`,
    /// floor of the whole product), `tT` in millionths (`td * 1_000_000 / (tf - ts)`,
    /// floor; 0 for an empty window, which a valid request never has).
    pub fn value(self, request: &Request, ticks_per_hour: u64) -> i128 {
        const MICRO: u128 = 1_000_000;
        let per_hour = u128::from(ticks_per_hour);
        let hours = |ticks: u128| ticks.saturating_mul(MICRO).checked_div(per_hour).unwrap_or(0);
        let micro = match self {
            Self::Ts => hours(u128::from(request.ts)),
            Self::Tf => hours(u128::from(request.tf)),
            Self::Td => hours(u128::from(request.td)),
            Self::Ncpu => u128::from(request.ncpu).saturating_mul(MICRO),
            Self::A => hours(u128::from(request.ncpu).saturating_mul(u128::from(request.td))),
            Self::Tt => {
                let window = request.tf.saturating_sub(request.ts);
                u128::from(request.td).saturating_mul(MICRO).checked_div(u128::from(window)).unwrap_or(0)
            }
            Self::Tl => hours(u128::from(request.tf.saturating_sub(request.ts.saturating_add(request.td)))),
        };
        // At most `2^32 * 2^64 * 10^6 < 2^117`: every value fits.
        i128::try_from(micro).unwrap_or(i128::MAX)
    }
}

/// The weight `w` of a term after the first: thousandths, or an infinity.
///
/// Variants are only ever added at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Weight {
    /// `w` in thousandths: `0.135` is `Milli(135)`, `-5` is `Milli(-5000)`.
    Milli(i32),
    /// `+inf`: the term dominates every finite one.
    PlusInf,
    /// `-inf`: the term, negated, dominates every finite one.
    MinusInf,
}

/// Which end of the priority comes first.
///
/// Variants are only ever added at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Direction {
    /// `H = min(...)`: the smallest priority first.
    Min,
    /// `H = max(...)`: the largest priority first.
    Max,
}

impl Direction {
    pub const fn name(self) -> &'static str {
        match self {
            Self::Min => "min",
            Self::Max => "max",
        }
    }
}

/// The paper's priority function (eqs. 6 and 7, and the three-term form of its
/// Figure 7): `dir(h1 + w1*h2 + w2*h3)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Heuristic {
    pub direction: Direction,
    pub h1: Term,
    pub second: Option<(Weight, Term)>,
    pub third: Option<(Weight, Term)>,
}

impl Heuristic {
    /// `dir(h1)`, a single term.
    pub const fn single(direction: Direction, h1: Term) -> Self {
        Self { direction, h1, second: None, third: None }
    }

    /// `dir(h1 + w*h2)`.
    pub const fn pair(direction: Direction, h1: Term, w: Weight, h2: Term) -> Self {
        Self { direction, h1, second: Some((w, h2)), third: None }
    }

    /// The priority `H` of `request`, not yet oriented by the direction.
    pub fn priority(&self, request: &Request, ticks_per_hour: u64) -> Priority {
        let mut p =
            Priority { infinite: 0, finite: self.h1.value(request, ticks_per_hour).saturating_mul(1000) };
        for (w, term) in [self.second, self.third].into_iter().flatten() {
            let h = term.value(request, ticks_per_hour);
            match w {
                Weight::Milli(m) => p.finite = p.finite.saturating_add(h.saturating_mul(i128::from(m))),
                Weight::PlusInf => p.infinite = p.infinite.saturating_add(h),
                Weight::MinusInf => p.infinite = p.infinite.saturating_sub(h),
            }
        }
        p
    }
}

/// A priority value `H`: compared first by the sum of the infinitely weighted terms,
/// then by `1000 * h1 +` the finitely weighted ones (field order is comparison order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Priority {
    pub infinite: i128,
    pub finite: i128,
}

/// The order in which a batch is fitted.
///
/// Variants are only ever added at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Order {
    Heuristic(Heuristic),
    /// A seeded random order (the baseline of the paper's Figure 3): ascending
    /// [`random_key`] of the seed and each request's submit index.
    Random {
        seed: u64,
    },
}

impl Order {
    /// The key the batch is sorted by, ascending, before the submit index: the priority,
    /// negated for `max`; for `Random`, `(0, random_key(seed, index))`.
    pub fn sort_key(&self, request: &Request, index: u64, ticks_per_hour: u64) -> Priority {
        match *self {
            Self::Heuristic(h) => {
                let p = h.priority(request, ticks_per_hour);
                match h.direction {
                    Direction::Min => p,
                    Direction::Max => {
                        Priority { infinite: p.infinite.saturating_neg(), finite: p.finite.saturating_neg() }
                    }
                }
            }
            Self::Random { seed } => Priority { infinite: 0, finite: i128::from(random_key(seed, index)) },
        }
    }
}

/// The random order's key: SplitMix64's finaliser of `seed + (index + 1) * 0x9E3779B97F4A7C15`
/// (wrapping). An integer hash, so the order is the same on every machine.
pub const fn random_key(seed: u64, index: u64) -> u64 {
    let mut z = seed.wrapping_add(index.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// An SLA request: `NCPU` nodes for `tD` ticks inside `[TS, TF]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Request {
    pub job: JobId,
    /// `TS`, the earliest start.
    pub ts: Tick,
    /// `TF`, the latest finish.
    pub tf: Tick,
    /// `tD`, the duration (the paper's estimate is exact).
    pub td: Tick,
    /// `NCPU`, the nodes it needs throughout.
    pub ncpu: u32,
}

impl Request {
    /// Whether the request can be fitted on `nodes` nodes at all: `tD > 0`,
    /// `0 < NCPU <= nodes` and `TS + tD <= TF`.
    pub const fn valid(&self, nodes: u32) -> bool {
        let fits_window = match self.ts.checked_add(self.td) {
            Some(end) => end <= self.tf,
            None => false,
        };
        self.td > 0 && self.ncpu > 0 && self.ncpu <= nodes && fits_window
    }
}

/// Everything that shapes the decisions besides the capacities.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Config {
    /// `m`, the machine's identical nodes; at least 1.
    pub nodes: u32,
    /// The length of a calendar slot in ticks; at least 1.
    pub slot_ticks: Tick,
    /// `Δt`, the step between tried starts: a positive multiple of `slot_ticks`.
    pub step_ticks: Tick,
    /// Ticks in an hour, for the terms' fixed point (3600 with one-second ticks).
    pub ticks_per_hour: u64,
    pub order: Order,
}

impl Config {
    /// `nodes` nodes, `slot_ticks`-tick slots, `Δt` one slot, one-second ticks.
    pub const fn new(nodes: u32, slot_ticks: Tick, order: Order) -> Self {
        Self { nodes, slot_ticks, step_ticks: slot_ticks, ticks_per_hour: 3600, order }
    }
}

// Each model has its own configuration errors; the pool and slot ones read alike.
/// Why a configuration cannot build a kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum ConfigError {
    NoNodes,
    ZeroSlotLength,
    /// `Δt` is zero or not a multiple of the slot length.
    BadStep {
        step_ticks: Tick,
        slot_ticks: Tick,
    },
    ZeroTicksPerHour,
}

impl core::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            Self::NoNodes => write!(f, "the machine needs at least one node"),
            Self::ZeroSlotLength => write!(f, "a slot must be at least one tick long"),
            Self::BadStep { step_ticks, slot_ticks } => write!(
                f,
                "the step between tried starts ({step_ticks} ticks) must be a positive multiple of the slot ({slot_ticks} ticks)"
            ),
            Self::ZeroTicksPerHour => write!(f, "an hour must be at least one tick long"),
        }
    }
}

/// Why a request was rejected or an event refused.
///
/// Variants are only ever added at the end: the discriminant is part of the log format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum RejectReason {
    /// At its turn, no tried start inside the horizon had `NCPU` nodes free throughout,
    /// and every tried start was inside the horizon.
    NoRoom,
    /// The pending batch already holds `B` requests (decided at the submit).
    BatchFull,
    /// Zero duration or nodes, more nodes than the machine, or `TS + tD > TF`
    /// (decided at the submit).
    Invalid,
    /// The window closed before the plan: no start `s >= t` of the form `TS + k*Δt`
    /// has `s + tD <= TF`.
    Late,
    /// No tried start inside the horizon fits, and some tried start's run ends past the
    /// calendar's horizon (it was not tried).
    Horizon,
    /// The submit's time is earlier than the kernel's.
    TimeWentBackwards,
    /// Still pending when a reset came: it was never fitted.
    Dropped,
}

impl RejectReason {
    pub const ALL: [Self; 7] = [
        Self::NoRoom,
        Self::BatchFull,
        Self::Invalid,
        Self::Late,
        Self::Horizon,
        Self::TimeWentBackwards,
        Self::Dropped,
    ];

    /// A short stable name.
    pub const fn name(self) -> &'static str {
        match self {
            Self::NoRoom => "no_room",
            Self::BatchFull => "batch_full",
            Self::Invalid => "invalid",
            Self::Late => "late",
            Self::Horizon => "horizon",
            Self::TimeWentBackwards => "time_went_backwards",
            Self::Dropped => "dropped",
        }
    }
}

impl core::fmt::Display for RejectReason {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

impl core::fmt::Display for Weight {
    /// `+ 0.8`, `- 5`, `+ 0.135`, `+ inf`, `- inf`: the operator and the magnitude.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            Self::PlusInf => f.write_str("+ inf"),
            Self::MinusInf => f.write_str("- inf"),
            Self::Milli(m) => {
                let sign = if m < 0 { '-' } else { '+' };
                let abs = m.unsigned_abs();
                let (whole, frac) = (abs / 1000, abs % 1000);
                if frac == 0 {
                    write!(f, "{sign} {whole}")
                } else if frac % 100 == 0 {
                    write!(f, "{sign} {whole}.{}", frac / 100)
                } else if frac % 10 == 0 {
                    write!(f, "{sign} {whole}.{:02}", frac / 10)
                } else {
                    write!(f, "{sign} {whole}.{frac:03}")
                }
            }
        }
    }
}

impl core::fmt::Display for Heuristic {
    /// As the paper writes it: `min(TF - 0.8*tD)`, `max(TS + inf*NCPU)`, `min(TS)`.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}({}", self.direction.name(), self.h1.name())?;
        for (w, term) in [self.second, self.third].into_iter().flatten() {
            write!(f, " {w}*{}", term.name())?;
        }
        f.write_str(")")
    }
}

impl core::fmt::Display for Order {
    /// The heuristic as the paper writes it, or `random(seed=N)`.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::Heuristic(h) => write!(f, "{h}"),
            Self::Random { seed } => write!(f, "random(seed={seed})"),
        }
    }
}
