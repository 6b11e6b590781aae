//! The SLA kernel for host use: one compiled size, boxed. Its capacities decide
//! decisions (a full batch rejects, the horizon bounds placements), so a log's header
//! names exactly these, and `host-sim sla` writes its logs with this size.

use kernel::sla::{Config, Decision, Event, Outcome, SlaKernel};

use super::{EngineError, on_big_stack};
use crate::format::SlaHeader;

/// `H`: calendar slots; 65,536 one-minute slots reach 45 days ahead (a generated job
/// set's 300 hours in six-minute slots take 3,000).
pub const SLOTS: usize = 65_536;
/// `B`: pending requests per batch; an hour of the busiest shared trace holds fewer.
pub const BATCH: usize = 4096;

/// The compiled SLA kernel: 589,952 bytes of state on x86_64.
pub type HostSlaKernel = SlaKernel<SLOTS, BATCH>;

/// A boxed [`HostSlaKernel`].
pub struct SlaEngine {
    inner: Box<HostSlaKernel>,
}

impl std::fmt::Debug for SlaEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SlaEngine").field("config", self.inner.config()).finish()
    }
}

/// The header of a log written by this engine.
pub fn header(config: Config) -> SlaHeader {
    SlaHeader { config, slots: SLOTS as u32, batch: BATCH as u32 }
}

impl SlaEngine {
    pub fn new(config: Config) -> Result<Self, EngineError> {
        // Built on a big stack and boxed there: a debug build's copies of 576 KiB would
        // not fit a test thread's stack.
        let inner = on_big_stack(move || HostSlaKernel::new(config).map(Box::new))?;
        Ok(Self { inner: inner.map_err(EngineError::Sla)? })
    }

    /// The engine a log was written with; other capacities are refused by name.
    pub fn from_header(header: &SlaHeader) -> Result<Self, EngineError> {
        let pairs =
            [("calendar slots (H)", header.slots, SLOTS as u32), ("batch (B)", header.batch, BATCH as u32)];
        if let Some(&(what, found, compiled)) = pairs.iter().find(|(_, found, compiled)| found != compiled) {
            return Err(EngineError::SlaCapacity {
                what,
                found: u64::from(found),
                compiled: u64::from(compiled),
            });
        }
        Self::new(header.config)
    }

    /// Handles one event and appends its decisions to `out`.
    pub fn step(&mut self, event: Event, out: &mut Vec<Decision>) -> Outcome {
        self.inner.step(event, &mut |d| out.push(d))
    }

    pub fn kernel(&self) -> &HostSlaKernel {
        &self.inner
    }
}
