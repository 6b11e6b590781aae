//! Alternative offers for a rejected request (the paper's Algorithm 2).
//!
//! # Candidates
//! Every reservation, running or waiting, whose slot `[s, e)` meets the request's open
//! window `[max(ready, now), deadline)` suggests two alternatives: the same window
//! shifted to end at `s` (*just before it*), and shifted to start at `e` (*just after
//! it*). A shift keeps the window's length, so it keeps the request's kind. A relaxed
//! request has no start to shift, only its deadline: its only candidates are later
//! deadlines `e + estimate` (a start just after the reservation); an earlier deadline
//! would only narrow a window that has already failed.
//!
//! # Order
//! The paper ranks the alternatives by `ϕ`, the shift over the estimate: `(OPT_D - D)
//! / Te` for a later option, `(OPT_Tr - Tr) / Te` for an earlier one. Here candidates
//! come smallest `|ϕ|` first, and an earlier option before a later one of the same
//! `|ϕ|` (the paper's offers are earlier ones). `ϕ` is a ratio and is compared by
//! cross-multiplying in `u128`, never as a float. Two candidates with the same rank
//! are the same window, so the rank is a total order and equal ranks are one offer.
//!
//! # Cost
//! Each candidate is tested by a full admission attempt (Algorithm 1) that is then
//! taken back, so the test is exact: re-submitting an offered window at once is
//! accepted with the offered start. Finding the next candidate is one pass over the
//! running and waiting reservations, `O(W + RUN)`, and no list is kept. At most
//! `Config::offer_trials` candidates are tested per rejection, which bounds a
//! rejection at `offer_trials * O(W log W + W * H)`; the search stops at `OFFERS`
//! offers.

use core::cmp::Ordering;

use super::criteria::Criterion;
use super::plan::{Attempt, Plan};
use super::request::{RequestKind, Reservation};
use crate::types::Tick;

/// The paper's `ϕ` of one alternative: `shift / estimate` ticks, earlier or later.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Phi {
    /// `|OPT - original|`, in ticks.
    pub shift: Tick,
    /// `Te`, the denominator.
    pub estimate: Tick,
    /// Whether the alternative is later than the request.
    pub later: bool,
}

impl Ord for Phi {
    /// Smaller `|ϕ|` first, by `a.shift * b.estimate` against `b.shift * a.estimate`
    /// (exact in `u128`); then earlier before later.
    fn cmp(&self, other: &Self) -> Ordering {
        let left = u128::from(self.shift).saturating_mul(u128::from(other.estimate));
        let right = u128::from(other.shift).saturating_mul(u128::from(self.estimate));
        left.cmp(&right).then(self.later.cmp(&other.later))
    }
}

impl PartialOrd for Phi {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Phi {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Phi {}

/// An alternative window for a rejected request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Candidate {
    pub phi: Phi,
    pub ready: Tick,
    pub deadline: Tick,
}

/// A feasible alternative: the window, and the start an admission gives it now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Offer {
    pub ready: Tick,
    pub deadline: Tick,
    pub start: Tick,
}

/// The two alternatives that a reservation on `[s, e)` suggests for `request` at `now`,
/// when it meets the request's open window and the alternative can still be met.
pub fn candidates(request: &Reservation, now: Tick, s: Tick, e: Tick) -> [Option<Candidate>; 2] {
    let open = request.earliest_start(now);
    if s >= request.deadline || e <= open {
        return [None, None];
    }
    let estimate = request.estimate;
    let (before, after) = match request.kind {
        RequestKind::Strict | RequestKind::Flexible => {
            let before = request.deadline.checked_sub(s).and_then(|shift| {
                let ready = request.ready.checked_sub(shift)?;
                Some(Candidate { phi: Phi { shift, estimate, later: false }, ready, deadline: s })
            });
            let after = e.checked_sub(request.ready).and_then(|shift| {
                let deadline = request.deadline.checked_add(shift)?;
                Some(Candidate { phi: Phi { shift, estimate, later: true }, ready: e, deadline })
            });
            (before, after)
        }
        RequestKind::RelaxedStart => {
            let after = e.checked_add(estimate).and_then(|deadline| {
                let shift = deadline.checked_sub(request.deadline).filter(|&shift| shift > 0)?;
                Some(Candidate { phi: Phi { shift, estimate, later: true }, ready: now, deadline })
            });
            (None, after)
        }
    };
    // An alternative whose latest start has passed cannot be offered.
    let open_at = |c: &Candidate| c.ready.max(now).saturating_add(estimate) <= c.deadline;
    [before.filter(open_at), after.filter(open_at)]
}

/// The best candidate ranked strictly after `after`, over the reservations on
/// `occupied`.
pub fn next_candidate(
    request: &Reservation,
    now: Tick,
    occupied: impl Iterator<Item = (Tick, Tick)>,
    after: Option<Phi>,
) -> Option<Candidate> {
    occupied
        .flat_map(|(s, e)| candidates(request, now, s, e))
        .flatten()
        .filter(|c| after.is_none_or(|last| c.phi > last))
        .min_by_key(|c| c.phi)
}

