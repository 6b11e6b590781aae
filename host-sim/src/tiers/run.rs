//! The run loop: SLAs, availability changes and the finishes of started jobs, in time
//! order, into the tiers kernel; the decisions back into the host's bookkeeping.
//!
//! At one instant, finishes come first (in job order), then availability changes (in
//! resource order), then submissions (in input order). After the last submission the
//! loop goes on until every accepted job has ended or been dropped, with the
//! availability changes that fall before that. Between events, the loop wakes the
//! kernel at its next planned start (`TiersKernel::poll_at`) so that jobs start on
//! time and their finishes are never in the kernel's past. A last `Advance` one second after the
//! last event closes the run.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use kernel::tiers::{Config, Decision, Event, Group, Outcome, Request, Resource, Tier};
use kernel::{JobId, Tick};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::error::TiersError;
use super::faults::{Change, Faults, owner_factor_milli};

/// The host's kernel, the size `replay verify` rebuilds: 16 resources, 2,048
/// one-minute slots (34 hours), 1,024 jobs.
pub type HostKernel = replay::engine::tiers::HostTiersKernel;

/// What the host knows about one SLA at the end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JobFate {
    pub tier: Option<Tier>,
    pub submitted: Tick,
    pub accepted: bool,
    pub first_start: Option<Tick>,
    pub ended: Option<Tick>,
    pub violated: bool,
    pub lost: bool,
    pub moves: u32,
    pub replaced: u32,
}

/// One run's input and result.
#[derive(Debug)]
pub struct RunOutput {
    pub fates: Vec<JobFate>,
    pub events: u64,
    pub decisions: u64,
    /// The availability changes the run sent: the first this many of the scenario's
    /// (those after the last job's end are not sent).
    pub changes_sent: usize,
    /// The time of the run's last event before the closing `Advance`.
    pub end: Tick,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Next {
    Finish {
        job: JobId,
        generation: u32,
    },
    Change(usize),
    Submit(usize),
    /// An `Advance` to the kernel's next planned start.
    Wake,
}

/// The host's side of a run: where each job is, which finish is current, what is due
/// next, and each SLA's fate.
struct Host<'a> {
    resources: &'a [Resource],
    requests: &'a [Request],
    changes: &'a [Change],
    faults: Faults,
    /// Draws the run times (stream 2 of the seed).
    rng: ChaCha8Rng,
    index: HashMap<JobId, usize>,
    fates: Vec<JobFate>,
    place: HashMap<JobId, u8>,
    /// A job's current run: a finish of an older one is stale.
    generation: HashMap<JobId, u32>,
    heap: BinaryHeap<Reverse<(Tick, Next)>>,
    submit_at: usize,
    change_at: usize,
    /// Accepted jobs not yet ended or lost.
    open: usize,
}

