//! Every model's decision log written one way: the header, then each record the run
//! hands over, into `PATH.tmp` through [`replay::staged`], renamed to `PATH` once the
//! run and the log are whole, so that a failed run never leaves a log that looks whole.
//! The records are encoded and written apart from the run: on a thread of their own
//! for the length of a [`record`] call, or, for a one-pass run's log ([`Threaded`]),
//! for the whole run, on a thread of their own or by one with other work
//! ([`LogWork`]).

use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::Duration;

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

/// Runs `run` with a recorder that writes every record it is given to `writer` (a
/// [`LogWriter`] or a [`Threaded`] one), as [`write()`] does (the log's path `tmp`
/// named in its errors), leaving the writer open.
pub fn record<L: Records, T, E: From<StageError>>(
    writer: &mut L,
    tmp: &Path,
    run: impl FnOnce(Recorder<'_>) -> Result<T, E>,
) -> Result<T, E> {
    writer.record_with(tmp, run)
}

/// What [`record`] writes records to.
pub trait Records {
    /// [`record`] into `self`.
    fn record_with<T, E: From<StageError>>(
        &mut self,
        tmp: &Path,
        run: impl FnOnce(Recorder<'_>) -> Result<T, E>,
    ) -> Result<T, E>;
}

impl<W: Write + Send> Records for LogWriter<W> {
    fn record_with<T, E: From<StageError>>(
        &mut self,
        tmp: &Path,
        run: impl FnOnce(Recorder<'_>) -> Result<T, E>,
    ) -> Result<T, E> {
        on_a_thread(self, tmp, run)
    }
}

impl<W: Write + Send + 'static> Records for Threaded<W> {
    /// The records go to the log's own thread as they come; one that cannot be
    /// written is [`Threaded::finish`]'s error.
    fn record_with<T, E: From<StageError>>(
        &mut self,
        _: &Path,
        run: impl FnOnce(Recorder<'_>) -> Result<T, E>,
    ) -> Result<T, E> {
        run(&mut |body| self.record(body))
    }
}

/// The log thread's loop: every batch's records encoded in order (after the first
/// failure, only drained) and the emptied batch sent back for reuse; the failure.
fn encode<W: Write>(
    writer: &mut LogWriter<W>,
    batches: mpsc::Receiver<Vec<Body>>,
    emptied: &mpsc::Sender<Vec<Body>>,
) -> Option<FormatError> {
    let mut failed = None;
    for batch in batches {
        encode_batch(writer, &mut failed, batch, emptied);
    }
    failed
}

/// Encodes `batch` into `writer` (after the first failure, kept in `failed`, only
/// drops its records) and sends it back emptied for reuse.
fn encode_batch<W: Write>(
    writer: &mut LogWriter<W>,
    failed: &mut Option<FormatError>,
    mut batch: Vec<Body>,
    emptied: &mpsc::Sender<Vec<Body>>,
) {
    if failed.is_none()
        && let Err(e) = writer.record_all(&batch)
    {
        *failed = Some(e);
    }
    batch.clear();
    // The run may have finished and stopped taking them back.
    let _ = emptied.send(batch);
}

/// [`record`] into a [`LogWriter`]: the records are encoded and written on a second
/// thread, so that a run's kernel and its log share two cores: the recorder hands
/// them over in batches of [`BATCH`], at most [`IN_FLIGHT`] batches ahead of the
/// writer (so memory stays bounded however long the run), and the writer takes them
/// in the order given.
fn on_a_thread<W: Write + Send, T, E: From<StageError>>(
    writer: &mut LogWriter<W>,
    tmp: &Path,
    run: impl FnOnce(Recorder<'_>) -> Result<T, E>,
) -> Result<T, E> {
    let (value, failed) = std::thread::scope(|scope| {
        let (full, batches) = mpsc::sync_channel::<Vec<Body>>(IN_FLIGHT);
        let (emptied, empties) = mpsc::channel::<Vec<Body>>();
        let encoder = std::thread::Builder::new()
            .name("log".into())
            .spawn_scoped(scope, move || encode(writer, batches, &emptied));
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
/// Batches the run may be ahead of the log's thread: at most 7.3 MB of records in
/// flight (32 x 4,096 of 56 bytes). With 4 (0.9 MB) the run stopped whenever the
/// scheduler left the log's thread out for about a millisecond; with 32, `host-sim
/// run` on HPC2N (64 machines, a log) took 0.93x to 0.97x the wall time (three runs of
/// 25 alternated pairs), its peak memory 12.4 to 14.9 MiB; 64 gained nothing more.
const IN_FLIGHT: usize = 32;

/// A log writer's error as an error of the staged file `tmp`.
pub fn format_error(error: FormatError, tmp: &Path) -> StageError {
    StageError { path: tmp.to_owned(), source: std::io::Error::other(error.to_string()) }
}

/// What the log's encoding gives back at the end: the writer, and the first record
/// it could not write.
type Written<W> = (LogWriter<W>, Option<FormatError>);

/// A log whose records are encoded and written apart from the run, for the whole
/// of it: [`Threaded::record`] only puts a record in a batch, handed over in
/// batches of [`BATCH`], at most [`IN_FLIGHT`] batches ahead of the encoding
/// ([`LogWork`], on a thread of its own or on one with other work), which gives
/// each batch back emptied to be filled again (no record allocates). The records
/// are written in the order given, by the [`LogWriter`] it was made with, so the
/// bytes are the writer's own. A record that cannot be written stops the log, not
/// the run: [`Threaded::finish`] returns its error.
pub struct Threaded<W: Write + Send + 'static> {
    batch: Vec<Body>,
    /// Full batches, to the encoding; `None` once closed.
    full: Option<mpsc::SyncSender<Vec<Body>>>,
    empties: mpsc::Receiver<Vec<Body>>,
    /// The writer once every record is written.
    written: mpsc::Receiver<Written<W>>,
    /// The log's own thread, when it has one.
    thread: Option<JoinHandle<()>>,
}

impl<W: Write + Send + 'static> std::fmt::Debug for Threaded<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Threaded").field("batch", &self.batch.len()).finish_non_exhaustive()
    }
}

impl<W: Write + Send + 'static> Threaded<W> {
    /// Starts the thread that writes to `writer`; fails only if it cannot be started.
    pub fn new(writer: LogWriter<W>) -> Result<Self, FormatError> {
        let (mut log, work) = Self::apart(writer);
        log.thread = Some(std::thread::Builder::new().name("log".into()).spawn(move || work.finish())?);
        Ok(log)
    }

    /// A log whose records `work` encodes, on whatever thread runs it: that thread
    /// must run [`LogWork::finish`] in the end, or the log is never whole.
    pub fn apart(writer: LogWriter<W>) -> (Self, LogWork<W>) {
        let (full, batches) = mpsc::sync_channel::<Vec<Body>>(IN_FLIGHT);
        let (emptied, empties) = mpsc::channel::<Vec<Body>>();
        let (done, written) = mpsc::channel();
        let work = LogWork { writer, batches, emptied, failed: None, done };
        let log = Self { batch: Vec::with_capacity(BATCH), full: Some(full), empties, written, thread: None };
        (log, work)
    }

    /// Appends the next record.
    #[inline]
    pub fn record(&mut self, body: Body) {
        self.batch.push(body);
        if self.batch.len() >= BATCH {
            self.hand_over();
        }
    }

    /// Hands the full batch over, and takes an emptied one (or a new one) to fill.
    #[inline(never)]
    fn hand_over(&mut self) {
        let next = self.empties.try_recv().unwrap_or_else(|_| Vec::with_capacity(BATCH));
        let batch = std::mem::replace(&mut self.batch, next);
        if let Some(full) = &self.full {
            // The encoding ends only once this sender is dropped.
            let _ = full.send(batch);
        }
    }

    /// Hands over the last records: nothing more is recorded, and the encoding ends
    /// once it has written them.
    pub fn close(&mut self) {
        if let Some(full) = self.full.take() {
            let _ = full.send(std::mem::take(&mut self.batch));
        }
    }

    /// Waits until every record is written: the writer, still open (its last block
    /// and footer unwritten), or the first record's error.
    pub fn finish(mut self) -> Result<LogWriter<W>, FormatError> {
        self.close();
        match self.written.recv() {
            Ok((writer, None)) => Ok(writer),
            Ok((_, Some(error))) => Err(error),
            Err(_) => Err(FormatError::Io(io::Error::other("the log's thread stopped"))),
        }
    }
}

impl<W: Write + Send + 'static> Drop for Threaded<W> {
    /// A log left unfinished (the run failed): its own thread ends once it has
    /// written what it was given, before the staged file is removed.
    fn drop(&mut self) {
        self.full = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The encoding of a [`Threaded`] log, for the thread that runs it: [`Self::help`]
/// between its other work, [`Self::wait`] when it has none, [`Self::finish`] last.
pub struct LogWork<W: Write + Send + 'static> {
    writer: LogWriter<W>,
    batches: mpsc::Receiver<Vec<Body>>,
    emptied: mpsc::Sender<Vec<Body>>,
    failed: Option<FormatError>,
    done: mpsc::Sender<Written<W>>,
}

impl<W: Write + Send + 'static> std::fmt::Debug for LogWork<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LogWork").field("failed", &self.failed.is_some()).finish_non_exhaustive()
    }
}

impl<W: Write + Send + 'static> LogWork<W> {
    fn take(&mut self, batch: Vec<Body>) {
        encode_batch(&mut self.writer, &mut self.failed, batch, &self.emptied);
    }

    /// Encodes every batch handed over so far, without waiting for more.
    pub fn help(&mut self) {
        while let Ok(batch) = self.batches.try_recv() {
            self.take(batch);
        }
    }

    /// Waits up to `patience` for the next batch and encodes it; `false` once the
    /// log is closed and every batch encoded.
    pub fn wait(&mut self, patience: Duration) -> bool {
        match self.batches.recv_timeout(patience) {
            Ok(batch) => {
                self.take(batch);
                true
            }
            Err(RecvTimeoutError::Timeout) => true,
            Err(RecvTimeoutError::Disconnected) => false,
        }
    }

    /// Encodes every batch until the log is closed, and gives the writer back to it.
    pub fn finish(mut self) {
        while let Ok(batch) = self.batches.recv() {
            self.take(batch);
        }
        let _ = self.done.send((self.writer, self.failed));
    }
}

/// How long a reading thread with no room for its jobs waits for the log's next
/// batch before it looks for room again: a run hands a batch over every few
/// hundred microseconds, so that this is only reached by one that records little.
const PATIENCE: Duration = Duration::from_millis(1);

impl<W: Write + Send + 'static> crate::swf::Helper for LogWork<W> {
    fn help(&mut self) {
        LogWork::help(self);
    }

    fn wait(&mut self) -> bool {
        LogWork::wait(self, PATIENCE)
    }

    fn finish(self: Box<Self>) {
        LogWork::finish(*self);
    }
}

#[cfg(test)]
mod tests;
