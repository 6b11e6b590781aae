//! What a run measures, per window and over windows.
//!
//! - **Utilisation** of a window: the node-time of executed reservations (each job's
//!   actual run, from its start to its end or cut) that falls inside the window,
//!   `[0, L)`, over `m L`, in percent. Work of the window's jobs that runs past its end
//!   is not counted, and the next window's jobs are not there to fill its start: each
//!   window is an independent experiment, as in the paper, and its denominator is the
//!   node-time the window had, so windows compare and the figure is at most 100%.
//!   `utilisation_span` divides all the work of the window's jobs by `m` times the span
//!   from the window's start to the last end (at least `L`), for comparison.
//! - **Acceptance rate**: requests accepted (directly or through an offer) over
//!   requests made; pooled over windows.
//! - Across windows: the mean and the population standard deviation.

use std::collections::BTreeMap;

use serde::Serialize;

use kernel::Tick;
use kernel::reservation::RequestKind;

/// What one window measured.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct WindowStats {
    pub index: u64,
    pub start: Tick,
    #[serde(skip)]
    pub nodes: u32,
    #[serde(skip)]
    pub length: Tick,
    pub requests: u64,
    pub strict: u64,
    pub flexible: u64,
    /// Accepted as submitted.
    pub accepted: u64,
    /// Rejections of the submitted requests, by reason (an offer taken afterwards
    /// does not undo the count).
    pub rejected: BTreeMap<&'static str, u64>,
    pub offers_made: u64,
    pub offers_accepted: u64,
    /// Offers taken by the user that the kernel then refused (never expected).
    pub offers_failed: u64,
    #[serde(skip)]
    pub offer_phi_sum: f64,
    pub early_finishes: u64,
    pub cut_overruns: u64,
    pub deepest_waiting: u64,
    /// Node-ticks executed inside the window.
    pub work_in_window: u128,
    /// Node-ticks executed in all.
    pub work_total: u128,
    /// The last end, from the window's start.
    pub last_end: Tick,
}

impl WindowStats {
    pub fn count_request(&mut self, kind: RequestKind) {
        self.requests += 1;
        match kind {
            RequestKind::Flexible => self.flexible += 1,
            RequestKind::Strict | RequestKind::RelaxedStart => self.strict += 1,
        }
    }

    /// A run of `nodes` nodes over `[start, end)`.
    pub fn add_run(&mut self, nodes: u32, start: Tick, end: Tick) {
        let inside = end.min(self.length).saturating_sub(start.min(self.length));
        self.work_in_window += u128::from(nodes) * u128::from(inside);
        self.work_total += u128::from(nodes) * u128::from(end.saturating_sub(start));
        self.last_end = self.last_end.max(end);
    }

    /// In percent.
    pub fn utilisation(&self) -> f64 {
        ratio(self.work_in_window * 100, u128::from(self.nodes) * u128::from(self.length))
    }

    /// In percent.
    pub fn utilisation_span(&self) -> f64 {
        let span = self.last_end.max(self.length);
        ratio(self.work_total * 100, u128::from(self.nodes) * u128::from(span))
    }

    pub fn accepted_total(&self) -> u64 {
        self.accepted + self.offers_accepted
    }

    pub fn acceptance_rate(&self) -> f64 {
        ratio(u128::from(self.accepted_total()), u128::from(self.requests))
    }
}

/// `a / b`, 0 when `b` is 0.
pub fn ratio(a: u128, b: u128) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

/// The mean and population standard deviation, `(0, 0)` for none.
pub fn spread(values: &[f64]) -> (f64, f64) {
    if values.is_empty() {
        return (0.0, 0.0);
    }
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let variance = values.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / n;
    (mean, variance.sqrt())
}

// The same counts as a window's, summed: a struct of its own so that the JSON of the
// totals leaves out what only a window has (its start, length and pool).
/// The sums over windows.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Totals {
    pub requests: u64,
    pub strict: u64,
    pub flexible: u64,
    pub accepted: u64,
    pub rejected: BTreeMap<&'static str, u64>,
    pub offers_made: u64,
    pub offers_accepted: u64,
    pub offers_failed: u64,
    pub early_finishes: u64,
    pub cut_overruns: u64,
    pub deepest_waiting: u64,
}

impl Totals {
    pub fn of(windows: &[WindowStats]) -> (Self, f64) {
        let mut t = Self::default();
        let mut phi_sum = 0.0;
        for w in windows {
            t.requests += w.requests;
            t.strict += w.strict;
            t.flexible += w.flexible;
            t.accepted += w.accepted;
            for (reason, n) in &w.rejected {
                *t.rejected.entry(reason).or_insert(0) += n;
            }
            t.offers_made += w.offers_made;
            t.offers_accepted += w.offers_accepted;
            t.offers_failed += w.offers_failed;
            t.early_finishes += w.early_finishes;
            t.cut_overruns += w.cut_overruns;
            t.deepest_waiting = t.deepest_waiting.max(w.deepest_waiting);
            phi_sum += w.offer_phi_sum;
        }
        (t, phi_sum)
    }
}
