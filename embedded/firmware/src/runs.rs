//! Each kernel over its section of the streams file: the setup checked against the
//! compiled sizes and the kernel built on the stack (one function per model), then
//! every event stepped and every event and decision written to the kernel's stream
//! file, by one function over [`contract::Kernel`] ([`record`]).

use kernel::log::Body;
use kernel::stream::DeviceModel;
use kernel::{contract, reservation, service_level, sla, tiers};
use serde::Deserialize;

use crate::recorder::{Recorder, next_record};
use crate::{ResvKernel, Run, ServiceKernel, SlaKernel, TiersKernel, stack};

/// The service-level section's head: the capacities it was generated for, and the
/// kernel's configuration.
#[derive(Deserialize)]
struct ServiceSetup {
    capacities: [u32; 3],
    machines: u16,
    levels: heapless::Vec<service_level::Level, 8>,
}

/// The reservation section's head.
#[derive(Deserialize)]
struct ReservationSetup {
    capacities: [u32; 4],
    config: reservation::Config,
}

/// The tiers section's head.
#[derive(Deserialize)]
struct TiersSetup {
    capacities: [u32; 3],
    config: tiers::Config,
    resources: heapless::Vec<tiers::Resource, 16>,
}

/// The SLA section's head.
#[derive(Deserialize)]
struct SlaSetup {
    capacities: [u32; 2],
    config: sla::Config,
}

/// What the firmware needs of a model beyond its [`contract::Kernel`]: where its
/// records go and how they sit in the log's [`Body`], and what the summary counts of
/// each decision.
trait Streamed: contract::Kernel {
    /// The stream file, NUL-terminated for semihosting.
    const FILE: &'static [u8];
    /// Why a record of another model's is refused.
    const NOT_AN_EVENT: &'static str;
    fn event(body: Body) -> Option<Self::Event>;
    fn decision(decision: Self::Decision) -> Body;
    /// Counts `decision` into `run` (and logs a rejection).
    fn count(decision: &Self::Decision, run: &mut Run);
}

/// Whether a section's `capacities` are `K`'s, in [`contract::Kernel::CAPACITIES`]'
/// order.
fn compiled_for<K: contract::Kernel>(capacities: &[u32]) -> bool {
    let compiled = K::CAPACITIES.iter().map(|&(_, c)| u32::try_from(c).ok());
    capacities.iter().map(|&c| Some(c)).eq(compiled)
}

/// Builds the kernel (in this frame), opens `K`'s stream file, writes `model`'s
/// setup, steps every event of `events` through the kernel (each event recorded
/// first, then its decisions) and closes the stream; measures the stack the decision path takes below the loop's frame.
fn record<K: Streamed>(
    build: impl FnOnce() -> Result<K, &'static str>,
    model: DeviceModel<{ crate::recorder::SETUP_LIST }>,
    mut events: &[u8],
) -> Result<Run, &'static str> {
    let mut kernel = build()?;
    let mut out = Recorder::create(K::FILE)?;
    out.setup(model);
    let mut run = Run::default();
    let sp = stack::paint();
    while let Some(record) = next_record(&mut events)? {
        run.events += 1;
        out.record(record.body);
        let event = K::event(record.body).ok_or(K::NOT_AN_EVENT)?;
        kernel.step(event, &mut |d| {
            K::count(&d, &mut run);
            out.record(K::decision(d));
        });
    }
    run.step_stack = stack::used_below(sp);
    (run.records, run.bytes) = out.close()?;
    Ok(run)
}

#[inline(never)]
pub fn service(section: &[u8]) -> Result<Run, &'static str> {
    let (setup, events): (ServiceSetup, _) =
        postcard::take_from_bytes(section).map_err(|_| "the service-level setup does not decode")?;
    if !compiled_for::<ServiceKernel>(&setup.capacities) {
        return Err(
            "the service-level stream was generated for other capacities than ServiceLevelKernel<4, 32, 8>",
        );
    }
    let config = service_level::Config {
        machines: setup.machines,
        policy: service_level::Policy::FirstFit,
        levels: setup.levels,
    };
    let model =
        DeviceModel::service_level::<4, 32, 8>(&config).ok_or("more service levels than a setup holds")?;
    let build = || ServiceKernel::new(config).map_err(|_| "the service-level configuration is refused");
    record(build, model, events)
}

#[inline(never)]
pub fn reservation(section: &[u8]) -> Result<Run, &'static str> {
    let (setup, events): (ReservationSetup, _) =
        postcard::take_from_bytes(section).map_err(|_| "the reservation setup does not decode")?;
    if !compiled_for::<ResvKernel>(&setup.capacities) {
        return Err(
            "the reservation stream was generated for other capacities than ReservationKernel<16384, 256, 256, 8>",
        );
    }
    let build = || ResvKernel::new(setup.config).map_err(|_| "the reservation configuration is refused");
    let model = DeviceModel::reservation::<16384, 256, 256, 8>(setup.config);
    record(build, model, events)
}

