//! The SLA kernel for host use: one calendar size and a table of batch capacities
//! chosen at run time, boxed behind a trait object. Both capacities decide decisions (a
//! full batch rejects, the horizon bounds placements), so a log's header names exactly
//! these; `host-sim sla` takes the smallest batch capacity that holds the largest batch
//! its input forms ([`batch_for`]), so a run whose batches fit 4,096 keeps the size of
//! every log written before the table, and splits a batch larger than the largest.

use kernel::sla::{Config, Decision, Event, Outcome, SlaKernel};

use super::{EngineError, on_big_stack};
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

/// What the host needs of a kernel, whatever its batch capacity.
trait DynKernel: Send {
    fn step(&mut self, event: Event, sink: &mut dyn FnMut(Decision)) -> Outcome;
    fn config(&self) -> &Config;
    fn pending_len(&self) -> usize;
}

impl<const B: usize> DynKernel for HostSlaKernel<B> {
    fn step(&mut self, event: Event, sink: &mut dyn FnMut(Decision)) -> Outcome {
        SlaKernel::step(self, event, sink)
    }

    fn config(&self) -> &Config {
        SlaKernel::config(self)
    }

    fn pending_len(&self) -> usize {
        self.pending().len()
    }
}

/// A boxed SLA kernel of one of the compiled sizes.
pub struct SlaEngine {
    inner: Box<dyn DynKernel>,
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

fn build<const B: usize>(config: Config) -> Result<Box<dyn DynKernel>, EngineError> {
    Ok(Box::new(HostSlaKernel::<B>::new(config).map_err(EngineError::Sla)?))
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
            other => Err(EngineError::SlaBatch { found: other }),
        })??;
        Ok(Self { inner, batch })
    }

    /// The engine a log was written with; other capacities are refused by name.
    pub fn from_header(header: &SlaHeader) -> Result<Self, EngineError> {
        if header.slots != SLOTS as u32 {
            return Err(EngineError::SlaCapacity {
                what: "calendar slots (H)",
                found: u64::from(header.slots),
                compiled: SLOTS as u64,
            });
        }
        Self::with_batch(header.config, header.batch)
    }

    /// Handles one event and appends its decisions to `out`.
    pub fn step(&mut self, event: Event, out: &mut Vec<Decision>) -> Outcome {
        self.inner.step(event, &mut |d| out.push(d))
    }

    pub fn config(&self) -> &Config {
        self.inner.config()
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
