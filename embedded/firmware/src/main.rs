//! The four admission kernels on a Cortex-M4F (QEMU's `mps2-an386`), over event
//! streams compiled in, with every record encoded by the kernel's own encoding
//! (`kernel::log::encode`) and written to the host, where `cargo xtask embedded`
//! compares the bytes with the host kernel's.
//!
//! The streams file (`EMBEDDED_STREAMS`, written by `cargo xtask embedded` under
//! `target/`, never committed) holds, after the magic `KSTREAM2`, four sections, each
//! after its length (u32, little-endian): service level, reservation, tiers and SLA,
//! each its setup (the capacities it was generated for and the kernel's
//! configuration, `runs.rs`) then event records, all postcard, records as
//! `kernel::log::encode` writes them.
//!
//! Out, through semihosting: `service-level.stream`, `reservation.stream`,
//! `tiers.stream` and `sla.stream`, each a device record stream (`kernel::stream`,
//! `docs/stream-format.md`): a setup frame naming the kernel, its configuration and
//! its capacities, then every event and decision, numbered from 0 per kernel, as
//! `kernel::log::encode` writes them, each in its own checksummed COBS frame, then an
//! end frame; `defmt.bin` (the defmt frames: a summary per kernel and each
//! rejection), and one `FIGURES` line per kernel on standard output (state size,
//! record counts, stack high-water marks). Any failure prints why and exits non-zero,
//! a panic included.

#![no_std]
#![no_main]

mod host;
mod logger;
mod recorder;
mod runs;
mod stack;

use core::mem::size_of;

use cortex_m_rt::entry;
use cortex_m_semihosting::{debug, hprintln};
use kernel::reservation::ReservationKernel;
use kernel::service_level::ServiceLevelKernel;

/// The service-level kernel: 4 machines, 32 queue entries each, up to 8 levels (the
/// small configuration of docs/testing.md, "What it costs").
type ServiceKernel = ServiceLevelKernel<4, 32, 8>;
/// The reservation kernel: 16,384 one-minute calendar slots (11.4 days ahead: the
/// SDSC SP2 prefix plans starts up to 9.7 days ahead), 256
/// waiting and 256 running reservations (`2 m` for SDSC SP2's 128 nodes), 8 offers.
type ResvKernel = ReservationKernel<16384, 256, 256, 8>;
/// The tiers kernel and the SLA kernel at host-sim's sizes, the only ones `replay
/// verify` rebuilds, so that their streams verify on the host: 16 resources, 2,048
/// one-minute slots (34 hours ahead), 1,024 jobs; 65,536 slots, batches of 4,096.
type TiersKernel = kernel::tiers::TiersKernel<16, 2048, 1024>;
type SlaKernel = kernel::sla::SlaKernel<65536, 4096>;

/// The event streams: build through `cargo xtask embedded`, which generates them.
static STREAMS: &[u8] = include_bytes!(env!(
    "EMBEDDED_STREAMS",
    "EMBEDDED_STREAMS is unset: build the firmware with `cargo xtask embedded`, which generates \
     the streams file under target/embedded/ and names it here"
));
const MAGIC: &[u8] = b"KSTREAM2";

/// What one kernel's run measured.
#[derive(Default)]
struct Run {
    events: u32,
    records: u64,
    bytes: u64,
    accepted: u32,
    rejected: u32,
    /// Preemptions (service level) or moves (tiers).
    displaced: u32,
    /// The stack's high-water mark over the whole run, from the top of RAM: the
    /// kernel's state and the record buffer live in the run function's frame.
    stack: usize,
    /// The stack the decision path itself takes below the driving loop's frame:
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

/// The four sections of the streams file.
fn sections() -> Result<[&'static [u8]; 4], &'static str> {
    let mut rest = STREAMS.strip_prefix(MAGIC).ok_or("the streams file does not start with KSTREAM2")?;
    let mut next = || {
        let (len, tail) = rest.split_first_chunk::<4>().ok_or("the streams file is cut short")?;
        let (section, tail) =
            tail.split_at_checked(u32::from_le_bytes(*len) as usize).ok_or("a section is cut short")?;
        rest = tail;
        Ok::<_, &'static str>(section)
    };
    Ok([next()?, next()?, next()?, next()?])
}

fn run_all() -> Result<(), &'static str> {
    let [service, reservation, tiers, sla] = sections()?;
    measure("service-level", "service", size_of::<ServiceKernel>(), || runs::service(service))?;
    measure("reservation", "reservation", size_of::<ResvKernel>(), || runs::reservation(reservation))?;
    measure("tiers", "tiers", size_of::<TiersKernel>(), || runs::tiers(tiers))?;
    measure("sla", "sla", size_of::<SlaKernel>(), || runs::sla(sla))
}

/// Runs one kernel from a freshly painted stack; logs its summary and its stack, and
/// prints its `FIGURES` line (`key_state=...`).
fn measure(
    name: &str,
    key: &str,
    state: usize,
    run: impl FnOnce() -> Result<Run, &'static str>,
) -> Result<(), &'static str> {
    let _ = stack::paint();
    let mut r = run()?;
    r.stack = stack::high_water();
    defmt::info!(
        "{=str}: {=u32} events, {=u64} records, {=u32} accepted, {=u32} rejected, {=u32} preemptions or moves",
        name,
        r.events,
        r.records,
        r.accepted,
        r.rejected,
        r.displaced
    );
    defmt::info!(
        "stack high-water: {=usize} bytes ({=str}), of {=usize}; decision path {=usize} bytes",
        r.stack,
        name,
        stack::room(),
        r.step_stack
    );
    hprintln!(
        "FIGURES {0}_state={1} {0}_events={2} {0}_records={3} {0}_bytes={4} {0}_stack={5} {0}_step_stack={6}",
        key,
        state,
        r.events,
        r.records,
        r.bytes,
        r.stack,
        r.step_stack
    );
    Ok(())
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
