//! The reservation kernel for host use: two compiled sizes, boxed, and built on a big
//! stack. Its capacities decide decisions (a full calendar horizon or waiting queue
//! rejects), so a log's header must name exactly one of them. `host-sim reserve` runs
//! the host's size and writes its numbers into its headers; the firmware's size
//! ([`DeviceReservationKernel`]) is here so that a device's record stream verifies.

use kernel::reservation::{Config, Decision, Event, Outcome, ReservationKernel};

use super::{EngineError, on_big_stack};
use crate::format::ReservationHeader;

/// `H`: calendar slots. 65,536 one-minute slots reach 45.5 days ahead.
pub const SLOTS: usize = 1 << 16;
/// `W`: waiting reservations.
pub const WAITING: usize = 2048;
/// `RUN`: running reservations, `2 m` for pools of up to 1,024 nodes.
pub const RUNNING: usize = 2048;
/// `OFFERS`: offers per rejection.
pub const OFFERS: usize = 8;

/// The compiled reservation kernel: about 430 KiB of state.
pub type HostReservationKernel = ReservationKernel<SLOTS, WAITING, RUNNING, OFFERS>;

/// The firmware's reservation kernel (`embedded/firmware`): 16,384 slots, 256 waiting,
/// 256 running, 8 offers.
pub type DeviceReservationKernel = ReservationKernel<16_384, 256, 256, 8>;

/// A boxed [`HostReservationKernel`], or the firmware's size for a device's log.
pub struct ReservationEngine {
    inner: Inner,
}

enum Inner {
    Host(Box<HostReservationKernel>),
    Device(Box<DeviceReservationKernel>),
}

impl std::fmt::Debug for ReservationEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let config = match &self.inner {
            Inner::Host(kernel) => kernel.config(),
            Inner::Device(kernel) => kernel.config(),
        };
        f.debug_struct("ReservationEngine").field("config", config).finish()
    }
}

/// The header of a log written by this engine with `config`.
pub fn header(config: Config) -> ReservationHeader {
    // The capacities are small constants; they fit their header fields.
    ReservationHeader {
        config,
        slots: SLOTS as u32,
        waiting: WAITING as u32,
        running: RUNNING as u32,
        offers: OFFERS as u16,
    }
}

/// The header of a log written by the firmware's size with `config`.
pub fn device_header(config: Config) -> ReservationHeader {
    ReservationHeader { config, slots: 16_384, waiting: 256, running: 256, offers: 8 }
}

impl ReservationEngine {
    pub fn new(config: Config) -> Result<Self, EngineError> {
        let inner = on_big_stack(move || HostReservationKernel::new(config).map(Box::new))?;
        Ok(Self { inner: Inner::Host(inner.map_err(EngineError::Reservation)?) })
    }

    /// The engine of the firmware's size.
    pub fn device(config: Config) -> Result<Self, EngineError> {
        let inner = on_big_stack(move || DeviceReservationKernel::new(config).map(Box::new))?;
        Ok(Self { inner: Inner::Device(inner.map_err(EngineError::Reservation)?) })
    }

    /// The engine a log was written with; a header naming other capacities than the
    /// host's or the firmware's is refused by the name of the first that differs from
    /// the host's.
    pub fn from_header(header: &ReservationHeader) -> Result<Self, EngineError> {
        if *header == device_header(header.config) {
            return Self::device(header.config);
        }
        let compiled = self::header(header.config);
        let pairs = [
            ("calendar slots (H)", u64::from(header.slots), u64::from(compiled.slots)),
            ("waiting reservations (W)", u64::from(header.waiting), u64::from(compiled.waiting)),
            ("running reservations (RUN)", u64::from(header.running), u64::from(compiled.running)),
            ("offers per rejection (OFFERS)", u64::from(header.offers), u64::from(compiled.offers)),
        ];
        if let Some(&(what, found, compiled)) = pairs.iter().find(|(_, found, compiled)| found != compiled) {
            return Err(EngineError::ReservationCapacity { what, found, compiled });
        }
        Self::new(header.config)
    }

    /// Handles one event and appends the decisions it caused to `out`.
    pub fn step(&mut self, event: Event, out: &mut Vec<Decision>) -> Outcome {
        match &mut self.inner {
            Inner::Host(kernel) => kernel.step(event, &mut |d| out.push(d)),
            Inner::Device(kernel) => kernel.step(event, &mut |d| out.push(d)),
        }
    }

    /// The kernel's time.
    pub fn now(&self) -> kernel::Tick {
        match &self.inner {
            Inner::Host(kernel) => kernel.now(),
            Inner::Device(kernel) => kernel.now(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn other_capacities_are_refused_by_name() {
        let mut header = header(Config::new(4, 10));
        assert!(ReservationEngine::from_header(&header).is_ok());
        assert!(ReservationEngine::from_header(&device_header(header.config)).is_ok());
        header.waiting = 16;
        let err = ReservationEngine::from_header(&header).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the log's reservation kernel has 16 waiting reservations (W); this build has 2048"
        );
        let err = ReservationEngine::new(Config::new(0, 10)).unwrap_err();
        assert_eq!(err.to_string(), "invalid reservation configuration: the pool needs at least one node");
    }

    #[test]
    fn builds_from_a_small_stack() {
        let small = std::thread::Builder::new().stack_size(256 << 10);
        let built = small.spawn(|| ReservationEngine::new(Config::new(8, 10)).map(|e| e.now()));
        assert_eq!(built.unwrap().join().unwrap().unwrap(), 0);
    }
}
