//! Output files that appear whole or not at all: written to `PATH.tmp`, renamed to
//! `PATH` once complete, removed on any failure. Decision logs (`host-sim ... --log`)
//! and exports (`replay export --out`) are written this way, so that a failed run
//! or a damaged input never leaves a file that looks finished.

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

/// A failure to create, rename or remove the staged file.
#[derive(Debug, thiserror::Error)]
#[error("{}: {source}", path.display())]
pub struct StageError {
    pub path: PathBuf,
    #[source]
    pub source: io::Error,
}

/// `PATH.tmp`.
pub fn tmp_path(path: &Path) -> PathBuf {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    PathBuf::from(tmp)
}

/// Calls `write` with `PATH.tmp` created, then renames it to `path` if `write`
/// succeeded, or removes it if anything failed. A `path` that is a directory is
/// refused before anything is created.
pub fn write<T, E: From<StageError>>(
    path: &Path,
    write: impl FnOnce(File, &Path) -> Result<T, E>,
) -> Result<T, E> {
    if path.is_dir() {
        let source = io::Error::other("is a directory; give the name of a file to write");
        return Err(StageError { path: path.to_owned(), source }.into());
    }
    let tmp = tmp_path(path);
    let file = File::create(&tmp).map_err(|source| StageError { path: tmp.clone(), source })?;
    let result = write(file, &tmp).and_then(|value| {
        std::fs::rename(&tmp, path).map_err(|source| StageError { path: path.to_owned(), source })?;
        Ok(value)
    });
    if result.is_err() {
        // The partial file is useless; a failure to remove it changes nothing.
        let _ = std::fs::remove_file(&tmp);
    }
    result
}
