//! The admission kernels on a Cortex-M4F (QEMU's `mps2-an386`), over event streams
//! compiled in, with every record encoded by the kernel's own encoding
//! (`kernel::log::encode`) and written to the host, where `cargo xtask embedded`
//! compares the bytes with the host kernel's.
//!
//! The streams file (`EMBEDDED_STREAMS`, written by `cargo xtask embedded` under
//! `target/`, never committed) holds, after the magic `KSTREAM1` and the service-level
//! section's length (u32, little-endian): the service-level section (a [`ServiceSetup`]
//! then event records) and the reservation section (a [`ReservationSetup`] then event
//! records), all postcard, records as `kernel::log::encode` writes them.
//!
//! Out, through semihosting: `service-level.stream` and `reservation.stream`, each a
//! device record stream (`kernel::stream`, `docs/stream-format.md`): a setup frame
//! naming the kernel, its configuration and its capacities, then every event and
//! decision, numbered from 0 per kernel, as `kernel::log::encode` writes them, each in
//! its own checksummed COBS frame, then an end frame; `defmt.bin` (the defmt frames: a summary per kernel and each rejection), and
//! one `FIGURES` line on standard output (state sizes, record counts, stack high-water
//! marks). Any failure prints why and exits non-zero, a panic included.

#![no_std]
#![no_main]

mod host;
mod logger;
mod stack;

use core::mem::size_of;

use cortex_m_rt::entry;
use cortex_m_semihosting::{debug, hprintln};
use kernel::log::{Body, Record};
use kernel::reservation::{self, ReservationKernel};
use kernel::service_level::{Config, Decision, Kernel, Level, Policy, RejectReason};
use kernel::stream::{DeviceModel, RECORD_BUFFER_BYTES, Setup, StreamWriter};
use serde::Deserialize;

use crate::host::{Buffered, HostFile};

/// The service-level kernel: 4 machines, 32 queue entries each, up to 8 levels (the
/// small configuration of docs/testing.md, "What it costs").
type ServiceKernel = Kernel<4, 32, 8>;
/// The reservation kernel: 16,384 one-minute calendar slots (11.4 days ahead: the
/// SDSC SP2 prefix plans starts up to 9.7 days ahead), 256
/// waiting and 256 running reservations (`2 m` for SDSC SP2's 128 nodes), 8 offers.
type ResvKernel = ReservationKernel<16384, 256, 256, 8>;
const SERVICE_CAPACITIES: [u32; 3] = [4, 32, 8];
const RESERVATION_CAPACITIES: [u32; 4] = [16384, 256, 256, 8];

/// The event streams: build through `cargo xtask embedded`, which generates them.
static STREAMS: &[u8] = include_bytes!(env!(
    "EMBEDDED_STREAMS",
    "EMBEDDED_STREAMS is unset: build the firmware with `cargo xtask embedded`, which generates \
     the streams file under target/embedded/ and names it here"
));
const MAGIC: &[u8] = b"KSTREAM1";

/// The service-level section's head: the capacities it was generated for, and the
/// kernel's configuration.
#[derive(Deserialize)]
struct ServiceSetup {
    capacities: [u32; 3],
    machines: u16,
    levels: heapless::Vec<Level, 8>,
}

/// The reservation section's head.
#[derive(Deserialize)]
struct ReservationSetup {
    capacities: [u32; 4],
    config: reservation::Config,
}

/// What one kernel's run measured.
#[derive(Default)]
struct Run {
    events: u32,
    records: u64,
    bytes: u64,
    accepted: u32,
    rejected: u32,
    preempted: u32,
    /// The stack's high-water mark over the whole run, from the top of RAM: the
    /// kernel's state and the record buffer live in the run function's frame.
    stack: usize,
    /// The stack the decision path itself takes below the run function's frame:
    /// `step`, the sink and the record encoding.
    step_stack: usize,
}

#[entry]
fn main() -> ! {
    let result = run_all();
    let logged = logger::finish();
    match result {
        Ok(()) if logged => debug::exit(debug::EXIT_SUCCESS),
        Ok(()) => fail("the host refused defmt.bin"),
        Err(e) => fail(e),
    }
    loop {
        cortex_m::asm::bkpt();
    }
}

