//! Starts: every waiting job whose planned start has come starts once its resource has
//! a free node, in (planned start, acceptance) order.
//!
//! Most events start nothing, and a job that waits for a busy resource stays due for
//! many events. So when a look finds nothing to start, the kernel keeps what it learnt
//! (`TiersKernel::quiet`): the earliest planned start among the jobs on resources
//! with a free node, before which nothing can start. It stays true until a node is
//! freed (a finish, a return: both forget it), except for the jobs accepted, moved
//! or re-placed since, whose earliest planned start the table keeps
//! ([`super::table::Table::take_touched`]) and the next look takes in. A node
//! taken, or a resource gone, only makes fewer jobs startable.

use super::event::Decision;
use super::kernel::TiersKernel;
use super::waits::Resources;
use crate::types::Tick;

impl<const R: usize, const H: usize, const J: usize> TiersKernel<R, H, J> {
    /// Starts, in (planned start, acceptance) order, every waiting job whose planned
    /// start is at or before `t` and whose resource has a free node. A job starts at
    /// its planned start, or now if it was waiting for its resource.
    pub(super) fn start_due<S: FnMut(Decision) + ?Sized>(&mut self, t: Tick, sink: &mut S) {
        let touched = self.jobs.take_touched();
        if let Some(until) = self.quiet.map(|until| until.min(touched)) {
            self.quiet = Some(until);
            if t < until {
                return;
            }
        }
        loop {
            // Acceptance order is `seq` order, so the first of the earliest starts on
            // an open resource wins.
            let open = self.open();
            let start = self.jobs.earliest_waiting_on(&open);
            if start > t || start == Tick::MAX {
                // The look saw every job, those touched since the last one too.
                let _ = self.jobs.take_touched();
                self.quiet = Some(start);
                return;
            }
            let Some(index) = self.jobs.first_waiting_at(&open, start) else { return };
            let now = self.now;
            let Some((job, at, r)) = self.jobs.edit(index, |j| {
                j.running = true;
                j.start = j.start.max(now);
                (j.job, j.start, usize::from(j.resource))
            }) else {
                return;
            };
            if let Some(count) = self.running.get_mut(r) {
                *count = count.saturating_add(1);
            }
            sink(Decision::Start { t: at, job });
        }
    }

    /// The resources present with a free node.
    fn open(&self) -> Resources {
        let mut open = Resources::default();
        for (r, resource) in self.resources.iter().enumerate() {
            let busy = self.running.get(r).copied().unwrap_or(u32::MAX);
            if let (true, Ok(r)) = (self.available(r) && busy < resource.nodes, u8::try_from(r)) {
                open.insert(r);
            }
        }
        open
    }
}
