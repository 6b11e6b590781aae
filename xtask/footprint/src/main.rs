//! A bare-metal program that holds exactly the kernel's decision path: it builds a
//! `ServiceLevelKernel<4, 32, 8>` (4 machines, 32-entry queues, 8 levels) and steps it with events
//! the optimiser cannot see through (`black_box`), so every branch of `ServiceLevelKernel::new`
//! and `ServiceLevelKernel::step` is kept. Everything else is removed by the linker, and the
//! `.text` of the result is the kernel's code size on a Cortex-M4F.
//!
//! With the `link-check` feature it is also the proof that no panic can be linked:
//! it reaches every model's state machine (the service-level kernel under a policy
//! decoded from opaque bytes, so every policy; the reservation, tiers and sla kernels; the record
//! encoding and decoding) and its panic handler calls [`KERNEL_PANIC_PATH_IS_REACHABLE`],
//! which is defined nowhere. The linker keeps the handler only if some kept code can
//! panic, so the program links exactly when no panic is reachable. `COVERED` names the
//! kernel's modules this covers; `cargo xtask verify` refuses a kernel module missing
//! from it.

#![no_std]
#![no_main]

use core::hint::black_box;

use kernel::service_level::{Config, Decision, Event, Level, Policy, ServiceLevelKernel};

/// The kernel's modules (`kernel/src/lib.rs`) that the `link-check` build reaches:
/// the state machines directly (each `step` through `contract::Kernel`), the rest
/// through them. A new module is added here
/// with a call that reaches it.
pub const COVERED: &[&str] = &[
    "calendar",
    "contract",
    "log",
    "panic_free",
    "reservation",
    "service_level",
    "sla",
    "stream",
    "tiers",
    "types",
];

#[cfg(any(not(feature = "link-check"), feature = "explain"))]
/// The kernel never panics; a handler is still required, and costs a few bytes.
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    loop {
        core::hint::spin_loop();
    }
}

#[cfg(all(feature = "link-check", not(feature = "explain")))]
unsafe extern "C" {
    /// Defined nowhere: a reference to it that survives linking is a reachable panic.
    fn KERNEL_PANIC_PATH_IS_REACHABLE() -> !;
}

#[cfg(all(feature = "link-check", not(feature = "explain")))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    // SAFETY: never runs: the program only links when this handler is unreachable.
    unsafe { KERNEL_PANIC_PATH_IS_REACHABLE() }
}

/// The program's entry, named so that the linker keeps it and everything it reaches.
/// `no_mangle` is the only unsafe attribute here: nothing unsafe is executed, and this
/// crate is a measuring device outside the workspace (whose lints forbid it).
#[unsafe(no_mangle)]
pub extern "C" fn _start() -> ! {
    let mut levels = heapless::Vec::new();
    for _ in 0..black_box(8) {
        if levels.push(black_box(Level::whole(2, 1))).is_err() {
            break;
        }
    }
    #[cfg(feature = "link-check")]
    let policy = postcard::from_bytes::<Policy>(black_box(&[0u8; 4])).unwrap_or_default();
    #[cfg(not(feature = "link-check"))]
    let policy = Policy::FirstFit;
    let config = Config { machines: black_box(4), policy, levels };
    let Ok(mut kernel) = ServiceLevelKernel::<4, 32, 8>::new(config) else { panic_free_halt() };
    #[cfg(feature = "link-check")]
    let mut others = link_check::Others::new();
    loop {
        let event: Event = black_box(Event::Reset);
        let outcome = kernel.step(event, &mut |d: Decision| {
            black_box(d);
        });
        black_box(outcome);
        #[cfg(feature = "link-check")]
        others.step();
    }
}

#[cfg(feature = "link-check")]
mod link_check {
    use core::hint::black_box;

    use kernel::contract::Kernel;
    use kernel::log::{Body, RECORD_MAX_BYTES, Record};
    use kernel::reservation::{self, ReservationKernel};
    use kernel::sla::{self, SlaKernel};
    use kernel::tiers::{self, TiersKernel};

