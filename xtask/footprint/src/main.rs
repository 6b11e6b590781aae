//! A bare-metal program that holds exactly the kernel's decision path: it builds a
//! `Kernel<4, 32, 8>` (4 machines, 32-entry queues, 8 levels) and steps it with events
//! the optimiser cannot see through (`black_box`), so every branch of `Kernel::new`
//! and `Kernel::step` is kept. Everything else is removed by the linker, and the
//! `.text` of the result is the kernel's code size on a Cortex-M4F.

#![no_std]
#![no_main]

use core::hint::black_box;

use kernel::{Config, Decision, Event, Kernel, Level, Policy};

/// The kernel never panics; a handler is still required, and costs a few bytes.
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    loop {
        core::hint::spin_loop();
    }
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
    let config = Config { machines: black_box(4), policy: Policy::FirstFit, levels };
    let Ok(mut kernel) = Kernel::<4, 32, 8>::new(config) else { panic_free_halt() };
    loop {
        let event: Event = black_box(Event::Reset);
        let outcome = kernel.step(event, &mut |d: Decision| {
            black_box(d);
        });
        black_box(outcome);
    }
}

fn panic_free_halt() -> ! {
    loop {
        core::hint::spin_loop();
    }
}
