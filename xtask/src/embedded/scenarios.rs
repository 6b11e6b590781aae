//! The tiers and SLA streams the firmware runs: fixed scenarios run on the host
//! exactly as `host-sim` runs them, recorded from host-sim's own run, and decided
//! again by the firmware's kernels on the host (checked equal, as the reservation
//! stream is). The firmware compiles host-sim's own sizes of these two kernels, the
//! only ones `replay verify` rebuilds, so that its streams import into logs that
//! verify.
//!
//! - Tiers: the paper's testbed (ten resources) and workload, mix B, seed 1, policy
//!   `qos-res` with the default seeded faults, as `host-sim tiers --policy qos-res
//!   --mix B --seed 1` runs it, on `TiersKernel<16, 2048, 1024>`; the scenario makes
//!   moves, losses and rejections (checked).
//! - SLA: the first [`SLA_SETS`] generated sets of seed 1 (the paper's job sets on
//!   64 nodes), each planned whole with `min(tD - inf*NCPU)`, as `host-sim sla
//!   --sets 2 --heuristic 'min(tD - inf*NCPU)'` runs them, on `SlaKernel<65536,
//!   4096>`; both acceptances and rejections occur (checked).

use host_sim::sla::generator::{self, FRAME_TICKS, NODES, SLOT_TICKS};
use host_sim::sla::run::{Batch, Input, run_set};
use host_sim::tiers::Scenario;
use host_sim::tiers::faults::DEFAULT_FAULTS;
use host_sim::tiers::testbed::MIXES;
use kernel::log::{Body, Record};
use kernel::sla::{self, Direction, Heuristic, Order, SlaKernel, Term, Weight};
use kernel::stream::DeviceModel;
use kernel::tiers::{self, Policy, Resource, TiersKernel};
use serde::Serialize;

use super::compare::{SETUP_LIST, first_difference};
use super::streams::Stream;

/// The firmware's compiled sizes, written into the streams file and checked there.
pub const TIERS_CAPACITIES: [u32; 3] = [16, 2048, 1024];
pub const SLA_CAPACITIES: [u32; 2] = [65536, 4096];
pub type FirmwareTiers = TiersKernel<16, 2048, 1024>;
pub type FirmwareSla = SlaKernel<65536, 4096>;
/// Generated SLA sets run.
pub const SLA_SETS: u64 = 2;
/// The tiers scenario's seed and mix, as `host-sim tiers` names them.
pub const TIERS_SEED: u64 = 1;
pub const TIERS_MIX: char = 'B';

/// The tiers kernel's configuration and resources.
#[derive(Clone, Debug)]
pub struct TiersConfig {
    pub config: tiers::Config,
    pub resources: Vec<Resource>,
}

#[derive(Serialize)]
struct TiersSetup<'a> {
    capacities: [u32; 3],
    config: tiers::Config,
    resources: &'a [Resource],
}

#[derive(Serialize)]
struct SlaSetup {
    capacities: [u32; 2],
    config: sla::Config,
}

/// The tiers stream: host-sim's run of the paper's scenario.
pub fn tiers() -> Result<Stream<TiersConfig>, String> {
    let mix = MIXES.into_iter().find(|m| m.name == TIERS_MIX).ok_or("no tiers mix B")?;
    let scenario = Scenario::paper(Policy::QosRes, mix, TIERS_SEED, DEFAULT_FAULTS);
    let mut recorded = Vec::new();
    let mut observe = |event: &tiers::Event, decisions: &[tiers::Decision]| {
        recorded.push(Body::TiersEvent(*event));
        recorded.extend(decisions.iter().map(|&d| Body::TiersDecision(d)));
    };
    scenario.run_observed(&mut observe, &mut |_| {}).map_err(|e| format!("tiers scenario: {e}"))?;
    let config = TiersConfig { config: scenario.config, resources: scenario.resources.clone() };
    let events: Vec<Body> = recorded.iter().copied().filter(|b| matches!(b, Body::TiersEvent(_))).collect();
    let expected = decide_tiers(&config, &events)?;
    agree("TiersKernel<16, 2048, 1024>", "the tiers scenario", &expected, &recorded)?;
    let count = |f: &dyn Fn(&tiers::Decision) -> bool| {
        expected.iter().filter(|r| matches!(r.body, Body::TiersDecision(d) if f(&d))).count()
    };
    let rejected = count(&|d| matches!(d, tiers::Decision::Reject { .. }));
    let moved = count(&|d| matches!(d, tiers::Decision::Move { .. }));
    let lost = count(&|d| matches!(d, tiers::Decision::Lost { .. }));
    if rejected == 0 || moved == 0 || lost == 0 {
        return Err(format!(
            "the tiers scenario does not exercise every path: {rejected} rejected, {moved} moves, {lost} lost"
        ));
    }
    Ok(Stream { config, events, expected })
}

/// The records `TiersKernel<16, 2048, 1024>` makes for `events`.
pub fn decide_tiers(config: &TiersConfig, events: &[Body]) -> Result<Vec<Record>, String> {
    let (tiers, resources) = (config.config, config.resources.as_slice());
    let mut kernel =
        boxed(|| FirmwareTiers::new(tiers, resources).map(Box::new))?.map_err(|e| format!("tiers: {e:?}"))?;
    let mut records = Vec::new();
    for body in events {
        let Body::TiersEvent(event) = *body else { return Err(format!("not a tiers event: {body:?}")) };
        push(&mut records, *body);
        kernel.step(event, &mut |d| push(&mut records, Body::TiersDecision(d)));
    }
    Ok(records)
}

