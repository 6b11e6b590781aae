//! defmt's global logger for QEMU: frames go to the host file `defmt.bin` over
//! semihosting, buffered, and the host decodes them with the firmware's ELF
//! (`embedded/defmt-log`, which `cargo xtask embedded` runs). On a real board,
//! replace this module with `defmt-rtt` and a probe.
//!
//! Single core, and nothing logs from an interrupt: every call takes a critical
//! section of its own, and `acquire`/`release` bracket a frame with a flag.

use core::cell::RefCell;

use critical_section::Mutex;

use crate::host::{Buffered, HostFile};

struct State {
    file: Option<Buffered<512>>,
    encoder: defmt::Encoder,
    taken: bool,
    failed: bool,
}

static STATE: Mutex<RefCell<State>> = Mutex::new(RefCell::new(State {
    file: None,
    encoder: defmt::Encoder::new(),
    taken: false,
    failed: false,
}));

#[defmt::global_logger]
struct SemihostingLogger;

/// Frames written through `f`, once the file is open.
fn with_state(f: impl FnOnce(&mut State)) {
    critical_section::with(|cs| f(&mut STATE.borrow_ref_mut(cs)));
}

fn write_to(file: &mut Option<Buffered<512>>, failed: &mut bool, bytes: &[u8]) {
    if let Some(file) = file.as_mut()
        && file.write(bytes).is_err()
    {
        *failed = true;
    }
}

// SAFETY: defmt requires the logger to be `unsafe impl`: `acquire` must not be
// re-entered before `release`. Re-entry (a log from inside a log) is refused by the
// `taken` flag, and each call holds a critical section while it touches the state.
unsafe impl defmt::Logger for SemihostingLogger {
    fn acquire() {
        with_state(|s| {
            if s.taken {
                return;
            }
            s.taken = true;
            if s.file.is_none() && !s.failed {
                match HostFile::create(b"defmt.bin\0") {
                    Some(file) => s.file = Some(Buffered::new(file)),
                    None => s.failed = true,
                }
            }
            let State { file, encoder, failed, .. } = s;
            encoder.start_frame(|b| write_to(file, failed, b));
        });
    }

    unsafe fn flush() {
        with_state(|s| {
            if let Some(file) = s.file.as_mut()
                && file.flush().is_err()
            {
                s.failed = true;
            }
        });
    }

    unsafe fn release() {
        with_state(|s| {
            let State { file, encoder, failed, .. } = s;
            encoder.end_frame(|b| write_to(file, failed, b));
            s.taken = false;
        });
    }

    unsafe fn write(bytes: &[u8]) {
        with_state(|s| {
            let State { file, encoder, failed, .. } = s;
            encoder.write(bytes, |b| write_to(file, failed, b));
        });
    }
}

/// Writes out what is buffered and closes the file; whether every frame got out.
pub fn finish() -> bool {
    let mut ok = true;
    with_state(|s| {
        if let Some(file) = s.file.take() {
            ok = file.close().is_ok();
        }
        ok &= !s.failed;
    });
    ok
}
