//! A plain reference for the reservation kernel's admissions and offers, written from
//! the rules and not from the kernel: absolute slots in a `Vec` instead of a ring,
//! first fit by trying every tick of the window instead of slot boundaries, and a
//! fresh plan per `fixqueue` round instead of taking placements back.
//!
//! One copy serves every comparison: the kernel's property tests
//! (`kernel/tests/reservation_props.rs`, through the kernel's dev-dependency on
//! `replay`) and the `reservation` fuzz target.

use kernel::Tick;
use kernel::calendar::SlotLength;
use kernel::reservation::{
    Criterion, Decision, Outcome, RejectReason, Request, RequestKind, Reservation, ReservationKernel, Running,
};

/// What the reference says a request gets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The start, and the waiting jobs that moved, in plan order, with their new starts.
    Accepted { start: Tick, moved: Vec<(u32, Tick)> },
    /// The reason, and the offers `(ready, deadline, start)`, best first.
    Rejected { reason: RejectReason, offers: Vec<(Tick, Tick, Tick)> },
}

impl Answer {
    /// What the kernel's outcome and decisions for a request say, in the reference's
    /// terms; `None` for an outcome a request cannot have.
    pub fn of(outcome: Outcome, decisions: &[Decision]) -> Option<Self> {
        match outcome {
            Outcome::Accepted { start } => {
                let moved = decisions
                    .iter()
                    .filter_map(|d| match *d {
                        Decision::Replan { job, start } => Some((job, start)),
                        _ => None,
                    })
                    .collect();
                Some(Answer::Accepted { start, moved })
            }
            Outcome::Rejected { reason, .. } => {
                let offers = decisions
                    .iter()
                    .filter_map(|d| match *d {
                        Decision::Offer { ready, deadline, start, .. } => Some((ready, deadline, start)),
                        _ => None,
                    })
                    .collect();
                Some(Answer::Rejected { reason, offers })
            }
            _ => None,
        }
    }
}

/// The rules and the kernel state they are applied to.
#[derive(Clone, Debug)]
pub struct ReservationReference {
    m: u32,
    slot: SlotLength,
    criterion: Criterion,
    offer_trials: u16,
    offers: usize,
    capacity: usize,
    now: Tick,
    /// The first slot of the horizon and one past its last.
    base: u64,
    end: u64,
    /// Nodes in use per slot of the horizon, `used[a - base]`.
    used: Vec<u32>,
    waiting: Vec<Reservation>,
    running: Vec<Running>,
}

impl ReservationReference {
    /// The reference for `kernel` as it is now.
    pub fn of<const H: usize, const W: usize, const RUN: usize, const OFFERS: usize>(
        kernel: &ReservationKernel<H, W, RUN, OFFERS>,
    ) -> Self {
        let config = kernel.config();
        let calendar = kernel.plan().calendar();
        let (base, end) = (calendar.base(), calendar.end());
        Self {
            m: config.nodes,
            slot: SlotLength::new(config.slot_ticks).unwrap(),
            criterion: config.criterion,
            offer_trials: config.offer_trials,
            offers: OFFERS,
            capacity: W,
            now: kernel.now(),
            base,
            end,
            used: (base..end).map(|a| config.nodes - calendar.free(a).unwrap()).collect(),
            waiting: kernel.plan().waiting().to_vec(),
            running: kernel.plan().running().to_vec(),
        }
    }

    /// A request at the current time.
    pub fn request(&self, q: &Request) -> Answer {
        let new = match self.validate(q) {
            Ok(new) => new,
            Err(reason) => return Answer::Rejected { reason, offers: Vec::new() },
        };
        match self.admit(new) {
            Ok((start, moved)) => Answer::Accepted { start, moved },
            Err(RejectReason::NoRoom) => {
                Answer::Rejected { reason: RejectReason::NoRoom, offers: self.offers(new) }
            }
            Err(reason) => Answer::Rejected { reason, offers: Vec::new() },
        }
    }

    fn validate(&self, q: &Request) -> Result<Reservation, RejectReason> {
        use RejectReason::*;
        if q.nodes == 0 {
            return Err(ZeroNodes);
        }
        if q.nodes > self.m {
            return Err(TooManyNodes);
        }
        if q.estimate == 0 {
            return Err(ZeroEstimate);
        }
        let ready = if q.kind == RequestKind::RelaxedStart { q.t } else { q.ready };
        let length = i128::from(q.deadline) - i128::from(ready);
        if length < i128::from(q.estimate) {
            return Err(WindowTooShort);
        }
        let exact = length == i128::from(q.estimate);
        if (q.kind == RequestKind::Strict && !exact) || (q.kind == RequestKind::Flexible && exact) {
            return Err(KindMismatch);
        }
        if ready.max(self.now) + q.estimate > q.deadline {
            return Err(WindowPassed);
        }
        if self.waiting.iter().any(|r| r.job == q.job) || self.running.iter().any(|r| r.job == q.job) {
            return Err(DuplicateJob);
        }
        if self.waiting.len() == self.capacity {
            return Err(QueueFull);
        }
        Ok(Reservation {
            job: q.job,
            // Later than every accepted one, which is all the order needs.
            seq: u64::MAX,
            nodes: q.nodes,
            estimate: q.estimate,
            ready,
            deadline: q.deadline,
            kind: q.kind,
            shuffle_key: q.shuffle_key,
            start: 0,
            fix_at: Tick::MAX,
            fixed: false,
        })
    }

