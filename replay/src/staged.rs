//! Output files that never destroy anything. Every file the two programs write goes
//! through [`write`]:
//!
//! - A regular file (new or existing) is written to `PATH.tmp` and renamed to `PATH`
//!   once whole, so a failed run never leaves a file that looks finished. A symbolic
//!   link is followed: the file it points to is replaced, and the link stays.
//! - A character device or a FIFO (`/dev/null`, `/dev/stdout`, a pipe made with
//!   `mkfifo`) is written through, never replaced by a regular file.
//! - A directory, a block device or a socket is refused.
//!
//! Before anything is read, [`distinct`] refuses an output that is one of the inputs or
//! another output ([`paths`]), and registers the inputs, which [`write`] then never
//! replaces ([`inputs`]). While a `.tmp` file exists it is listed, so that an
//! interrupted run (SIGINT, SIGTERM, SIGHUP) removes it before exiting
//! ([`interrupt`]).

use std::fs::{self, File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};

pub mod inputs;
pub mod interrupt;
pub mod paths;

pub use paths::{Clash, Named, repeated};

/// A failure to create, rename or remove the staged file.
#[derive(Debug, thiserror::Error)]
#[error("{}: {source}", path.display())]
pub struct StageError {
    pub path: PathBuf,
    #[source]
    pub source: io::Error,
}

impl StageError {
    fn new(path: &Path, problem: &str) -> Self {
        Self { path: path.to_owned(), source: io::Error::other(problem.to_owned()) }
    }
}

/// Refuses, before anything is read or written, an output that is one of the inputs
/// or another output ([`paths::distinct`]); once they pass, registers the inputs
/// ([`inputs::protect`]), so that no later [`write`] replaces one, whatever path it
/// is given.
pub fn distinct(inputs: &[Named], outputs: &[Named]) -> Result<(), Clash> {
    paths::distinct(inputs, outputs)?;
    inputs::protect(inputs);
    Ok(())
}

/// `PATH.tmp`.
pub fn tmp_path(path: &Path) -> PathBuf {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    PathBuf::from(tmp)
}

/// How an output path is written.
#[derive(Debug, PartialEq, Eq)]
enum Target {
    /// A regular file, new or existing (a link's target): staged and renamed.
    Staged(PathBuf),
    /// A character device or a FIFO: written through.
    Through(PathBuf),
}

/// What `path` is, following symbolic links; refuses what must not be written.
fn target(path: &Path) -> Result<Target, StageError> {
    let real = paths::follow_links(path).map_err(|source| StageError { path: path.to_owned(), source })?;
    let kind = match fs::metadata(&real) {
        Ok(metadata) => metadata.file_type(),
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Target::Staged(real)),
        Err(source) => return Err(StageError { path: path.to_owned(), source }),
    };
    if kind.is_file() {
        return Ok(Target::Staged(real));
    }
    if kind.is_dir() {
        return Err(StageError::new(path, "is a directory; give the name of a file to write"));
    }
    if paths::writes_through(&kind) {
        return Ok(Target::Through(real));
    }
    Err(StageError::new(
        path,
        "is a block device or a socket; an output is a file, a character device or a FIFO",
    ))
}

/// Calls `write` with the output open, and returns its result. A regular file is
/// written to `PATH.tmp`, renamed to its path if `write` succeeded and removed if
/// anything failed; a device or FIFO is written through (see the module's summary).
/// `write` is given the file and the path it writes, for its own error messages.
pub fn write<T, E: From<StageError>>(
    path: &Path,
    write: impl FnOnce(File, &Path) -> Result<T, E>,
) -> Result<T, E> {
    if let Some(problem) = inputs::refusal(path) {
        return Err(StageError::new(path, &problem).into());
    }
    match target(path)? {
        Target::Through(device) => {
            let file = OpenOptions::new()
                .write(true)
                .open(&device)
                .map_err(|source| StageError { path: device.clone(), source })?;
            write(file, &device)
        }
        Target::Staged(real) => staged(&real, write),
    }
}

/// Whether [`write`] writes `path` through a staged file (`PATH.tmp`, a regular file
/// the writer may seek in) rather than straight to a device or a FIFO; `false` for a
/// path it refuses.
pub fn stages(path: &Path) -> bool {
    matches!(target(path), Ok(Target::Staged(_)))
}

/// Writes `bytes` to `path` as [`write`] does: whole or not at all.
pub fn write_all(path: &Path, bytes: &[u8]) -> Result<(), StageError> {
    write(path, |mut file, at| {
        io::Write::write_all(&mut file, bytes).map_err(|source| StageError { path: at.to_owned(), source })
    })
}

fn staged<T, E: From<StageError>>(
    path: &Path,
    write: impl FnOnce(File, &Path) -> Result<T, E>,
) -> Result<T, E> {
    let tmp = tmp_path(path);
    // `create_new`: a `.tmp` file that already exists belongs to someone else (or to
    // a run that was killed outright) and is never truncated.
    let created =
        interrupt::Live::create(&tmp, || OpenOptions::new().write(true).create_new(true).open(&tmp));
    let (file, _live) = match created {
        Ok(created) => created,
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            let problem = format!(
                "already exists (another run writing {}, or one that was killed); remove it to write there",
                path.display()
            );
            return Err(StageError::new(&tmp, &problem).into());
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let folder = path.parent().map_or_else(|| Path::new(".").display(), Path::display);
            let problem = format!("the folder {folder} does not exist; create it first");
            return Err(StageError::new(path, &problem).into());
        }
        Err(source) => return Err(StageError { path: tmp, source }.into()),
    };
    let result = write(file, &tmp).and_then(|value| {
        fs::rename(&tmp, path).map_err(|source| StageError { path: path.to_owned(), source })?;
        Ok(value)
    });
    if result.is_err() {
        // The partial file is useless; a failure to remove it changes nothing.
        let _ = fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests;
