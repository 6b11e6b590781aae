//! A plain reference of the tiers kernel under `no-qos` and `qos` (no Algorithm 1):
//! the rules of `kernel::tiers` restated over `Vec`s, with the free nodes of a slot
//! counted from the jobs that cover it instead of kept in a calendar. It produces the
//! full decision stream the kernel must produce for the same events.

use kernel::JobId;
use kernel::Tick;
use kernel::tiers::{
    Config, Decision, Event, Group, Policy, RejectReason, Request, Resource, Tier, Violation,
};

#[derive(Clone, Debug)]
struct Job {
    job: JobId,
    seq: u64,
    tier: Tier,
    work: Tick,
    ready: Tick,
    deadline: Tick,
    resource: usize,
    start: Tick,
    first: u64,
    slots: u64,
    running: bool,
    violated: bool,
}

/// The reference. `horizon` is the kernel's `H`, `table` its `J`.
#[derive(Clone, Debug)]
pub struct TiersReference {
    config: Config,
    resources: Vec<Resource>,
    horizon: u64,
    table: usize,
    jobs: Vec<Job>,
    available: Vec<bool>,
    running: Vec<u32>,
    now: Tick,
    seq: u64,
}

fn estimate(r: &Resource, work: Tick) -> Tick {
    (work * 1000).div_ceil(u64::from(r.speed_milli))
}

impl TiersReference {
    /// `None` under `qos-res`, which this reference does not cover.
    pub fn new(config: Config, resources: &[Resource], horizon: u64, table: usize) -> Option<Self> {
        if config.policy == Policy::QosRes {
            return None;
        }
        Some(Self {
            config,
            resources: resources.to_vec(),
            horizon,
            table,
            jobs: Vec::new(),
            available: vec![true; resources.len()],
            running: vec![0; resources.len()],
            now: 0,
            seq: 0,
        })
    }

    /// The decisions for `event`, in order.
    pub fn step(&mut self, event: Event) -> Vec<Decision> {
        let mut out = Vec::new();
        if let Some(t) = event.time()
            && t < self.now
        {
            if let Event::Submit(r) = event {
                out.push(Decision::Reject { job: r.job, reason: RejectReason::TimeWentBackwards });
            }
            return out;
        }
        match event {
            Event::Submit(r) => self.submit(r, &mut out),
            Event::Advance { t } => self.advance(t, &mut out),
            Event::Finish { t, job } => {
                self.advance(t, &mut out);
                if let Some(i) = self.jobs.iter().position(|j| j.job == job && j.running) {
                    let j = self.jobs.remove(i);
                    self.running[j.resource] -= 1;
                    let late = j.tier != Tier::Bronze && t > j.deadline;
                    out.push(Decision::End { t, job, late });
                    self.starts(t, &mut out);
                }
            }
            Event::Leave { t, resource } => self.leave(t, usize::from(resource), &mut out),
            Event::Return { t, resource } => {
                let r = usize::from(resource);
                if r < self.resources.len() && !self.available[r] {
                    self.advance(t, &mut out);
                    self.available[r] = true;
                    self.starts(t, &mut out);
                }
            }
            Event::Reset => {
                let (config, resources) = (self.config, self.resources.clone());
                *self = Self::new(config, &resources, self.horizon, self.table).expect("same policy");
            }
        }
        out
    }

    fn submit(&mut self, r: Request, out: &mut Vec<Decision>) {
        self.advance(r.t, out);
        let reject = |reason, out: &mut Vec<Decision>| out.push(Decision::Reject { job: r.job, reason });
        if r.work == 0 {
            return reject(RejectReason::BadRequest, out);
        }
        let (ready, deadline) = if r.tier == Tier::Bronze {
            (r.t, r.t + self.config.bronze_deadline)
        } else {
            (r.ready, r.deadline)
        };
        if deadline < ready {
            return reject(RejectReason::BadRequest, out);
        }
        if deadline <= ready.max(self.now) {
            return reject(RejectReason::WindowPassed, out);
        }
        if self.jobs.iter().any(|j| j.job == r.job) {
            return reject(RejectReason::DuplicateJob, out);
        }
        if self.jobs.len() == self.table {
            return reject(RejectReason::TableFull, out);
        }
        let groups: Vec<Option<Group>> = if self.config.policy == Policy::NoQos {
            vec![None]
        } else {
            match r.tier {
                Tier::Gold => vec![Some(Group::High)],
                Tier::Silver => vec![Some(Group::High), Some(Group::Low)],
                Tier::Bronze => vec![Some(Group::Low)],
            }
        };
        let Some((resource, start, first, slots)) = self.place(r.work, ready, deadline, &groups) else {
            return reject(RejectReason::NoRoom, out);
        };
        self.jobs.push(Job {
            job: r.job,
            seq: self.seq,
            tier: r.tier,
            work: r.work,
            ready,
            deadline,
            resource,
            start,
            first,
            slots,
            running: false,
            violated: false,
        });
        self.seq += 1;
        out.push(Decision::Accept { job: r.job, resource: resource as u8, start });
        self.starts(self.now, out);
    }

