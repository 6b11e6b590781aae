//! What a run is fed: jobs in release order, where they came from (name and CRC-64),
//! and how many trace lines were left out, by reason.

use serde::Serialize;

use kernel::{JobId, Tick};
use replay::format::{Header, Input, Setting};

/// This program and its version, as log headers name it.
pub const HOST_VERSION: &str = concat!("host-sim ", env!("CARGO_PKG_VERSION"));

/// The CRC-64 used for input hashes (XZ's: ECMA-182 polynomial, reflected, with
/// complement), written as 16 lower-case hex digits. Sixteen tables (32 KiB) make it
/// several times faster than one over a whole trace; the checksums are the same.
pub static INPUT_CRC: crc::Crc<u64, crc::Table<16>> = crc::Crc::<u64, crc::Table<16>>::new(&crc::CRC_64_XZ);

/// [`INPUT_CRC`] of a long text given a part at a time (a whole trace): the same
/// value, computed by `crc64fast` with carry-less multiplication where the processor
/// has it, about ten times faster than the tables over HPC2N.
#[derive(Clone)]
pub struct InputDigest(crc64fast::Digest);

impl std::fmt::Debug for InputDigest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("InputDigest").field(&self.0.sum64()).finish()
    }
}

impl InputDigest {
    pub fn new() -> Self {
        Self(crc64fast::Digest::new())
    }

    pub fn update(&mut self, bytes: &[u8]) {
        self.0.write(bytes);
    }

    /// The CRC-64 of every byte given so far.
    pub fn finalize(&self) -> u64 {
        self.0.sum64()
    }
}

impl Default for InputDigest {
    fn default() -> Self {
        Self::new()
    }
}

pub use replay::job_map::{JobIdHasher, JobIdMap};

/// One job: an identifier, a release time, a processing time, and the processors it
/// used. The service-level model abstracts the processor count away (the thesis'
/// machines take one job at a time); the models with node pools use it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Job {
    /// The SWF job number (field 1), or the position for synthetic jobs, from 1.
    pub id: JobId,
    /// Ticks since the first usable job's release.
    pub release: Tick,
    /// Processing time in ticks, at least 1.
    pub p: Tick,
    /// Allocated processors (SWF field 5), else requested (field 8), else 0 (unknown);
    /// 1 for synthetic jobs.
    pub procs: u32,
}

/// Trace lines that were not submitted, by reason. A line is counted under one
/// reason only: a non-positive run time is checked before a negative submit time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Excluded {
    /// Run time (field 4) `<= 0` after rounding: unknown (`-1`) or under half a second.
    pub run_time_nonpositive: u64,
    /// Submit time (field 2) `< 0` after rounding.
    pub negative_submit: u64,
    /// Malformed lines skipped under `--skip-bad-lines`.
    pub bad_lines: u64,
}

impl Excluded {
    pub fn total(&self) -> u64 {
        self.run_time_nonpositive + self.negative_submit + self.bad_lines
    }
}

/// An input that gave no job to simulate.
#[derive(Clone, Debug, thiserror::Error)]
#[error(
    "{name}: no usable job, nothing was simulated ({} lines left out: {} with run time <= 0, {} with a \
     negative submit time, {} malformed); --allow-empty accepts this",
    excluded.total(),
    excluded.run_time_nonpositive,
    excluded.negative_submit,
    excluded.bad_lines
)]
pub struct EmptyInput {
    pub name: String,
    pub excluded: Excluded,
}

/// The jobs of one run and their provenance.
#[derive(Clone, Debug)]
pub struct Workload {
    /// The trace path as given on the command line, or `synthetic`: for messages.
    /// Log headers hold only its file name ([`Workload::file_name`]).
    pub name: String,
    /// CRC-64 of the decompressed trace bytes, or of the generator's parameters.
    pub hash: u64,
    /// In release order; ties in line order.
    pub jobs: Vec<Job>,
    pub excluded: Excluded,
    /// The options that decided which jobs the input gave (`skip-bad-lines`, ...),
    /// for the log header; sorted by key.
    pub settings: Vec<Setting>,
    /// The inputs a merged workload was made of, by file name and hash, in merge
    /// order; empty for a workload read from one input.
    pub parts: Vec<Input>,
}

impl Workload {
    /// Jobs with their provenance and no reading options.
    pub fn new(name: impl Into<String>, hash: u64, jobs: Vec<Job>) -> Self {
        Self {
            name: name.into(),
            hash,
            jobs,
            excluded: Excluded::default(),
            settings: Vec::new(),
            parts: Vec::new(),
        }
    }

