//! The fixed-capacity earliest-due-date queue of one machine, shaped so that the
//! admission test costs a binary search.
//!
//! # Why it stores finish times, not remaining work
//! A machine always runs its head, so while time passes the *projected finish time*
//! of every queued job, `finish[k] = clock + (remaining work of jobs 0..=k)`, does not
//! change: the head's remaining work shrinks exactly as fast as the clock grows. It
//! changes only when a job is inserted (every job behind it finishes `p` later), and
//! removing the completed head leaves the others' finish times as they were.
//!
//! The Gupta–Palis test for a new job `(p, d)` inserted at `index` then reads:
//! `start + p <= d`, where `start` is `finish[index - 1]` (or the current time at the
//! head), and `finish[k] + p <= deadline[k]` for every `k >= index`, that is
//! `p <= min over k >= index of slack[k]`, with `slack[k] = deadline[k] - finish[k]`.
//! The queue keeps that suffix minimum per entry (`slack_min`), so the whole test is a
//! binary search for `index` and two comparisons. An insertion shifts the entries
//! behind it (as any sorted array does) and updates their finish times and suffix
//! minima in the same pass; that is linear in the queue's length, but it happens only
//! on the one machine that admits the job.
//!
//! Every admitted set is feasible, so `slack[k] >= 0` always holds and no subtraction
//! here goes below zero; the arithmetic is saturating all the same.

use heapless::Vec;

use crate::panic_free;
use crate::types::{JobId, Tick};

/// The job a machine is running.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Head {
    pub job: JobId,
    /// When it completes if nothing preempts it.
    pub finish: Tick,
    /// Whether it has received any processing: a displaced head counts as an
    /// interruption only then.
    pub processed: bool,
}

/// A queue's last job, read apart from the queue: enough to settle most admission
/// tests without the queue's own memory (the kernel keeps one per machine side by
/// side, see [`super::Kernel`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tail {
    /// The last job's deadline (0 when the queue is empty).
    pub deadline: Tick,
    /// The last job's suffix minimum of slack, the largest of the queue's suffix
    /// minima (`Tick::MAX` when the queue is empty).
    pub slack: Tick,
}

impl Tail {
    /// An empty queue's.
    pub const EMPTY: Self = Self { deadline: 0, slack: Tick::MAX };

    /// How a job `(p, deadline)` fares on the queue this is the tail of, as far as
    /// the tail tells: `Some(true)` when it goes last (test it with
    /// [`EddQueue::test_last`]), `Some(false)` when it fails [`EddQueue::test`]
    /// (it would go in front of the last job and wait behind more than any suffix
    /// has room for: the suffix minima never decrease towards the back), `None`
    /// when only [`EddQueue::test`] can tell.
    pub fn test(self, p: Tick, deadline: Tick) -> Option<bool> {
        if deadline >= self.deadline {
            Some(true)
        } else if p > self.slack {
            Some(false)
        } else {
            None
        }
    }
}

/// Jobs ordered by non-decreasing deadline; equal deadlines keep admission order.
/// Index 0 is the head, the job the machine runs. The fields are parallel arrays
/// (struct of arrays) so that the deadline search touches only deadlines and an
/// entry costs 29 bytes.
#[derive(Clone, Debug)]
pub struct EddQueue<const Q: usize> {
    deadline: Vec<Tick, Q>,
    /// Projected finish time, see the module documentation.
    finish: Vec<Tick, Q>,
    /// `min over j >= k of (deadline[j] - finish[j])`.
    slack_min: Vec<Tick, Q>,
    /// The two arrays of narrow entries count their length in a `u16` (`Q` is at most
    /// 65,535): a `usize` length would pad each machine by eight bytes.
    job: Vec<JobId, Q, u16>,
    processed: Vec<bool, Q, u16>,
}

impl<const Q: usize> Default for EddQueue<Q> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const Q: usize> EddQueue<Q> {
    /// An empty queue. A zero capacity, or one past 65,535, is refused at compile time.
    pub const fn new() -> Self {
        const { assert!(Q > 0, "a queue needs room for at least one job") };
        const { assert!(Q <= u16::MAX as usize, "a queue holds at most 65,535 jobs") };
        Self {
            deadline: Vec::new(),
            finish: Vec::new(),
            slack_min: Vec::new(),
            job: Vec::new(),
            processed: Vec::new(),
        }
    }

    pub fn len(&self) -> usize {
        self.job.len()
    }

    pub fn is_empty(&self) -> bool {
        self.job.is_empty()
    }

    pub fn is_full(&self) -> bool {
        self.job.is_full()
    }

    pub fn head(&self) -> Option<Head> {
        Some(Head {
            job: *self.job.first()?,
            finish: *self.finish.first()?,
            processed: *self.processed.first()?,
        })
    }

    /// When the head completes if nothing preempts it: [`Self::head`]'s finish,
    /// read alone.
    pub fn head_finish(&self) -> Option<Tick> {
        self.finish.first().copied()
    }