impl<'a> Host<'a> {
    fn new(
        resources: &'a [Resource],
        requests: &'a [Request],
        changes: &'a [Change],
        faults: Faults,
        seed: u64,
    ) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(2);
        Self {
            resources,
            requests,
            changes,
            faults,
            rng,
            index: requests.iter().enumerate().map(|(i, r)| (r.job, i)).collect(),
            fates: requests
                .iter()
                .map(|r| JobFate { tier: Some(r.tier), submitted: r.t, ..JobFate::default() })
                .collect(),
            place: HashMap::new(),
            generation: HashMap::new(),
            heap: BinaryHeap::new(),
            submit_at: 0,
            change_at: 0,
            open: 0,
        }
    }

    /// What comes next, at one instant in the order finishes, changes, submissions,
    /// wakes; availability changes only while something is pending.
    fn next(&self, wake: Option<Tick>) -> Option<(Tick, Next)> {
        let next_submit = self.requests.get(self.submit_at).map(|r| (r.t, Next::Submit(self.submit_at)));
        let pending = self.open > 0 || next_submit.is_some();
        let next_change =
            self.changes.get(self.change_at).filter(|_| pending).map(|c| (c.t, Next::Change(self.change_at)));
        let next_finish = self.heap.peek().map(|r| r.0);
        let next_wake = wake.map(|t| (t, Next::Wake));
        [next_finish, next_change, next_submit, next_wake].into_iter().flatten().min()
    }

    /// The kernel event of `next` at `t`, or `None` for a stale finish (dropped).
    fn event(&mut self, t: Tick, next: Next) -> Option<Event> {
        Some(match next {
            Next::Finish { job, generation: g } => {
                self.heap.pop();
                if self.generation.get(&job) != Some(&g) {
                    return None;
                }
                Event::Finish { t, job }
            }
            Next::Change(i) => {
                self.change_at += 1;
                let c = self.changes[i];
                if c.back {
                    Event::Return { t, resource: c.resource }
                } else {
                    Event::Leave { t, resource: c.resource }
                }
            }
            Next::Submit(i) => {
                self.submit_at += 1;
                Event::Submit(self.requests[i])
            }
            Next::Wake => Event::Advance { t },
        })
    }

    fn fate(&mut self, job: JobId) -> Option<&mut JobFate> {
        self.index.get(&job).and_then(|&i| self.fates.get_mut(i))
    }

    /// Books one decision.
    fn apply(&mut self, decision: Decision) {
        match decision {
            Decision::Accept { job, resource, .. } => {
                self.place.insert(job, resource);
                self.open += 1;
                if let Some(f) = self.fate(job) {
                    f.accepted = true;
                }
            }
            Decision::Move { job, resource, .. } => {
                self.place.insert(job, resource);
                if let Some(f) = self.fate(job) {
                    f.moves += 1;
                }
            }
            Decision::Replace { job, resource, .. } => {
                self.place.insert(job, resource);
                if let Some(f) = self.fate(job) {
                    f.replaced += 1;
                }
            }
            Decision::Start { t, job } => self.start(t, job),
            Decision::End { t, job, .. } => {
                self.open -= 1;
                self.generation.remove(&job);
                if let Some(f) = self.fate(job) {
                    f.ended = Some(t);
                }
            }
            Decision::Lost { job, .. } => {
                // A pending finish of a lost job no longer matches.
                *self.generation.entry(job).or_insert(0) += 1;
            }
            Decision::Violate { job, why, .. } => {
                let Some(f) = self.fate(job) else { return };
                if f.tier.is_some_and(|t| t.has_deadline()) {
                    f.violated = true;
                }
                if why == kernel::tiers::Violation::Lost {
                    f.lost = true;
                    self.open -= 1;
                }
            }
            Decision::Reject { .. } => {}
        }
    }

    /// A start at `t`: draws the run's length on its resource (80 to 100 % of the
    /// estimate, slowed by the owner on a desktop) and schedules its finish.
    fn start(&mut self, t: Tick, job: JobId) {
        let Some(&i) = self.index.get(&job) else { return };
        let request = self.requests[i];
        let r = self.place.get(&job).copied().unwrap_or(0);
        let resource = self.resources[usize::from(r)];
        let estimate = resource.estimate(request.work).unwrap_or(request.work);
        let mut milli: u64 = self.rng.random_range(800..=1000);
        if resource.group == Group::Low {
            milli = milli * owner_factor_milli(&mut self.rng, self.faults) / 1000;
        }
        let actual = (estimate * milli).div_ceil(1000).max(1);
        let g = self.generation.entry(job).or_insert(0);
        *g += 1;
        self.heap.push(Reverse((t + actual, Next::Finish { job, generation: *g })));
        self.fates[i].first_start.get_or_insert(t);
    }
}

/// Runs `requests` (sorted by time) with `changes` (sorted) on `resources`. `observe`
/// sees every event with its decisions (for the log).
pub fn run(
    config: Config,
    resources: &[Resource],
    requests: &[Request],
    changes: &[Change],
    faults: Faults,
    seed: u64,
    observe: &mut dyn FnMut(&Event, &[Decision]),
) -> Result<RunOutput, TiersError> {
    let mut engine = replay::engine::tiers::TiersEngine::new(config, resources)
        .map_err(|e| TiersError::Config(e.to_string()))?;
    let kernel = engine.kernel_mut();
    let mut host = Host::new(resources, requests, changes, faults, seed);
    let (mut events, mut decisions, mut last_t) = (0u64, 0u64, 0);
    let mut out = Vec::new();
    while let Some((t, next)) = host.next(kernel.poll_at()) {
        let Some(event) = host.event(t, next) else { continue };
        out.clear();
        let outcome = kernel.step(event, &mut |d| out.push(d));
        if let Outcome::Refused(reason) = outcome {
            // The loop only sends finishes of running jobs and changes of present or
            // absent desktops, never in the past: a refusal is a bug of this loop.
            return Err(TiersError::Config(format!("{event:?} refused: {reason}")));
        }
        events += 1;
        decisions += out.len() as u64;
        last_t = t;
        observe(&event, &out);
        for d in &out {
            host.apply(*d);
        }
    }
    let close = Event::Advance { t: last_t + 1 };
    out.clear();
    kernel.step(close, &mut |d| out.push(d));
    observe(&close, &out);
    for d in &out {
        if let Decision::Violate { job, .. } = *d
            && let Some(f) = host.fate(job)
        {
            f.violated = true;
        }
    }
    Ok(RunOutput {
        fates: host.fates,
        events: events + 1,
        decisions: decisions + out.len() as u64,
        changes_sent: host.change_at,
        end: last_t,
    })
}
