//! The inputs of this run, registered by `staged::distinct` once it has passed them,
//! so that `staged::write` refuses to replace one even through a path that no check
//! listed (a file of an output folder, say).

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};

use super::paths::{Identity, Named, identity};

/// An input: the option that named it, its path as given, and the file it is.
struct Input {
    option: String,
    path: PathBuf,
    id: Identity,
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
        if !id.is_device() && !list.iter().any(|input| input.id == id) {
            list.push(Input { option: option.to_owned(), path: path.to_owned(), id });
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
