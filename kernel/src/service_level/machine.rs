//! One machine: its EDD queue, its clock, the admission test and time advancing.

use super::event::Decision;
use super::queue::{EddQueue, Head};
use super::types::MachineId;
use crate::types::{JobId, Tick};

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

    /// The time up to which the queue has been run ([`Self::advance`]). The kernel
    /// runs a machine only when one of its jobs completes or it admits one, so the
    /// clock may be behind [`ServiceLevelKernel::now`](super::ServiceLevelKernel::now): nothing happens on a
    /// machine in between (its head runs on, and projected finish times do not move
    /// as time passes; see [`super::queue`]), and running it later gives the same
    /// state as running it at every event.
    pub fn clock(&self) -> Tick {
        self.clock
    }

    /// Whether a job completes by `t`: only then does [`Self::advance`] decide
    /// anything.
    pub fn completes_by(&self, t: Tick) -> bool {
        self.queue.head_finish().is_some_and(|finish| finish <= t)
    }

    pub fn reset(&mut self) {
        self.queue.clear();
        self.clock = 0;
    }

    /// Runs the queue from the machine's clock up to `t`: jobs whose remaining work
    /// ends at or before `t` complete (and the next head starts at that instant);
    /// the head at `t` keeps what it has left. `t` is never before the clock.
    pub fn advance<S: FnMut(Decision) + ?Sized>(&mut self, id: MachineId, t: Tick, sink: &mut S) {
        while let Some(head) = self.queue.head() {
            if head.finish > t {
                if t > self.clock {
                    self.queue.mark_head_processed();
                }
                break;
            }
            self.queue.pop_head();
            self.clock = head.finish;
            sink(Decision::Complete { t: head.finish, job: head.job, machine: id });
            if let Some(next) = self.queue.head() {
                sink(Decision::Start { t: head.finish, job: next.job, machine: id });
            }
        }
        self.clock = t;
    }

    /// The Gupta–Palis test at time `t` (the clock, after [`Self::advance`]): the
    /// queue index the job would take, if it and every job after it would meet
    /// their deadlines. Jobs before it are not delayed by it and are not checked.
    pub fn admission_test(&self, t: Tick, p: Tick, deadline: Tick) -> Option<usize> {
        self.queue.test(t, p, deadline)
    }

    /// Inserts an admitted job at `index` and returns the displaced head, if the new
    /// job took the head. A full queue hands the job back.
    pub fn admit(
        &mut self,
        index: usize,
        job: JobId,
        p: Tick,
        deadline: Tick,
    ) -> Result<Option<Head>, JobId> {
        let displaced = if index == 0 { self.queue.head() } else { None };
        self.queue.insert(index, self.clock, job, p, deadline)?;
        Ok(displaced)
    }
}
