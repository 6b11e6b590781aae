//! A trace read as a stream, in memory that does not grow with its length: a first
//! pass ([`Scan`]) that keeps counts only, then jobs handed out one at a time in
//! (submit time, line) order ([`JobStream`]), parsed on a thread of their own.
//!
//! Why two passes: a decision log's header comes first and holds the input's CRC-64
//! and the machine's size (`input::pool_size`, which may need the widest job), and
//! every error of the trace (a malformed line, a duplicate job number) stops a run
//! before anything is decided, as when the trace was read whole. The first pass
//! inflates and parses the file once more than a whole read; it keeps a bit per job
//! number (in pages of 32,768 numbers, about 1.2 MiB for ten million numbered from 1)
//! and nothing per job. A caller that can settle all that after its run instead
//! (`host-sim run`, whose log is staged and whose header is written last) reads the
//! trace once with [`Scan::once`] (`once`): both passes' work in one reading, with
//! the same jobs, tallies and errors (its jobs with a shorter look-ahead, its order
//! checked: see there).
//!
//! Order: SWF archives are ordered by submit time. The streaming pass holds the
//! last [`LOOKAHEAD`] usable jobs (those in order in a queue, the others in a heap)
//! and hands out the earliest, so a trace
//! whose jobs are out of order by fewer lines than that gives exactly the order of
//! a whole sort (submit time, then line). A job submitted before one already handed
//! out is an error naming its file and line, with the way to sort the trace first.

use std::collections::{BinaryHeap, HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, sync_channel};

use super::builder::{Builder, Keep, relative};
use super::line::RawJob;
use super::{SwfError, SwfOptions, read_with};
use crate::workload::{Job, Workload};
use hand::Hand;

/// Usable jobs the streaming pass holds to put a trace in submit order.
pub const LOOKAHEAD: usize = 1 << 16;
/// Usable jobs a one-pass reading holds ([`Scan::once`]): fewer, so that the run
/// starts once a few are read rather than a look-ahead's worth.
const ONCE_AHEAD: usize = 1 << 10;
/// Jobs sent from the parsing thread at a time, at most.
const BATCH: usize = 1 << 12;
/// Jobs of the first batch: each next one is twice as large, up to [`BATCH`], so
/// that the run has its first jobs soon.
const FIRST_BATCH: usize = 1 << 8;
/// Batches parsed ahead of the run (with [`BATCH`], 16,384 jobs, 384 KiB).
const BATCHES_AHEAD: usize = 4;
/// Job numbers per page of the duplicate check.
const PAGE_IDS: u32 = 1 << 15;

/// The sentence every out-of-order error ends with.
pub fn lookahead_help() -> String {
    format!(
        "a trace is read as a stream with a look-ahead of {LOOKAHEAD} jobs, so it must be in submit order \
         within that; sort it first, e.g. (grep '^;' T; grep -v '^;' T | sort -s -n -k2,2) > T.sorted"
    )
}

/// A trace's first pass: all it holds but its jobs.
#[derive(Clone, Debug)]
pub struct Scan {
    /// Provenance, hash and excluded lines, with no job.
    pub workload: Workload,
    /// Usable jobs.
    pub jobs: u64,
    pub max_procs: Option<u64>,
    pub max_nodes: Option<u64>,
    /// The largest processor count of a usable job (0 when there is none).
    pub widest: u32,
    /// The earliest submit time of a usable job: every release is measured from it.
    origin: i64,
    path: PathBuf,
    options: SwfOptions,
}

impl Scan {
    /// Reads the trace at `path` once, keeping counts only; every error a whole read
    /// gives (errors name `path` as given).
    pub fn new(path: &Path, options: SwfOptions) -> Result<Self, SwfError> {
        let file = path.display().to_string();
        let mut builder = Builder::new(&file, options, Counting::default());
        let hash = match read_with(path, &mut builder) {
            Err(SwfError::DuplicateJob { file, line, job, .. }) => {
                let first_line = first_line_of(path, options, job)?;
                return Err(SwfError::DuplicateJob { file, line, job, first_line });
            }
            other => other?,
        };
        Ok(Self::counted(&builder, &builder.keep, hash, path))
    }

    /// What a first pass over `path` that gave `hash` found: `builder`'s reading,
    /// with `counted`'s tallies.
    fn counted<K: Keep>(builder: &Builder<'_, K>, counted: &Counting, hash: u64, path: &Path) -> Self {
        Self {
            workload: builder.workload(hash, Vec::new()),
            jobs: counted.jobs,
            max_procs: builder.max_procs,
            max_nodes: builder.max_nodes,
            widest: counted.widest,
            origin: counted.origin.unwrap_or(0),
            path: path.to_owned(),
            options: builder.options,
        }
    }

