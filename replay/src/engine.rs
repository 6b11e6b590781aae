//! The engines: each model's kernel at the sizes the host compiles, rebuilt from a
//! log header or a command line, one submodule per model ([`service_level`],
//! [`reservation`], [`tiers`], [`sla`]), and what they share: [`EngineError`] and the
//! big-stack thread that builds a kernel by value.

use crate::engine::service_level::{MAX_LEVELS, MAX_MACHINES, QUEUE_CAPACITIES};

pub mod reservation;
pub mod service_level;
pub mod sla;
pub mod tiers;

/// Stack of the thread that builds a kernel. The largest kernel (the reservation
/// kernel with the largest running set, 6.7 MiB since the calendar holds its block words) is
/// built by value before it is boxed, and an unoptimised build keeps about nine copies
/// on the stack, which overflowed 64 MiB; only the pages touched are committed.
const STACK_BYTES: usize = 128 << 20;

/// Why an engine cannot be built.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
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
    #[error("cannot start the thread that builds the kernel: {0}")]
    Thread(std::io::Error),
    #[error("the log's reservation kernel has {found} {what}; this build has {compiled}")]
    ReservationCapacity { what: &'static str, found: u64, compiled: u64 },
    #[error("invalid reservation configuration: {0}")]
    Reservation(kernel::reservation::ConfigError),
    #[error(
        "the log's reservation kernel has {found} running reservations (RUN); this build has 2048, 8192, 32768 or 262144"
    )]
    ReservationRunning { found: u32 },
    #[error(
        "a reservation pool of {nodes} nodes needs room for 2 x {nodes} running jobs; the largest compiled kernel holds {} (pools of up to {max} nodes)",
        2 * u64::from(*max)
    )]
    ReservationPool { nodes: u32, max: u32 },
    #[error("the log's tiers kernel has {found} {what}; this build has {compiled}")]
    TiersCapacity { what: &'static str, found: u64, compiled: u64 },
    #[error("invalid tiers configuration: {0}")]
    Tiers(kernel::tiers::ConfigError),
    #[error("the log's SLA kernel has {found} {what}; this build has {compiled}")]
    SlaCapacity { what: &'static str, found: u64, compiled: u64 },
    #[error("the log's SLA kernel has a batch (B) of {found}; this build has 4096, 16384 or 65536")]
    SlaBatch { found: u32 },
    #[error("invalid SLA configuration: {0}")]
    Sla(kernel::sla::ConfigError),
}

/// Runs `f` on a thread with a [`STACK_BYTES`] stack, so that building a kernel by
/// value works from any caller's thread.
pub(crate) fn on_big_stack<T: Send>(f: impl FnOnce() -> T + Send) -> Result<T, EngineError> {
    std::thread::scope(|scope| {
        let handle = std::thread::Builder::new()
            .name("kernel-build".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, f)
            .map_err(EngineError::Thread)?;
        Ok(handle.join().unwrap_or_else(|payload| std::panic::resume_unwind(payload)))
    })
}
