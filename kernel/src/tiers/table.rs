//! The accepted jobs, in acceptance order, with the three fields that the kernel
//! reads at every event kept side by side in plain arrays: each job's id, its
//! planned start while it waits, and its deadline while a `Late` may still come.
//!
//! Every event asks the same questions of all jobs: is this id taken, which waiting
//! job is due to start, which deadline has passed, when is the next planned start.
//! Asked of the jobs themselves, each is a walk over 88-byte records; asked of the
//! side arrays, a walk over words that the compiler vectorises, and most answers are
//! "none" at the first look. The side arrays are a function of the jobs: every change
//! goes through [`Table::edit`], [`Table::push`] or [`Table::remove`], which keep
//! them so. One more, beside each job, is a memo of rescheduling (when the job last
//! could not move, see `frees.rs`), which every change of the job forgets.

use heapless::Vec;

use super::job::Job;
use super::waits::{Resources, Waits};
use crate::panic_free;
use crate::types::{JobId, Tick};

/// The jobs and their side arrays, index for index, and the earliest planned start
/// among the jobs changed since a look (see `start.rs`). Equality compares the jobs (the side arrays are a function of them).
#[derive(Clone, Debug)]
pub(super) struct Table<const R: usize, const J: usize> {
    jobs: Vec<Job, J>,
    ids: Vec<JobId, J>,
    /// The resource each job is placed on.
    places: Vec<u8, J>,
    /// The planned start of a waiting job; `Tick::MAX` for a running one.
    waits: Vec<Tick, J>,
    /// The deadline of a Gold or Silver job not yet violated; `Tick::MAX` otherwise.
    dues: Vec<Tick, J>,
    /// When a job last could not move for rescheduling: the count of freed ranges
    /// then and the tail it was given back (see `frees.rs`); [`NOT_STUCK`] since it
    /// was last changed.
    stuck: Vec<(u64, u64), J>,
    /// The earliest planned start among the jobs pushed, or given a new start or
    /// resource, since the last [`Table::take_touched`] (`Tick::MAX`: none).
    touched: Tick,
    /// At most the earliest of [`Table::dues`]: a look for late jobs before it finds
    /// none without reading them. A push or an edit lowers it to the job's deadline;
    /// a removal leaves it (the earliest can only come later).
    due_floor: Tick,
    /// Answers about the planned starts, kept between events (see `waits.rs`).
    waits_kept: Waits<R>,
}

impl<const R: usize, const J: usize> PartialEq for Table<R, J> {
    fn eq(&self, other: &Self) -> bool {
        self.jobs == other.jobs
    }
}

impl<const R: usize, const J: usize> Eq for Table<R, J> {}

impl<const R: usize, const J: usize> Table<R, J> {
    pub(super) const fn new() -> Self {
        Self {
            jobs: Vec::new(),
            ids: Vec::new(),
            places: Vec::new(),
            waits: Vec::new(),
            dues: Vec::new(),
            stuck: Vec::new(),
            touched: Tick::MAX,
            due_floor: Tick::MAX,
            waits_kept: Waits::new(),
        }
    }

    pub(super) fn as_slice(&self) -> &[Job] {
        &self.jobs
    }

    pub(super) fn get(&self, index: usize) -> Option<&Job> {
        self.jobs.get(index)
    }

    pub(super) fn is_full(&self) -> bool {
        self.jobs.is_full()
    }

    /// The earliest planned start among the jobs pushed, or given a new start or
    /// resource, since the last call; from now on, none.
    pub(super) fn take_touched(&mut self) -> Tick {
        core::mem::replace(&mut self.touched, Tick::MAX)
    }

    pub(super) fn clear(&mut self) {
        self.touched = Tick::MAX;
        self.due_floor = Tick::MAX;
        self.waits_kept.forget();
        self.jobs.clear();
        self.ids.clear();
        self.places.clear();
        self.waits.clear();
        self.dues.clear();
        self.stuck.clear();
    }

    /// Appends `job`, or hands it back when the table is full.
    pub(super) fn push(&mut self, job: Job) -> Result<(), Job> {
        self.jobs.push(job)?;
        self.waits_kept.change((Tick::MAX, job.resource), (wait(&job), job.resource));
        self.touched = self.touched.min(wait(&job));
        self.due_floor = self.due_floor.min(due(&job));
        // Vectors of one capacity, pushed together: the others have room.
        let _ = (self.ids.push(job.job), self.places.push(job.resource));
        let _ = (self.waits.push(wait(&job)), self.dues.push(due(&job)), self.stuck.push(NOT_STUCK));
        Ok(())
    }

    /// Removes job `index`, keeping the order of the others.
    pub(super) fn remove(&mut self, index: usize) -> Option<Job> {
        let job = panic_free::remove(&mut self.jobs, index)?;
        self.waits_kept.change((wait(&job), job.resource), (Tick::MAX, job.resource));
        let _ = panic_free::remove(&mut self.ids, index);
        let _ = panic_free::remove(&mut self.places, index);
        let _ = panic_free::remove(&mut self.waits, index);
        let _ = panic_free::remove(&mut self.dues, index);
        let _ = panic_free::remove(&mut self.stuck, index);
        Some(job)
    }

