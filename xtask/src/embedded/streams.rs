//! The event streams the firmware runs, made on the host from the shared traces
//! exactly as `host-sim` makes them, and the records the host's kernel decides for
//! them (the bytes the firmware must reproduce).
//!
//! - Service level: the first [`SERVICE_JOBS`] usable jobs of NASA iPSC/860, mapped as
//!   `host-sim run` maps them (one window, levels drawn with seed 1 from
//!   [`SERVICE_SLACKS`]), on 4 machines; the host decides with `ServiceLevelKernel<4, 32, 8>`, the
//!   firmware's size. The prefix is chosen so that preemptions, rejections for
//!   infeasibility and rejections for a full 32-entry queue all occur (checked).
//! - Reservation: the first [`RESERVATION_JOBS`] usable jobs of SDSC SP2, mapped and
//!   run as `host-sim reserve` does (the paper's setting: EDF, one-minute slots, offers
//!   taken within `phi <= 1`), recorded from host-sim's own run. The firmware's small
//!   `ReservationKernel<16384, 256, 256, 8>` must decide that stream exactly as
//!   host-sim's compiled size did (checked here, so the stream is consistent: the
//!   host's finishes and resubmissions answer the same decisions).

use std::path::Path;

use host_sim::reservation::{Experiment, Input, simulate_recorded};
use host_sim::service_level::sim::{self, Recorder, RunConfig};
use host_sim::swf::{self, SwfOptions};
use kernel::log::{Body, Record};
use kernel::reservation::{self, ReservationKernel};
use kernel::service_level::{Config, Decision, Event, Level, Policy, RejectReason, ServiceLevelKernel};
use replay::format::FormatError;
use serde::Serialize;

use super::compare::{SETUP_LIST, encode_all, first_difference};

pub const SERVICE_TRACE: &str = "NASA-iPSC-1993-3.1-cln.swf.gz";
pub const RESERVATION_TRACE: &str = "SDSC-SP2-1998-4.2-cln.swf.gz";
/// Usable jobs of the service-level prefix.
pub const SERVICE_JOBS: usize = 5000;
/// Slack factors (thousandths) of the service levels, drawn per job with seed 1.
pub const SERVICE_SLACKS: &[u32] = &[1000, 1_000_000];
/// Usable jobs of the reservation prefix.
pub const RESERVATION_JOBS: usize = 1000;

/// The firmware's compiled sizes, written into the streams file and checked there.
pub const SERVICE_CAPACITIES: [u32; 3] = [4, 32, 8];
pub const RESERVATION_CAPACITIES: [u32; 4] = [16384, 256, 256, 8];
pub type ServiceKernel = ServiceLevelKernel<4, 32, 8>;
pub type ResvKernel = ReservationKernel<16384, 256, 256, 8>;
const MAGIC: &[u8] = b"KSTREAM2";

/// One model's stream: the configuration, the events, and the host's records.
#[derive(Clone, Debug)]
pub struct Stream<C> {
    pub config: C,
    pub events: Vec<Body>,
    /// Every event and decision, numbered, as the host's kernel makes them.
    pub expected: Vec<Record>,
}

#[derive(Clone, Debug)]
pub struct ServiceConfig {
    pub machines: u16,
    pub levels: Vec<Level>,
}

#[derive(Serialize)]
struct ServiceSetup<'a> {
    capacities: [u32; 3],
    machines: u16,
    levels: &'a [Level],
}

#[derive(Serialize)]
struct ReservationSetup {
    capacities: [u32; 4],
    config: reservation::Config,
}

/// Collects the events host-sim's run loop feeds its engine.
struct Events(Vec<Body>);

impl Recorder for Events {
    fn event(&mut self, event: &Event) -> Result<(), FormatError> {
        self.0.push(Body::Event(*event));
        Ok(())
    }

    fn decision(&mut self, _: &Decision) -> Result<(), FormatError> {
        Ok(())
    }
}