    /// Records that the head has received processing.
    pub fn mark_head_processed(&mut self) {
        if let Some(processed) = self.processed.first_mut() {
            *processed = true;
        }
    }

    /// The queued jobs, head first.
    pub fn jobs(&self) -> &[JobId] {
        &self.job
    }

    /// Where a job with `deadline` goes: after every job whose deadline is `<=` it.
    pub fn insertion_index(&self, deadline: Tick) -> usize {
        self.deadline.partition_point(|&d| d <= deadline)
    }

    /// The admission test at time `now` (no earlier than the machine's clock): the
    /// index the job would take, if it and every job behind it would meet their
    /// deadlines. Room is not considered.
    pub fn test(&self, now: Tick, p: Tick, deadline: Tick) -> Option<usize> {
        let index = self.insertion_index(deadline);
        let start = match index.checked_sub(1) {
            Some(before) => *self.finish.get(before)?,
            None => now,
        };
        // A sum past `Tick::MAX` exceeds every representable deadline.
        if start.checked_add(p)? > deadline {
            return None;
        }
        match self.slack_min.get(index) {
            Some(&room) if p > room => None,
            _ => Some(index),
        }
    }

    /// The admission test for a job whose deadline is no earlier than the last
    /// queued job's (or an empty queue's): [`Self::test`] without the search, since
    /// the job goes last. For any other deadline use [`Self::test`].
    pub fn test_last(&self, now: Tick, p: Tick, deadline: Tick) -> Option<usize> {
        let start = self.finish.last().copied().unwrap_or(now);
        (start.checked_add(p)? <= deadline).then_some(self.len())
    }

    /// What [`Tail::test`] needs of the queue: its last job's deadline and suffix
    /// minimum of slack (the largest of the suffix minima).
    pub fn tail(&self) -> Tail {
        match (self.deadline.last(), self.slack_min.last()) {
            (Some(&deadline), Some(&slack)) => Tail { deadline, slack },
            _ => Tail::EMPTY,
        }
    }

    /// The slack the queue would have left if a job `(p, deadline)` that passed
    /// [`Self::test`] at `now` were inserted at `index`: the minimum, over every job
    /// in the queue after the insertion (the new one included), of its deadline minus
    /// its projected finish time. An empty queue's slack is `deadline - (now + p)`.
    ///
    /// It costs `O(1)`: jobs before `index` keep their slack, whose minimum together
    /// with the untouched jobs' is `slack_min[0]`; the new job's is
    /// `deadline - (start + p)`; every job behind loses `p`, so theirs is
    /// `slack_min[index] - p`. Because `slack_min[index] - p < slack_min[index]`,
    /// `min(slack_min[0], new, slack_min[index] - p)` is exactly the minimum over the
    /// queue after the insertion. For a job that failed the test the value means
    /// nothing (it saturates at zero).
    pub fn slack_after(&self, now: Tick, index: usize, p: Tick, deadline: Tick) -> Tick {
        let start = index.checked_sub(1).and_then(|before| self.finish.get(before).copied()).unwrap_or(now);
        let own = deadline.saturating_sub(start.saturating_add(p));
        let behind = self.slack_min.get(index).map_or(Tick::MAX, |s| s.saturating_sub(p));
        let all = self.slack_min.first().copied().unwrap_or(Tick::MAX);
        own.min(behind).min(all)
    }

    /// The work queued at `now` (no earlier than the machine's clock): the projected
    /// finish of the last job minus `now`, zero when the queue is empty. `O(1)`.
    pub fn remaining_work(&self, now: Tick) -> Tick {
        self.finish.last().map_or(0, |&f| f.saturating_sub(now))
    }

    /// Inserts a job that passed [`Self::test`] at `index`; every job behind it now
    /// finishes `p` later. A full queue hands the job back.
    pub fn insert(
        &mut self,
        index: usize,
        now: Tick,
        job: JobId,
        p: Tick,
        deadline: Tick,
    ) -> Result<(), JobId> {
        if self.is_full() || index > self.len() {
            return Err(job);
        }
        let start = index.checked_sub(1).and_then(|before| self.finish.get(before).copied()).unwrap_or(now);
        let finish = start.saturating_add(p);
        for (f, s) in self.finish.iter_mut().zip(self.slack_min.iter_mut()).skip(index) {
            *f = f.saturating_add(p);
            *s = s.saturating_sub(p);
        }
        let behind = self.slack_min.get(index).copied().unwrap_or(Tick::MAX);
        // The five arrays always have the same length, and it was checked above to be
        // below capacity and at least `index`: none of these inserts can fail.
        let _ = panic_free::insert(&mut self.deadline, index, deadline);
        let _ = panic_free::insert(&mut self.finish, index, finish);
        let _ = panic_free::insert(&mut self.slack_min, index, deadline.saturating_sub(finish).min(behind));
        let _ = panic_free::insert(&mut self.job, index, job);
        let _ = panic_free::insert(&mut self.processed, index, false);
        self.refresh_slack_min(index);
        Ok(())
    }

