//! The `.tmp` files being written, removed when the run is interrupted. Each binary
//! calls [`remove_on_signal`] once at start; [`super::write`] lists each staged file
//! while it exists ([`Live`]).

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};

static LIVE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn live() -> MutexGuard<'static, Vec<PathBuf>> {
    // A panic while the list was held leaves it whole (pushes and removals only).
    LIVE.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A staged file on the list while this lives.
#[derive(Debug)]
pub struct Live(PathBuf);

impl Live {
    /// Creates `tmp` with `create` and lists it, under the list's lock, so that a
    /// signal arriving in between never misses it.
    pub fn create(tmp: &Path, create: impl FnOnce() -> io::Result<File>) -> io::Result<(File, Self)> {
        let mut list = live();
        let file = create()?;
        list.push(tmp.to_owned());
        Ok((file, Self(tmp.to_owned())))
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        let mut list = live();
        if let Some(at) = list.iter().rposition(|path| *path == self.0) {
            list.swap_remove(at);
        }
    }
}

/// Starts a thread that waits for SIGINT, SIGTERM or SIGHUP, removes every listed
/// `.tmp` file and exits with status 128 + the signal's number, as a shell reports a
/// process killed by it.
pub fn remove_on_signal() -> io::Result<()> {
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])?;
        std::thread::Builder::new().name("signals".to_owned()).spawn(move || {
            if let Some(signal) = signals.forever().next() {
                remove_listed();
                std::process::exit(128 + signal);
            }
        })?;
    }
    Ok(())
}

/// Removes every listed file; one that is already gone (renamed an instant ago) is
/// no matter.
fn remove_listed() {
    for path in live().drain(..) {
        let _ = fs::remove_file(path);
    }
}
