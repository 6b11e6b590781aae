//! Two answers about the waiting jobs' planned starts, kept from one event to the
//! next instead of read again from every job: the earliest planned start after an
//! instant ([`super::TiersKernel::poll_at`], which the host asks after every step)
//! and the earliest planned start on each resource (from which `start.rs` finds the
//! next job to start).
//!
//! Both are minima. A change of one job's planned start (a job accepted, moved,
//! re-placed, started or removed) keeps a minimum known unless it takes away the
//! start that was the minimum; then the answer is read again from the table's side
//! arrays when next asked. A start takes away the earliest start of its resource,
//! so a read follows most starts; an accepted job or a finish (a running job
//! removed) keeps both answers.

use crate::types::Tick;

/// A job's planned start while it waits, and its resource: `(Tick::MAX, _)` for no
/// waiting job (one running, not yet pushed, or removed).
pub(super) type Wait = (Tick, u8);

/// The kept answers, each `None` while unknown.
#[derive(Clone, Debug)]
pub(super) struct Waits<const R: usize> {
    /// The instant last asked and the earliest planned start after it (`Tick::MAX`:
    /// none). It holds for any later instant before that start.
    after: Option<(Tick, Tick)>,
    /// The earliest planned start of the waiting jobs on each resource (`Tick::MAX`:
    /// none).
    firsts: Option<[Tick; R]>,
    /// Keeps nothing, reading every wait for each answer (the tests' twin).
    #[cfg(test)]
    pub(super) forgetful: bool,
}

impl<const R: usize> Waits<R> {
    pub(super) const fn new() -> Self {
        Self {
            after: None,
            firsts: None,
            #[cfg(test)]
            forgetful: false,
        }
    }

    /// Forgets both answers.
    pub(super) fn forget(&mut self) {
        (self.after, self.firsts) = (None, None);
    }

    /// One job's planned start went from `was` to `now`.
    pub(super) fn change(&mut self, was: Wait, now: Wait) {
        #[cfg(test)]
        if self.forgetful {
            return self.forget();
        }
        if let (Some((asked, next)), true) = (self.after, was.0 != now.0) {
            self.after = if was.0 > asked && was.0 == next && was.0 < Tick::MAX {
                None
            } else if now.0 > asked {
                Some((asked, next.min(now.0)))
            } else {
                Some((asked, next))
            };
        }
        if let (Some(firsts), true) = (&mut self.firsts, was != now) {
            let first_of = |r: u8| firsts.get(usize::from(r)).copied();
            if was.0 < Tick::MAX && first_of(was.1) == Some(was.0) {
                self.firsts = None;
            } else if let Some(first) = firsts.get_mut(usize::from(now.1)) {
                *first = (*first).min(now.0);
            }
        }
    }

    /// The earliest of `waits` after `now` (`Tick::MAX`: none): the kept answer while
    /// it holds, else a read of every wait, kept for the next time.
    pub(super) fn next_after(&mut self, now: Tick, waits: &[Tick]) -> Tick {
        if let Some((asked, next)) = self.after
            && asked <= now
            && (now < next || next == Tick::MAX)
        {
            return next;
        }
        let next = waits.iter().map(|&t| if t > now { t } else { Tick::MAX }).min().unwrap_or(Tick::MAX);
        self.after = Some((now, next));
        #[cfg(test)]
        if self.forgetful {
            self.after = None;
        }
        next
    }

    /// The earliest of `waits` whose job is on a resource of `open` (`Tick::MAX`:
    /// none), with `places` the jobs' resources.
    pub(super) fn earliest_on(&mut self, open: &Resources, waits: &[Tick], places: &[u8]) -> Tick {
        let firsts = self.firsts.get_or_insert_with(|| {
            let mut firsts = [Tick::MAX; R];
            for (&start, &r) in waits.iter().zip(places) {
                if let Some(first) = firsts.get_mut(usize::from(r)) {
                    *first = (*first).min(start);
                }
            }
            firsts
        });
        let on_open = open.iter().filter_map(|r| firsts.get(usize::from(r)));
        let earliest = on_open.copied().min().unwrap_or(Tick::MAX);
        #[cfg(test)]
        if self.forgetful {
            self.firsts = None;
        }
        earliest
    }
}

/// A set of resources, a bit each (resources are numbered by a `u8`).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Resources([u64; 4]);

impl Resources {
    pub(super) fn insert(&mut self, r: u8) {
        let (word, bit) = (usize::from(r / 64), u32::from(r % 64));
        if let Some(w) = self.0.get_mut(word) {
            *w |= 1u64.wrapping_shl(bit);
        }
    }

    pub(super) fn holds(&self, r: u8) -> bool {
        let (word, bit) = (usize::from(r / 64), u32::from(r % 64));
        self.0.get(word).is_some_and(|w| w.wrapping_shr(bit) & 1 == 1)
    }

    /// The resources of the set, in increasing order.
    pub(super) fn iter(&self) -> impl Iterator<Item = u8> + '_ {
        (0u8..).zip(self.0.iter()).flat_map(|(word, &bits)| {
            let mut left = bits;
            core::iter::from_fn(move || {
                let bit = u8::try_from(left.trailing_zeros()).ok().filter(|&b| b < 64)?;
                left &= left.wrapping_sub(1);
                Some(word.saturating_mul(64).saturating_add(bit))
            })
        })
    }
}
