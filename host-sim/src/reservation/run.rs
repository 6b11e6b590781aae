//! The run loop: each window's requests through a fresh reservation kernel, with the
//! host's clock, early finishes and the user's answer to offers.
//!
//! Per window (times from its start): the kernel is `Reset`; requests go in in
//! (submit time, line) order. Before each request at `t` the host brings the kernel
//! up to `t` itself, one instant at a time, so that it can report finishes on time:
//! it knows every waiting reservation's planned start (from `Accept` and `Replan`),
//! sends `Advance` to the next start before `t`, and on each `Start` schedules the
//! job's `Finish` at `start + actual` when the job ends by its reservation's end
//! (`actual <= Te`). A finish comes before a start at the same instant, and every
//! finish at or before `t` before the request at `t`. A job that would run longer is
//! never reported: the kernel cuts it at the end of its reservation. After the last
//! request the host runs every start and finish to the end and then sends
//! `Advance { t: u64::MAX }`, which ends any overrun.
//!
//! With offers on (`--offers PHI_MAX`), a request rejected with offers is answered at
//! once: the user takes the first offer (they come best first) whose
//! `ϕ = shift / Te <= PHI_MAX`, compared as `shift * 1000 <= phi_milli * Te`, and
//! resubmits the same job (same id: the kernel holds nothing of a rejected request)
//! with the offered window. The kernel guarantees that it is accepted.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap};

use rustc_hash::FxHashMap;

use kernel::log::Body;
use kernel::reservation::{Config, Criterion, Decision, Event, Fixing, Outcome, Request};
use kernel::{JobId, Tick};

use super::error::ReserveError;
use super::mapping::ReserveJob;
use super::metrics::WindowStats;
use crate::window::{self, Window};
use crate::workload::Job;

/// The compiled sizes are replay's, so that `replay verify` rebuilds exactly this
/// kernel from a log: 65,536 one-minute slots reach 45.5 days ahead, past the deadline
/// of every SDSC SP2 job but a handful of multi-day ones (counted as
/// `beyond_horizon`); 2,048 waiting reservations (the deepest queue on SDSC SP2 at
/// 1.5x load is far below); a running set of `2 m` at least, the smallest of
/// [`RUNNING_CAPACITIES`] that holds it (2,048 for pools of up to 1,024 nodes, up to
/// 262,144 for 131,072 nodes); 8 offers per rejection.
pub use replay::engine::reservation::{
    MAX_NODES, OFFERS, RUNNING_CAPACITIES, SLOTS as HORIZON_SLOTS, WAITING,
};
/// The slot length in ticks (seconds): one minute, the shortest job kept.
pub const DEFAULT_SLOT_TICKS: Tick = 60;

/// The host's kernel: replay's engine, of the running capacity the pool needs.
pub type Kernel = replay::engine::reservation::ReservationEngine;

// The options of one run, as `Experiment` minus what the sweep varies around it;
// spelled out so that the run loop depends on nothing of the sweep.
/// Everything about a run besides its requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunOptions {
    pub nodes: u32,
    pub slot_ticks: Tick,
    pub criterion: Criterion,
    pub fixing: Fixing,
    /// The user's bound on `ϕ`, in thousandths; `None` turns offers off.
    pub offers_phi_milli: Option<u64>,
    /// Offer candidates tested per rejection.
    pub offer_trials: u16,
    pub window_ticks: Tick,
}

/// The windows of a run and what the split left out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Split {
    pub windows: Vec<Window>,
    /// Windows between the first and the last without a job (not simulated).
    pub empty: u64,
    /// The window in which the trace ends, dropped because the trace does not cover it
    /// whole (only when there is more than one window).
    pub trailing_dropped: bool,
}

/// Cuts submit-ordered requests into windows of `length` ticks from the first submit;
/// the last window is dropped when there are others.
pub fn split(jobs: &[ReserveJob], length: Tick) -> Split {
    let as_jobs: Vec<Job> =
        jobs.iter().map(|j| Job { id: j.id, release: j.submit, p: j.estimate, procs: j.nodes }).collect();
    let mut split = window::split(&as_jobs, Some(length));
    let trailing_dropped = split.windows.len() > 1;
    if trailing_dropped {
        split.windows.pop();
    }
    Split { windows: split.windows, empty: split.empty, trailing_dropped }
}

/// Where every event and decision goes, for a log: the kernel's records in order.
pub use crate::record_log::Recorder;

/// Runs every window on one kernel (replay's engine, built on its own big stack).
pub fn run_windows(
    jobs: &[ReserveJob],
    windows: &[Window],
    options: &RunOptions,
) -> Result<Vec<WindowStats>, ReserveError> {
    run_windows_recorded(jobs, windows, options, None)
}

