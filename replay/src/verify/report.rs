//! What a verified log counted: every model's [`Tally`], and the model's own
//! [`Counts`], held in a [`Report`] as whatever model's they are.

use std::any::Any;
use std::fmt::Debug;

/// Counts from a log that verified: what every model counts (the [`Tally`], which a
/// report derefs to), then the model's own ([`Report::counts`]).
#[derive(Debug)]
pub struct Report {
    pub tally: Tally,
    counts: Box<dyn AnyCounts>,
}

impl Report {
    /// The report of a log that counted `tally` and the model's `counts`.
    pub(super) fn new<C: Counts>(tally: Tally, counts: C) -> Self {
        Self { tally, counts: Box::new(counts) }
    }

    /// What `replay verify` prints of a verified log named `log`: the counts and what
    /// was checked, in the model's own words.
    pub fn summary(&self, log: &str) -> String {
        self.counts.summary(&self.tally, log)
    }

    /// The model's own counts, if they are of the type `C` (the log's model's).
    pub fn counts<C: Counts>(&self) -> Option<&C> {
        let counts: &dyn Any = &*self.counts;
        counts.downcast_ref()
    }

    /// Every count, named: every model's, then the model's own.
    pub fn measures(&self) -> Vec<(String, u128)> {
        let t = &self.tally;
        let shared = [
            ("records", t.records),
            ("events", t.events),
            ("decisions", t.decisions),
            ("accepted", t.accepted),
            ("rejected", t.rejected),
            ("completed", t.completed),
        ];
        let mut out: Vec<(String, u128)> =
            shared.into_iter().map(|(name, value)| (name.to_owned(), u128::from(value))).collect();
        self.counts.measures(&mut out);
        out
    }
}

impl std::ops::Deref for Report {
    type Target = Tally;

    fn deref(&self) -> &Tally {
        &self.tally
    }
}

impl Clone for Report {
    fn clone(&self) -> Self {
        Self { tally: self.tally, counts: self.counts.boxed() }
    }
}

impl PartialEq for Report {
    fn eq(&self, other: &Self) -> bool {
        self.tally == other.tally && self.counts.same(&*other.counts)
    }
}

impl Eq for Report {}

/// The counts every model keeps while its log is read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub records: u64,
    pub events: u64,
    pub decisions: u64,
    pub accepted: u64,
    pub rejected: u64,
    /// Completions (service levels) or ends (the other models).
    pub completed: u64,
}

/// A model's own counts ([`Verified::Counts`]): its words in `replay verify`'s
/// summary, and its named measures in `replay diff`.
pub trait Counts: Any + Clone + PartialEq + Debug + Send + Sync {
    /// `replay verify`'s words for a log named `log` that verified with these counts
    /// and `tally`'s.
    fn summary(&self, tally: &Tally, log: &str) -> String;
    /// The counts, named, appended to `out` after every model's.
    fn measures(&self, out: &mut Vec<(String, u128)>);
}

/// Some model's [`Counts`], as a [`Report`] holds them.
trait AnyCounts: Any + Debug + Send + Sync {
    fn summary(&self, tally: &Tally, log: &str) -> String;
    fn measures(&self, out: &mut Vec<(String, u128)>);
    fn boxed(&self) -> Box<dyn AnyCounts>;
    fn same(&self, other: &dyn AnyCounts) -> bool;
}

impl<C: Counts> AnyCounts for C {
    fn summary(&self, tally: &Tally, log: &str) -> String {
        Counts::summary(self, tally, log)
    }

    fn measures(&self, out: &mut Vec<(String, u128)>) {
        Counts::measures(self, out);
    }

    fn boxed(&self) -> Box<dyn AnyCounts> {
        Box::new(self.clone())
    }

    fn same(&self, other: &dyn AnyCounts) -> bool {
        let other: &dyn Any = other;
        other.downcast_ref::<C>() == Some(self)
    }
}
