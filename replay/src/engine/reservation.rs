//! The reservation kernel for host use: one calendar, waiting queue and offer size, and
//! a table of running-set capacities chosen at run time, boxed behind a trait object
//! and built on a big stack. The calendar and the waiting queue decide decisions (a
//! full horizon or queue rejects), so a log's header must name exactly these. The
//! running capacity decides nothing (the kernel requires `2 m <= RUN`, so the running
//! set never fills): the host takes the smallest compiled size that holds `2 m`
//! ([`running_for`]), so that a pool of up to 1,024 nodes keeps the 2,048 of every
//! log written before the table, and a log's header must name one of the table's.
//! The firmware's size ([`DeviceReservationKernel`]) is here too, so that a device's
//! record stream verifies; a header names it by all four of its capacities.

use kernel::contract::Kernel;
use kernel::reservation::{Config, Decision, Event, Outcome, ReservationKernel};

use super::{EngineError, Stepper, boxed, on_big_stack};
use crate::format::ReservationHeader;

/// How capacity errors name the model.
const MODEL: &str = "reservation";
/// `H`: calendar slots. 65,536 one-minute slots reach 45.5 days ahead.
pub const SLOTS: usize = 1 << 16;
/// `W`: waiting reservations.
pub const WAITING: usize = 2048;
/// `RUN`: the running-set capacities compiled in, smallest first. `2 m` must fit, so
/// they hold pools of up to 1,024, 4,096, 16,384 and 131,072 nodes (the largest
/// public traces have about 100,000 processors).
pub const RUNNING_CAPACITIES: [u32; 4] = [2048, 8192, 32_768, 262_144];
/// The largest pool any compiled size holds: half the largest running capacity.
pub const MAX_NODES: u32 = RUNNING_CAPACITIES[RUNNING_CAPACITIES.len() - 1] / 2;
/// `OFFERS`: offers per rejection.
pub const OFFERS: usize = 8;

/// The compiled reservation kernel with `RUN` running reservations: about 690 KiB of
/// state at the smallest `RUN`, 6.7 MiB at the largest (24 bytes a running job).
pub type HostReservationKernel<const RUN: usize> = ReservationKernel<SLOTS, WAITING, RUN, OFFERS>;

/// The firmware's reservation kernel (`embedded/firmware`): 16,384 slots, 256 waiting,
/// 256 running, 8 offers.
pub type DeviceReservationKernel = ReservationKernel<16_384, 256, 256, 8>;

/// The header of a log written by the firmware's size with `config`.
pub fn device_header(config: Config) -> ReservationHeader {
    ReservationHeader { config, slots: 16_384, waiting: 256, running: 256, offers: 8 }
}

/// The reservation's own refusals.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    #[error("invalid reservation configuration: {0}")]
    Config(kernel::reservation::ConfigError),
    #[error(
        "the log's reservation kernel has {found} running reservations (RUN); this build has 2048, 8192, 32768 or 262144"
    )]
    Running { found: u32 },
    #[error(
        "a reservation pool of {nodes} nodes needs room for 2 x {nodes} running jobs; the largest compiled kernel holds {} (pools of up to {max} nodes)",
        2 * u64::from(*max)
    )]
    Pool { nodes: u32, max: u32 },
}

impl From<ModelError> for EngineError {
    fn from(error: ModelError) -> Self {
        Self::model(error)
    }
}

/// A kernel of any compiled size whose plan can be read.
trait Plans: Stepper<Config, Event, Decision, Outcome> {
    fn now(&self) -> kernel::Tick;
    fn waiting_len(&self) -> usize;
    fn running_nodes(&self, job: kernel::JobId) -> Option<u32>;
}

impl<const H: usize, const W: usize, const RUN: usize, const O: usize> Plans
    for ReservationKernel<H, W, RUN, O>
{
    fn now(&self) -> kernel::Tick {
        ReservationKernel::now(self)
    }

    fn waiting_len(&self) -> usize {
        self.plan().waiting().len()
    }

    fn running_nodes(&self, job: kernel::JobId) -> Option<u32> {
        self.plan().running().iter().find(|r| r.job == job).map(|r| r.nodes)
    }
}

/// A boxed reservation kernel of one of the compiled sizes.
pub struct ReservationEngine {
    inner: Box<dyn Plans>,
    running: u32,
}

impl std::fmt::Debug for ReservationEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReservationEngine")
            .field("config", self.inner.config())
            .field("running", &self.running)
            .finish()
    }
}

/// The smallest compiled running capacity that holds `2 nodes` running jobs, or the
/// error naming the largest pool the build holds.
pub fn running_for(nodes: u32) -> Result<u32, EngineError> {
    let needed = u64::from(nodes) * 2;
    RUNNING_CAPACITIES
        .into_iter()
        .find(|&c| u64::from(c) >= needed)
        .ok_or(ModelError::Pool { nodes, max: MAX_NODES }.into())
}

/// The header of a log written by this engine with `config`: the running capacity is
/// [`running_for`]'s (2,048 when the pool is too large, which the engine then refuses).
pub fn header(config: Config) -> ReservationHeader {
    // The capacities are small constants; they fit their header fields.
    ReservationHeader {
        config,
        slots: SLOTS as u32,
        waiting: WAITING as u32,
        running: running_for(config.nodes).unwrap_or(RUNNING_CAPACITIES[0]),
        offers: OFFERS as u16,
    }
}

fn build<const RUN: usize>(config: Config) -> Result<Box<dyn Plans>, EngineError> {
    Ok(boxed(|| HostReservationKernel::<RUN>::new(config)).map_err(ModelError::Config)?)
}

