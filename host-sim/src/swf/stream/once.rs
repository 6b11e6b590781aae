//! A trace read in one pass instead of two: [`Scan::once`] hands out the jobs as
//! the streaming pass does while keeping the first pass's tallies, which
//! [`Once::finish`] gives at the end. For a caller that can settle what needs the
//! whole trace after the run instead of before it: `host-sim run` writes its log to
//! a staged file, patches the header's input hash in once it is known, and removes
//! the file if the trace had an error (see `service_level::once`).
//!
//! The jobs are handed out with a look-ahead of [`ONCE_AHEAD`] jobs rather than
//! the streaming pass's [`super::LOOKAHEAD`], so that the run starts as soon as the
//! first few are read: a guess that the trace is in submit order but for jobs
//! fewer lines apart than that, as archives are. A job that proves it wrong (one
//! earlier than a job already handed out, anywhere after it in the trace) stops the
//! jobs, and [`Finished::in_order`] says so: the caller makes the run again in two
//! passes, which sort it or refuse it as they do any trace. Where it says nothing,
//! the jobs handed out were the first of the order two passes give.
//!
//! The errors are the first pass's: one it finds (a malformed line, a duplicate job
//! number, a bad header value, a read error) anywhere in the trace is
//! [`Once::finish`]'s, and the jobs simply stop at it: only [`Once::finish`] says
//! whether they were all. The whole trace is read even when the caller stops taking
//! jobs early (`--limit`, `--windows`), as the first pass reads it.

use std::path::Path;
use std::sync::mpsc::sync_channel;
use std::thread::JoinHandle;

use super::super::builder::{Builder, Keep};
use super::super::line::RawJob;
use super::super::{SwfError, SwfOptions, read_with};
use crate::workload::Job;

use super::hand::{Hand, Helper};
use super::{BATCHES_AHEAD, Counting, JobStream, ONCE_AHEAD, Ordering, Scan, first_line_of};

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
    /// Whether the jobs handed out were the first of those two passes give, in their
    /// order: `false` when a job earlier than one handed out came after it (in order
    /// for two passes' look-ahead, or an error of theirs), which stopped the jobs.
    pub in_order: bool,
}

impl Scan {
    /// Starts reading the trace at `path` in one pass, on a thread of its own, which
    /// also does `helper`'s work (see [`Helper`]); fails only if it cannot be
    /// started. Errors name `path` as given.
    pub fn once(path: &Path, options: SwfOptions, helper: Option<Box<dyn Helper>>) -> Result<Once, SwfError> {
        let file = path.display().to_string();
        let (sender, batches) = sync_channel(BATCHES_AHEAD);
        let (owned, name) = (path.to_owned(), file.clone());
        let started = std::thread::Builder::new().name("swf".to_owned()).spawn(move || {
            let ordering = Ordering::new(None, ONCE_AHEAD, Hand::new(sender, helper));
            let keep = Both {
                counting: Counting::default(),
                ordering: Some(ordering),
                given: None,
                in_order: true,
                helper: None,
            };
            let mut builder = Builder::new(&name, options, keep);
            let read = read_with(&owned, &mut builder);
            let both = &mut builder.keep;
            if let Some(mut ordering) = both.ordering.take() {
                if read.is_ok() {
                    // The receiver may be gone (it stopped early); nothing is then owed.
                    drop(ordering.drain());
                }
                both.given = Some((ordering.last, ordering.origin));
                both.helper = ordering.hand.helper.take();
            }
            // The jobs' sender is gone with the ordering: the run ends, and with it
            // whatever work it gave the helper.
            let helper = both.helper.take();
            let finished = match read {
                Ok(hash) => {
                    let scan = Scan::counted(&builder, &builder.keep.counting, hash, &owned);
                    let origin = builder.keep.given.and_then(|(_, origin)| origin);
                    let same_origin = origin.is_none_or(|origin| origin == scan.origin);
                    Ok(Finished { scan, same_origin, in_order: builder.keep.in_order })
                }
                Err(error) => Err(first_pass_error(&owned, options, error)),
            };
            if let Some(helper) = helper {
                helper.finish();
            }
            finished
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

impl Once {
    /// The jobs a batch at a time ([`JobStream::next_batch`]).
    pub fn next_batch(&mut self) -> Option<Result<std::vec::IntoIter<Job>, SwfError>> {
        self.stream.next_batch()
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
/// in order until the receiver is gone or one proves the order guessed wrong.
struct Both {
    counting: Counting,
    ordering: Option<Ordering>,
    /// Once the ordering is gone: the submit time of the last job it handed on, and
    /// the time the jobs were measured from.
    given: Option<(Option<i64>, Option<i64>)>,
    /// No job came earlier than one handed on before it.
    in_order: bool,
    /// The ordering's helper, once the ordering is gone.
    helper: Option<Box<dyn Helper>>,
}

impl Keep for Both {
    fn unique(&mut self, file: &str, id: u32, line: u64) -> Result<(), SwfError> {
        self.counting.unique(file, id, line)
    }

    fn keep(&mut self, file: &str, line: u64, job: RawJob) -> Result<(), SwfError> {
        self.counting.keep(file, line, job)?;
        let Some(ordering) = &mut self.ordering else {
            // Handed on or not, a job earlier than one handed on proves the guess wrong.
            let last = self.given.and_then(|(last, _)| last);
            self.in_order &= last.is_none_or(|last| job.submit >= last);
            return Ok(());
        };
        match ordering.keep(file, line, job) {
            Ok(()) => return Ok(()),
            // Out of order for the guess: nothing more is handed on.
            Err(SwfError::OutOfOrder { .. }) => self.in_order = false,
            // The receiver is gone: nothing more is handed on; the reading goes on.
            Err(_) => {}
        }
        self.given = Some((ordering.last, ordering.origin));
        self.helper = ordering.hand.helper.take();
        self.ordering = None;
        Ok(())
    }

    /// The helper's work shares this thread's core; the inflating does too.
    const INFLATE_APART: bool = false;
}
