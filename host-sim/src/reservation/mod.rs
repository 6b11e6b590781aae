//! The host side of flexible advance reservations (Netto, Bubendorfer and Buyya 2007,
//! section 4): SWF jobs into reservation requests, the run loop around
//! [`kernel::reservation::ReservationKernel`], the user's answer to offers, the
//! paper's metrics, and the sweep that reproduces its figures 2 to 7.
//!
//! - [`poisson`]: a Poisson sampler with the same draws on every machine.
//! - [`mapping`]: jobs into requests (`R`, `Te`, `D`, flexible windows, load, actual
//!   run times), seeded.
//! - [`run`]: windows, the host's clock, finishes, offers.
//! - [`stream`]: a `reserve` run fed from a trace's stream, one window held at a time.
//! - [`once`]: a `reserve` run over a trace read once, where the pool's size is known
//!   before it is read.
//! - [`metrics`]: utilisation, acceptance, offers' `ϕ`, per window and over windows.
//! - [`report`]: one run's summary as a table or JSON, and the paper comparison.
//! - [`sweep`]: the figures' grid in parallel, one CSV per figure, and the findings.
//! - [`log`]: the header of a run's decision log (reservation records, log format v4).
//! - [`cli`]: the `reserve` and `reserve-sweep` subcommands.
//! - [`whatif`]: a log's requests decided again (`host-sim whatif`).
//! - `error`: [`ReserveError`], which every module of the side returns.

pub mod cli;
pub mod contract;
mod error;
pub mod figures;
pub mod log;
pub mod mapping;
pub mod metrics;
pub mod once;
pub mod poisson;
pub mod report;
pub mod run;
pub mod stream;
pub mod sweep;
pub mod whatif;

pub use error::ReserveError;

use kernel::Tick;
use kernel::reservation::{Criterion, Fixing};

use crate::workload::Job;
use mapping::{Estimates, Flex, MapOptions};
use metrics::{Totals, WindowStats, spread};
use run::RunOptions;

/// One configuration of the experiment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Experiment {
    pub seed: u64,
    pub load_milli: u64,
    pub flex: Flex,
    pub estimates: Estimates,
    pub nodes: u32,
    pub slot_ticks: Tick,
    pub criterion: Criterion,
    pub fixing: Fixing,
    pub offers_phi_milli: Option<u64>,
    pub offer_trials: u16,
    pub window_ticks: Tick,
}

impl Experiment {
    /// The paper's setting: 15-day windows, one-minute slots, EDF, fixed intervals,
    /// accurate estimates, no fixing, no offers, the trace's load.
    pub const fn paper(nodes: u32) -> Self {
        Self {
            seed: 1,
            load_milli: 1000,
            flex: Flex::None,
            estimates: Estimates::Accurate,
            nodes,
            slot_ticks: run::DEFAULT_SLOT_TICKS,
            criterion: Criterion::Edf,
            fixing: Fixing::Never,
            offers_phi_milli: None,
            offer_trials: 16,
            window_ticks: 15 * 86_400,
        }
    }

    fn map_options(&self) -> MapOptions {
        MapOptions {
            seed: self.seed,
            load_milli: self.load_milli,
            flex: self.flex,
            estimates: self.estimates,
        }
    }

    pub fn run_options(&self) -> RunOptions {
        RunOptions {
            nodes: self.nodes,
            slot_ticks: self.slot_ticks,
            criterion: self.criterion,
            fixing: self.fixing,
            offers_phi_milli: self.offers_phi_milli,
            offer_trials: self.offer_trials,
            window_ticks: self.window_ticks,
        }
    }
}

/// The workload of every experiment on one trace: its jobs, with their processor counts.
#[derive(Clone, Copy, Debug)]
pub struct Input<'a> {
    pub jobs: &'a [Job],
}

/// What one experiment measured.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub experiment: Experiment,
    pub jobs_kept: u64,
    pub excluded_short: u64,
    pub excluded_no_procs: u64,
    pub p_raised: u64,
    pub windows_empty: u64,
    pub trailing_dropped: bool,
    pub windows: Vec<WindowStats>,
    pub totals: Totals,
    pub utilisation: (f64, f64),
    pub utilisation_span: (f64, f64),
    pub acceptance_rate: f64,
    /// The mean `ϕ` of offers taken, 0 with none.
    pub offer_phi_mean: f64,
}

/// Maps, splits and runs one experiment.
pub fn simulate(input: &Input<'_>, experiment: &Experiment) -> Result<Outcome, ReserveError> {
    simulate_recorded(input, experiment, None)
}

/// [`simulate`], handing every kernel event and decision to `record`.
pub fn simulate_recorded(
    input: &Input<'_>,
    experiment: &Experiment,
    record: Option<run::Recorder<'_>>,
) -> Result<Outcome, ReserveError> {
    let mapped = mapping::map_jobs(input.jobs, &experiment.map_options());
    let split = run::split(&mapped.jobs, experiment.window_ticks);
    simulate_mapped(&mapped, &split, experiment, record)
}

/// Runs requests already mapped and split (a trace's, or a log's for `whatif`) under
/// `experiment`, handing every kernel event and decision to `record`.
pub fn simulate_mapped(
    mapped: &mapping::Mapped,
    split: &run::Split,
    experiment: &Experiment,
    record: Option<run::Recorder<'_>>,
) -> Result<Outcome, ReserveError> {
    let windows = run::run_windows_recorded(&mapped.jobs, &split.windows, &experiment.run_options(), record)?;
    Ok(outcome(experiment, mapped.jobs.len() as u64, mapped, split, windows))
}

/// What an experiment measured, from its windows' statistics, the requests it kept,
/// what the mapping left out (`mapped`, whose jobs are not used) and the split.
fn outcome(
    experiment: &Experiment,
    jobs_kept: u64,
    mapped: &mapping::Mapped,
    split: &run::Split,
    windows: Vec<WindowStats>,
) -> Outcome {
    let (totals, phi_sum) = Totals::of(&windows);
    let per_window: Vec<f64> = windows.iter().map(WindowStats::utilisation).collect();
    let per_window_span: Vec<f64> = windows.iter().map(WindowStats::utilisation_span).collect();
    let accepted = totals.accepted + totals.offers_accepted;
    Outcome {
        experiment: *experiment,
        jobs_kept,
        excluded_short: mapped.excluded_short,
        excluded_no_procs: mapped.excluded_no_procs,
        p_raised: mapped.p_raised,
        windows_empty: split.empty,
        trailing_dropped: split.trailing_dropped,
        utilisation: spread(&per_window),
        utilisation_span: spread(&per_window_span),
        acceptance_rate: metrics::ratio(u128::from(accepted), u128::from(totals.requests)),
        offer_phi_mean: if totals.offers_accepted == 0 {
            0.0
        } else {
            phi_sum / totals.offers_accepted as f64
        },
        windows,
        totals,
    }
}
