//! The vocabulary of the tiers model: tiers, resource groups, policies, resources, the
//! configuration and the reasons for a refusal.

use serde::{Deserialize, Serialize};

use crate::types::Tick;

/// The quality-of-service tier of an SLA (the paper's Gold, Silver and Bronze).
///
/// Variants are only ever added at the end: the discriminant is part of the log format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Tier {
    /// Start and deadline given; only on high-confidence resources, physically reserved.
    Gold,
    /// Start and deadline given; high-confidence resources first, then low-confidence.
    Silver,
    /// No window: start now, an internal loose deadline; only low-confidence resources.
    Bronze,
}

impl Tier {
    pub const ALL: [Self; 3] = [Self::Gold, Self::Silver, Self::Bronze];

    /// A short stable name.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Gold => "gold",
            Self::Silver => "silver",
            Self::Bronze => "bronze",
        }
    }

    /// 2 for Gold, 1 for Silver, 0 for Bronze: a job may only displace a job of the
    /// same or a lower rank.
    pub const fn rank(self) -> u8 {
        match self {
            Self::Gold => 2,
            Self::Silver => 1,
            Self::Bronze => 0,
        }
    }

    /// Whether the SLA carries a deadline that can be violated.
    pub const fn has_deadline(self) -> bool {
        !matches!(self, Self::Bronze)
    }
}

/// The confidence group of a resource.
///
/// Variants are only ever added at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Group {
    /// Reliable and physically reservable (the paper's cluster under Torque). Never
    /// leaves.
    High,
    /// Volunteer desktops: shared with their owners, may leave and return.
    Low,
}

impl Group {
    pub const fn name(self) -> &'static str {
        match self {
            Self::High => "high",
            Self::Low => "low",
        }
    }
}

/// Which mechanisms are on (the paper's §6.2 scenarios).
///
/// Variants are only ever added at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Policy {
    /// No tiers, no reservations, no rescheduling: every job may go anywhere.
    NoQos,
    /// Tiers and reservations, no rescheduling.
    Qos,
    /// Tiers, reservations and rescheduling (Algorithm 1, and re-placement of lost jobs).
    QosRes,
}

impl Policy {
    pub const ALL: [Self; 3] = [Self::NoQos, Self::Qos, Self::QosRes];

    pub const fn name(self) -> &'static str {
        match self {
            Self::NoQos => "no-qos",
            Self::Qos => "qos",
            Self::QosRes => "qos-res",
        }
    }

    /// The inverse of [`Policy::name`].
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.name() == name)
    }

    pub const fn tiered(self) -> bool {
        !matches!(self, Self::NoQos)
    }

    pub const fn reschedules(self) -> bool {
        matches!(self, Self::QosRes)
    }
}

/// One resource: its group, its nodes and its speed relative to the reference machine,
/// in thousandths (1000 runs one unit of work per tick).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Resource {
    pub group: Group,
    pub nodes: u32,
    pub speed_milli: u32,
}

impl Resource {
    /// The estimated run time of `work` (ticks on the reference machine) here:
    /// `ceil(work * 1000 / speed_milli)`, `None` past a [`Tick`].
    pub const fn estimate(&self, work: Tick) -> Option<Tick> {
        let Some(scaled) = work.checked_mul(1000) else { return None };
        if self.speed_milli == 0 {
            return None;
        }
        let speed = self.speed_milli as u64;
        let Some(q) = scaled.checked_div(speed) else { return None };
        match scaled.checked_rem(speed) {
            Some(0) => Some(q),
            _ => q.checked_add(1),
        }
    }
}

/// Everything that shapes the decisions besides the resources and the capacities.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Config {
    /// The length of a calendar slot in ticks; at least 1.
    pub slot_ticks: Tick,
    pub policy: Policy,
    /// A waiting job is a rescheduling candidate only when its laxity, in thousandths,
    /// is strictly above this (eq. 1; 1000 is a laxity of 1).
    pub laxity_threshold_milli: u64,
    /// A Bronze job's internal deadline, in ticks after its submission (a day by default).
    pub bronze_deadline: Tick,
}

impl Config {
    /// One-minute slots (with one-second ticks), a laxity threshold of 1 and a day for
    /// Bronze.
    pub const fn new(policy: Policy) -> Self {
        Self { slot_ticks: 60, policy, laxity_threshold_milli: 1000, bronze_deadline: 86_400 }
    }
}

/// Why a configuration cannot build a kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum ConfigError {
    ZeroSlotLength,
    /// No resources, or more than the compiled capacity `R` (or 255).
    ResourceCount {
        given: usize,
        capacity: usize,
    },
    /// A resource with no nodes or a zero speed.
    BadResource {
        index: usize,
    },
}

// The same `Display` shape as every model's configuration error, over its own variants.
impl core::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            Self::ZeroSlotLength => write!(f, "a slot must be at least one tick long"),
            Self::ResourceCount { given, capacity } => {
                write!(f, "{given} resources given, the kernel holds 1 to {capacity}")
            }
            Self::BadResource { index } => write!(f, "resource {index} has no nodes or a zero speed"),
        }
    }
}

// Every model has its own reject reasons (their discriminants are in the log format);
// the attributes and the first variants read alike.
/// Why a request was rejected or an event refused.
///
/// Variants are only ever added at the end: the discriminant is part of the log format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum RejectReason {
    /// No allowed resource has room for the job inside its window (after rescheduling,
    /// under `qos-res`).
    NoRoom,
    /// The job table (`J`) is full.
    TableFull,
    /// Zero work, or a window with `deadline < ready`.
    BadRequest,
    /// The window closes before the job could run even if it started now.
    WindowPassed,
    /// The job number is already held.
    DuplicateJob,
    /// The event's time is earlier than the kernel's.
    TimeWentBackwards,
    /// A finish for a job that is not running.
    NotRunning,
    /// A resource index past the configured resources.
    UnknownResource,
    /// A leave for a high-confidence resource (they never fail), or a return for an
    /// available one, or a leave for an absent one.
    BadAvailability,
    /// An estimate or a window end does not fit in a [`Tick`].
    Overflow,
}

impl RejectReason {
    pub const fn name(self) -> &'static str {
        match self {
            Self::NoRoom => "no_room",
            Self::TableFull => "table_full",
            Self::BadRequest => "bad_request",
            Self::WindowPassed => "window_passed",
            Self::DuplicateJob => "duplicate_job",
            Self::TimeWentBackwards => "time_went_backwards",
            Self::NotRunning => "not_running",
            Self::UnknownResource => "unknown_resource",
            Self::BadAvailability => "bad_availability",
            Self::Overflow => "overflow",
        }
    }
}

impl core::fmt::Display for RejectReason {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}
