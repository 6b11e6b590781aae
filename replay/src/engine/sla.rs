//! The SLA kernel for host use: one calendar size and a table of batch capacities
//! chosen at run time, boxed behind a trait object. Both capacities decide decisions (a
//! full batch rejects, the horizon bounds placements), so a log's header names exactly
//! these; `host-sim sla` takes the smallest batch capacity that holds the largest batch
//! its input forms ([`batch_for`]), so a run whose batches fit 4,096 keeps the size of
//! every log written before the table, and splits a batch larger than the largest.

use kernel::contract::Kernel;
use kernel::sla::{Config, Decision, Event, Outcome, SlaKernel};

use super::{EngineError, Stepper, on_big_stack};
use crate::format::SlaHeader;

/// `H`: calendar slots; 65,536 one-minute slots reach 45 days ahead (a generated job
/// set's 300 hours in six-minute slots take 3,000).
pub const SLOTS: usize = 65_536;
/// `B`: the batch capacities compiled in, smallest first. The first holds an hour of
/// the busiest shared trace; the others an hour of a trace with a million jobs.
pub const BATCHES: [u32; 3] = [4096, 16_384, 65_536];
/// `B` of [`SlaEngine::new`], the smallest of [`BATCHES`].
pub const BATCH: usize = BATCHES[0] as usize;

/// The compiled SLA kernel with a batch of `B`: 852,128 bytes of state on x86_64 at
/// the smallest `B`, 5.8 MB at the largest (80 bytes a pending request).
pub type HostSlaKernel<const B: usize> = SlaKernel<SLOTS, B>;

/// The SLA's own refusals.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    #[error("the log's SLA kernel has a batch (B) of {found}; this build has 4096, 16384 or 65536")]
    Batch { found: u32 },
    #[error("invalid SLA configuration: {0}")]
    Config(kernel::sla::ConfigError),
}

impl From<ModelError> for EngineError {
    fn from(error: ModelError) -> Self {
        Self::model(error)
    }
}

/// A kernel of any batch capacity whose batch can be read.
trait Batches: Stepper<Config, Event, Decision, Outcome> {
    fn pending_len(&self) -> usize;
}

impl<const B: usize> Batches for HostSlaKernel<B> {
    fn pending_len(&self) -> usize {
        self.pending().len()
    }
}

/// An SLA kernel of any compiled size, as the host's run loop drives it.
pub type SlaStepper = dyn Stepper<Config, Event, Decision, Outcome>;

/// A boxed SLA kernel of one of the compiled sizes.
pub struct SlaEngine {
    inner: Box<dyn Batches>,
    batch: u32,
}

impl std::fmt::Debug for SlaEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SlaEngine").field("config", self.inner.config()).field("batch", &self.batch).finish()
    }
}

/// The smallest compiled batch capacity that holds `requests` pending requests, or the
/// largest when none does (a host then plans a full batch early, see `host-sim sla`).
pub fn batch_for(requests: usize) -> u32 {
    let last = BATCHES[BATCHES.len() - 1];
    BATCHES.into_iter().find(|&b| usize::try_from(b).is_ok_and(|b| b >= requests)).unwrap_or(last)
}

/// The header of a log written by an engine of the smallest batch capacity.
pub fn header(config: Config) -> SlaHeader {
    header_with(config, BATCHES[0])
}

/// The header of a log written by an engine of batch capacity `batch`.
pub fn header_with(config: Config, batch: u32) -> SlaHeader {
    SlaHeader { config, slots: SLOTS as u32, batch }
}

fn build<const B: usize>(config: Config) -> Result<Box<dyn Batches>, EngineError> {
    Ok(Box::new(HostSlaKernel::<B>::new(config).map_err(ModelError::Config)?))
}

impl SlaEngine {
    /// The kernel of the smallest batch capacity.
    pub fn new(config: Config) -> Result<Self, EngineError> {
        Self::with_batch(config, BATCHES[0])
    }

    /// The kernel of batch capacity `batch`, one of [`BATCHES`].
    pub fn with_batch(config: Config, batch: u32) -> Result<Self, EngineError> {
        // Built on a big stack and boxed there: a debug build's copies of the largest
        // kernel would not fit a test thread's stack.
        let inner = on_big_stack(move || match batch {
            4096 => build::<4096>(config),
            16_384 => build::<16_384>(config),
            65_536 => build::<65_536>(config),
            other => Err(ModelError::Batch { found: other }.into()),
        })??;
        Ok(Self { inner, batch })
    }

    /// The engine a log was written with; other capacities are refused by name.
    pub fn from_header(header: &SlaHeader) -> Result<Self, EngineError> {
        // `B` is checked against its table.
        let found = [Some(u64::from(header.slots)), None];
        EngineError::first_differing("SLA", HostSlaKernel::<BATCH>::CAPACITIES, &found)?;
        Self::with_batch(header.config, header.batch)
    }

    /// Handles one event and appends its decisions to `out`.
    pub fn step(&mut self, event: Event, out: &mut Vec<Decision>) -> Outcome {
        self.inner.step(event, out)
    }

    /// `B`, the batch capacity compiled into this engine.
    pub const fn batch_capacity(&self) -> u32 {
        self.batch
    }

    /// Requests waiting for the next plan.
    pub fn pending_len(&self) -> usize {
        self.inner.pending_len()
    }
}

/// The engine drives as its kernel does, so that a loop over any SLA kernel takes it.
impl Stepper<Config, Event, Decision, Outcome> for SlaEngine {
    fn step(&mut self, event: Event, out: &mut Vec<Decision>) -> Outcome {
        self.inner.step(event, out)
    }

    fn config(&self) -> &Config {
        self.inner.config()
    }

    fn state_bytes(&self) -> usize {
        self.inner.state_bytes()
    }

    fn capacities(&self) -> &'static [(&'static str, usize)] {
        self.inner.capacities()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> Config {
        Config {
            nodes: 4,
            slot_ticks: 60,
            step_ticks: 60,
            ticks_per_hour: 3600,
            order: kernel::sla::Order::Random { seed: 1 },
        }
    }

    #[test]
    fn the_smallest_batch_that_holds_the_input_is_chosen() {
        assert_eq!(batch_for(0), 4096);
        assert_eq!(batch_for(4096), 4096);
        assert_eq!(batch_for(4097), 16_384);
        assert_eq!(batch_for(65_536), 65_536);
        assert_eq!(batch_for(1_000_000), 65_536);
        let engine = SlaEngine::from_header(&header_with(config(), 65_536)).unwrap();
        assert_eq!((engine.batch_capacity(), engine.pending_len()), (65_536, 0));
    }

    #[test]
    fn other_capacities_are_refused_by_name() {
        let err = SlaEngine::from_header(&header_with(config(), 1024)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the log's SLA kernel has a batch (B) of 1024; this build has 4096, 16384 or 65536"
        );
        let mut header = header(config());
        header.slots = 4096;
        let err = SlaEngine::from_header(&header).unwrap_err();
        assert_eq!(err.to_string(), "the log's SLA kernel has 4096 calendar slots (H); this build has 65536");
    }
}