    /// The usable jobs in (submit time, line) order, released relative to the first,
    /// parsed on a thread of their own; fails only if the thread cannot be started.
    pub fn stream(&self) -> Result<JobStream, SwfError> {
        let (sender, batches) = sync_channel(BATCHES_AHEAD);
        let scan = self.clone();
        let started = std::thread::Builder::new().name("swf".to_owned()).spawn(move || {
            let file = scan.workload.name.clone();
            let ordering = Ordering::new(Some(scan.origin), LOOKAHEAD, Hand::new(sender.clone(), None));
            let mut builder = Builder::new(&file, scan.options, ordering);
            let result = read_with(&scan.path, &mut builder).and_then(|hash| {
                if hash != scan.workload.hash {
                    return Err(SwfError::Changed { file: file.clone() });
                }
                builder.keep.drain()
            });
            if let Err(error) = result {
                // The receiver may be gone (it stopped early); nothing is then owed.
                let _ = sender.send(Err(error));
            }
        });
        let io = |source| SwfError::Io { file: self.workload.name.clone(), source };
        started.map_err(io)?;
        Ok(JobStream { batches, batch: Vec::new().into_iter(), done: false })
    }
}

/// The first pass's tallies.
#[derive(Default)]
struct Counting {
    seen: SeenIds,
    jobs: u64,
    widest: u32,
    origin: Option<i64>,
}

impl Keep for Counting {
    fn unique(&mut self, file: &str, id: u32, line: u64) -> Result<(), SwfError> {
        if self.seen.insert(id) {
            return Ok(());
        }
        // The first line is found by `Scan::new`, reading again (an error's cost only).
        Err(SwfError::DuplicateJob { file: file.to_owned(), line, job: id, first_line: 0 })
    }

    fn keep(&mut self, _: &str, _: u64, job: RawJob) -> Result<(), SwfError> {
        self.jobs += 1;
        self.widest = self.widest.max(job.procs);
        self.origin = Some(self.origin.map_or(job.submit, |o| o.min(job.submit)));
        Ok(())
    }
}

/// Job numbers seen: one bit each, in pages allocated as numbers reach them.
#[derive(Default)]
struct SeenIds {
    pages: HashMap<u32, Box<[u64; (PAGE_IDS / 64) as usize]>>,
    /// The page of the last number marked, and its number: job numbers mostly
    /// count up, so most are on it, found without hashing.
    last: Option<(u32, Box<[u64; (PAGE_IDS / 64) as usize]>)>,
}

impl SeenIds {
    /// Marks `id`; whether it was new.
    fn insert(&mut self, id: u32) -> bool {
        let number = id / PAGE_IDS;
        if self.last.as_ref().is_none_or(|(last, _)| *last != number) {
            // The last page goes back among the others, and `id`'s comes out.
            if let Some((last, page)) = self.last.take() {
                self.pages.insert(last, page);
            }
            let page = self.pages.remove(&number).unwrap_or_else(|| Box::new([0; (PAGE_IDS / 64) as usize]));
            self.last = Some((number, page));
        }
        let Some((_, page)) = &mut self.last else { return true };
        let (word, bit) = (((id % PAGE_IDS) / 64) as usize, 1u64 << (id % 64));
        let Some(word) = page.get_mut(word) else { return true };
        let new = *word & bit == 0;
        *word |= bit;
        new
    }
}

/// The line of job number `id`'s first appearance, read again from the start.
fn first_line_of(path: &Path, options: SwfOptions, id: u32) -> Result<u64, SwfError> {
    struct Find(u32);
    impl Keep for Find {
        fn unique(&mut self, file: &str, id: u32, line: u64) -> Result<(), SwfError> {
            if id != self.0 {
                return Ok(());
            }
            // Found: stop reading, with the line in the error's place.
            Err(SwfError::DuplicateJob { file: file.to_owned(), line: 0, job: id, first_line: line })
        }
        fn keep(&mut self, _: &str, _: u64, _: RawJob) -> Result<(), SwfError> {
            Ok(())
        }
    }
    let file = path.display().to_string();
    match read_with(path, &mut Builder::new(&file, options, Find(id))) {
        Err(SwfError::DuplicateJob { first_line, .. }) => Ok(first_line),
        Err(other) => Err(other),
        Ok(_) => Ok(0),
    }
}

/// The streaming pass: the jobs held for the look-ahead, and the batch being filled.
/// The held jobs are split in two, which hands them out in the same order as one
/// heap would: those that came in order (each after the one before it), in a queue,
/// and the others in a heap. A trace in submit order (as archives are) then costs a
/// push and a pop at the ends of a queue per job, not a heap's climb and descent.
struct Ordering {
    /// `(submit, line, job)` in increasing order.
    run: VecDeque<(i64, u64, Held)>,
    /// Reversed `(submit, line, job)`: the earliest on top.
    heap: BinaryHeap<std::cmp::Reverse<(i64, u64, Held)>>,
    /// The submit time of the last job handed out.
    last: Option<i64>,
    /// The time releases are measured from: the first pass's earliest submit time,
    /// or (one pass) the first job handed out's, which is the same unless a later
    /// line is out of order, as [`once::Finished::in_order`] and
    /// [`once::Finished::same_origin`] then say.
    origin: Option<i64>,
    /// Jobs held before the earliest is handed out.
    ahead: usize,
    batch: Vec<Job>,
    /// The jobs the batch being filled is sent at.
    full: usize,
    hand: Hand,
}

