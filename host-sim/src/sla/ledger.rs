//! The requests of a set that the run loop ([`super::run`]) has submitted and not yet
//! summed, so that it sums them in request order while the kernel decides them in
//! its own (a batch's in priority order) and while a held set is submitted in submit
//! order: a request is handed on once it and every request before it are decided.
//!
//! A trace's requests are submitted in request order and a batch is decided whole,
//! so the ledger holds one batch at a time; a held set submitted online may wait for
//! its whole set.

use std::collections::VecDeque;

use kernel::Tick;

use super::mapping::Sla;
use crate::workload::JobIdMap;

/// One place in request order.
#[derive(Clone, Copy, Debug)]
enum Place {
    /// Not submitted yet (a held set submitted in another order).
    Open,
    Waiting(Sla),
    /// Decided: its start if accepted.
    Decided(Sla, Option<Tick>),
}

/// Submitted requests by place, from the first not yet handed on.
#[derive(Debug, Default)]
pub struct Ledger {
    /// The place of `places[0]`.
    first: u64,
    places: VecDeque<Place>,
    /// The place of each job held, by job number.
    by_job: JobIdMap<u64>,
}

impl Ledger {
    /// Request `r`, submitted, at place `seq` (each place once, none already handed
    /// on; a place handed on is ignored).
    pub fn submit(&mut self, seq: u64, r: Sla) {
        let Some(at) = seq.checked_sub(self.first).and_then(|at| usize::try_from(at).ok()) else { return };
        if self.places.len() <= at {
            self.places.resize(at + 1, Place::Open);
        }
        if let Some(place) = self.places.get_mut(at) {
            *place = Place::Waiting(r);
            self.by_job.insert(r.job, seq);
        }
    }

    /// Job `job` decided: accepted at `start`, or rejected (`None`), which leaves an
    /// earlier acceptance as it was. A job not held is ignored.
    pub fn decide(&mut self, job: u32, start: Option<Tick>) {
        let Some(&seq) = self.by_job.get(&job) else { return };
        let at = seq.checked_sub(self.first).and_then(|at| usize::try_from(at).ok());
        let Some(place) = at.and_then(|at| self.places.get_mut(at)) else { return };
        *place = match (*place, start) {
            (Place::Waiting(r), start) => Place::Decided(r, start),
            (Place::Decided(r, _), Some(start)) => Place::Decided(r, Some(start)),
            (other, _) => other,
        };
    }

    /// Hands `to` every request decided with all before it, in request order.
    pub fn settle(&mut self, to: &mut dyn FnMut(Sla, Option<Tick>)) {
        while let Some(&Place::Decided(r, start)) = self.places.front() {
            self.pop(r);
            to(r, start);
        }
    }

    /// Hands `to` every request still held, in request order, the undecided ones as
    /// rejected: the end of a set.
    pub fn drain(&mut self, to: &mut dyn FnMut(Sla, Option<Tick>)) {
        while let Some(place) = self.places.front().copied() {
            match place {
                Place::Open => {
                    self.places.pop_front();
                    self.first += 1;
                }
                Place::Waiting(r) => {
                    self.pop(r);
                    to(r, None);
                }
                Place::Decided(r, start) => {
                    self.pop(r);
                    to(r, start);
                }
            }
        }
    }

    /// Drops the first place, request `r`'s.
    fn pop(&mut self, r: Sla) {
        self.places.pop_front();
        if self.by_job.get(&r.job) == Some(&self.first) {
            self.by_job.remove(&r.job);
        }
        self.first += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sla::metrics::Terms;

    fn sla(job: u32) -> Sla {
        Sla { job, submit: 0, terms: Terms { ts: 0, tf: 10, td: 1, ncpu: 1 } }
    }

    #[test]
    fn requests_are_handed_on_in_request_order_once_all_before_are_decided() {
        let mut ledger = Ledger::default();
        let mut out = Vec::new();
        // Submitted out of request order (a held set online): 2, 0, 1, 3.
        for (seq, job) in [(2, 12), (0, 10), (1, 11), (3, 13)] {
            ledger.submit(seq, sla(job));
        }
        ledger.decide(12, Some(5));
        ledger.decide(11, None);
        ledger.settle(&mut |r, start| out.push((r.job, start)));
        assert!(out.is_empty(), "the first is undecided");
        ledger.decide(10, Some(7));
        ledger.decide(10, None);
        ledger.settle(&mut |r, start| out.push((r.job, start)));
        assert_eq!(out, [(10, Some(7)), (11, None), (12, Some(5))]);
        ledger.decide(99, Some(1));
        ledger.drain(&mut |r, start| out.push((r.job, start)));
        assert_eq!(out[3..], [(13, None)]);
        assert!(ledger.places.is_empty() && ledger.by_job.is_empty());
    }

    #[test]
    fn a_place_not_submitted_holds_the_ones_after_it_until_the_end() {
        let mut ledger = Ledger::default();
        let mut out = Vec::new();
        ledger.submit(1, sla(2));
        ledger.decide(2, Some(3));
        ledger.settle(&mut |r, start| out.push((r.job, start)));
        assert!(out.is_empty());
        ledger.drain(&mut |r, start| out.push((r.job, start)));
        assert_eq!(out, [(2, Some(3))]);
        ledger.submit(0, sla(1));
        assert!(ledger.places.is_empty(), "a place handed on is ignored");
    }
}