    fn key(&self, r: &Reservation) -> (u128, u64) {
        let primary = match self.criterion {
            Criterion::Fifo => 0,
            Criterion::Edf => u128::from(r.deadline),
            Criterion::LeastFlexibleFirst => u128::from(r.deadline - r.ready.max(self.now) - r.estimate),
            Criterion::BiggestJobFirst => u128::MAX - u128::from(r.nodes) * u128::from(r.estimate),
            Criterion::Shuffle => u128::from(r.shuffle_key),
        };
        (primary, r.seq)
    }

    fn slots(&self, start: Tick, estimate: Tick) -> std::ops::Range<u64> {
        let len = self.slot.ticks();
        start / len..(start + estimate).div_ceil(len)
    }

    fn change(&self, used: &mut [u32], r: &Reservation, start: Tick, add: bool) {
        for a in self.slots(start, r.estimate) {
            let cell = &mut used[(a - self.base) as usize];
            *cell = if add { *cell + r.nodes } else { *cell - r.nodes };
        }
    }

    /// First fit, by trying every tick from the window's opening on.
    fn first_fit(&self, used: &[u32], r: &Reservation) -> Result<Tick, RejectReason> {
        let mut inside = false;
        for t in r.ready.max(self.now)..=r.deadline - r.estimate {
            let slots = self.slots(t, r.estimate);
            if slots.end > self.end {
                break;
            }
            inside = true;
            if slots.clone().all(|a| used[(a - self.base) as usize] + r.nodes <= self.m) {
                return Ok(t);
            }
        }
        Err(if inside { RejectReason::NoRoom } else { RejectReason::BeyondHorizon })
    }

    /// Algorithm 1 with `fixqueue`.
    fn admit(&self, new: Reservation) -> Result<(Tick, Vec<(u32, Tick)>), RejectReason> {
        let mut order = self.waiting.clone();
        order.push(new);
        order.sort_by_key(|r| self.key(r));
        let mut k = order.iter().position(|r| r.job == new.job).unwrap();
        loop {
            let mut used = self.used.clone();
            for r in order[k + 1..].iter().filter(|r| !r.fixed) {
                self.change(&mut used, r, r.start, false);
            }
            let mut placed = order.clone();
            let mut failed = None;
            for (pos, r) in order.iter().enumerate().skip(k).filter(|(_, r)| !r.fixed) {
                match self.first_fit(&used, r) {
                    Ok(start) => {
                        self.change(&mut used, r, start, true);
                        placed[pos].start = start;
                    }
                    Err(reason) => {
                        failed = Some((pos, reason));
                        break;
                    }
                }
            }
            match failed {
                None => {
                    let moved = placed
                        .iter()
                        .zip(&order)
                        .filter(|(p, o)| p.job != new.job && p.start != o.start)
                        .map(|(p, _)| (p.job, p.start))
                        .collect();
                    return Ok((placed[k].start, moved));
                }
                Some((q, reason)) if q == k => return Err(reason),
                Some((q, _)) => {
                    order.swap(k, q);
                    k = q;
                }
            }
        }
    }

    /// Algorithm 2: every candidate, sorted by `|shift|` (one estimate, so that is
    /// `|ϕ|`) and earlier first, the first `offer_trials` of them tested.
    fn offers(&self, new: Reservation) -> Vec<(Tick, Tick, Tick)> {
        let occupied = self
            .running
            .iter()
            .map(|r| (r.start, r.end))
            .chain(self.waiting.iter().map(|r| (r.start, r.start + r.estimate)));
        let open = new.ready.max(self.now);
        let mut candidates = Vec::new();
        for (s, e) in occupied.filter(|&(s, e)| s < new.deadline && e > open) {
            if new.kind == RequestKind::RelaxedStart {
                if e + new.estimate > new.deadline {
                    candidates.push((e + new.estimate - new.deadline, true, self.now, e + new.estimate));
                }
                continue;
            }
            let before = new.deadline - s;
            if new.ready >= before {
                candidates.push((before, false, new.ready - before, s));
            }
            let after = e - new.ready;
            candidates.push((after, true, e, new.deadline + after));
        }
        candidates.retain(|&(_, _, ready, deadline)| ready.max(self.now) + new.estimate <= deadline);
        candidates.sort();
        candidates.dedup();
        let mut offers = Vec::new();
        for &(_, _, ready, deadline) in candidates.iter().take(usize::from(self.offer_trials)) {
            if offers.len() == self.offers {
                break;
            }
            if let Ok((start, _)) = self.admit(Reservation { ready, deadline, ..new }) {
                offers.push((ready, deadline, start));
            }
        }
        offers
    }
}
