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
use std::collections::BinaryHeap;

use kernel::tiers::{Config, Decision, Event, Group, Outcome, Request, Resource, Tier};
use kernel::{JobId, Tick};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rustc_hash::FxHashMap;

use super::error::TiersError;
use super::faults::{Change, ChangePlan, Faults, Seeded, owner_factor_milli};

/// The host's kernel, the size `replay verify` rebuilds: 16 resources, 2,048
/// one-minute slots (34 hours), 1,024 jobs.
pub type HostKernel = replay::engine::tiers::HostTiersKernel;

/// What the host knows about one SLA at the end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JobFate {
    /// Its place in the input, from 0.
    pub seq: u64,
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

/// One run's result (each SLA's fate went to the run's `fated` as it became final).
#[derive(Debug)]
pub struct RunOutput {
    pub events: u64,
    pub decisions: u64,
    /// The availability changes the run sent (the first this many of its plan's;
    /// those after the last job's end are not sent).
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
    Change(Change),
    Submit,
    /// An `Advance` to the kernel's next planned start.
    Wake,
}

/// The changes of a run as it draws them.
enum Changes {
    Listed(std::iter::Peekable<std::vec::IntoIter<Change>>),
    Seeded(Seeded),
}

impl Changes {
    fn new(plan: &ChangePlan, resources: &[Resource], faults: Faults, seed: u64) -> Self {
        match plan {
            ChangePlan::Listed(list) => Self::Listed(list.clone().into_iter().peekable()),
            ChangePlan::Seeded { until } => Self::Seeded(Seeded::new(resources, faults, seed, *until)),
        }
    }

    fn peek(&mut self, until: Option<Tick>) -> Option<Change> {
        match self {
            Self::Listed(list) => list.peek().copied(),
            Self::Seeded(seeded) => seeded.peek(until),
        }
    }

    fn pop(&mut self) {
        match self {
            Self::Listed(list) => {
                list.next();
            }
            Self::Seeded(seeded) => seeded.pop(),
        }
    }
}

/// A job the host still follows: submitted, and not yet rejected, ended or lost for
/// good.
struct Live {
    request: Request,
    fate: JobFate,
    place: u8,
    /// Its current run (0: none yet): a finish of an older one is stale.
    generation: u32,
}

/// The requests of a run, in time order.
pub type RequestStream<'a> = &'a mut dyn Iterator<Item = Result<Request, TiersError>>;

/// The host's side of a run: the jobs it follows, what is due next, and where each
/// SLA's fate goes once final.
struct Host<'a> {
    resources: &'a [Resource],
    requests: RequestStream<'a>,
    /// The next request, read ahead.
    upcoming: Option<Request>,
    submitted: u64,
    /// The latest deadline or submit of the requests submitted so far.
    latest: Tick,
    changes: Changes,
    changes_sent: usize,
    faults: Faults,
    /// Draws the run times (stream 2 of the seed).
    rng: ChaCha8Rng,
    live: FxHashMap<JobId, Live>,
    /// Jobs whose fate became final in the step being booked.
    done: Vec<JobId>,
    heap: BinaryHeap<Reverse<(Tick, Next)>>,
    /// Accepted jobs not yet ended or lost.
    open: usize,
    fated: &'a mut dyn FnMut(&JobFate),
}