    /// Everything the service-level step does not reach.
    pub struct Others {
        reservation: Option<ReservationKernel<64, 16, 16, 4>>,
        tiers: Option<TiersKernel<4, 64, 16>>,
        sla: Option<SlaKernel<64, 8>>,
    }

    /// Steps `kernel`, if it was built, with `event`, if the record is one of its.
    fn step<K: Kernel>(kernel: Option<&mut K>, event: Option<K::Event>) {
        if let (Some(kernel), Some(event)) = (kernel, event) {
            black_box(kernel.step(event, &mut |d| {
                black_box(d);
            }));
        }
    }

    impl Others {
        pub fn new() -> Self {
            let config = postcard::from_bytes::<reservation::Config>(black_box(&[0u8; 32]))
                .unwrap_or(reservation::Config::new(4, 60));
            let tiers_config = postcard::from_bytes::<tiers::Config>(black_box(&[0u8; 32]))
                .unwrap_or(tiers::Config::new(tiers::Policy::QosRes));
            let resources = postcard::from_bytes::<[tiers::Resource; 2]>(black_box(&[0u8; 32]))
                .unwrap_or([tiers::Resource { group: tiers::Group::High, nodes: 2, speed_milli: 1000 }; 2]);
            // The order (every heuristic, the random one) from opaque bytes too.
            let sla_config = postcard::from_bytes::<sla::Config>(black_box(&[0u8; 48]))
                .unwrap_or(sla::Config::new(4, 60, sla::Order::Random { seed: 0 }));
            Self {
                reservation: ReservationKernel::new(black_box(config)).ok(),
                tiers: TiersKernel::new(black_box(tiers_config), black_box(&resources)).ok(),
                sla: SlaKernel::new(black_box(sla_config)).ok(),
            }
        }

        pub fn step(&mut self) {
            // Events and records from opaque bytes: every variant is reachable.
            let bytes: &[u8] = black_box(&[0u8; RECORD_MAX_BYTES]);
            let Ok((record, _)) = kernel::log::decode(bytes) else { return };
            let body = record.body;
            step(
                self.reservation.as_mut(),
                if let Body::ReservationEvent(e) = body { Some(e) } else { None },
            );
            step(self.tiers.as_mut(), if let Body::TiersEvent(e) = body { Some(e) } else { None });
            step(self.sla.as_mut(), if let Body::SlaEvent(e) = body { Some(e) } else { None });
            let mut buf = [0u8; RECORD_MAX_BYTES];
            let out =
                kernel::log::encode(&Record { seq: black_box(record.seq), body: record.body }, &mut buf);
            black_box(out.map(|b| b.len()).ok());
            crate::stream(record.body);
            #[cfg(feature = "planted-panic")]
            {
                // The negative control: an index the optimiser cannot prove in bounds.
                let table = black_box([1u8, 2, 3]);
                black_box(table[black_box(record.seq as usize)]);
            }
        }
    }
}

/// The stream writer (setup, record, end) and the frame decoder, from opaque bytes.
#[cfg(feature = "link-check")]
fn stream(body: kernel::log::Body) {
    use kernel::stream::{DeviceModel, RECORD_BUFFER_BYTES, Setup, StreamWriter, decode_frame};
    let mut writer = StreamWriter::new();
    let mut big = [0u8; 512];
    let config = postcard::from_bytes::<kernel::reservation::Config>(black_box(&[0u8; 32]))
        .unwrap_or(kernel::reservation::Config::new(4, 60));
    let setup: Setup<8> = Setup::new(black_box("probe"), DeviceModel::reservation::<64, 16, 16, 4>(config));
    black_box(writer.setup(&setup, &mut big).map(|b| b.len()).ok());
    let mut buf = [0u8; RECORD_BUFFER_BYTES];
    black_box(writer.record(body, &mut buf).map(|b| b.len()).ok());
    black_box(writer.end(&mut buf).map(|b| b.len()).ok());
    let frame: &[u8] = black_box(&[0u8; 96]);
    black_box(decode_frame::<8>(frame, &mut big).is_ok());
}

fn panic_free_halt() -> ! {
    loop {
        core::hint::spin_loop();
    }
}