impl ReservationEngine {
    /// The kernel for `config`, with the smallest running capacity that holds its pool.
    pub fn new(config: Config) -> Result<Self, EngineError> {
        if config.nodes == 0 {
            return Err(ModelError::Config(kernel::reservation::ConfigError::NoNodes).into());
        }
        Self::with_running(config, running_for(config.nodes)?)
    }

    /// The kernel for `config` with the compiled running capacity `running`.
    fn with_running(config: Config, running: u32) -> Result<Self, EngineError> {
        let inner = on_big_stack(move || match running {
            2048 => build::<2048>(config),
            8192 => build::<8192>(config),
            32_768 => build::<32_768>(config),
            262_144 => build::<262_144>(config),
            other => Err(EngineError::Capacity {
                model: MODEL,
                what: "running reservations (RUN)",
                found: u64::from(other),
                compiled: u64::from(RUNNING_CAPACITIES[0]),
            }),
        })??;
        Ok(Self { inner, running })
    }

    /// The engine of the firmware's size.
    pub fn device(config: Config) -> Result<Self, EngineError> {
        let inner = on_big_stack(move || -> Result<Box<dyn Plans>, EngineError> {
            Ok(boxed(|| DeviceReservationKernel::new(config)).map_err(ModelError::Config)?)
        })??;
        Ok(Self { inner, running: 256 })
    }

    /// The engine a log was written with: the firmware's size when the header names all
    /// of its capacities; otherwise a header naming other capacities than the host's is
    /// refused by the name of the first that differs (for `RUN`, one not in the table).
    pub fn from_header(header: &ReservationHeader) -> Result<Self, EngineError> {
        if *header == device_header(header.config) {
            return Self::device(header.config);
        }
        // `RUN` is checked against its table, after the others.
        let found = [Some(header.slots), Some(header.waiting), None, Some(u32::from(header.offers))];
        EngineError::first_differing(
            MODEL,
            HostReservationKernel::<2048>::CAPACITIES,
            &found.map(|c| c.map(u64::from)),
        )?;
        if !RUNNING_CAPACITIES.contains(&header.running) {
            return Err(ModelError::Running { found: header.running }.into());
        }
        Self::with_running(header.config, header.running)
    }

    /// Handles one event and appends the decisions it caused to `out`.
    pub fn step(&mut self, event: Event, out: &mut Vec<Decision>) -> Outcome {
        self.inner.step(event, out)
    }

    pub fn config(&self) -> &Config {
        self.inner.config()
    }

    /// The time of the last event.
    pub fn now(&self) -> kernel::Tick {
        self.inner.now()
    }

    /// The running capacity compiled into this engine.
    pub const fn running_capacity(&self) -> u32 {
        self.running
    }

    /// Reservations accepted and not started.
    pub fn waiting_len(&self) -> usize {
        self.inner.waiting_len()
    }

    /// The nodes of running `job`, if it runs.
    pub fn running_nodes(&self, job: kernel::JobId) -> Option<u32> {
        self.inner.running_nodes(job)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn other_capacities_are_refused_by_name() {
        let mut header = header(Config::new(4, 10));
        assert!(ReservationEngine::from_header(&header).is_ok());
        header.waiting = 16;
        let err = ReservationEngine::from_header(&header).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the log's reservation kernel has 16 waiting reservations (W); this build has 2048"
        );
        header.waiting = WAITING as u32;
        header.running = 4096;
        let err = ReservationEngine::from_header(&header).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the log's reservation kernel has 4096 running reservations (RUN); this build has 2048, 8192, 32768 or 262144"
        );
        assert!(ReservationEngine::from_header(&device_header(header.config)).is_ok());
        let err = ReservationEngine::new(Config::new(0, 10)).unwrap_err();
        assert_eq!(err.to_string(), "invalid reservation configuration: the pool needs at least one node");
    }

    #[test]
    fn the_smallest_running_capacity_that_holds_the_pool_is_chosen() {
        assert_eq!(running_for(1).unwrap(), 2048);
        assert_eq!(running_for(1024).unwrap(), 2048);
        assert_eq!(running_for(1025).unwrap(), 8192);
        assert_eq!(running_for(16_384).unwrap(), 32_768);
        assert_eq!(running_for(100_000).unwrap(), 262_144);
        assert_eq!(running_for(131_072).unwrap(), 262_144);
        assert_eq!(
            running_for(131_073).unwrap_err().to_string(),
            "a reservation pool of 131073 nodes needs room for 2 x 131073 running jobs; the largest \
             compiled kernel holds 262144 (pools of up to 131072 nodes)"
        );
        assert_eq!(header(Config::new(1024, 60)).running, 2048);
        assert_eq!(header(Config::new(5000, 60)).running, 32_768);
        let engine = ReservationEngine::new(Config::new(100_000, 60)).unwrap();
        assert_eq!(engine.running_capacity(), 262_144);
        let rebuilt = ReservationEngine::from_header(&header(Config::new(100_000, 60))).unwrap();
        assert_eq!(rebuilt.running_capacity(), 262_144);
    }

    #[test]
    fn a_header_running_capacity_too_small_for_its_pool_is_refused() {
        let mut header = header(Config::new(2000, 60));
        header.running = 2048;
        let err = ReservationEngine::from_header(&header).unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid reservation configuration: 2000 nodes need room for 2 x 2000 running jobs, the kernel has 2048"
        );
    }

    #[test]
    fn builds_from_a_small_stack() {
        let small = std::thread::Builder::new().stack_size(256 << 10);
        let built = small.spawn(|| ReservationEngine::new(Config::new(8, 10)).map(|e| e.now()));
        assert_eq!(built.unwrap().join().unwrap().unwrap(), 0);
    }
}