/// A job in the heap (ordered by the heap's keys before it; never compared itself
/// except between equal keys, which lines make impossible).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Held {
    id: u32,
    run: i64,
    procs: u32,
}

impl Ordering {
    fn new(origin: Option<i64>, ahead: usize, hand: Hand) -> Self {
        Self {
            run: VecDeque::new(),
            heap: BinaryHeap::new(),
            last: None,
            origin,
            ahead,
            batch: Vec::with_capacity(FIRST_BATCH),
            full: FIRST_BATCH,
            hand,
        }
    }

    /// Jobs held.
    fn held(&self) -> usize {
        self.run.len() + self.heap.len()
    }

    /// Holds a job.
    fn hold(&mut self, key: (i64, u64, Held)) {
        if self.run.back().is_none_or(|last| *last < key) {
            self.run.push_back(key);
        } else {
            self.heap.push(std::cmp::Reverse(key));
        }
    }

    /// The earliest held job, taken out.
    fn earliest(&mut self) -> Option<(i64, u64, Held)> {
        match (self.run.front(), self.heap.peek()) {
            (Some(queued), Some(std::cmp::Reverse(heaped))) if heaped < queued => {
                self.heap.pop().map(|std::cmp::Reverse(key)| key)
            }
            (Some(_), _) => self.run.pop_front(),
            (None, _) => self.heap.pop().map(|std::cmp::Reverse(key)| key),
        }
    }

    /// Hands out the earliest held job.
    fn pop(&mut self, file: &str) -> Result<(), SwfError> {
        let Some((submit, _, held)) = self.earliest() else { return Ok(()) };
        self.last = Some(submit);
        let job = RawJob { id: held.id, submit, run: held.run, procs: held.procs };
        let origin = *self.origin.get_or_insert(submit);
        self.batch.push(relative(&job, origin));
        if self.batch.len() >= self.full {
            self.send(file)?;
        }
        Ok(())
    }

    fn send(&mut self, file: &str) -> Result<(), SwfError> {
        self.full = (self.full * 2).min(BATCH);
        let batch = std::mem::replace(&mut self.batch, Vec::with_capacity(self.full));
        // The receiver went away: stop reading, with an error nobody reads.
        self.hand.send(Ok(batch)).map_err(|()| SwfError::Changed { file: file.to_owned() })
    }

    /// Hands out every job still held, then the last batch.
    fn drain(&mut self) -> Result<(), SwfError> {
        while self.held() > 0 {
            self.pop("")?;
        }
        if self.batch.is_empty() { Ok(()) } else { self.send("") }
    }
}

impl Keep for Ordering {
    fn unique(&mut self, _: &str, _: u32, _: u64) -> Result<(), SwfError> {
        // The first pass checked every job number; the hash at the end proves the
        // same bytes were read.
        Ok(())
    }

    fn keep(&mut self, file: &str, line: u64, job: RawJob) -> Result<(), SwfError> {
        if let Some(last) = self.last.filter(|&last| job.submit < last) {
            let help = lookahead_help();
            return Err(SwfError::OutOfOrder { file: file.to_owned(), line, submit: job.submit, last, help });
        }
        let held = Held { id: job.id, run: job.run, procs: job.procs };
        self.hold((job.submit, line, held));
        if self.held() > self.ahead {
            self.pop(file)?;
        }
        Ok(())
    }
}

/// A trace's usable jobs in order, as the parsing thread sends them.
#[derive(Debug)]
pub struct JobStream {
    batches: Receiver<Result<Vec<Job>, SwfError>>,
    batch: std::vec::IntoIter<Job>,
    done: bool,
}

impl JobStream {
    /// The jobs left of the batch at hand, else the next batch (never empty), else
    /// the error that ended the jobs: what [`Iterator::next`] gives, a batch at a time.
    pub fn next_batch(&mut self) -> Option<Result<std::vec::IntoIter<Job>, SwfError>> {
        loop {
            if self.batch.len() > 0 {
                return Some(Ok(std::mem::take(&mut self.batch)));
            }
            if self.done {
                return None;
            }
            match self.batches.recv() {
                Ok(Ok(batch)) => self.batch = batch.into_iter(),
                Ok(Err(error)) => {
                    self.done = true;
                    return Some(Err(error));
                }
                Err(_) => self.done = true,
            }
        }
    }
}

impl Iterator for JobStream {
    type Item = Result<Job, SwfError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(job) = self.batch.next() {
            return Some(Ok(job));
        }
        match self.next_batch()? {
            Ok(mut batch) => {
                let job = batch.next();
                self.batch = batch;
                job.map(Ok)
            }
            Err(error) => Some(Err(error)),
        }
    }
}

mod hand;
mod once;
#[cfg(test)]
mod tests;

pub use hand::Helper;
pub use once::{Finished, Once};