fn fail(why: &str) {
    hprintln!("kernel-firmware: FAILED: {}", why);
    debug::exit(debug::EXIT_FAILURE);
}

fn run_all() -> Result<(), &'static str> {
    let rest = STREAMS.strip_prefix(MAGIC).ok_or("the streams file does not start with KSTREAM1")?;
    let (len, rest) = rest.split_first_chunk::<4>().ok_or("the streams file is cut short")?;
    let (service, reservation) = rest
        .split_at_checked(u32::from_le_bytes(*len) as usize)
        .ok_or("the service-level section is cut short")?;

    let _ = stack::paint();
    let mut s = run_service(service)?;
    s.stack = stack::high_water();
    defmt::info!(
        "service-level: {=u32} events, {=u64} records, {=u32} accepted, {=u32} rejected, {=u32} preemptions",
        s.events,
        s.records,
        s.accepted,
        s.rejected,
        s.preempted
    );

    let _ = stack::paint();
    let mut r = run_reservation(reservation)?;
    r.stack = stack::high_water();
    defmt::info!(
        "reservation: {=u32} events, {=u64} records, {=u32} accepted, {=u32} rejected",
        r.events,
        r.records,
        r.accepted,
        r.rejected
    );
    defmt::info!(
        "stack high-water: {=usize} bytes (service-level), {=usize} bytes (reservation), of {=usize}; decision path {=usize} and {=usize} bytes",
        s.stack,
        r.stack,
        stack::room(),
        s.step_stack,
        r.step_stack
    );
    hprintln!(
        "FIGURES service_state={} service_events={} service_records={} service_bytes={} service_stack={} \
         service_step_stack={} reservation_state={} reservation_events={} reservation_records={} \
         reservation_bytes={} reservation_stack={} reservation_step_stack={}",
        size_of::<ServiceKernel>(),
        s.events,
        s.records,
        s.bytes,
        s.stack,
        s.step_stack,
        size_of::<ResvKernel>(),
        r.events,
        r.records,
        r.bytes,
        r.stack,
        r.step_stack
    );
    Ok(())
}

/// What the streams' setup frames name as their writer.
const SOURCE: &str = "kernel-firmware";
/// The most service levels or tiers resources a setup here holds.
const SETUP_LIST: usize = 8;

/// Writes a record stream: the setup, then each record numbered and framed by the
/// kernel's stream writer into a caller's buffer, then the end.
struct Recorder {
    out: Buffered<4096>,
    writer: StreamWriter,
    failed: bool,
}

impl Recorder {
    fn create(name: &[u8]) -> Result<Self, &'static str> {
        let file = HostFile::create(name).ok_or("the host refused to create a stream file")?;
        Ok(Self { out: Buffered::new(file), writer: StreamWriter::new(), failed: false })
    }

    /// The setup frame, first: the kernel, its configuration and its capacities.
    fn setup(&mut self, model: DeviceModel<SETUP_LIST>) {
        let mut buf = [0u8; 2 * RECORD_BUFFER_BYTES];
        match self.writer.setup(&Setup::new(SOURCE, model), &mut buf) {
            Ok(bytes) => self.failed |= self.out.write(bytes).is_err(),
            Err(_) => self.failed = true,
        }
    }

    fn record(&mut self, body: Body) {
        let mut buf = [0u8; RECORD_BUFFER_BYTES];
        match self.writer.record(body, &mut buf) {
            Ok(bytes) => self.failed |= self.out.write(bytes).is_err(),
            Err(_) => self.failed = true,
        }
    }

    /// The end frame, last: the records written.
    fn end(&mut self) {
        let mut buf = [0u8; RECORD_BUFFER_BYTES];
        match self.writer.end(&mut buf) {
            Ok(bytes) => self.failed |= self.out.write(bytes).is_err(),
            Err(_) => self.failed = true,
        }
    }

    fn close(self) -> Result<(u64, u64), &'static str> {
        let (records, bytes) = (self.writer.records(), self.out.bytes);
        let closed = self.out.close();
        if self.failed || closed.is_err() {
            return Err("a stream frame could not be encoded or written");
        }
        Ok((records, bytes))
    }
}