    /// Changes job `index` by `change`; `None` for an index past the end.
    pub(super) fn edit<T>(&mut self, index: usize, change: impl FnOnce(&mut Job) -> T) -> Option<T> {
        let job = self.jobs.get_mut(index)?;
        let before = (wait(job), job.resource);
        let out = change(job);
        let job = *job;
        if (wait(&job), job.resource) != before {
            self.touched = self.touched.min(wait(&job));
        }
        self.waits_kept.change(before, (wait(&job), job.resource));
        self.due_floor = self.due_floor.min(due(&job));
        if let (Some(id), Some(r)) = (self.ids.get_mut(index), self.places.get_mut(index)) {
            (*id, *r) = (job.job, job.resource);
        }
        if let (Some(w), Some(d)) = (self.waits.get_mut(index), self.dues.get_mut(index)) {
            (*w, *d) = (wait(&job), due(&job));
        }
        if let Some(stuck) = self.stuck.get_mut(index) {
            *stuck = NOT_STUCK;
        }
        Some(out)
    }

    /// Whether the side arrays are the function of the jobs they are said to be, and
    /// the floor of deadlines is at most their least. `O(J)`; debug builds only.
    #[cfg(debug_assertions)]
    pub(super) fn consistent(&self) -> bool {
        let len = self.jobs.len();
        let lengths =
            [self.ids.len(), self.places.len(), self.waits.len(), self.dues.len(), self.stuck.len()];
        let sides = self.ids.iter().zip(&self.places).zip(self.waits.iter().zip(&self.dues));
        let matched = self.jobs.iter().zip(sides).all(|(job, ((&id, &place), (&w, &d)))| {
            id == job.job && place == job.resource && w == wait(job) && d == due(job)
        });
        let floor = self.dues.iter().all(|&d| d >= self.due_floor);
        lengths.iter().all(|&l| l == len) && matched && floor
    }

    /// Job `index` could not move, given back a tail of `tail` slots, when the count
    /// of freed ranges was `stamp`.
    pub(super) fn set_stuck(&mut self, index: usize, stamp: u64, tail: u64) {
        if let Some(stuck) = self.stuck.get_mut(index) {
            *stuck = (stamp, tail);
        }
    }

    /// Forgets every job's memo of rescheduling (the tests' twin that tries every
    /// candidate again).
    #[cfg(test)]
    pub(super) fn forget_stuck(&mut self) {
        self.stuck.iter_mut().for_each(|s| *s = NOT_STUCK);
    }

    /// Keeps no answer about the planned starts from now on, reading every job for
    /// each (the tests' twin).
    #[cfg(test)]
    pub(super) fn keep_nothing(&mut self) {
        self.waits_kept.forget();
        self.waits_kept.forgetful = true;
    }

    /// When job `index` last could not move, unchanged since: `(stamp, tail)`.
    pub(super) fn stuck(&self, index: usize) -> Option<(u64, u64)> {
        self.stuck.get(index).copied().filter(|&s| s != NOT_STUCK)
    }

    /// Whether a job has the id `job`.
    pub(super) fn holds(&self, job: JobId) -> bool {
        self.ids.iter().fold(false, |found, &id| found | (id == job))
    }

    /// The index of job `job`.
    pub(super) fn find(&self, job: JobId) -> Option<usize> {
        self.ids.iter().position(|&id| id == job)
    }

    /// The earliest planned start after `now` of a waiting job, if any (kept until a
    /// change takes it away, see `waits.rs`).
    pub(super) fn next_wait_after(&mut self, now: Tick) -> Option<Tick> {
        Some(self.waits_kept.next_after(now, &self.waits)).filter(|&t| t < Tick::MAX)
    }

    /// The earliest planned start among the waiting jobs on a resource of `open`
    /// (`Tick::MAX`: none).
    pub(super) fn earliest_waiting_on(&mut self, open: &Resources) -> Tick {
        self.waits_kept.earliest_on(open, &self.waits, &self.places)
    }

    /// The first job, in acceptance order, waiting to start at `start` on a resource
    /// of `open`.
    pub(super) fn first_waiting_at(&self, open: &Resources, start: Tick) -> Option<usize> {
        self.waits.iter().zip(&self.places).position(|(&s, &r)| s == start && open.holds(r))
    }

    /// The index of the first job placed on `resource`, from index `from` on.
    pub(super) fn first_on(&self, resource: u8, from: usize) -> Option<usize> {
        let at = self.places.get(from..)?.iter().position(|&r| r == resource)?;
        Some(from.saturating_add(at))
    }

    /// The job whose deadline, before `t`, comes first (ties to acceptance order)
    /// among the Gold and Silver jobs not yet violated.
    pub(super) fn first_late(&mut self, t: Tick) -> Option<usize> {
        if self.due_floor >= t {
            return None;
        }
        let (index, deadline) = self
            .dues
            .iter()
            .enumerate()
            .fold((0, Tick::MAX), |best, (i, &d)| if d < best.1 { (i, d) } else { best });
        self.due_floor = deadline;
        (deadline < t).then_some(index)
    }
}

/// What [`Table::stuck`] holds for a job not known to be stuck.
const NOT_STUCK: (u64, u64) = (u64::MAX, 0);

/// What [`Table::waits`] holds for `job`.
const fn wait(job: &Job) -> Tick {
    if job.running { Tick::MAX } else { job.start }
}

/// What [`Table::dues`] holds for `job`.
const fn due(job: &Job) -> Tick {
    if job.tier.has_deadline() && !job.violated { job.deadline } else { Tick::MAX }
}
