//! Every model's decision log written one way: the header, then each record the run
//! hands over, into `PATH.tmp` through [`replay::staged`], renamed to `PATH` once the
//! run and the log are whole, so that a failed run never leaves a log that looks whole.

use std::io::{BufWriter, Write};
use std::path::Path;
use std::sync::mpsc;

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
///
/// The records are encoded and written on a second thread, so that a run's kernel
/// and its log share two cores: the recorder hands them over in batches of
/// [`BATCH`], at most [`IN_FLIGHT`] batches ahead of the writer (so memory stays
/// bounded however long the run), and the writer takes them in the order given.
pub fn record<W: Write + Send, T, E: From<StageError>>(
    writer: &mut LogWriter<W>,
    tmp: &Path,
    run: impl FnOnce(Recorder<'_>) -> Result<T, E>,
) -> Result<T, E> {
    let (value, failed) = std::thread::scope(|scope| {
        let (full, batches) = mpsc::sync_channel::<Vec<Body>>(IN_FLIGHT);
        let (emptied, empties) = mpsc::channel::<Vec<Body>>();
        let encoder = std::thread::Builder::new().name("log".into()).spawn_scoped(scope, move || {
            let mut failed: Option<FormatError> = None;
            for mut batch in batches {
                for body in batch.drain(..) {
                    if failed.is_none()
                        && let Err(e) = writer.record(body)
                    {
                        failed = Some(e);
                    }
                }
                // The run may have finished and stopped taking them back.
                let _ = emptied.send(batch);
            }
            failed
        });
        let Ok(encoder) = encoder else {
            return (
                Err(format_error(FormatError::Io(std::io::Error::other("no thread for the log")), tmp).into()),
                None,
            );
        };
        // Owned here and borrowed by the recorder whole: a receiver is `Send`, not `Sync`.
        let mut ends = (Vec::with_capacity(BATCH), full, empties);
        let value = run(&mut |body: Body| {
            let (batch, full, empties) = &mut ends;
            batch.push(body);
            if batch.len() == BATCH {
                let next = empties.try_recv().unwrap_or_else(|_| Vec::with_capacity(BATCH));
                // The writer ends only once this sender is dropped, below.
                let _ = full.send(std::mem::replace(batch, next));
            }
        });
        let (batch, full, _) = ends;
        let _ = full.send(batch);
        drop(full);
        let failed = encoder
            .join()
            .unwrap_or_else(|_| Some(FormatError::Io(std::io::Error::other("the log's thread stopped"))));
        (value, failed)
    });
    let value = value?;
    match failed {
        Some(e) => Err(format_error(e, tmp).into()),
        None => Ok(value),
    }
}

/// Records handed to the log's thread at a time.
const BATCH: usize = 4096;
/// Batches the run may be ahead of the log's thread.
const IN_FLIGHT: usize = 4;

/// A log writer's error as an error of the staged file `tmp`.
pub fn format_error(error: FormatError, tmp: &Path) -> StageError {
    StageError { path: tmp.to_owned(), source: std::io::Error::other(error.to_string()) }
}