/// The next event record of a stream, or `None` at its end.
fn next_record(bytes: &mut &[u8]) -> Result<Option<Record>, &'static str> {
    if bytes.is_empty() {
        return Ok(None);
    }
    let (record, rest) = kernel::log::decode(bytes).map_err(|_| "an event record does not decode")?;
    *bytes = rest;
    Ok(Some(record))
}

#[inline(never)]
fn run_service(section: &[u8]) -> Result<Run, &'static str> {
    let (setup, mut events): (ServiceSetup, _) =
        postcard::take_from_bytes(section).map_err(|_| "the service-level setup does not decode")?;
    if setup.capacities != SERVICE_CAPACITIES {
        return Err("the service-level stream was generated for other capacities than Kernel<4, 32, 8>");
    }
    let config = Config { machines: setup.machines, policy: Policy::FirstFit, levels: setup.levels };
    let model =
        DeviceModel::service_level::<4, 32, 8>(&config).ok_or("more service levels than a setup holds")?;
    let mut kernel = ServiceKernel::new(config).map_err(|_| "the service-level configuration is refused")?;
    let mut out = Recorder::create(b"service-level.stream\0")?;
    out.setup(model);
    let mut run = Run::default();
    let sp = stack::paint();
    while let Some(record) = next_record(&mut events)? {
        let Body::Event(event) = record.body else {
            return Err("the service-level stream holds a record that is not a service-level event");
        };
        run.events += 1;
        out.record(Body::Event(event));
        kernel.step(event, &mut |d: Decision| {
            match d {
                Decision::Accept { preempted, .. } => {
                    run.accepted += 1;
                    run.preempted += u32::from(preempted.is_some());
                }
                Decision::Reject { job, reason } => {
                    run.rejected += 1;
                    log_reject(job, reason);
                }
                _ => {}
            }
            out.record(Body::Decision(d));
        });
    }
    run.step_stack = stack::used_below(sp);
    out.end();
    (run.records, run.bytes) = out.close()?;
    Ok(run)
}

fn log_reject(job: u32, reason: RejectReason) {
    defmt::info!("service-level: job {=u32} rejected: {}", job, reason);
}

#[inline(never)]
fn run_reservation(section: &[u8]) -> Result<Run, &'static str> {
    let (setup, mut events): (ReservationSetup, _) =
        postcard::take_from_bytes(section).map_err(|_| "the reservation setup does not decode")?;
    if setup.capacities != RESERVATION_CAPACITIES {
        return Err(
            "the reservation stream was generated for other capacities than ReservationKernel<16384, 256, 256, 8>",
        );
    }
    let mut kernel = ResvKernel::new(setup.config).map_err(|_| "the reservation configuration is refused")?;
    let model = DeviceModel::reservation::<16384, 256, 256, 8>(setup.config);
    let mut out = Recorder::create(b"reservation.stream\0")?;
    out.setup(model);
    let mut run = Run::default();
    let sp = stack::paint();
    while let Some(record) = next_record(&mut events)? {
        let Body::ReservationEvent(event) = record.body else {
            return Err("the reservation stream holds a record that is not a reservation event");
        };
        run.events += 1;
        out.record(Body::ReservationEvent(event));
        kernel.step(event, &mut |d: reservation::Decision| {
            match d {
                reservation::Decision::Accept { .. } => run.accepted += 1,
                reservation::Decision::Reject { job, reason } => {
                    run.rejected += 1;
                    defmt::info!("reservation: job {=u32} rejected: {}", job, reason);
                }
                _ => {}
            }
            out.record(Body::ReservationDecision(d));
        });
    }
    run.step_stack = stack::used_below(sp);
    out.end();
    (run.records, run.bytes) = out.close()?;
    Ok(run)
}

/// Reports the panic on the host's console and exits non-zero, so that QEMU (and
/// `cargo xtask embedded`) see a failure rather than a hang.
#[panic_handler]
fn panic(info: &core::panic::PanicInfo) -> ! {
    hprintln!("kernel-firmware: PANIC: {}", info);
    debug::exit(debug::EXIT_FAILURE);
    loop {
        cortex_m::asm::bkpt();
    }
}