impl<'a> Host<'a> {
    fn new(
        resources: &'a [Resource],
        requests: RequestStream<'a>,
        changes: Changes,
        faults: Faults,
        seed: u64,
        fated: &'a mut dyn FnMut(&JobFate),
    ) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(2);
        Self {
            resources,
            requests,
            upcoming: None,
            submitted: 0,
            latest: 0,
            changes,
            changes_sent: 0,
            faults,
            rng,
            live: FxHashMap::default(),
            done: Vec::new(),
            heap: BinaryHeap::new(),
            open: 0,
            fated,
        }
    }

    /// Reads the next request ahead.
    fn read(&mut self) -> Result<(), TiersError> {
        self.upcoming = self.requests.next().transpose()?;
        if let Some(r) = &self.upcoming {
            self.latest = self.latest.max(r.deadline.max(r.t));
        }
        Ok(())
    }

    /// What comes next, at one instant in the order finishes, changes, submissions,
    /// wakes; availability changes only while something is pending. The seeded
    /// changes' end ([`super::faults::trace_until`]) is known once no request is to
    /// come; before, any change that comes before the next request is before it.
    fn next(&mut self, wake: Option<Tick>) -> Option<(Tick, Next)> {
        let next_submit = self.upcoming.map(|r| (r.t, Next::Submit));
        let pending = self.open > 0 || next_submit.is_some();
        let until = next_submit.is_none().then_some(self.latest + 86_400);
        let next_change =
            if pending { self.changes.peek(until).map(|c| (c.t, Next::Change(c))) } else { None };
        let next_finish = self.heap.peek().map(|r| r.0);
        let next_wake = wake.map(|t| (t, Next::Wake));
        // One candidate of each kind, in the order ties go: a later one wins only by an
        // earlier time (the order of `(Tick, Next)`, without comparing whole events).
        let mut best: Option<(Tick, Next)> = None;
        for candidate in [next_finish, next_change, next_submit, next_wake].into_iter().flatten() {
            if best.is_none_or(|(t, _)| candidate.0 < t) {
                best = Some(candidate);
            }
        }
        best
    }

    /// The kernel event of `next` at `t`, or `None` for a stale finish (dropped).
    fn event(&mut self, t: Tick, next: Next) -> Result<Option<Event>, TiersError> {
        Ok(Some(match next {
            Next::Finish { job, generation: g } => {
                self.heap.pop();
                if self.live.get(&job).is_none_or(|l| l.generation != g) {
                    return Ok(None);
                }
                Event::Finish { t, job }
            }
            Next::Change(c) => {
                self.changes.pop();
                self.changes_sent += 1;
                if c.back {
                    Event::Return { t, resource: c.resource }
                } else {
                    Event::Leave { t, resource: c.resource }
                }
            }
            Next::Submit => {
                let Some(request) = self.upcoming else { return Ok(None) };
                self.read()?;
                let fate = JobFate {
                    seq: self.submitted,
                    tier: Some(request.tier),
                    submitted: request.t,
                    ..JobFate::default()
                };
                self.submitted += 1;
                self.live.insert(request.job, Live { request, fate, place: 0, generation: 0 });
                Event::Submit(request)
            }
            Next::Wake => Event::Advance { t },
        }))
    }

    fn fate(&mut self, job: JobId) -> Option<&mut JobFate> {
        self.live.get_mut(&job).map(|l| &mut l.fate)
    }

    /// Books one decision.
    fn apply(&mut self, decision: Decision) {
        match decision {
            Decision::Accept { job, resource, .. } => {
                self.open += 1;
                if let Some(l) = self.live.get_mut(&job) {
                    l.place = resource;
                    l.fate.accepted = true;
                }
            }
            Decision::Move { job, resource, .. } => {
                if let Some(l) = self.live.get_mut(&job) {
                    l.place = resource;
                    l.fate.moves += 1;
                }
            }
            Decision::Replace { job, resource, .. } => {
                if let Some(l) = self.live.get_mut(&job) {
                    l.place = resource;
                    l.fate.replaced += 1;
                }
            }
            Decision::Start { t, job } => self.start(t, job),
            Decision::End { t, job, .. } => {
                self.open -= 1;
                if let Some(f) = self.fate(job) {
                    f.ended = Some(t);
                }
                self.done.push(job);
            }
            Decision::Lost { job, .. } => {
                // A pending finish of a lost job no longer matches.
                if let Some(l) = self.live.get_mut(&job) {
                    l.generation += 1;
                }
            }
            Decision::Violate { job, why, .. } => {
                let Some(f) = self.fate(job) else { return };
                if f.tier.is_some_and(|t| t.has_deadline()) {
                    f.violated = true;
                }
                if why == kernel::tiers::Violation::Lost {
                    f.lost = true;
                    self.open -= 1;
                    self.done.push(job);
                }
            }
            Decision::Reject { job, .. } => self.done.push(job),
        }
    }

    /// Hands the fates made final by the step just booked to `fated`, and forgets
    /// their jobs.
    fn settle(&mut self) {
        for job in self.done.drain(..) {
            if let Some(l) = self.live.remove(&job) {
                (self.fated)(&l.fate);
            }
        }
    }

    /// A start at `t`: draws the run's length on its resource (80 to 100 % of the
    /// estimate, slowed by the owner on a desktop) and schedules its finish.
    fn start(&mut self, t: Tick, job: JobId) {
        let Some(l) = self.live.get_mut(&job) else { return };
        let request = l.request;
        let resource = self.resources[usize::from(l.place)];
        let estimate = resource.estimate(request.work).unwrap_or(request.work);
        let mut milli: u64 = self.rng.random_range(800..=1000);
        if resource.group == Group::Low {
            milli = milli * owner_factor_milli(&mut self.rng, self.faults) / 1000;
        }
        let actual = (estimate * milli).div_ceil(1000).max(1);
        l.generation += 1;
        self.heap.push(Reverse((t + actual, Next::Finish { job, generation: l.generation })));
        l.fate.first_start.get_or_insert(t);
    }
}

