//! Each kernel over its section of the streams file: the setup checked against the
//! compiled sizes, the kernel built on the stack, every event stepped, every event
//! and decision written to the kernel's stream file.

use kernel::log::Body;
use kernel::stream::DeviceModel;
use kernel::{reservation, service_level, sla, tiers};
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

/// Steps every event of `events` through `step` (which hands the kernel's decisions
/// to the recorder), each event recorded first; measures the stack the decision path
/// takes below this frame.
fn drive(
    events: &mut &[u8],
    out: &mut Recorder,
    run: &mut Run,
    mut step: impl FnMut(Body, &mut Recorder, &mut Run) -> Result<(), &'static str>,
) -> Result<(), &'static str> {
    let sp = stack::paint();
    while let Some(record) = next_record(events)? {
        run.events += 1;
        out.record(record.body);
        step(record.body, out, run)?;
    }
    run.step_stack = stack::used_below(sp);
    Ok(())
}

/// Opens `name`, writes `model`'s setup, drives the events and closes the stream.
fn record(
    name: &[u8],
    model: DeviceModel<{ crate::recorder::SETUP_LIST }>,
    mut events: &[u8],
    step: impl FnMut(Body, &mut Recorder, &mut Run) -> Result<(), &'static str>,
) -> Result<Run, &'static str> {
    let mut out = Recorder::create(name)?;
    out.setup(model);
    let mut run = Run::default();
    drive(&mut events, &mut out, &mut run, step)?;
    (run.records, run.bytes) = out.close()?;
    Ok(run)
}

#[inline(never)]
pub fn service(section: &[u8]) -> Result<Run, &'static str> {
    use service_level::Decision;
    let (setup, events): (ServiceSetup, _) =
        postcard::take_from_bytes(section).map_err(|_| "the service-level setup does not decode")?;
    if setup.capacities != crate::SERVICE_CAPACITIES {
        return Err("the service-level stream was generated for other capacities than Kernel<4, 32, 8>");
    }
    let config = service_level::Config {
        machines: setup.machines,
        policy: service_level::Policy::FirstFit,
        levels: setup.levels,
    };
    let model =
        DeviceModel::service_level::<4, 32, 8>(&config).ok_or("more service levels than a setup holds")?;
    let mut kernel = ServiceKernel::new(config).map_err(|_| "the service-level configuration is refused")?;
    record(b"service-level.stream\0", model, events, |body, out, run| {
        let Body::Event(event) = body else {
            return Err("the service-level stream holds a record that is not a service-level event");
        };
        kernel.step(event, &mut |d: Decision| {
            match d {
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
            out.record(Body::Decision(d));
        });
        Ok(())
    })
}

#[inline(never)]
pub fn reservation(section: &[u8]) -> Result<Run, &'static str> {
    use reservation::Decision;
    let (setup, events): (ReservationSetup, _) =
        postcard::take_from_bytes(section).map_err(|_| "the reservation setup does not decode")?;
    if setup.capacities != crate::RESERVATION_CAPACITIES {
        return Err(
            "the reservation stream was generated for other capacities than ReservationKernel<16384, 256, 256, 8>",
        );
    }
    let mut kernel = ResvKernel::new(setup.config).map_err(|_| "the reservation configuration is refused")?;
    let model = DeviceModel::reservation::<16384, 256, 256, 8>(setup.config);
    record(b"reservation.stream\0", model, events, |body, out, run| {
        let Body::ReservationEvent(event) = body else {
            return Err("the reservation stream holds a record that is not a reservation event");
        };
        kernel.step(event, &mut |d: Decision| {
            match d {
                Decision::Accept { .. } => run.accepted += 1,
                Decision::Reject { job, reason } => {
                    run.rejected += 1;
                    defmt::info!("reservation: job {=u32} rejected: {}", job, reason);
                }
                _ => {}
            }
            out.record(Body::ReservationDecision(d));
        });
        Ok(())
    })
}

#[inline(never)]
pub fn tiers(section: &[u8]) -> Result<Run, &'static str> {
    use tiers::Decision;
    let (setup, events): (TiersSetup, _) =
        postcard::take_from_bytes(section).map_err(|_| "the tiers setup does not decode")?;
    if setup.capacities != crate::TIERS_CAPACITIES {
        return Err("the tiers stream was generated for other capacities than TiersKernel<16, 2048, 1024>");
    }
    let model = DeviceModel::tiers::<16, 2048, 1024>(setup.config, &setup.resources)
        .ok_or("more tiers resources than a setup holds")?;
    let mut kernel =
        TiersKernel::new(setup.config, &setup.resources).map_err(|_| "the tiers configuration is refused")?;
    record(b"tiers.stream\0", model, events, |body, out, run| {
        let Body::TiersEvent(event) = body else {
            return Err("the tiers stream holds a record that is not a tiers event");
        };
        kernel.step(event, &mut |d: Decision| {
            match d {
                Decision::Accept { .. } => run.accepted += 1,
                Decision::Reject { job, reason } => {
                    run.rejected += 1;
                    defmt::info!("tiers: job {=u32} rejected: {}", job, reason);
                }
                Decision::Move { .. } => run.displaced += 1,
                _ => {}
            }
            out.record(Body::TiersDecision(d));
        });
        Ok(())
    })
}

#[inline(never)]
pub fn sla(section: &[u8]) -> Result<Run, &'static str> {
    use sla::Decision;
    let (setup, events): (SlaSetup, _) =
        postcard::take_from_bytes(section).map_err(|_| "the SLA setup does not decode")?;
    if setup.capacities != crate::SLA_CAPACITIES {
        return Err("the SLA stream was generated for other capacities than SlaKernel<65536, 4096>");
    }
    let mut kernel = SlaKernel::new(setup.config).map_err(|_| "the SLA configuration is refused")?;
    let model = DeviceModel::sla::<65536, 4096>(setup.config);
    record(b"sla.stream\0", model, events, |body, out, run| {
        let Body::SlaEvent(event) = body else {
            return Err("the SLA stream holds a record that is not an SLA event");
        };
        kernel.step(event, &mut |d: Decision| {
            match d {
                Decision::Accept { .. } => run.accepted += 1,
                Decision::Reject { job, reason } => {
                    run.rejected += 1;
                    defmt::info!("sla: job {=u32} rejected: {}", job, reason);
                }
            }
            out.record(Body::SlaDecision(d));
        });
        Ok(())
    })
}
