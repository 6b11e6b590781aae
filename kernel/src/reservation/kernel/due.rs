//! When cuts, fixes and starts fall due. The kernel keeps the earliest instant at
//! which any can (`ReservationKernel::due`), exactly, so that the common event, before
//! it, costs one comparison instead of a scan of the waiting queue and the running set.
//! The instant is a function of the plan, found again by a scan only after an instant
//! is run, after an admission that re-planned, and after the finish of the job that
//! held it; the test `the_kept_due_instant_is_the_scanned_one` checks the kept instant
//! against the scan after every event.

use super::{Decision, Fixing, Plan, Reservation, ReservationKernel};
use crate::types::Tick;

impl<const H: usize, const W: usize, const RUN: usize, const OFFERS: usize>
    ReservationKernel<H, W, RUN, OFFERS>
{
    /// Everything that happens up to `t`, in time order: at each instant, first the
    /// cuts of reservations that ended before `t` without a finish, then the fixes,
    /// then the starts, each in list order (start order, acceptance order, acceptance
    /// order). `O(1)` when nothing is due by `t`, else `O(W + RUN)` per instant.
    pub(super) fn run_due<S: FnMut(Decision) + ?Sized>(&mut self, t: Tick, sink: &mut S) {
        // `self.due` is the least instant of every cut, fix and start, and a running
        // job's end at `t` is not a cut yet: the next instant is `self.due` when it is
        // before `t`, or `t` when a waiting entry is due at `t`.
        while self.due < t || (self.due == t && self.plan.waiting().iter().any(|r| due_of(r) == t)) {
            let done = self.run_instant(self.due, t, sink);
            self.due = earliest_due(&self.plan);
            if !done {
                return;
            }
        }
    }

    /// The cuts, fixes and starts due at `at`, the next instant at or before `t`.
    /// `false` if a start found the running set full.
    fn run_instant<S: FnMut(Decision) + ?Sized>(&mut self, at: Tick, t: Tick, sink: &mut S) -> bool {
        let mut index = 0;
        while let Some(r) = self.plan.running().get(index).copied() {
            if r.end == at && r.end < t {
                // Ending removes it from the list: the next one takes its index.
                self.plan.end(r.job, at);
                self.counters.cut = self.counters.cut.saturating_add(1);
                sink(Decision::End { t: at, job: r.job, early: false, cut: true });
            } else {
                index = index.saturating_add(1);
            }
        }
        // Without fixing every `fix_at` is `Tick::MAX`, never an instant.
        if self.config.fixing != Fixing::Never {
            for index in 0..self.plan.waiting().len() {
                if let Some(r) = self.plan.waiting_mut(index).filter(|r| fixes_at(r, at)) {
                    r.fixed = true;
                    sink(Decision::Fix { t: at, job: r.job });
                }
            }
        }
        let mut index = 0;
        while let Some(r) = self.plan.waiting().get(index) {
            if r.start != at {
                index = index.saturating_add(1);
                continue;
            }
            // Starting removes it from the queue: the next one takes its index. The
            // running set always has room (`2 m <= RUN`); were it full, the loop would
            // stop rather than spin.
            let Some(running) = self.plan.start(index) else { return false };
            sink(Decision::Start { t: at, job: running.job });
        }
        true
    }
}

/// The earliest instant at which something of `plan` can fall due (see
/// `ReservationKernel::due`): the least running end, waiting start and pending fix.
/// `O(W + RUN)`.
pub(super) fn earliest_due<const H: usize, const W: usize, const RUN: usize>(plan: &Plan<H, W, RUN>) -> Tick {
    let ends = plan.running().iter().map(|r| r.end);
    ends.chain(plan.waiting().iter().map(due_of)).min().unwrap_or(Tick::MAX)
}

/// The earliest instant at which waiting entry `r` is due: its fix, or else its start.
pub(super) fn due_of(r: &Reservation) -> Tick {
    if fixes_at(r, r.fix_at) { r.fix_at } else { r.start }
}

/// Whether `r` is frozen at `at`: its moment has come and it has not started yet.
fn fixes_at(r: &Reservation, at: Tick) -> bool {
    !r.fixed && r.fix_at == at && r.fix_at < r.start
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reservation::{Config, Criterion, Event, Request, RequestKind};

    /// After every event, on random workloads of every criterion and fixing, the kept
    /// earliest due instant is the one a scan of the plan gives.
    #[test]
    fn the_kept_due_instant_is_the_scanned_one() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut below = |n: u64| {
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            state.wrapping_mul(0x2545_f491_4f6c_dd1d) % n.max(1)
        };
        let fixings =
            [Fixing::Never, Fixing::AtAcceptance, Fixing::Quarter, Fixing::Half, Fixing::ThreeQuarters];
        let mut checked = 0u32;
        for case in 0..40usize {
            let mut config = Config::new(1 + u32::try_from(below(6)).unwrap(), 1 + below(10));
            config.criterion = Criterion::ALL[case % Criterion::ALL.len()];
            config.fixing = fixings[case % fixings.len()];
            let mut k = ReservationKernel::<256, 24, 16, 4>::new(config).unwrap();
            let mut t = 0;
            for job in 0..300u32 {
                t += below(12);
                let event = match below(3) {
                    0 => match k.plan().running().first() {
                        Some(r) => Event::Finish { t: t.max(r.start), job: r.job },
                        None => Event::Advance { t },
                    },
                    _ => {
                        let (estimate, ready) = (1 + below(40), t + below(60));
                        let deadline = ready + estimate + below(50);
                        let kind = if below(2) == 0 { RequestKind::Strict } else { RequestKind::Flexible };
                        let nodes = 1 + u32::try_from(below(u64::from(config.nodes))).unwrap();
                        let shuffle_key = u32::try_from(below(100)).unwrap();
                        Event::Request(Request {
                            t,
                            job,
                            nodes,
                            estimate,
                            ready,
                            deadline,
                            kind,
                            shuffle_key,
                        })
                    }
                };
                t = t.max(k.now());
                k.step(event, &mut |_| {});
                assert_eq!(k.due, earliest_due(&k.plan), "case {case} event {job}");
                checked += 1;
            }
        }
        assert!(checked > 10_000);
    }
}