    /// The input's file name without its folders (the whole name when it has none):
    /// what a log header holds, so that the same file gives the same header wherever
    /// it lies and however its path was typed.
    pub fn file_name(&self) -> String {
        std::path::Path::new(&self.name)
            .file_name()
            .map_or_else(|| self.name.clone(), |name| name.to_string_lossy().into_owned())
    }

    /// The inputs by file name and hash, as a log header holds them: this input, or
    /// the parts of a merged workload in merge order.
    pub fn inputs(&self) -> Vec<Input> {
        if self.parts.is_empty() {
            vec![Input { name: self.file_name(), hash: self.hash_hex() }]
        } else {
            self.parts.clone()
        }
    }

    /// Writes what identifies this input into `header`: its file name, its hash, the
    /// options it was read with, and the program that mapped it into events.
    pub fn stamp(&self, header: &mut Header) {
        header.host_version = HOST_VERSION.to_owned();
        header.inputs = self.inputs();
        for setting in &self.settings {
            header.set(&setting.key, &setting.value);
        }
    }

    /// An input with no usable job simulates nothing: that is an error naming the
    /// input and why its lines were left out, unless `allow_empty` (the caller then
    /// prints a notice itself).
    pub fn check_not_empty(&self, allow_empty: bool) -> Result<(), EmptyInput> {
        self.check_count(self.jobs.len() as u64, allow_empty)
    }

    /// [`Workload::check_not_empty`] for an input of `jobs` usable jobs that are not
    /// held (a streamed trace's).
    pub fn check_count(&self, jobs: u64, allow_empty: bool) -> Result<(), EmptyInput> {
        if jobs > 0 {
            return Ok(());
        }
        let error = EmptyInput { name: self.name.clone(), excluded: self.excluded };
        if allow_empty {
            eprintln!("host-sim: warning: {error}");
            return Ok(());
        }
        Err(error)
    }

    /// For a model that needs a job's size (`reserve`, `sla`): an input none of whose
    /// jobs has a processor count gives it no request, which is an empty input as
    /// [`Workload::check_not_empty`] treats one: an error, or with `allow_empty` a
    /// warning. Zero and none are the same size (`-1` or `0` in SWF fields 5 and 8).
    pub fn check_sized(&self, model: &str, allow_empty: bool) -> Result<(), String> {
        let sized = self.jobs.iter().any(|j| j.procs > 0);
        self.check_sized_count(model, allow_empty, self.jobs.len() as u64, sized)
    }

    /// [`Workload::check_sized`] for an input of `jobs` usable jobs that are not held
    /// (a streamed trace's), `sized` when one of them has a processor count.
    pub fn check_sized_count(
        &self,
        model: &str,
        allow_empty: bool,
        jobs: u64,
        sized: bool,
    ) -> Result<(), String> {
        if jobs == 0 || sized {
            return Ok(());
        }
        let error = format!(
            "{}: no job has a processor count (SWF fields 5 and 8 are -1 or 0 in all {jobs}), so {model} has no \
             request; --allow-empty accepts this",
            self.name,
        );
        if allow_empty {
            eprintln!("host-sim: warning: {error}");
            return Ok(());
        }
        Err(error)
    }

    /// Keeps only the first `count` jobs (in release order), and records that as the
    /// `limit` setting, since it changes what is simulated.
    pub fn keep_first(&mut self, count: u64) {
        self.jobs.truncate(usize::try_from(count).unwrap_or(usize::MAX));
        self.set("limit", count);
    }

    /// Keeps only the jobs released in the first `count` windows of `length` ticks
    /// (times are relative to the first job), and records that as the `windows`
    /// setting, since it changes what is simulated.
    pub fn keep_windows(&mut self, length: Tick, count: u64) {
        let end = length.saturating_mul(count);
        let kept = self.jobs.partition_point(|j| j.release < end);
        self.jobs.truncate(kept);
        self.set("windows", count);
    }

    /// Records a setting that changes what is simulated, keeping the list sorted by key
    /// as log headers hold it.
    fn set(&mut self, key: &str, value: u64) {
        match self.settings.binary_search_by(|s| s.key.as_str().cmp(key)) {
            Ok(at) => self.settings[at].value = value.to_string(),
            Err(at) => self.settings.insert(at, Setting::new(key, value)),
        }
    }

