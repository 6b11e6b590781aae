//! The setup frame's payload: which kernel made the records that follow, with its
//! configuration and its compiled capacities, so that a host can rebuild the same
//! kernel and re-make every decision.

use heapless::{String, Vec};
use serde::{Deserialize, Serialize};

use crate::reservation;
use crate::service_level::{self, Level, Policy};
use crate::sla;
use crate::tiers::{self, Resource};

/// The longest kernel version a setup carries.
pub const VERSION_MAX_BYTES: usize = 24;
/// The longest source name a setup carries.
pub const SOURCE_MAX_BYTES: usize = 48;

/// The first frame of a stream. `N` bounds the lists (service levels, tiers
/// resources); it is not in the bytes, so a device writes with its own `L` or `R` and
/// a host reads with a larger bound.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Setup<const N: usize> {
    /// The kernel crate's version on the device ([`crate::VERSION`]).
    pub kernel_version: String<VERSION_MAX_BYTES>,
    /// What wrote the stream, for example `kernel-firmware 0.1.0`; may be empty.
    pub source: String<SOURCE_MAX_BYTES>,
    /// The kernel, its configuration and its capacities.
    pub model: DeviceModel<N>,
}

/// Which kernel a stream's records come from, with what rebuilds it: the
/// configuration and every compiled capacity that can change a decision.
///
/// Variants are only ever added at the end: the discriminant is part of the format.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum DeviceModel<const N: usize> {
    /// `service_level::ServiceLevelKernel<M, Q, L>`.
    ServiceLevel {
        /// `M`, `Q` and `L`.
        machine_capacity: u32,
        queue_capacity: u32,
        level_capacity: u32,
        machines: u16,
        policy: Policy,
        levels: Vec<Level, N>,
    },
    /// `reservation::ReservationKernel<H, W, RUN, OFFERS>`.
    Reservation { slots: u32, waiting: u32, running: u32, offers: u32, config: reservation::Config },
    /// `tiers::TiersKernel<R, H, J>`.
    Tiers {
        resource_capacity: u32,
        slots: u32,
        jobs: u32,
        config: tiers::Config,
        resources: Vec<Resource, N>,
    },
    /// `sla::SlaKernel<H, B>`.
    Sla { slots: u32, batch: u32, config: sla::Config },
}

/// A capacity as the setup stores it; a capacity past `u32` is stored as `u32::MAX`,
/// which no host compiles, so it is refused there by name.
fn capacity(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

impl<const N: usize> DeviceModel<N> {
    /// The setup of a `service_level::ServiceLevelKernel<M, Q, L>` built from `config`.
    pub fn service_level<const M: usize, const Q: usize, const L: usize>(
        config: &service_level::Config<L>,
    ) -> Option<Self> {
        Some(Self::ServiceLevel {
            machine_capacity: capacity(M),
            queue_capacity: capacity(Q),
            level_capacity: capacity(L),
            machines: config.machines,
            policy: config.policy,
            levels: Vec::from_slice(&config.levels).ok()?,
        })
    }

    /// The setup of a `ReservationKernel<H, W, RUN, OFFERS>` built from `config`.
    pub fn reservation<const H: usize, const W: usize, const RUN: usize, const OFFERS: usize>(
        config: reservation::Config,
    ) -> Self {
        Self::Reservation {
            slots: capacity(H),
            waiting: capacity(W),
            running: capacity(RUN),
            offers: capacity(OFFERS),
            config,
        }
    }

    /// The setup of a `TiersKernel<R, H, J>` built from `config` and `resources`;
    /// `None` if there are more than `N` resources.
    pub fn tiers<const R: usize, const H: usize, const J: usize>(
        config: tiers::Config,
        resources: &[Resource],
    ) -> Option<Self> {
        Some(Self::Tiers {
            resource_capacity: capacity(R),
            slots: capacity(H),
            jobs: capacity(J),
            config,
            resources: Vec::from_slice(resources).ok()?,
        })
    }

    /// The setup of an `SlaKernel<H, B>` built from `config`.
    pub fn sla<const H: usize, const B: usize>(config: sla::Config) -> Self {
        Self::Sla { slots: capacity(H), batch: capacity(B), config }
    }

    /// The model's one name, as every layer spells it.
    pub const fn name(&self) -> &'static str {
        match self {
            Self::ServiceLevel { .. } => "service_level",
            Self::Reservation { .. } => "reservation",
            Self::Tiers { .. } => "tiers",
            Self::Sla { .. } => "sla",
        }
    }
}

impl<const N: usize> Setup<N> {
    /// A setup of `model`, stamped with this kernel's version and `source` (cut at
    /// [`SOURCE_MAX_BYTES`] bytes, on a character boundary).
    pub fn new(source: &str, model: DeviceModel<N>) -> Self {
        let mut text = String::new();
        for c in source.chars() {
            if text.push(c).is_err() {
                break;
            }
        }
        let mut kernel_version = String::new();
        for c in crate::VERSION.chars() {
            if kernel_version.push(c).is_err() {
                break;
            }
        }
        Self { kernel_version, source: text, model }
    }
}
