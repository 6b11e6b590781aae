//! One machine: its EDD queue, its clock, the admission test and time advancing.

use crate::event::Decision;
use crate::queue::{EddQueue, Entry};
use crate::types::{JobId, MachineId, Tick};

/// What the admission test says about one machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every job from the new one's position on meets its deadline; insert at `index`.
    Feasible { index: usize },
    /// Some job from the new one's position on would miss its deadline.
    Infeasible,
}

/// A machine always runs the head of its queue.
#[derive(Clone, Debug, Default)]
pub struct Machine<const Q: usize> {
    queue: EddQueue<Q>,
    /// The time up to which this machine's queue has been processed.
    clock: Tick,
}

impl<const Q: usize> Machine<Q> {
    pub const fn new() -> Self {
        Self { queue: EddQueue::new(), clock: 0 }
    }

    pub fn queue(&self) -> &EddQueue<Q> {
        &self.queue
    }

    pub fn clock(&self) -> Tick {
        self.clock
    }

    pub fn reset(&mut self) {
        self.queue.clear();
        self.clock = 0;
    }

    /// Runs the queue from the machine's clock up to `t`: jobs whose remaining work
    /// ends at or before `t` complete (and the next head starts at that instant);
    /// the head at `t` keeps what it has left. `t` is never before the clock.
    pub fn advance<S: FnMut(Decision) + ?Sized>(&mut self, id: MachineId, t: Tick, sink: &mut S) {
        while let Some(head) = self.queue.head_mut() {
            // A sum past `Tick::MAX` ends after every representable `t`.
            match self.clock.checked_add(head.remaining) {
                Some(end) if end <= t => {
                    let job = head.job;
                    self.queue.pop_head();
                    self.clock = end;
                    sink(Decision::Complete { t: end, job, machine: id });
                    if let Some(next) = self.queue.head() {
                        sink(Decision::Start { t: end, job: next.job, machine: id });
                    }
                }
                _ => {
                    let ran = t.saturating_sub(self.clock);
                    head.remaining = head.remaining.saturating_sub(ran);
                    head.processed |= ran > 0;
                    break;
                }
            }
        }
        self.clock = t;
    }

    /// The Gupta–Palis test at time `t` (the clock, after [`Self::advance`]): with the
    /// new job inserted after every job whose deadline is `<=` its own, the new job and
    /// every job after it must satisfy `t + (remaining work up to and including it) <=
    /// deadline`. Jobs before it are not delayed by it and are not checked.
    pub fn admission_test(&self, t: Tick, p: Tick, deadline: Tick) -> Verdict {
        let index = self.queue.insertion_index(deadline);
        let entries = self.queue.entries();
        let (before, after) = entries.split_at(index.min(entries.len()));
        let mut finish = Some(t);
        for entry in before {
            finish = finish.and_then(|f| f.checked_add(entry.remaining));
        }
        // An overflowing sum exceeds every representable deadline: infeasible.
        let Some(mut finish) = finish.and_then(|f| f.checked_add(p)) else {
            return Verdict::Infeasible;
        };
        if finish > deadline {
            return Verdict::Infeasible;
        }
        for entry in after {
            match finish.checked_add(entry.remaining) {
                Some(f) if f <= entry.deadline => finish = f,
                _ => return Verdict::Infeasible,
            }
        }
        Verdict::Feasible { index }
    }

    /// Inserts an admitted job at `index` and returns the displaced head, if the new
    /// job took the head. A full queue hands the entry back.
    pub fn admit(
        &mut self,
        index: usize,
        job: JobId,
        p: Tick,
        deadline: Tick,
    ) -> Result<Option<Entry>, Entry> {
        let displaced = if index == 0 { self.queue.head().copied() } else { None };
        let entry = Entry { deadline, remaining: p, job, processed: false };
        self.queue.insert(index, entry)?;
        Ok(displaced)
    }
}
