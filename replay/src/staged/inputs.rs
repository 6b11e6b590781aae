//! The inputs of this run, registered by `staged::distinct` once it has passed them,
//! so that `staged::write` refuses to replace one even through a path that no check
//! listed (a file of an output folder, say).

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};

use super::paths::{Identity, Named, identity};

/// An input: the option that named it, its path as given, the file it is, and how
/// many runs of this process that have not ended read it ([`release`]).
struct Input {
    option: String,
    path: PathBuf,
    id: Identity,
    runs: usize,
}

static INPUTS: Mutex<Vec<Input>> = Mutex::new(Vec::new());

fn inputs() -> MutexGuard<'static, Vec<Input>> {
    // A panic while the list was held leaves it whole (pushes only).
    INPUTS.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Adds `named` to the inputs that no output may replace. A device (`/dev/stdin`) is
/// left out: writing to one replaces nothing.
pub fn protect(named: &[Named]) {
    let mut list = inputs();
    for &(option, path) in named {
        let id = identity(path);
        if id.is_device() {
            continue;
        }
        match list.iter_mut().find(|input| input.id == id) {
            Some(input) => input.runs += 1,
            None => list.push(Input { option: option.to_owned(), path: path.to_owned(), id, runs: 1 }),
        }
    }
}

/// Ends one run's hold on `named` (what it gave [`protect`]): a file no run of this
/// process reads any more may be written again. A process that runs one command line
/// and exits never needs this; one that runs many (the Python package) releases each
/// run's inputs when it ends, so that a later run may write where an earlier one read.
pub fn release(named: &[Named]) {
    let mut list = inputs();
    for &(_, path) in named {
        let id = identity(path);
        if let Some(at) = list.iter().position(|input| input.id == id) {
            list[at].runs -= 1;
            if list[at].runs == 0 {
                list.remove(at);
            }
        }
    }
}

/// Why `path` must not be written, if it is a registered input (through any
/// spelling or link).
pub(super) fn refusal(path: &Path) -> Option<String> {
    let list = inputs();
    if list.is_empty() {
        return None;
    }
    let id = identity(path);
    let input = list.iter().find(|input| input.id == id)?;
    Some(format!(
        "is the same file as {} {}, an input of this run: an output never replaces an input; \
         name another file or folder",
        input.option,
        input.path.display()
    ))
}