/// The service-level stream from `trace` (NASA iPSC/860).
pub fn service(trace: &Path) -> Result<Stream<ServiceConfig>, String> {
    let read = swf::read(trace, SwfOptions::default()).map_err(|e| e.to_string())?;
    let jobs = read.workload.jobs.get(..SERVICE_JOBS).unwrap_or(&read.workload.jobs);
    let levels = host_sim::service_level::levels::build(SERVICE_SLACKS, None).map_err(|e| e.to_string())?;
    let mut run_config = RunConfig::new(4, levels.clone());
    run_config.policy = Policy::FirstFit;
    let mut events = Events(Vec::new());
    sim::run(&run_config, jobs, Some(&mut events)).map_err(|e| format!("{}: {e}", trace.display()))?;
    let config = ServiceConfig { machines: 4, levels };
    let expected = decide_service(&config, &events.0)?;
    let stream = Stream { config, events: events.0, expected };
    let count = |f: &dyn Fn(&Decision) -> bool| {
        stream.expected.iter().filter(|r| matches!(r.body, Body::Decision(d) if f(&d))).count()
    };
    let preempted = count(&|d| matches!(d, Decision::Accept { preempted: Some(_), .. }));
    let infeasible =
        count(&|d| matches!(d, Decision::Reject { reason: RejectReason::NoFeasibleMachine, .. }));
    let full = count(&|d| matches!(d, Decision::Reject { reason: RejectReason::QueueFull, .. }));
    if preempted == 0 || infeasible == 0 || full == 0 {
        return Err(format!(
            "the service-level prefix does not exercise every path: {preempted} preemptions, \
             {infeasible} infeasible, {full} queue full"
        ));
    }
    Ok(stream)
}

/// The setup the firmware's service-level stream starts with.
pub fn service_model(config: &ServiceConfig) -> Result<kernel::stream::DeviceModel<SETUP_LIST>, String> {
    let levels = heapless::Vec::from_slice(&config.levels).map_err(|_| "more than 8 levels".to_owned())?;
    let config = Config { machines: config.machines, policy: Policy::FirstFit, levels };
    kernel::stream::DeviceModel::service_level::<4, 32, 8>(&config)
        .ok_or_else(|| "more than 8 levels".to_owned())
}

/// The setup the firmware's reservation stream starts with.
pub fn reservation_model(config: reservation::Config) -> kernel::stream::DeviceModel<SETUP_LIST> {
    kernel::stream::DeviceModel::reservation::<16384, 256, 256, 8>(config)
}

/// The records `ServiceLevelKernel<4, 32, 8>` makes for `events`.
pub fn decide_service(config: &ServiceConfig, events: &[Body]) -> Result<Vec<Record>, String> {
    let levels = heapless::Vec::from_slice(&config.levels).map_err(|_| "more than 8 levels".to_owned())?;
    let mut kernel = Box::new(
        ServiceKernel::new(Config { machines: config.machines, policy: Policy::FirstFit, levels })
            .map_err(|e| e.to_string())?,
    );
    let mut records = Vec::new();
    for body in events {
        let Body::Event(event) = *body else { return Err(format!("not a service-level event: {body:?}")) };
        push(&mut records, *body);
        kernel.step(event, &mut |d| push(&mut records, Body::Decision(d)));
    }
    Ok(records)
}