/// Runs `requests` (in time order) with the availability changes of `changes` on
/// `resources`. `observe` sees every event with its decisions (for the log);
/// `fated` gets each SLA's fate once it is final (rejected, ended, lost for good, or
/// at the close), in no set order.
pub fn run(
    config: Config,
    resources: &[Resource],
    requests: RequestStream<'_>,
    changes: &ChangePlan,
    (faults, seed): (Faults, u64),
    observe: &mut dyn FnMut(&Event, &[Decision]),
    fated: &mut dyn FnMut(&JobFate),
) -> Result<RunOutput, TiersError> {
    let mut engine = replay::engine::tiers::TiersEngine::new(config, resources)
        .map_err(|e| TiersError::Config(e.to_string()))?;
    let kernel = engine.kernel_mut();
    let changes = Changes::new(changes, resources, faults, seed);
    let mut host = Host::new(resources, requests, changes, faults, seed, fated);
    host.read()?;
    let (mut events, mut decisions, mut last_t) = (0u64, 0u64, 0);
    let mut out = Vec::new();
    while let Some((t, next)) = host.next(kernel.poll_at()) {
        let Some(event) = host.event(t, next)? else { continue };
        out.clear();
        let outcome = kernel.step(event, &mut |d| out.push(d));
        if let Outcome::Refused(reason) = outcome {
            // The loop only sends finishes of running jobs and changes of present or
            // absent desktops, never in the past: a refusal is a bug of this loop.
            return Err(TiersError::Config(format!("the kernel refused the event at tick {t}: {reason}")));
        }
        events += 1;
        decisions += out.len() as u64;
        last_t = t;
        observe(&event, &out);
        for d in &out {
            host.apply(*d);
        }
        host.settle();
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
    // The jobs still followed (none unless the loop stopped early), in input order.
    let mut left: Vec<JobFate> = host.live.drain().map(|(_, l)| l.fate).collect();
    left.sort_unstable_by_key(|f| f.seq);
    left.iter().for_each(|f| (host.fated)(f));
    Ok(RunOutput {
        events: events + 1,
        decisions: decisions + out.len() as u64,
        changes_sent: host.changes_sent,
        end: last_t,
    })
}

#[cfg(test)]
#[path = "run_tests.rs"]
mod tests;
