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

use super::TiersError;
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
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(2);
    let index: HashMap<JobId, usize> = requests.iter().enumerate().map(|(i, r)| (r.job, i)).collect();
    let mut fates: Vec<JobFate> = requests
        .iter()
        .map(|r| JobFate { tier: Some(r.tier), submitted: r.t, ..JobFate::default() })
        .collect();
    let mut place: HashMap<JobId, u8> = HashMap::new();
    let mut generation: HashMap<JobId, u32> = HashMap::new();
    let mut heap: BinaryHeap<Reverse<(Tick, Next)>> = BinaryHeap::new();
    let mut submit_at = 0usize;
    let mut change_at = 0usize;
    let mut open = 0usize;
    let (mut events, mut decisions, mut last_t) = (0u64, 0u64, 0);
    let mut out = Vec::new();
    loop {
        let next_submit = requests.get(submit_at).map(|r| (r.t, Next::Submit(submit_at)));
        let pending = open > 0 || next_submit.is_some();
        let next_change = changes.get(change_at).filter(|_| pending).map(|c| (c.t, Next::Change(change_at)));
        let next_finish = heap.peek().map(|r| r.0);
        let next_wake = kernel.poll_at().map(|t| (t, Next::Wake));
        let Some((t, next)) = [next_finish, next_change, next_submit, next_wake].into_iter().flatten().min()
        else {
            break;
        };
        let event = match next {
            Next::Finish { job, generation: g } => {
                heap.pop();
                if generation.get(&job) != Some(&g) {
                    continue;
                }
                Event::Finish { t, job }
            }
            Next::Change(i) => {
                change_at += 1;
                let c = changes[i];
                if c.back {
                    Event::Return { t, resource: c.resource }
                } else {
                    Event::Leave { t, resource: c.resource }
                }
            }
            Next::Submit(i) => {
                submit_at += 1;
                Event::Submit(requests[i])
            }
            Next::Wake => Event::Advance { t },
        };
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
            match *d {
                Decision::Accept { job, resource, .. } => {
                    place.insert(job, resource);
                    open += 1;
                    if let Some(f) = index.get(&job).and_then(|&i| fates.get_mut(i)) {
                        f.accepted = true;
                    }
                }
                Decision::Move { job, resource, .. } => {
                    place.insert(job, resource);
                    if let Some(f) = index.get(&job).and_then(|&i| fates.get_mut(i)) {
                        f.moves += 1;
                    }
                }
                Decision::Replace { job, resource, .. } => {
                    place.insert(job, resource);
                    if let Some(f) = index.get(&job).and_then(|&i| fates.get_mut(i)) {
                        f.replaced += 1;
                    }
                }
                Decision::Start { t, job } => {
                    let Some(&i) = index.get(&job) else { continue };
                    let request = requests[i];
                    let r = place.get(&job).copied().unwrap_or(0);
                    let resource = resources[usize::from(r)];
                    let estimate = resource.estimate(request.work).unwrap_or(request.work);
                    let mut milli: u64 = rng.random_range(800..=1000);
                    if resource.group == Group::Low {
                        milli = milli * owner_factor_milli(&mut rng, faults) / 1000;
                    }
                    let actual = (estimate * milli).div_ceil(1000).max(1);
                    let g = generation.entry(job).or_insert(0);
                    *g += 1;
                    heap.push(Reverse((t + actual, Next::Finish { job, generation: *g })));
                    let f = &mut fates[i];
                    f.first_start.get_or_insert(t);
                }
                Decision::End { t, job, .. } => {
                    open -= 1;
                    generation.remove(&job);
                    if let Some(f) = index.get(&job).and_then(|&i| fates.get_mut(i)) {
                        f.ended = Some(t);
                    }
                }
                Decision::Lost { job, .. } => {
                    // A pending finish of a lost job no longer matches.
                    *generation.entry(job).or_insert(0) += 1;
                }
                Decision::Violate { job, why, .. } => {
                    if let Some(f) = index.get(&job).and_then(|&i| fates.get_mut(i)) {
                        if f.tier.is_some_and(|t| t.has_deadline()) {
                            f.violated = true;
                        }
                        if why == kernel::tiers::Violation::Lost {
                            f.lost = true;
                            open -= 1;
                        }
                    }
                }
                Decision::Reject { .. } => {}
            }
        }
    }
    let close = Event::Advance { t: last_t + 1 };
    out.clear();
    kernel.step(close, &mut |d| out.push(d));
    observe(&close, &out);
    for d in &out {
        if let Decision::Violate { job, .. } = *d
            && let Some(f) = index.get(&job).and_then(|&i| fates.get_mut(i))
        {
            f.violated = true;
        }
    }
    Ok(RunOutput { fates, events: events + 1, decisions: decisions + out.len() as u64 })
}