#[inline(never)]
pub fn tiers(section: &[u8]) -> Result<Run, &'static str> {
    let (setup, events): (TiersSetup, _) =
        postcard::take_from_bytes(section).map_err(|_| "the tiers setup does not decode")?;
    if !compiled_for::<TiersKernel>(&setup.capacities) {
        return Err("the tiers stream was generated for other capacities than TiersKernel<16, 2048, 1024>");
    }
    let model = DeviceModel::tiers::<16, 2048, 1024>(setup.config, &setup.resources)
        .ok_or("more tiers resources than a setup holds")?;
    let build =
        || TiersKernel::new(setup.config, &setup.resources).map_err(|_| "the tiers configuration is refused");
    record(build, model, events)
}

#[inline(never)]
pub fn sla(section: &[u8]) -> Result<Run, &'static str> {
    let (setup, events): (SlaSetup, _) =
        postcard::take_from_bytes(section).map_err(|_| "the SLA setup does not decode")?;
    if !compiled_for::<SlaKernel>(&setup.capacities) {
        return Err("the SLA stream was generated for other capacities than SlaKernel<65536, 4096>");
    }
    let build = || SlaKernel::new(setup.config).map_err(|_| "the SLA configuration is refused");
    let model = DeviceModel::sla::<65536, 4096>(setup.config);
    record(build, model, events)
}

impl Streamed for ServiceKernel {
    const FILE: &'static [u8] = b"service-level.stream\0";
    const NOT_AN_EVENT: &'static str =
        "the service-level stream holds a record that is not a service-level event";

    fn event(body: Body) -> Option<Self::Event> {
        match body {
            Body::Event(event) => Some(event),
            _ => None,
        }
    }

    fn decision(decision: Self::Decision) -> Body {
        Body::Decision(decision)
    }

    fn count(decision: &Self::Decision, run: &mut Run) {
        use service_level::Decision;
        match *decision {
            Decision::Accept { preempted, .. } => {
                run.accepted += 1;
                run.displaced += u32::from(preempted.is_some());
            }
            Decision::Reject { job, reason } => {
                run.rejected += 1;
                defmt::info!("service-level: job {=u32} rejected: {}", job, reason);
            }
            _ => {}
        }
    }
}

impl Streamed for ResvKernel {
    const FILE: &'static [u8] = b"reservation.stream\0";
    const NOT_AN_EVENT: &'static str =
        "the reservation stream holds a record that is not a reservation event";

    fn event(body: Body) -> Option<Self::Event> {
        match body {
            Body::ReservationEvent(event) => Some(event),
            _ => None,
        }
    }

    fn decision(decision: Self::Decision) -> Body {
        Body::ReservationDecision(decision)
    }

    fn count(decision: &Self::Decision, run: &mut Run) {
        use reservation::Decision;
        match *decision {
            Decision::Accept { .. } => run.accepted += 1,
            Decision::Reject { job, reason } => {
                run.rejected += 1;
                defmt::info!("reservation: job {=u32} rejected: {}", job, reason);
            }
            _ => {}
        }
    }
}

impl Streamed for TiersKernel {
    const FILE: &'static [u8] = b"tiers.stream\0";
    const NOT_AN_EVENT: &'static str = "the tiers stream holds a record that is not a tiers event";

    fn event(body: Body) -> Option<Self::Event> {
        match body {
            Body::TiersEvent(event) => Some(event),
            _ => None,
        }
    }

    fn decision(decision: Self::Decision) -> Body {
        Body::TiersDecision(decision)
    }

    fn count(decision: &Self::Decision, run: &mut Run) {
        use tiers::Decision;
        match *decision {
            Decision::Accept { .. } => run.accepted += 1,
            Decision::Reject { job, reason } => {
                run.rejected += 1;
                defmt::info!("tiers: job {=u32} rejected: {}", job, reason);
            }
            Decision::Move { .. } => run.displaced += 1,
            _ => {}
        }
    }
}

impl Streamed for SlaKernel {
    const FILE: &'static [u8] = b"sla.stream\0";
    const NOT_AN_EVENT: &'static str = "the SLA stream holds a record that is not an SLA event";

    fn event(body: Body) -> Option<Self::Event> {
        match body {
            Body::SlaEvent(event) => Some(event),
            _ => None,
        }
    }

    fn decision(decision: Self::Decision) -> Body {
        Body::SlaDecision(decision)
    }

    fn count(decision: &Self::Decision, run: &mut Run) {
        use sla::Decision;
        match *decision {
            Decision::Accept { .. } => run.accepted += 1,
            Decision::Reject { job, reason } => {
                run.rejected += 1;
                defmt::info!("sla: job {=u32} rejected: {}", job, reason);
            }
        }
    }
}
