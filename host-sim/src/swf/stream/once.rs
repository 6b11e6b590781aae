//! A trace read in one pass instead of two: [`Scan::once`] hands out the jobs as
//! the streaming pass does while keeping the first pass's tallies, which
//! [`Once::finish`] gives at the end. For a caller that can settle what needs the
//! whole trace after the run instead of before it: `host-sim run` writes its log to
//! a staged file, patches the header's input hash in once it is known, and removes
//! the file if the trace had an error (see `service_level::once`).
//!
//! The errors are the two passes' and take their precedence: an error the first
//! pass finds (a malformed line, a duplicate job number, a bad header value, a read
//! error) anywhere in the trace is [`Once::finish`]'s, whatever the stream gave; a
//! job out of submit order is the stream's, where the streaming pass would give it,
//! and only when the first pass's reading found nothing. At a first-pass error the
//! jobs simply stop: only [`Once::finish`] says whether they were all. The whole trace is read
//! even when the caller stops taking jobs early (`--limit`, `--windows`), as the
//! first pass reads it.

use std::path::Path;
use std::sync::mpsc::sync_channel;
use std::thread::JoinHandle;

use super::super::builder::{Builder, Keep};
use super::super::line::RawJob;
use super::super::{SwfError, SwfOptions, read_with};
use crate::workload::Job;

use super::{BATCHES_AHEAD, Counting, JobStream, Ordering, Scan, first_line_of};

/// A trace being read once: its jobs, as an iterator, then its tallies.
#[derive(Debug)]
pub struct Once {
    stream: JobStream,
    reading: JoinHandle<Result<Finished, SwfError>>,
    file: String,
}

/// What a trace read once gives at the end ([`Once::finish`]).
#[derive(Debug)]
pub struct Finished {
    /// What [`Scan::new`] gives.
    pub scan: Scan,
    /// Whether the jobs handed out were measured from the time two passes measure
    /// them from, the earliest submit time of all ([`Scan`]'s). One pass measures
    /// them from the first job handed out, which is the same unless a job out of
    /// order past the look-ahead is earlier still: an error where the jobs reach it,
    /// and where they stop short of it (`--limit`), times that two passes give
    /// otherwise.
    pub same_origin: bool,
}

impl Scan {
    /// Starts reading the trace at `path` in one pass, on a thread of its own (which
    /// starts another to inflate a gzipped trace); fails only if it cannot be
    /// started. Errors name `path` as given.
    pub fn once(path: &Path, options: SwfOptions) -> Result<Once, SwfError> {
        let file = path.display().to_string();
        let (sender, batches) = sync_channel(BATCHES_AHEAD);
        let (owned, name) = (path.to_owned(), file.clone());
        let started = std::thread::Builder::new().name("swf".to_owned()).spawn(move || {
            let ordering = Ordering::new(None, sender);
            let keep = Both {
                counting: Counting::default(),
                ordering: Some(ordering),
                out_of_order: None,
                origin: None,
            };
            let mut builder = Builder::new(&name, options, keep);
            let hash = match read_with(&owned, &mut builder) {
                Ok(hash) => hash,
                Err(error) => return Err(first_pass_error(&owned, options, error)),
            };
            let both = &mut builder.keep;
            if let Some(mut ordering) = both.ordering.take() {
                match both.out_of_order.take() {
                    // The receiver may be gone (it stopped early); nothing is then owed.
                    Some(error) => drop(ordering.sender.send(Err(error))),
                    None => drop(ordering.drain()),
                }
                both.origin = ordering.origin;
            }
            let scan = Scan::counted(&builder, &builder.keep.counting, hash, &owned);
            let same_origin = builder.keep.origin.is_none_or(|origin| origin == scan.origin);
            Ok(Finished { scan, same_origin })
        });
        let reading = started.map_err(|source| SwfError::Io { file: file.clone(), source })?;
        let stream = JobStream { batches, batch: Vec::new().into_iter(), done: false };
        Ok(Once { stream, reading, file })
    }

    /// What [`Scan::new`] gives for a trace at `path` with no line: its name and
    /// settings, a hash of 0 and no job; a stand-in for what needs a [`Scan`]'s shape
    /// before the trace is read.
    pub fn empty(path: &Path, options: SwfOptions) -> Self {
        let file = path.display().to_string();
        let builder = Builder::new(&file, options, Counting::default());
        Self::counted(&builder, &builder.keep, 0, path)
    }
}

impl Once {
    /// Stops taking jobs and waits for the reading's end: what [`Scan::new`] would
    /// have given, or the error it would have given, which comes before any error
    /// the jobs gave.
    pub fn finish(self) -> Result<Finished, SwfError> {
        // Dropped first, so that the reading thread is never left waiting to send.
        drop(self.stream);
        let file = self.file;
        self.reading.join().unwrap_or_else(|_| {
            let source = std::io::Error::other("the thread reading the trace stopped");
            Err(SwfError::Io { file, source })
        })
    }
}

impl Iterator for Once {
    type Item = Result<Job, SwfError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.stream.next()
    }
}

/// An error of the reading, as the first pass gives it: a duplicate job number
/// names the line where the number first appeared (read again: an error's cost).
fn first_pass_error(path: &Path, options: SwfOptions, error: SwfError) -> SwfError {
    match error {
        SwfError::DuplicateJob { file, line, job, .. } => match first_line_of(path, options, job) {
            Ok(first_line) => SwfError::DuplicateJob { file, line, job, first_line },
            Err(other) => other,
        },
        other => other,
    }
}

/// Both passes' keeping at once: the first pass's tallies, and the jobs handed on
/// in order until one is out of order (kept, to be handed on once the whole trace
/// proved free of the first pass's errors) or the receiver is gone.
struct Both {
    counting: Counting,
    ordering: Option<Ordering>,
    out_of_order: Option<SwfError>,
    /// The time the jobs handed on were measured from, once the ordering is gone.
    origin: Option<i64>,
}

impl Keep for Both {
    fn unique(&mut self, file: &str, id: u32, line: u64) -> Result<(), SwfError> {
        self.counting.unique(file, id, line)
    }

    fn keep(&mut self, file: &str, line: u64, job: RawJob) -> Result<(), SwfError> {
        self.counting.keep(file, line, job)?;
        if self.out_of_order.is_some() {
            return Ok(());
        }
        let Some(ordering) = &mut self.ordering else { return Ok(()) };
        match ordering.keep(file, line, job) {
            Ok(()) => {}
            // Nothing more is handed on: the error follows what was sent already.
            Err(error @ SwfError::OutOfOrder { .. }) => self.out_of_order = Some(error),
            // The receiver is gone: nothing more is handed on; the reading goes on.
            Err(_) => {
                self.origin = ordering.origin;
                self.ordering = None;
            }
        }
        Ok(())
    }
}