/// [`run_windows`], handing every event and decision to `record`.
pub fn run_windows_recorded(
    jobs: &[ReserveJob],
    windows: &[Window],
    options: &RunOptions,
    mut record: Option<Recorder<'_>>,
) -> Result<Vec<WindowStats>, ReserveError> {
    let mut kernel = engine(options)?;
    let mut stats = Vec::with_capacity(windows.len());
    for w in windows {
        stats.push(run_window(&mut kernel, options, record.as_deref_mut(), &jobs[w.jobs.clone()], w));
    }
    Ok(stats)
}

/// One window's requests `jobs` through `kernel`, reset first; its statistics.
pub fn run_window<'f>(
    kernel: &mut Kernel,
    options: &RunOptions,
    record: Option<&mut (dyn FnMut(Body) + Send + 'f)>,
    jobs: &[ReserveJob],
    w: &Window,
) -> WindowStats {
    let mut host = Host::new(kernel, options, record);
    host.step(Event::Reset);
    host.window(jobs, w.start);
    WindowStats { index: w.index, start: w.start, ..host.stats }
}

/// The kernel for a run; a pool larger than any compiled size is refused with the
/// largest it may be and the option that sets it.
pub fn engine(options: &RunOptions) -> Result<Kernel, ReserveError> {
    use replay::engine::reservation::ModelError;
    Kernel::new(kernel_config(options)).map_err(|e| match e.model_error::<ModelError>() {
        Some(ModelError::Pool { .. }) => {
            ReserveError::Config(format!("{e}; give a pool of at most {MAX_NODES} with --nodes"))
        }
        Some(ModelError::Config(config)) => ReserveError::Config(config.to_string()),
        _ => ReserveError::Config(e.to_string()),
    })
}

/// The kernel's configuration for a run.
pub fn kernel_config(options: &RunOptions) -> Config {
    Config {
        nodes: options.nodes,
        slot_ticks: options.slot_ticks,
        criterion: options.criterion,
        fixing: options.fixing,
        offer_trials: if options.offers_phi_milli.is_some() { options.offer_trials } else { 0 },
    }
}

/// A job the host has seen start.
#[derive(Clone, Copy, Debug)]
struct Started {
    start: Tick,
    nodes: u32,
}

/// The host's side of one window.
struct Host<'k, 'r, 'f> {
    kernel: &'k mut Kernel,
    record: Option<&'r mut (dyn FnMut(Body) + Send + 'f)>,
    options: RunOptions,
    /// Planned starts of waiting reservations, by (start, job) and by job.
    planned: BTreeSet<(Tick, JobId)>,
    planned_by_job: FxHashMap<JobId, Tick>,
    /// Finishes to report, earliest first.
    finishes: BinaryHeap<Reverse<(Tick, JobId)>>,
    running: FxHashMap<JobId, Started>,
    /// Estimate and actual run time of every job submitted in the window.
    runs: FxHashMap<JobId, (Tick, Tick)>,
    decisions: Vec<Decision>,
    stats: WindowStats,
}