    /// Recomputes the suffix minima in front of `index`, back to the head, stopping
    /// as soon as one is unchanged (those before it then are too).
    fn refresh_slack_min(&mut self, index: usize) {
        let mut behind = self.slack_min.get(index).copied().unwrap_or(Tick::MAX);
        for k in (0..index).rev() {
            let (Some(&d), Some(&f), Some(s)) =
                (self.deadline.get(k), self.finish.get(k), self.slack_min.get_mut(k))
            else {
                return;
            };
            let fresh = d.saturating_sub(f).min(behind);
            if fresh == *s {
                return;
            }
            *s = fresh;
            behind = fresh;
        }
    }

    /// Removes the head; the others' finish times and suffix minima stay as they are.
    pub fn pop_head(&mut self) -> Option<JobId> {
        if self.is_empty() {
            return None;
        }
        panic_free::remove_first(&mut self.deadline);
        panic_free::remove_first(&mut self.finish);
        panic_free::remove_first(&mut self.slack_min);
        panic_free::remove_first(&mut self.processed);
        panic_free::remove_first(&mut self.job)
    }

    /// Whether the queue keeps its rules, for a machine whose clock is `clock`: the
    /// five arrays of one length, deadlines in EDD order, projected finishes
    /// increasing, each after the clock and by its deadline, and each suffix minimum
    /// of slack as stored. `O(len)`; asked in debug builds only.
    #[cfg(debug_assertions)]
    pub(super) fn consistent(&self, clock: Tick) -> bool {
        let len = self.len();
        let lengths = [self.deadline.len(), self.finish.len(), self.slack_min.len(), self.processed.len()];
        let sorted = self.deadline.windows(2).all(|w| w.first() <= w.last());
        let increasing = self.finish.windows(2).all(|w| w.first() < w.last());
        let after_clock = self.finish.first().is_none_or(|&f| f > clock);
        let mut behind = Tick::MAX;
        let mut kept = true;
        for ((&d, &f), &s) in self.deadline.iter().zip(&self.finish).zip(&self.slack_min).rev() {
            let Some(own) = d.checked_sub(f) else { return false };
            behind = behind.min(own);
            kept &= s == behind;
        }
        lengths.iter().all(|&l| l == len) && sorted && increasing && after_clock && kept
    }

    pub fn clear(&mut self) {
        self.deadline.clear();
        self.finish.clear();
        self.slack_min.clear();
        self.job.clear();
        self.processed.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The test restated the slow way, from remaining work, as the papers state it.
    fn slow_test<const Q: usize>(q: &EddQueue<Q>, now: Tick, p: Tick, deadline: Tick) -> Option<usize> {
        let index = q.insertion_index(deadline);
        let mut clock = now;
        let mut previous = now;
        for k in 0..q.len() {
            let remaining = q.finish[k] - previous;
            previous = q.finish[k];
            if k == index {
                clock += p;
                if clock > deadline {
                    return None;
                }
            }
            clock += remaining;
            if k >= index && clock > q.deadline[k] {
                return None;
            }
        }
        if index == q.len() && clock + p > deadline {
            return None;
        }
        Some(index)
    }

    #[test]
    fn the_fast_test_agrees_with_the_slow_one() {
        let mut q = EddQueue::<16>::new();
        // A small deterministic walk over inserts at time 0.
        let mut x: u64 = 7;
        for job in 0..200u32 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let p = 1 + (x >> 60);
            let deadline = 1 + ((x >> 33) % 120);
            let fast = q.test(0, p, deadline);
            assert_eq!(fast, slow_test(&q, 0, p, deadline), "job {job}: p {p}, d {deadline}");
            match q.tail().test(p, deadline) {
                Some(true) => assert_eq!(q.test_last(0, p, deadline), fast, "job {job}: goes last"),
                Some(false) => assert_eq!(fast, None, "job {job}: the tail rules it out"),
                None => {}
            }
            if let Some(index) = fast
                && q.insert(index, 0, job, p, deadline).is_err()
            {
                q.pop_head();
            }
        }
    }

    #[test]
    fn insertion_delays_the_jobs_behind() {
        let mut q = EddQueue::<4>::new();
        q.insert(0, 10, 1, 5, 30).unwrap(); // finishes at 15
        q.insert(1, 10, 2, 5, 40).unwrap(); // 20
        q.insert(0, 10, 3, 2, 12).unwrap(); // 12; then 17 and 22
        assert_eq!(&q.finish[..], &[12, 17, 22]);
        assert_eq!(&q.slack_min[..], &[0, 13, 18]);
        assert_eq!(q.jobs(), &[3, 1, 2]);
        assert_eq!(q.test(10, 14, 40), Some(3)); // last: 22 + 14 <= 40
        assert_eq!(q.test(10, 14, 35), Some(2)); // 17 + 14 <= 35, and job 2 at 36 <= 40
        assert_eq!(q.test(10, 19, 35), None); // job 2 would finish at 41 > 40
        assert_eq!(q.test(10, 1, 11), None); // job 3 has no slack left
    }
}
