//! What the lines of a trace give, line by line: comments read for the machine's
//! size, job lines checked for a unique number and sorted into usable and excluded.
//! What becomes of a usable job is the [`Keep`]'s choice: held whole in memory
//! ([`InMemory`], the sweeps' traces), counted ([`super::stream`]'s pre-pass) or
//! handed on in submit order ([`super::stream`]'s streaming pass).

use super::line::{Line, RawJob, Size, parse_line, read_header, size_field};
use super::{BYTE_ORDER_MARK, FIELD_NAMES, SwfError, SwfOptions, Trace};
use crate::workload::{Excluded, Job, JobIdMap, Workload};

/// What a reading keeps of the usable jobs, and how it knows a job number seen.
pub(super) trait Keep {
    /// Job number `id` is on line `line`: an error when an earlier line has it.
    fn unique(&mut self, file: &str, id: u32, line: u64) -> Result<(), SwfError>;
    /// A usable job (run time above 0, submit time not negative) on line `line`.
    fn keep(&mut self, file: &str, line: u64, job: RawJob) -> Result<(), SwfError>;
    /// Whether a gzipped trace is inflated on a thread of its own, while this one
    /// parses; not when this thread has other work to share a core with (a helper's).
    const INFLATE_APART: bool = true;
}

/// What the lines read so far have given.
pub(super) struct Builder<'f, K> {
    pub file: &'f str,
    pub options: SwfOptions,
    pub keep: K,
    pub excluded: Excluded,
    pub max_procs: Option<u64>,
    pub max_nodes: Option<u64>,
    /// The lines that gave `max_procs` and `max_nodes` (0: none).
    lines: [u64; 2],
    /// The widest usable job so far: its processors, line and the field that gave them.
    widest: (u32, u64, usize),
}

impl<'f, K: Keep> Builder<'f, K> {
    pub fn new(file: &'f str, options: SwfOptions, keep: K) -> Self {
        let excluded = Excluded::default();
        let (lines, widest) = ([0; 2], (0, 0, 0));
        Self { file, options, keep, excluded, max_procs: None, max_nodes: None, lines, widest }
    }

    /// Takes line `number`, its bytes without the `\n`.
    pub fn line(&mut self, number: u64, mut text: &[u8]) -> Result<(), SwfError> {
        if number == 1 {
            text = text.strip_prefix(BYTE_ORDER_MARK).unwrap_or(text);
        }
        let parsed = parse_line(self.file, number, text, self.options.allow_extra_fields).and_then(|line| {
            if let Line::Job(job) = &line {
                self.keep.unique(self.file, job.id, number)?;
            }
            Ok(line)
        });
        match parsed {
            Ok(Line::Blank) => {}
            Ok(Line::Comment) => {
                let size = read_header(text).map_err(|bad| SwfError::Header {
                    file: self.file.to_owned(),
                    line: number,
                    key: bad.key,
                    text: bad.text,
                })?;
                if let Some(size) = size {
                    self.size(number, size)?;
                }
            }
            Ok(Line::Job(job)) => {
                if job.run <= 0 {
                    self.excluded.run_time_nonpositive += 1;
                } else if job.submit < 0 {
                    self.excluded.negative_submit += 1;
                } else {
                    if job.procs > self.widest.0 {
                        self.widest = (job.procs, number, size_field(text));
                        self.fits()?;
                    }
                    self.keep.keep(self.file, number, job)?;
                }
            }
            Err(_) if self.options.skip_bad_lines => self.excluded.bad_lines += 1,
            Err(error) => return Err(error),
        }
        Ok(())
    }

    /// Takes the machine size header line `number` gives: a second line that gives
    /// the same key another value is an error naming both.
    fn size(&mut self, number: u64, size: Size) -> Result<(), SwfError> {
        let at = usize::from(size.key == "MaxNodes");
        let slot = if at == 0 { &mut self.max_procs } else { &mut self.max_nodes };
        match *slot {
            Some(first) if first != size.value => Err(SwfError::ConflictingSizes {
                file: self.file.to_owned(),
                line: number,
                key: size.key,
                value: size.value,
                first_line: self.lines[at],
                first,
            }),
            Some(_) => Ok(()),
            None => {
                (*slot, self.lines[at]) = (Some(size.value), number);
                if at == 0 { self.fits() } else { Ok(()) }
            }
        }
    }

    /// Whether the widest usable job fits in `MaxProcs`, when both are known.
    fn fits(&self) -> Result<(), SwfError> {
        let (procs, line, field) = self.widest;
        match self.max_procs {
            Some(max_procs) if u64::from(procs) > max_procs => Err(SwfError::WiderThanMachine {
                file: self.file.to_owned(),
                line,
                field,
                name: FIELD_NAMES[field - 1],
                procs,
                max_procs,
                header_line: self.lines[0],
            }),
            _ => Ok(()),
        }
    }

    /// The provenance of what was read, with `jobs`.
    pub fn workload(&self, hash: u64, jobs: Vec<Job>) -> Workload {
        Workload {
            excluded: self.excluded,
            settings: self.options.settings(),
            ..Workload::new(self.file, hash, jobs)
        }
    }
}

/// The whole trace's usable jobs, in line order.
#[derive(Default)]
pub(super) struct InMemory {
    jobs: Vec<RawJob>,
    /// The line of every job number seen, for the duplicate check.
    first_line_of: JobIdMap<u64>,
}

impl Keep for InMemory {
    fn unique(&mut self, file: &str, id: u32, line: u64) -> Result<(), SwfError> {
        if let Some(&first_line) = self.first_line_of.get(&id) {
            return Err(SwfError::DuplicateJob { file: file.to_owned(), line, job: id, first_line });
        }
        self.first_line_of.insert(id, line);
        Ok(())
    }

    fn keep(&mut self, _: &str, _: u64, job: RawJob) -> Result<(), SwfError> {
        self.jobs.push(job);
        Ok(())
    }
}

impl Builder<'_, InMemory> {
    pub fn finish(mut self, hash: u64) -> Trace {
        let jobs = order_jobs(std::mem::take(&mut self.keep.jobs));
        let workload = self.workload(hash, jobs);
        Trace { workload, max_procs: self.max_procs, max_nodes: self.max_nodes }
    }
}

/// Sorts by (submit time, line) and makes times relative to the first job. The jobs
/// come in line order, so a stable sort by submit time alone gives that order.
fn order_jobs(mut raw_jobs: Vec<RawJob>) -> Vec<Job> {
    raw_jobs.sort_by_key(|j| j.submit);
    let origin = raw_jobs.first().map_or(0, |j| j.submit);
    raw_jobs.iter().map(|j| relative(j, origin)).collect()
}

/// `job` as a [`Job`] released at its submit time less `origin` (the earliest).
pub(super) fn relative(job: &RawJob, origin: i64) -> Job {
    Job {
        id: job.id,
        // Both are non-negative and `submit >= origin`, so these cannot fail.
        release: u64::try_from(job.submit - origin).unwrap_or(0),
        p: u64::try_from(job.run).unwrap_or(0),
        procs: job.procs,
    }
}
