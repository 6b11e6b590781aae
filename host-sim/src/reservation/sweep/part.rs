//! `reserve-sweep --shard K/N`: what each experiment of the grid measured, as a
//! shard's part holds it, and the grid split and joined by [`crate::shard::rows`].
//!
//! A row is an [`Outcome`] without its experiment (the merge has the grid, and puts
//! each experiment back by its index) and without its totals, which are the sums of
//! its windows ([`Totals::of`], as the run makes them). A window is written whole: the
//! pool, length and `ϕ` sum that its JSON in `reserve --json` leaves out are written
//! too, so that the figures' per-window utilisations read back exactly.

use std::collections::BTreeMap;
use std::path::Path;

use indicatif::ProgressBar;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use kernel::Tick;
use kernel::reservation::RejectReason;

use super::super::mapping::Flex;
use super::super::metrics::{Totals, WindowStats};
use super::super::{Experiment, Input, Outcome, ReserveError, simulate};
use crate::shard::{Grid, ShardArgs};
use crate::workload::Workload;

/// What one experiment measured: its [`Outcome`] but the experiment and the totals.
#[derive(Debug, Serialize, Deserialize)]
pub struct Measured {
    jobs_kept: u64,
    excluded_short: u64,
    excluded_no_procs: u64,
    p_raised: u64,
    windows_empty: u64,
    trailing_dropped: bool,
    #[serde(serialize_with = "windows_out", deserialize_with = "windows_in")]
    windows: Vec<WindowStats>,
    utilisation: (f64, f64),
    utilisation_span: (f64, f64),
    acceptance_rate: f64,
    offer_phi_mean: f64,
}

impl Measured {
    /// What `outcome` measured.
    pub fn of(outcome: Outcome) -> Self {
        Self {
            jobs_kept: outcome.jobs_kept,
            excluded_short: outcome.excluded_short,
            excluded_no_procs: outcome.excluded_no_procs,
            p_raised: outcome.p_raised,
            windows_empty: outcome.windows_empty,
            trailing_dropped: outcome.trailing_dropped,
            windows: outcome.windows,
            utilisation: outcome.utilisation,
            utilisation_span: outcome.utilisation_span,
            acceptance_rate: outcome.acceptance_rate,
            offer_phi_mean: outcome.offer_phi_mean,
        }
    }

    /// The outcome of `experiment` that measured this.
    pub fn outcome(self, experiment: &Experiment) -> Outcome {
        let (totals, _) = Totals::of(&self.windows);
        Outcome {
            experiment: *experiment,
            jobs_kept: self.jobs_kept,
            excluded_short: self.excluded_short,
            excluded_no_procs: self.excluded_no_procs,
            p_raised: self.p_raised,
            windows_empty: self.windows_empty,
            trailing_dropped: self.trailing_dropped,
            windows: self.windows,
            totals,
            utilisation: self.utilisation,
            utilisation_span: self.utilisation_span,
            acceptance_rate: self.acceptance_rate,
            offer_phi_mean: self.offer_phi_mean,
        }
    }
}

/// A window as a part holds it: every field of [`WindowStats`], its rejections by
/// reason name.
#[derive(Serialize, Deserialize)]
struct Window {
    index: u64,
    start: Tick,
    nodes: u32,
    length: Tick,
    requests: u64,
    strict: u64,
    flexible: u64,
    accepted: u64,
    rejected: BTreeMap<String, u64>,
    offers_made: u64,
    offers_accepted: u64,
    offers_failed: u64,
    offer_phi_sum: f64,
    early_finishes: u64,
    cut_overruns: u64,
    deepest_waiting: u64,
    work_in_window: u128,
    work_total: u128,
    last_end: Tick,
}

impl From<&WindowStats> for Window {
    fn from(w: &WindowStats) -> Self {
        let rejected = w.rejected.iter().map(|(reason, n)| ((*reason).to_owned(), *n)).collect();
        Self {
            index: w.index,
            start: w.start,
            nodes: w.nodes,
            length: w.length,
            requests: w.requests,
            strict: w.strict,
            flexible: w.flexible,
            accepted: w.accepted,
            rejected,
            offers_made: w.offers_made,
            offers_accepted: w.offers_accepted,
            offers_failed: w.offers_failed,
            offer_phi_sum: w.offer_phi_sum,
            early_finishes: w.early_finishes,
            cut_overruns: w.cut_overruns,
            deepest_waiting: w.deepest_waiting,
            work_in_window: w.work_in_window,
            work_total: w.work_total,
            last_end: w.last_end,
        }
    }
}