impl<'k, 'r, 'f> Host<'k, 'r, 'f> {
    fn new(
        kernel: &'k mut Kernel,
        options: &RunOptions,
        record: Option<&'r mut (dyn FnMut(Body) + Send + 'f)>,
    ) -> Self {
        Self {
            kernel,
            record,
            options: *options,
            planned: BTreeSet::new(),
            planned_by_job: FxHashMap::default(),
            finishes: BinaryHeap::new(),
            running: FxHashMap::default(),
            runs: FxHashMap::default(),
            decisions: Vec::new(),
            stats: WindowStats {
                nodes: options.nodes,
                length: options.window_ticks,
                ..WindowStats::default()
            },
        }
    }

    fn window(&mut self, jobs: &[ReserveJob], origin: Tick) {
        for job in jobs {
            let t = job.submit - origin;
            self.catch_up(t);
            self.runs.insert(job.id, (job.estimate, job.actual));
            let request = Request {
                t,
                job: job.id,
                nodes: job.nodes,
                estimate: job.estimate,
                ready: job.ready - origin,
                deadline: job.deadline - origin,
                kind: job.kind,
                shuffle_key: job.shuffle_key,
            };
            self.request(request);
        }
        self.catch_up(Tick::MAX);
        self.step(Event::Advance { t: Tick::MAX });
    }

    /// Reports every finish at or before `t` and runs every start before `t`, in time
    /// order, finishes first at the same instant.
    fn catch_up(&mut self, t: Tick) {
        loop {
            let finish = self.finishes.peek().map(|Reverse(f)| *f);
            let start = self.planned.first().copied();
            match (finish, start) {
                (Some((f, job)), s) if f <= t && s.is_none_or(|(s, _)| f <= s) => {
                    self.finishes.pop();
                    self.step(Event::Finish { t: f, job });
                }
                (_, Some((s, job))) if s < t => {
                    self.step(Event::Advance { t: s });
                    // The kernel starts every reservation at its planned start, so the
                    // entry is gone now; were it not, dropping it keeps the loop finite.
                    if self.planned.first() == Some(&(s, job)) {
                        debug_assert!(false, "job {job} did not start at its planned start {s}");
                        self.planned.remove(&(s, job));
                        self.planned_by_job.remove(&job);
                    }
                }
                _ => break,
            }
        }
    }

    fn request(&mut self, request: Request) {
        self.stats.count_request(request.kind);
        let outcome = self.step(Event::Request(request));
        self.stats.deepest_waiting = self.stats.deepest_waiting.max(self.kernel.waiting_len() as u64);
        match outcome {
            Outcome::Accepted { .. } => self.stats.accepted += 1,
            Outcome::Rejected { reason, offers } => {
                *self.stats.rejected.entry(reason.name()).or_insert(0) += 1;
                self.stats.offers_made += u64::from(offers);
                if offers > 0 {
                    self.take_offer(request);
                }
            }
            _ => {}
        }
    }

    /// The user model: the first offer within the bound, resubmitted at once.
    fn take_offer(&mut self, request: Request) {
        let Some(phi_milli) = self.options.offers_phi_milli else { return };
        let offers = self.decisions.iter().filter_map(|d| match *d {
            Decision::Offer { ready, deadline, .. } => Some((ready, deadline)),
            _ => None,
        });
        let chosen = offers
            .map(|(ready, deadline)| (ready, deadline, offer_shift(&request, ready, deadline)))
            .find(|&(_, _, shift)| within(shift, request.estimate, phi_milli));
        let Some((ready, deadline, shift)) = chosen else { return };
        let outcome = self.step(Event::Request(Request { ready, deadline, ..request }));
        if let Outcome::Accepted { .. } = outcome {
            self.stats.offers_accepted += 1;
            self.stats.offer_phi_sum += shift as f64 / request.estimate as f64;
        } else {
            self.stats.offers_failed += 1;
        }
    }

    /// One event, and the host's bookkeeping of its decisions.
    fn step(&mut self, event: Event) -> Outcome {
        let mut decisions = std::mem::take(&mut self.decisions);
        decisions.clear();
        let outcome = self.kernel.step(event, &mut decisions);
        if let Some(record) = self.record.as_mut() {
            record(Body::ReservationEvent(event));
            decisions.iter().for_each(|&d| record(Body::ReservationDecision(d)));
        }
        for &decision in &decisions {
            self.observe(decision);
        }
        self.decisions = decisions;
        outcome
    }

    fn observe(&mut self, decision: Decision) {
        match decision {
            Decision::Accept { job, start } | Decision::Replan { job, start } => {
                if let Some(old) = self.planned_by_job.insert(job, start) {
                    self.planned.remove(&(old, job));
                }
                self.planned.insert((start, job));
            }
            Decision::Start { t, job } => {
                if let Some(old) = self.planned_by_job.remove(&job) {
                    self.planned.remove(&(old, job));
                }
                let (estimate, actual) = self.runs.get(&job).copied().unwrap_or((1, 1));
                let nodes = self.kernel.running_nodes(job).unwrap_or(0);
                self.running.insert(job, Started { start: t, nodes });
                if actual <= estimate {
                    self.finishes.push(Reverse((t + actual, job)));
                }
            }
            Decision::End { t, job, early, cut } => {
                if let Some(started) = self.running.remove(&job) {
                    self.stats.add_run(started.nodes, started.start, t);
                }
                self.stats.early_finishes += u64::from(early);
                self.stats.cut_overruns += u64::from(cut);
            }
            Decision::Reject { .. } | Decision::Offer { .. } | Decision::Fix { .. } => {}
        }
    }
}

/// `|OPT - original|` of an offer, in ticks: of the ready time for an earlier
/// window, of the deadline for a later one.
pub fn offer_shift(request: &Request, ready: Tick, deadline: Tick) -> Tick {
    if deadline < request.deadline {
        request.ready.saturating_sub(ready)
    } else {
        deadline - request.deadline
    }
}

/// `shift / estimate <= phi_milli / 1000`, exactly.
pub fn within(shift: Tick, estimate: Tick, phi_milli: u64) -> bool {
    u128::from(shift) * 1000 <= u128::from(phi_milli) * u128::from(estimate)
}

/// Rejections by reason, for reports.
pub type Rejections = BTreeMap<&'static str, u64>;