/// Algorithm 2 for the last waiting entry of `plan`, which Algorithm 1 has just
/// rejected at `now` (`attempt` is its working memory, used again): tests candidates
/// best first, hands each feasible one to `found`,
/// and stops after `limit` offers or `trials` tests. The plan is left as it was: the
/// entry's window is put back and every successful attempt is taken back.
pub(super) fn find<const H: usize, const W: usize, const RUN: usize>(
    plan: &mut Plan<H, W, RUN>,
    attempt: &mut Attempt<W>,
    now: Tick,
    criterion: Criterion,
    (limit, trials): (usize, u16),
    mut found: impl FnMut(Offer),
) -> u8 {
    let Some(new) = plan.waiting().len().checked_sub(1) else { return 0 };
    let Some(original) = plan.waiting().last().copied() else { return 0 };
    let (mut last, mut tested, mut offered) = (None, 0u16, 0u8);
    while usize::from(offered) < limit && tested < trials {
        let running = plan.running().iter().map(|r| (r.start, r.end));
        let waiting = plan.waiting().iter().take(new).map(|r| (r.start, r.end()));
        let Some(candidate) = next_candidate(&original, now, running.chain(waiting), last) else { break };
        last = Some(candidate.phi);
        tested = tested.saturating_add(1);
        if let Some(entry) = plan.waiting_mut(new) {
            entry.ready = candidate.ready;
            entry.deadline = candidate.deadline;
        }
        if let Ok(start) = plan.attempt(now, criterion, attempt) {
            plan.withdraw(attempt);
            found(Offer { ready: candidate.ready, deadline: candidate.deadline, start });
            offered = offered.saturating_add(1);
        }
    }
    if let Some(entry) = plan.waiting_mut(new) {
        *entry = original;
    }
    offered
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(kind: RequestKind, ready: Tick, deadline: Tick, estimate: Tick) -> Reservation {
        Reservation {
            job: 9,
            seq: 0,
            nodes: 1,
            estimate,
            ready,
            deadline,
            kind,
            shuffle_key: 0,
            start: ready,
            fix_at: Tick::MAX,
            fixed: false,
        }
    }

    #[test]
    fn phi_compares_ratios_exactly() {
        let phi = |shift, estimate, later| Phi { shift, estimate, later };
        assert!(phi(1, 3, true) < phi(1, 2, false)); // 1/3 < 1/2
        assert!(phi(2, 4, false) < phi(1, 2, true)); // equal ratio: earlier first
        assert_eq!(phi(2, 4, true), phi(1, 2, true));
        assert!(phi(Tick::MAX, 1, false) > phi(Tick::MAX - 1, 1, true));
        assert!(phi(Tick::MAX, Tick::MAX, false) < phi(2, 1, false));
    }

    #[test]
    fn candidates_shift_the_window_around_a_reservation() {
        // Flexible [30, 60] for 10 ticks; a reservation on [35, 50).
        let r = request(RequestKind::Flexible, 30, 60, 10);
        let [before, after] = candidates(&r, 0, 35, 50);
        let phi = |shift, later| Phi { shift, estimate: 10, later };
        assert_eq!(before, Some(Candidate { phi: phi(25, false), ready: 5, deadline: 35 }));
        assert_eq!(after, Some(Candidate { phi: phi(20, true), ready: 50, deadline: 80 }));
        // At 26 the earlier window has no room left: 26 + 10 > 35.
        assert_eq!(candidates(&r, 26, 35, 50)[0], None);
        // A window shifted before time zero is not offered.
        assert_eq!(candidates(&r, 0, 20, 50)[0], None);
        // A reservation outside the window suggests nothing.
        assert_eq!(candidates(&r, 0, 60, 70), [None, None]);
        assert_eq!(candidates(&r, 0, 0, 30), [None, None]);
        // Relaxed: only a later deadline, just after the reservation.
        let relaxed = request(RequestKind::RelaxedStart, 0, 30, 10);
        let [none, later] = candidates(&relaxed, 0, 5, 25);
        assert_eq!(none, None);
        assert_eq!(later, Some(Candidate { phi: phi(5, true), ready: 0, deadline: 35 }));
        assert_eq!(candidates(&relaxed, 0, 5, 15), [None, None]); // 15 + 10 <= 30: not later
    }

    #[test]
    fn next_candidate_walks_the_ranks_once() {
        let r = request(RequestKind::Strict, 20, 30, 10);
        let occupied = [(15, 25), (25, 35), (22, 28)];
        let mut last = None;
        let mut seen = [0i64; 6];
        let mut n = 0;
        while let Some(c) = next_candidate(&r, 0, occupied.iter().copied(), last) {
            seen[n] = if c.phi.later { c.phi.shift as i64 } else { -(c.phi.shift as i64) };
            n += 1;
            last = Some(c.phi);
        }
        // before 22: -8, after 25: +5, before 25: -5, after 28: +8, before 15: -15, after 35: +15
        assert_eq!(&seen[..n], &[-5, 5, -8, 8, -15, 15]);
    }
}
