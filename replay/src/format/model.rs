//! Which model a log records ([`Model`]), the format version each model needs, and
//! each model's part of the header: what rebuilds its kernel.

use kernel::reservation::Config as ReservationConfig;
use kernel::service_level::Policy;
use serde::{Deserialize, Serialize};

/// Which model a log records, and what rebuilds its kernel. A log holds one model's
/// records. Variants are only added at the end (the index is in the bytes), so a new
/// model leaves the headers of the others as they were.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Model {
    /// Service levels on EDD queues (Lezama 2012): the kernel is rebuilt from the
    /// header's `machines`, `queue_capacity`, `policy` and `levels`.
    ServiceLevel,
    /// Flexible advance reservations (Netto et al. 2007); the service-level fields
    /// are unused.
    Reservation(ReservationHeader),
    /// Gold, Silver and Bronze over reliable and volunteer resources (Tomás et al.);
    /// the service-level fields are unused.
    Tiers(TiersHeader),
    /// SLA priority heuristics on a parallel machine (Yarmolenko and Sakellariou);
    /// the service-level fields are unused. Version 5 on.
    Sla(SlaHeader),
}

impl Model {
    /// The version a log of this model is stamped with: the oldest whose readers read
    /// it. Version 5 changed nothing for the first three models, so their logs are
    /// version 4 logs, byte for byte (the committed logs did not change), and stay
    /// readable by version 4 readers; an SLA log needs a version 5 reader.
    pub const fn format_version(&self) -> u16 {
        match self {
            Self::ServiceLevel | Self::Reservation(_) | Self::Tiers(_) => 4,
            Self::Sla(_) => 5,
        }
    }
}

/// The oldest version whose readers know `policy`: first fit is as old as the
/// format; the other four policies came with version 5.
pub const fn policy_format_version(policy: Policy) -> u16 {
    match policy {
        Policy::FirstFit => 2,
        Policy::BestFit | Policy::WorstFit | Policy::LeastLoaded | Policy::RoundRobin => 5,
    }
}

/// What rebuilds an SLA kernel: its configuration (nodes, slot length, `Δt`, ticks per
/// hour, the order) and its compiled capacities.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SlaHeader {
    pub config: kernel::sla::Config,
    /// `H`, the calendar's slots.
    pub slots: u32,
    /// `B`, the pending batch's requests.
    pub batch: u32,
}

/// What rebuilds a tiers kernel: its configuration (slot length, policy, laxity
/// threshold, Bronze internal deadline), its resources (group, nodes, speed) and its
/// compiled capacities.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TiersHeader {
    pub config: kernel::tiers::Config,
    pub resources: Vec<kernel::tiers::Resource>,
    /// `R`, the resources the kernel holds.
    pub resource_capacity: u32,
    /// `H`, the calendar slots per resource.
    pub slots: u32,
    /// `J`, the accepted unfinished jobs.
    pub jobs: u32,
}

/// What rebuilds a reservation kernel: its configuration and its compiled capacities.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReservationHeader {
    /// Nodes, slot length, criterion, fixing rule and offer trials, in that order.
    pub config: ReservationConfig,
    /// `H`, the calendar's slots.
    pub slots: u32,
    /// `W`, the waiting reservations.
    pub waiting: u32,
    /// `RUN`, the running reservations.
    pub running: u32,
    /// `OFFERS`, the offers per rejection.
    pub offers: u16,
}
