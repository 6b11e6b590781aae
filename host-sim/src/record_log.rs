//! Every model's decision log written one way: the header, then each record the run
//! hands over, into `PATH.tmp` through [`replay::staged`], renamed to `PATH` once the
//! run and the log are whole, so that a failed run never leaves a log that looks whole.

use std::io::{BufWriter, Write};
use std::path::Path;

use kernel::log::Body;
use replay::format::{FormatError, Header, LogWriter};
use replay::staged::{self, StageError};

/// What a run hands each record to, in the order of the log; `Send` so that a run may
/// hand it to the thread it runs the kernel on.
pub type Recorder<'a> = &'a mut (dyn FnMut(Body) + Send);

/// Runs `run` with a recorder that writes every record it is given, under `header`,
/// to `path`. A record that cannot be written stops the log, not the run: the run
/// finishes, its own error comes first, and then the record's error is returned in
/// place of the run's value. A log that cannot be written is an error of the staged
/// file, so it reaches the model's error as a [`StageError`] naming `PATH.tmp`.
pub fn write<T, E: From<StageError>>(
    path: &Path,
    header: &Header,
    run: impl FnOnce(Recorder<'_>) -> Result<T, E>,
) -> Result<T, E> {
    staged::write(path, |file, tmp| {
        let mut writer = LogWriter::new(BufWriter::new(file), header).map_err(|e| format_error(e, tmp))?;
        let value = record(&mut writer, tmp, run)?;
        writer.finish().map_err(|e| format_error(e, tmp))?;
        Ok(value)
    })
}

/// Runs `run` with a recorder that writes every record it is given to `writer`, as
/// [`write()`] does (the log's path `tmp` named in its errors), leaving the writer open.
pub fn record<W: Write + Send, T, E: From<StageError>>(
    writer: &mut LogWriter<W>,
    tmp: &Path,
    run: impl FnOnce(Recorder<'_>) -> Result<T, E>,
) -> Result<T, E> {
    let mut failed: Option<FormatError> = None;
    let value = run(&mut |body: Body| {
        if failed.is_none()
            && let Err(e) = writer.record(body)
        {
            failed = Some(e);
        }
    })?;
    match failed {
        Some(e) => Err(format_error(e, tmp).into()),
        None => Ok(value),
    }
}

/// A log writer's error as an error of the staged file `tmp`.
pub fn format_error(error: FormatError, tmp: &Path) -> StageError {
    StageError { path: tmp.to_owned(), source: std::io::Error::other(error.to_string()) }
}
