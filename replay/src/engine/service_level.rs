//! The service-level kernel sized at run time: the machine count and queue capacity come from a
//! command line or a log header, and pick one of a fixed table of compiled sizes.
//!
//! The queue capacity changes decisions (a full queue rejects), so it must match a
//! compiled size exactly. The machine capacity does not (only the machines in use
//! are ever looked at), so the smallest compiled size that holds them is used.
//!

use kernel::service_level::{Config, Decision, Event, Level, Outcome, Policy, ServiceLevelKernel};

use super::{EngineError, Stepper, boxed, on_big_stack};
use crate::format::ServiceLevelHeader;

/// Queue capacities that are compiled in; a run must name one of them. 32 is the
/// firmware's (`embedded/firmware`: `ServiceLevelKernel<4, 32, 8>`), so that a device's record
/// stream verifies on the host (`replay import`).
pub const QUEUE_CAPACITIES: &[u32] = &[16, 32, 64, 256, 1024];
/// Deep enough that no shared trace fills a queue in the thesis' grid: the deepest
/// queue seen there is 102 (HPC2N, one machine, sf 20, weekly windows), and every run
/// reports its own deepest queue.
pub const DEFAULT_QUEUE_CAPACITY: u32 = 256;
/// Machine capacities that are compiled in.
const MACHINE_CAPACITIES: &[u16] = &[1, 4, 16, 64];
/// The most machines a run may use.
pub const MAX_MACHINES: u16 = 64;
/// The most service levels a run may use.
pub const MAX_LEVELS: usize = 32;

/// The service level's own refusals.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    #[error(
        "queue capacity {0} is not compiled in; choose one of {list}",
        list = QUEUE_CAPACITIES.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
    )]
    QueueCapacity(u32),
    #[error("{0} machines asked for; at most {MAX_MACHINES} are supported")]
    Machines(u16),
    #[error("{0} service levels given; at most {MAX_LEVELS} are supported")]
    Levels(usize),
    #[error("invalid configuration: {0}")]
    Config(kernel::service_level::ConfigError),
}

impl From<ModelError> for EngineError {
    fn from(error: ModelError) -> Self {
        Self::model(error)
    }
}

/// A kernel of any compiled size whose queues can be read.
trait Queues: Stepper<Config<MAX_LEVELS>, Event, Decision, Outcome> {
    fn queue_len(&self, machine: u16) -> usize;
}

impl<const M: usize, const Q: usize> Queues for ServiceLevelKernel<M, Q, MAX_LEVELS> {
    fn queue_len(&self, machine: u16) -> usize {
        self.machines().get(usize::from(machine)).map_or(0, |m| m.queue().len())
    }
}

/// A kernel of a compiled size behind a trait object.
pub struct ServiceLevelEngine {
    inner: Box<dyn Queues>,
    machine_capacity: u16,
    queue_capacity: u32,
}

impl std::fmt::Debug for ServiceLevelEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServiceLevelEngine")
            .field("machine_capacity", &self.machine_capacity)
            .field("queue_capacity", &self.queue_capacity)
            .finish()
    }
}

fn build<const M: usize, const Q: usize>(config: Config<MAX_LEVELS>) -> Result<Box<dyn Queues>, EngineError> {
    Ok(boxed(|| ServiceLevelKernel::<M, Q, MAX_LEVELS>::new(config)).map_err(ModelError::Config)?)
}

/// Expands to a match over every (machine capacity, queue capacity) pair.
macro_rules! dispatch {
    ($m:expr, $q:expr, $config:expr; $($mc:literal),+; $qs:tt) => {
        match $m {
            $( $mc => dispatch!(@q $mc, $q, $config; $qs), )+
            _ => Err(ModelError::Machines($m).into()),
        }
    };
    (@q $mc:literal, $q:expr, $config:expr; [$($qc:literal),+]) => {
        match $q {
            $( $qc => build::<$mc, $qc>($config), )+
            other => Err(ModelError::QueueCapacity(other).into()),
        }
    };
}

impl ServiceLevelEngine {
    pub fn new(
        machines: u16,
        queue_capacity: u32,
        policy: Policy,
        levels: &[Level],
    ) -> Result<Self, EngineError> {
        if machines > MAX_MACHINES {
            return Err(ModelError::Machines(machines).into());
        }
        if !QUEUE_CAPACITIES.contains(&queue_capacity) {
            return Err(ModelError::QueueCapacity(queue_capacity).into());
        }
        let levels = heapless::Vec::from_slice(levels).map_err(|_| ModelError::Levels(levels.len()))?;
        let config = Config { machines, policy, levels };
        let machine_capacity = MACHINE_CAPACITIES
            .iter()
            .copied()
            .find(|&c| c >= machines)
            .ok_or(ModelError::Machines(machines))?;
        let inner = on_big_stack(
            move || dispatch!(machine_capacity, queue_capacity, config; 1, 4, 16, 64; [16, 32, 64, 256, 1024]),
        )??;
        Ok(Self { inner, machine_capacity, queue_capacity })
    }

    /// The engine a log was written with.
    pub fn from_header(header: &ServiceLevelHeader) -> Result<Self, EngineError> {
        Self::new(header.machines, header.queue_capacity, header.policy, &header.levels)
    }

    /// Handles one event and appends the decisions it caused to `out`.
    pub fn step(&mut self, event: Event, out: &mut Vec<Decision>) -> Outcome {
        self.inner.step(event, out)
    }

    pub fn queue_len(&self, machine: u16) -> usize {
        self.inner.queue_len(machine)
    }

    /// `size_of` the kernel behind the engine.
    pub fn state_bytes(&self) -> usize {
        self.inner.state_bytes()
    }

    pub fn queue_capacity(&self) -> u32 {
        self.queue_capacity
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_unknown_sizes_by_name() {
        let levels = [Level::whole(2, 19)];
        let err = ServiceLevelEngine::new(4, 100, Policy::FirstFit, &levels).unwrap_err();
        assert_eq!(
            err.to_string(),
            "queue capacity 100 is not compiled in; choose one of 16, 32, 64, 256, 1024"
        );
        let err = ServiceLevelEngine::new(65, 16, Policy::FirstFit, &levels).unwrap_err();
        assert_eq!(err.to_string(), "65 machines asked for; at most 64 are supported");
    }

    #[test]
    fn the_largest_kernel_builds_from_a_small_stack() {
        let levels = [Level::whole(2, 19)];
        let small = std::thread::Builder::new().stack_size(256 << 10);
        let built = small.spawn(move || {
            ServiceLevelEngine::new(MAX_MACHINES, 1024, Policy::FirstFit, &levels).map(|e| e.state_bytes())
        });
        assert!(built.unwrap().join().unwrap().unwrap() > 1 << 20);
    }

    #[test]
    fn picks_the_smallest_machine_capacity() {
        let levels = [Level::whole(2, 19)];
        let engine = ServiceLevelEngine::new(5, 16, Policy::FirstFit, &levels).unwrap();
        assert_eq!(engine.machine_capacity, 16);
        let mut out = Vec::new();
        let outcome = engine_step(engine, &mut out);
        assert_eq!(outcome, Outcome::Accepted { machine: 0 });
        assert_eq!(out.len(), 2);
    }

    fn engine_step(mut engine: ServiceLevelEngine, out: &mut Vec<Decision>) -> Outcome {
        engine.step(Event::Submit { t: 0, job: 1, p: 5, level: 0 }, out)
    }
}
