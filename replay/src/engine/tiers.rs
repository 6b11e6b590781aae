//! The tiers kernel for host use: one compiled size, boxed. Its capacities decide
//! decisions (a full job table rejects, the horizon bounds placements), so a log's
//! header names exactly these; `host-sim tiers` runs this size.

use kernel::contract::Kernel;
use kernel::tiers::{Config, Decision, Event, Outcome, Resource, TiersKernel};

use super::{EngineError, Stepper, boxed, on_big_stack};
use crate::format::TiersHeader;

/// `R`: resources (the paper's testbed has ten).
pub const RESOURCES: usize = 16;
/// `H`: calendar slots per resource; 2,048 one-minute slots reach 34 hours ahead.
pub const SLOTS: usize = 2048;
/// `J`: accepted, unfinished jobs.
pub const JOBS: usize = 1024;

/// The compiled tiers kernel: about 345 KiB of state.
pub type HostTiersKernel = TiersKernel<RESOURCES, SLOTS, JOBS>;

/// The tiers' own refusal.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    #[error("invalid tiers configuration: {0}")]
    Config(kernel::tiers::ConfigError),
}

/// A boxed [`HostTiersKernel`].
pub struct TiersEngine {
    inner: Box<HostTiersKernel>,
}

impl std::fmt::Debug for TiersEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TiersEngine").field("config", self.inner.config()).finish()
    }
}

/// The header of a log written by this engine.
pub fn header(config: Config, resources: &[Resource]) -> TiersHeader {
    TiersHeader {
        config,
        resources: resources.to_vec(),
        resource_capacity: RESOURCES as u32,
        slots: SLOTS as u32,
        jobs: JOBS as u32,
    }
}

impl TiersEngine {
    pub fn new(config: Config, resources: &[Resource]) -> Result<Self, EngineError> {
        // The state is built on a big stack and boxed there: a debug build's copies
        // would not fit a test thread's.
        let resources = resources.to_vec();
        let inner = on_big_stack(move || boxed(|| HostTiersKernel::new(config, &resources)))?;
        Ok(Self { inner: inner.map_err(|e| EngineError::model(ModelError::Config(e)))? })
    }

    /// The engine a log was written with; other capacities are refused by name.
    pub fn from_header(header: &TiersHeader) -> Result<Self, EngineError> {
        let found = [header.resource_capacity, header.slots, header.jobs].map(|c| Some(u64::from(c)));
        EngineError::first_differing("tiers", HostTiersKernel::CAPACITIES, &found)?;
        Self::new(header.config, &header.resources)
    }

    /// Handles one event and appends its decisions to `out`.
    pub fn step(&mut self, event: Event, out: &mut Vec<Decision>) -> Outcome {
        Stepper::step(&mut *self.inner, event, out)
    }

    pub fn kernel(&self) -> &HostTiersKernel {
        &self.inner
    }

    pub fn kernel_mut(&mut self) -> &mut HostTiersKernel {
        &mut self.inner
    }
}