    /// Earliest slot-aligned start; groups in order; ties to the lowest index.
    fn place(
        &self,
        work: Tick,
        ready: Tick,
        deadline: Tick,
        groups: &[Option<Group>],
    ) -> Option<(usize, Tick, u64, u64)> {
        let len = self.config.slot_ticks;
        let base = self.now / len;
        for group in groups {
            let mut best: Option<(usize, Tick, u64, u64)> = None;
            for (i, res) in self.resources.iter().enumerate() {
                if group.is_some_and(|g| g != res.group) || !self.available[i] {
                    continue;
                }
                let est = estimate(res, work);
                if est > deadline {
                    continue;
                }
                let n = est.div_ceil(len);
                let first = ready.max(self.now).div_ceil(len);
                let last = (deadline - est) / len;
                let found = (first..=last).find(|&a| {
                    a + n <= base + self.horizon && (a..a + n).all(|s| self.covering(i, s) < res.nodes)
                });
                if let Some(a) = found
                    && best.is_none_or(|b| a * len < b.1)
                {
                    best = Some((i, a * len, a, n));
                }
            }
            if best.is_some() {
                return best;
            }
        }
        None
    }

    fn covering(&self, r: usize, slot: u64) -> u32 {
        self.jobs.iter().filter(|j| j.resource == r && j.first <= slot && slot < j.first + j.slots).count()
            as u32
    }

    fn advance(&mut self, t: Tick, out: &mut Vec<Decision>) {
        self.starts(t, out);
        let mut late: Vec<usize> = (0..self.jobs.len())
            .filter(|&i| {
                let j = &self.jobs[i];
                j.tier != Tier::Bronze && !j.violated && j.deadline < t
            })
            .collect();
        late.sort_by_key(|&i| (self.jobs[i].deadline, self.jobs[i].seq));
        for i in late {
            self.jobs[i].violated = true;
            out.push(Decision::Violate {
                t: self.jobs[i].deadline,
                job: self.jobs[i].job,
                why: Violation::Late,
            });
        }
        self.now = t;
    }

    fn starts(&mut self, t: Tick, out: &mut Vec<Decision>) {
        loop {
            let due = (0..self.jobs.len())
                .filter(|&i| {
                    let j = &self.jobs[i];
                    !j.running
                        && j.start <= t
                        && self.available[j.resource]
                        && self.running[j.resource] < self.resources[j.resource].nodes
                })
                .min_by_key(|&i| (self.jobs[i].start, self.jobs[i].seq));
            let Some(i) = due else { return };
            let now = self.now;
            let j = &mut self.jobs[i];
            j.running = true;
            j.start = j.start.max(now);
            self.running[j.resource] += 1;
            out.push(Decision::Start { t: j.start, job: j.job });
        }
    }

    fn leave(&mut self, t: Tick, r: usize, out: &mut Vec<Decision>) {
        if r >= self.resources.len() || self.resources[r].group == Group::High || !self.available[r] {
            return;
        }
        self.advance(t, out);
        self.available[r] = false;
        self.running[r] = 0;
        while let Some(i) = self.jobs.iter().position(|j| j.resource == r) {
            let old = self.jobs.remove(i);
            out.push(Decision::Lost { t, job: old.job, running: old.running });
            let groups =
                if self.config.policy == Policy::NoQos { vec![None] } else { vec![Some(Group::Low)] };
            let found = if old.tier == Tier::Bronze {
                self.place(old.work, old.ready, old.deadline, &groups)
            } else {
                None
            };
            match found {
                Some((resource, start, first, slots)) => {
                    out.push(Decision::Replace { job: old.job, resource: resource as u8, start });
                    self.jobs.insert(i, Job { resource, start, first, slots, running: false, ..old });
                }
                None => out.push(Decision::Violate { t, job: old.job, why: Violation::Lost }),
            }
        }
        self.starts(t, out);
    }
}
