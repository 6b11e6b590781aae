//! Which model a log records ([`Model`]), the format version each model needs, and
//! each model's part of the header: what rebuilds its kernel, and nothing of another
//! model's.

use kernel::reservation::Config as ReservationConfig;
use kernel::service_level::{Level, Policy};
use serde::{Deserialize, Serialize};

/// A header field that is out of its range.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("header field `{field}`: {problem}")]
pub struct HeaderError {
    /// The field, as `docs/log-format.md` names it (`settings.alpha` for a setting).
    pub field: String,
    pub problem: String,
}

pub(crate) fn fail(field: impl Into<String>, problem: impl Into<String>) -> HeaderError {
    HeaderError { field: field.into(), problem: problem.into() }
}

/// A model's part of the header, held to its ranges: every model's part implements
/// it (the four in `check.rs`; a new model's in `model/NAME.rs`, beside its header part), and
/// [`Header::check`](super::Header::check) picks it by the model.
pub trait CheckedPart {
    /// Checks the part's fields; `version` is the log's format version.
    fn check(&self, version: u16) -> Result<(), HeaderError>;
}

/// Which model a log records, with its part of the header: what rebuilds its kernel.
/// A log holds one model's records. Variants are only added at the end (the index is
/// in the bytes), so a new model leaves the headers of the others as they were.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Model {
    /// Service levels on EDD queues (Lezama 2012). Until version 5 its fields were
    /// the header's own, at its top, and every other model wrote them as unused.
    ServiceLevel(ServiceLevelHeader),
    /// Flexible advance reservations (Netto et al. 2007).
    Reservation(ReservationHeader),
    /// Gold, Silver and Bronze over reliable and volunteer resources (Tomás et al.).
    Tiers(TiersHeader),
    /// SLA priority heuristics on a parallel machine (Yarmolenko and Sakellariou).
    /// Version 5 on.
    Sla(SlaHeader),
}

impl Model {
    /// The version a log of this model is stamped with: the oldest whose readers read
    /// it. Version 6 gave every model its own part of the header, so every model's
    /// logs are version 6 logs.
    pub const fn format_version(&self) -> u16 {
        let _ = self;
        6
    }
}

impl From<ServiceLevelHeader> for Model {
    fn from(header: ServiceLevelHeader) -> Self {
        Self::ServiceLevel(header)
    }
}

impl From<ReservationHeader> for Model {
    fn from(header: ReservationHeader) -> Self {
        Self::Reservation(header)
    }
}

impl From<TiersHeader> for Model {
    fn from(header: TiersHeader) -> Self {
        Self::Tiers(header)
    }
}

impl From<SlaHeader> for Model {
    fn from(header: SlaHeader) -> Self {
        Self::Sla(header)
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

/// What rebuilds a service-level kernel: the machines in use, each machine's queue
/// capacity (it decides `queue_full`), the policy and the level table (the records
/// also recompute deadlines from it).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ServiceLevelHeader {
    pub machines: u16,
    pub queue_capacity: u32,
    pub policy: Policy,
    /// The service levels, by index.
    pub levels: Vec<Level>,
}

impl ServiceLevelHeader {
    pub fn new(machines: u16, queue_capacity: u32, policy: Policy, levels: Vec<Level>) -> Self {
        Self { machines, queue_capacity, policy, levels }
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