/// The SLA stream: host-sim's runs of the first generated sets.
pub fn sla() -> Result<Stream<sla::Config>, String> {
    let order = Order::Heuristic(Heuristic::pair(Direction::Min, Term::Td, Weight::MinusInf, Term::Ncpu));
    let config = host_sim::sla::run::config(NODES, SLOT_TICKS, SLOT_TICKS, order);
    let inputs: Vec<Input> = (0..SLA_SETS)
        .map(|i| Input {
            requests: host_sim::sla::cli::set_requests(&generator::generate(1, i)),
            capacity: u128::from(NODES) * u128::from(FRAME_TICKS),
        })
        .collect();
    let largest = inputs.iter().map(|i| i.requests.len()).max().unwrap_or(0);
    let batch = replay::engine::sla::batch_for(largest);
    if batch != SLA_CAPACITIES[1] {
        return Err(format!(
            "the SLA sets need batches of {batch}, the firmware compiles {}",
            SLA_CAPACITIES[1]
        ));
    }
    let mut host = host_sim::sla::log::engine(config, batch).map_err(|e| format!("sla engine: {e}"))?;
    let mut recorded = Vec::new();
    let mut observe = |event: &sla::Event, decisions: &[sla::Decision]| {
        recorded.push(Body::SlaEvent(*event));
        recorded.extend(decisions.iter().map(|&d| Body::SlaDecision(d)));
    };
    for input in &inputs {
        run_set(&mut host, input, Batch::Whole, &mut observe, &mut |_, _| {});
    }
    let events: Vec<Body> = recorded.iter().copied().filter(|b| matches!(b, Body::SlaEvent(_))).collect();
    let expected = decide_sla(config, &events)?;
    agree("SlaKernel<65536, 4096>", "the SLA sets", &expected, &recorded)?;
    let count = |f: &dyn Fn(&sla::Decision) -> bool| {
        expected.iter().filter(|r| matches!(r.body, Body::SlaDecision(d) if f(&d))).count()
    };
    let accepted = count(&|d| matches!(d, sla::Decision::Accept { .. }));
    let rejected = count(&|d| matches!(d, sla::Decision::Reject { .. }));
    if accepted == 0 || rejected == 0 {
        return Err(format!(
            "the SLA sets do not exercise both answers: {accepted} accepted, {rejected} rejected"
        ));
    }
    Ok(Stream { config, events, expected })
}

/// The records `SlaKernel<65536, 4096>` makes for `events`.
pub fn decide_sla(config: sla::Config, events: &[Body]) -> Result<Vec<Record>, String> {
    let mut kernel = boxed(|| FirmwareSla::new(config).map(Box::new))?.map_err(|e| format!("sla: {e:?}"))?;
    let mut records = Vec::new();
    for body in events {
        let Body::SlaEvent(event) = *body else { return Err(format!("not an SLA event: {body:?}")) };
        push(&mut records, *body);
        kernel.step(event, &mut |d| push(&mut records, Body::SlaDecision(d)));
    }
    Ok(records)
}

/// The firmware's size must decide the scenario as host-sim's compiled size did (its
/// later events answer its earlier decisions), or the stream means nothing.
fn agree(kernel: &str, what: &str, expected: &[Record], recorded: &[Body]) -> Result<(), String> {
    let host: Vec<Record> =
        recorded.iter().enumerate().map(|(seq, &body)| Record { seq: seq as u64, body }).collect();
    match first_difference(expected, &host) {
        None => Ok(()),
        Some(diff) => {
            Err(format!("{kernel} decides {what} differently from host-sim's compiled size ({diff})"))
        }
    }
}

/// Builds a kernel on a thread with a stack that holds it by value (the SLA kernel's
/// 800 KiB overflow a test thread's stack in a debug build).
fn boxed<T: Send>(build: impl FnOnce() -> T + Send) -> Result<T, String> {
    std::thread::scope(|scope| {
        let handle = std::thread::Builder::new()
            .stack_size(64 << 20)
            .spawn_scoped(scope, build)
            .map_err(|e| format!("cannot start a thread to build a kernel: {e}"))?;
        Ok(handle.join().unwrap_or_else(|payload| std::panic::resume_unwind(payload)))
    })
}

fn push(records: &mut Vec<Record>, body: Body) {
    records.push(Record { seq: records.len() as u64, body });
}

/// The setup the firmware's tiers stream starts with.
pub fn tiers_model(config: &TiersConfig) -> Result<DeviceModel<SETUP_LIST>, String> {
    DeviceModel::tiers::<16, 2048, 1024>(config.config, &config.resources)
        .ok_or_else(|| format!("more than {SETUP_LIST} tiers resources"))
}

/// The setup the firmware's SLA stream starts with.
pub fn sla_model(config: sla::Config) -> DeviceModel<SETUP_LIST> {
    DeviceModel::sla::<65536, 4096>(config)
}

/// The tiers section's head in the streams file.
pub fn tiers_setup(config: &TiersConfig) -> Result<Vec<u8>, String> {
    let setup =
        TiersSetup { capacities: TIERS_CAPACITIES, config: config.config, resources: &config.resources };
    postcard::to_allocvec(&setup).map_err(|e| e.to_string())
}

/// The SLA section's head in the streams file.
pub fn sla_setup(config: sla::Config) -> Result<Vec<u8>, String> {
    postcard::to_allocvec(&SlaSetup { capacities: SLA_CAPACITIES, config }).map_err(|e| e.to_string())
}
