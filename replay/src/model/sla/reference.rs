//! The plain reference of the kernel: sort the batch, then first fit over a plain
//! record of nodes in use, brute force. The seeded tests (`replay/tests/sla_props.rs`)
//! and the `sla` fuzz target compare the kernel with it decision by decision.

use kernel::Tick;
use kernel::sla::{Config, Decision, Event, RejectReason, Request};

use super::plain::{Fit, Usage, first_fit, slots_of, sort_key, valid};

/// The kernel restated over `Vec`s: the same decisions for the same events.
#[derive(Clone, Debug)]
pub struct SlaReference {
    config: Config,
    /// `H`, the calendar's slots.
    horizon_slots: u64,
    /// `B`, the pending batch's capacity.
    batch: usize,
    /// Pending requests with their submit index, in submit order.
    pending: Vec<(Request, u64)>,
    next_index: u64,
    used: Usage,
    now: Tick,
}

impl SlaReference {
    pub fn new(config: Config, horizon_slots: u64, batch: usize) -> Self {
        Self {
            config,
            horizon_slots,
            batch,
            pending: Vec::new(),
            next_index: 0,
            used: Usage::default(),
            now: 0,
        }
    }

    /// The decisions the kernel must make for `event`.
    pub fn step(&mut self, event: &Event) -> Vec<Decision> {
        let reject = |job, reason| vec![Decision::Reject { job, reason }];
        match *event {
            Event::Reset { t } => {
                let dropped = self.pending.drain(..);
                let out =
                    dropped.map(|(r, _)| Decision::Reject { job: r.job, reason: RejectReason::Dropped });
                let out = out.collect();
                self.used.reset(t / self.config.slot_ticks);
                self.next_index = 0;
                self.now = t;
                out
            }
            Event::Submit { t, request } if t < self.now => {
                reject(request.job, RejectReason::TimeWentBackwards)
            }
            Event::Plan { t } if t < self.now => Vec::new(),
            Event::Submit { t, request } => {
                self.bring_to(t);
                if !valid(&request, self.config.nodes) {
                    return reject(request.job, RejectReason::Invalid);
                }
                if self.pending.len() >= self.batch {
                    return reject(request.job, RejectReason::BatchFull);
                }
                self.pending.push((request, self.next_index));
                self.next_index += 1;
                Vec::new()
            }
            Event::Plan { t } => {
                self.bring_to(t);
                self.plan()
            }
        }
    }

    /// Time moves to `t`; the slots before its slot are past (no start is tried there).
    fn bring_to(&mut self, t: Tick) {
        self.now = t;
        self.used.forget_before(t / self.config.slot_ticks);
    }

    /// A stable sort by the key alone (equal keys keep submit order), then first fit.
    fn plan(&mut self) -> Vec<Decision> {
        let mut batch = std::mem::take(&mut self.pending);
        let (order, per_hour) = (self.config.order, self.config.ticks_per_hour);
        batch.sort_by_key(|(r, index)| sort_key(&order, r, *index, per_hour));
        let mut out = Vec::with_capacity(batch.len());
        for (r, _) in batch {
            let reason = match first_fit(&self.config, self.horizon_slots, &self.used, &r, self.now) {
                Fit::Start(start) => {
                    self.used.add(slots_of(start, r.td, self.config.slot_ticks), r.ncpu);
                    out.push(Decision::Accept { job: r.job, start });
                    continue;
                }
                Fit::Late => RejectReason::Late,
                Fit::Horizon => RejectReason::Horizon,
                Fit::NoRoom => RejectReason::NoRoom,
            };
            out.push(Decision::Reject { job: r.job, reason });
        }
        out
    }
}