/// The reservation stream from `trace` (SDSC SP2).
pub fn reservation(trace: &Path) -> Result<Stream<reservation::Config>, String> {
    let read = swf::read(trace, SwfOptions::default()).map_err(|e| e.to_string())?;
    let header = read.max_nodes.or(read.max_procs).and_then(|n| u32::try_from(n).ok());
    let nodes = header.unwrap_or(128);
    let jobs = read.workload.jobs.get(..RESERVATION_JOBS).unwrap_or(&read.workload.jobs);
    let experiment = Experiment { offers_phi_milli: Some(1000), ..Experiment::paper(nodes) };
    let mut recorded: Vec<Body> = Vec::new();
    let mut record = |body: Body| recorded.push(body);
    simulate_recorded(&Input { jobs }, &experiment, Some(&mut record)).map_err(|e| e.to_string())?;
    let config = host_sim::reservation::run::kernel_config(&experiment.run_options());
    let events: Vec<Body> =
        recorded.iter().copied().filter(|b| matches!(b, Body::ReservationEvent(_))).collect();
    let expected = decide_reservation(config, &events)?;
    // host-sim's compiled size made the stream (its finishes answer its starts): the
    // firmware's size must decide it the same way, or the stream means nothing.
    let host_records: Vec<Record> =
        recorded.iter().enumerate().map(|(seq, &body)| Record { seq: seq as u64, body }).collect();
    if let Some(diff) = first_difference(&expected, &host_records) {
        return Err(format!(
            "ReservationKernel<16384, 256, 256, 8> decides the SDSC SP2 prefix differently from \
             host-sim's compiled size ({diff}): choose a shorter prefix"
        ));
    }
    let rejected = expected
        .iter()
        .filter(|r| matches!(r.body, Body::ReservationDecision(reservation::Decision::Reject { .. })))
        .count();
    let offers = expected
        .iter()
        .filter(|r| matches!(r.body, Body::ReservationDecision(reservation::Decision::Offer { .. })))
        .count();
    if rejected == 0 || offers == 0 {
        return Err(format!(
            "the reservation prefix does not exercise rejection and offers: {rejected} rejected, {offers} offers"
        ));
    }
    Ok(Stream { config, events, expected })
}

/// The records `ReservationKernel<16384, 256, 256, 8>` makes for `events`.
pub fn decide_reservation(config: reservation::Config, events: &[Body]) -> Result<Vec<Record>, String> {
    let mut kernel = Box::new(ResvKernel::new(config).map_err(|e| e.to_string())?);
    let mut records = Vec::new();
    for body in events {
        let Body::ReservationEvent(event) = *body else {
            return Err(format!("not a reservation event: {body:?}"));
        };
        push(&mut records, *body);
        kernel.step(event, &mut |d| push(&mut records, Body::ReservationDecision(d)));
    }
    Ok(records)
}

fn push(records: &mut Vec<Record>, body: Body) {
    records.push(Record { seq: records.len() as u64, body });
}

fn numbered(events: &[Body]) -> Vec<Record> {
    events.iter().enumerate().map(|(seq, &body)| Record { seq: seq as u64, body }).collect()
}

/// The service-level section of the streams file: its setup, then its events.
pub fn service_section(service: &Stream<ServiceConfig>) -> Result<Vec<u8>, String> {
    let setup = ServiceSetup {
        capacities: SERVICE_CAPACITIES,
        machines: service.config.machines,
        levels: &service.config.levels,
    };
    section(postcard::to_allocvec(&setup).map_err(|e| e.to_string())?, &service.events)
}

/// The reservation section of the streams file.
pub fn reservation_section(resv: &Stream<reservation::Config>) -> Result<Vec<u8>, String> {
    let setup = ReservationSetup { capacities: RESERVATION_CAPACITIES, config: resv.config };
    section(postcard::to_allocvec(&setup).map_err(|e| e.to_string())?, &resv.events)
}

/// A section of the streams file: `setup` (postcard), then `events`.
pub fn section(setup: Vec<u8>, events: &[Body]) -> Result<Vec<u8>, String> {
    let mut bytes = setup;
    bytes.extend(encode_all(&numbered(events))?);
    Ok(bytes)
}

/// The streams file the firmware includes (see `embedded/firmware/src/main.rs`): the
/// magic, then each section (service level, reservation, tiers, SLA) after its length.
pub fn file(sections: &[Vec<u8>]) -> Result<Vec<u8>, String> {
    let mut out = MAGIC.to_vec();
    for bytes in sections {
        let len = u32::try_from(bytes.len()).map_err(|_| "a stream section is over 4 GiB")?;
        out.extend(len.to_le_bytes());
        out.extend(bytes);
    }
    Ok(out)
}