impl TryFrom<Window> for WindowStats {
    type Error = String;

    fn try_from(w: Window) -> Result<Self, String> {
        let reason = |(name, n): (String, u64)| {
            reason_named(&name).map(|r| (r, n)).ok_or_else(|| format!("no rejection reason named {name:?}"))
        };
        let rejected = w.rejected.into_iter().map(reason).collect::<Result<_, String>>()?;
        Ok(Self {
            index: w.index,
            start: w.start,
            nodes: w.nodes,
            length: w.length,
            requests: w.requests,
            strict: w.strict,
            flexible: w.flexible,
            accepted: w.accepted,
            rejected,
            offers_made: w.offers_made,
            offers_accepted: w.offers_accepted,
            offers_failed: w.offers_failed,
            offer_phi_sum: w.offer_phi_sum,
            early_finishes: w.early_finishes,
            cut_overruns: w.cut_overruns,
            deepest_waiting: w.deepest_waiting,
            work_in_window: w.work_in_window,
            work_total: w.work_total,
            last_end: w.last_end,
        })
    }
}

/// The name a rejection is counted by ([`RejectReason::name`]), for one read back.
fn reason_named(name: &str) -> Option<&'static str> {
    RejectReason::ALL
    .into_iter()
    .map(RejectReason::name)
    .find(|known| *known == name)
}

fn windows_out<S: Serializer>(windows: &[WindowStats], to: S) -> Result<S::Ok, S::Error> {
    to.collect_seq(windows.iter().map(Window::from))
}

fn windows_in<'de, D: Deserializer<'de>>(from: D) -> Result<Vec<WindowStats>, D::Error> {
    let windows = Vec::<Window>::deserialize(from)?;
    windows.into_iter().map(WindowStats::try_from).collect::<Result<_, _>>().map_err(serde::de::Error::custom)
}

/// An experiment's expected cost, for balancing the shards: 2 for a run of fixed
/// windows without offers, 1 more for flexible windows and 2 more for offers. Measured
/// on SDSC SP2's first 15,000 jobs (one `reserve` run each), flexible windows took about
/// 1.5 times a plain run, offers about 1.7 to 2.3 times; the criterion, the load, the
/// fixing and `poisson80` changed little (a load factor moves the same jobs into fewer
/// windows).
pub fn cost(experiment: &Experiment) -> u64 {
    let flexible = u64::from(experiment.flex != Flex::None);
    let offers = if experiment.offers_phi_milli.is_some() { 2 } else { 0 };
    2 + flexible + offers
}

/// The outcomes of `grid` (on `base`, over `workload`) in grid order: run here, whole or
/// the points of `--shard`, or read from `--merge-parts`; `None` for a shard, which
/// wrote its part to `out`.
pub fn outcomes(
    shard: &ShardArgs,
    out: &Path,
    workload: &Workload,
    base: &Experiment,
    grid: &[Experiment],
) -> Result<Option<Vec<Outcome>>, ReserveError> {
    let identity = Grid {
        identity: format!("reserve-sweep {base:?} {:?}", workload.settings),
        inputs: crate::summary::Core::of_workload("reservation", workload).inputs,
        out: Some(out),
    };
    let input = Input { jobs: &workload.jobs };
    let progress = crate::progress::bar(0, "runs");
    let rows = crate::shard::rows(shard, &identity, grid, cost, |mine| run(&input, mine, &progress));
    progress.finish_and_clear();
    Ok(rows?.map(|rows| grid.iter().zip(rows).map(|(e, m)| m.outcome(e)).collect()))
}

/// Runs `mine` in parallel; what each measured, in their order.
fn run(
    input: &Input<'_>,
    mine: &[&Experiment],
    progress: &ProgressBar,
) -> Result<Vec<Measured>, ReserveError> {
    use rayon::prelude::*;
    progress.set_length(mine.len() as u64);
    mine.par_iter()
        .map(|e| {
            let outcome = simulate(input, e);
            progress.inc(1);
            outcome.map(Measured::of)
        })
        .collect()
}