    /// The input hash as written into log headers: 16 lower-case hex digits.
    pub fn hash_hex(&self) -> String {
        format!("{:016x}", self.hash)
    }
}

/// Merges workloads on their relative release times, as the thesis merged traces:
/// each starts at 0 (readers already make times relative to their first job), and
/// jobs are ordered by release, ties by input order and then by their order in
/// their input (line order for traces). Jobs are renumbered 1, 2, ... in that order,
/// since job numbers repeat across traces. One workload is returned unchanged.
pub fn merge(mut parts: Vec<Workload>) -> Workload {
    if parts.len() == 1
        && let Some(only) = parts.pop()
    {
        return only;
    }
    let mut jobs: Vec<Job> = parts.iter().flat_map(|w| w.jobs.iter().copied()).collect();
    // Stable: ties keep input order, then each input's own order.
    jobs.sort_by_key(|j| j.release);
    for (id, job) in (1..).zip(jobs.iter_mut()) {
        job.id = id;
    }
    let mut digest = INPUT_CRC.digest();
    let mut excluded = Excluded::default();
    for part in &parts {
        digest.update(&part.hash.to_le_bytes());
        excluded.run_time_nonpositive += part.excluded.run_time_nonpositive;
        excluded.negative_submit += part.excluded.negative_submit;
        excluded.bad_lines += part.excluded.bad_lines;
    }
    let name = parts.iter().map(|w| w.name.as_str()).collect::<Vec<_>>().join(" + ");
    Workload {
        excluded,
        // Every part was read with the same options.
        settings: parts.first().map(|w| w.settings.clone()).unwrap_or_default(),
        parts: parts.iter().map(|w| Input { name: w.file_name(), hash: w.hash_hex() }).collect(),
        ..Workload::new(name, digest.finalize(), jobs)
    }
}

/// Streams of release-ordered jobs merged as [`merge`] merges whole workloads: by
/// release, ties by stream order and then each stream's own order, renumbered 1, 2,
/// ... when there are several streams (one is handed on unchanged). Holds one job of
/// each stream. The first error of any stream is handed on, and ends the merge.
#[derive(Debug)]
pub struct MergedJobs<I> {
    streams: Vec<I>,
    /// Each stream's next job, `None` once it ended.
    heads: Vec<Option<Job>>,
    started: bool,
    next_id: JobId,
    failed: bool,
}

impl<E, I: Iterator<Item = Result<Job, E>>> MergedJobs<I> {
    pub fn new(streams: Vec<I>) -> Self {
        let heads = vec![None; streams.len()];
        Self { streams, heads, started: false, next_id: 1, failed: false }
    }
}

impl<E, I: Iterator<Item = Result<Job, E>>> Iterator for MergedJobs<I> {
    type Item = Result<Job, E>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        // One stream is handed on as it comes, without holding a job ahead.
        if let [only] = self.streams.as_mut_slice() {
            let next = only.next();
            self.failed = matches!(next, Some(Err(_)));
            return next;
        }
        let indices: Vec<usize> = if self.started { Vec::new() } else { (0..self.streams.len()).collect() };
        self.started = true;
        for index in indices {
            if let Err(error) = self.refill(index) {
                return Some(Err(error));
            }
        }
        // The earliest head; the first stream wins a tie (`min_by_key` keeps the first).
        let (index, _) = self
            .heads
            .iter()
            .enumerate()
            .filter_map(|(i, head)| head.map(|job| (i, job.release)))
            .min_by_key(|&(i, release)| (release, i))?;
        let mut job = self.heads.get_mut(index)?.take()?;
        if let Err(error) = self.refill(index) {
            return Some(Err(error));
        }
        if self.streams.len() > 1 {
            job.id = self.next_id;
            self.next_id += 1;
        }
        Some(Ok(job))
    }
}

impl<E, I: Iterator<Item = Result<Job, E>>> MergedJobs<I> {
    /// Takes stream `index`'s next job into its head.
    fn refill(&mut self, index: usize) -> Result<(), E> {
        let (Some(stream), Some(head)) = (self.streams.get_mut(index), self.heads.get_mut(index)) else {
            return Ok(());
        };
        match stream.next() {
            Some(Ok(job)) => *head = Some(job),
            Some(Err(error)) => {
                self.failed = true;
                return Err(error);
            }
            None => *head = None,
        }
        Ok(())
    }
}
