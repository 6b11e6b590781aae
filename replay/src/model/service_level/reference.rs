//! [`ServiceLevelReference`]: the admission rules restated over plain `Vec` queues.
//!
//! It is written to be read against the rules, not to be fast: every queue is a `Vec`
//! kept in deadline order, every test is a loop over it, and every sum of ticks is
//! taken in `u128`, where it cannot overflow, so there is no overflow handling to get
//! wrong (a sum past `Tick::MAX` is simply larger than every deadline).

use kernel::service_level::{Decision, Event, Level, MachineId, Outcome, Policy, RejectReason};
use kernel::{JobId, Tick};

/// A job admitted to a machine and not yet finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModelJob {
    pub job: JobId,
    /// The processing time asked for.
    pub p: Tick,
    /// Processing still owed; `remaining < p` once the job has run.
    pub remaining: Tick,
    pub deadline: Tick,
}

/// What the model says one event does: the kernel's outcome and decisions, exactly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelStep {
    pub outcome: Outcome,
    pub decisions: Vec<Decision>,
}

/// The reference simulator. Machines share one clock, `now`, the time of the last
/// event that was not refused.
#[derive(Clone, Debug)]
pub struct ServiceLevelReference {
    slack_milli: Vec<u32>,
    queue_capacity: usize,
    /// One queue per machine, in deadline order; equal deadlines in admission order.
    queues: Vec<Vec<ModelJob>>,
    now: Tick,
    policy: Policy,
    /// The machine that admitted the last job since the start or the last reset.
    last_admitting: Option<usize>,
}

impl ServiceLevelReference {
    /// A simulator at time zero with `machines` empty queues of `queue_capacity` jobs,
    /// under first fit.
    pub fn new(machines: u16, queue_capacity: usize, levels: &[Level]) -> Self {
        Self::with_policy(machines, queue_capacity, levels, Policy::FirstFit)
    }

    /// [`Self::new`] under `policy`.
    pub fn with_policy(machines: u16, queue_capacity: usize, levels: &[Level], policy: Policy) -> Self {
        Self {
            slack_milli: levels.iter().map(|l| l.slack_milli).collect(),
            queue_capacity,
            queues: vec![Vec::new(); usize::from(machines)],
            now: 0,
            policy,
            last_admitting: None,
        }
    }

    pub fn now(&self) -> Tick {
        self.now
    }

    /// The queue of `machine` as it stands after the last event.
    pub fn queue(&self, machine: usize) -> &[ModelJob] {
        self.queues.get(machine).map_or(&[], Vec::as_slice)
    }

    /// The queue of `machine` as it would stand at `t` (not before `now`) with no new
    /// job: what an admission test at `t` looks at.
    pub fn queue_at(&self, machine: usize, t: Tick) -> Vec<ModelJob> {
        let mut queue = self.queue(machine).to_vec();
        let id = MachineId::try_from(machine).unwrap_or(MachineId::MAX);
        run_queue(id, &mut queue, self.now, t, &mut Vec::new());
        queue
    }

    /// The deadline `r + ceil(sf * p / 1000)` of a job on `level`, or why there is none.
    pub fn deadline(&self, r: Tick, p: Tick, level: usize) -> Result<Tick, RejectReason> {
        let slack_milli = *self.slack_milli.get(level).ok_or(RejectReason::UnknownLevel)?;
        let slack_ticks = (u128::from(slack_milli) * u128::from(p)).div_ceil(1000);
        Tick::try_from(u128::from(r) + slack_ticks).map_err(|_| RejectReason::Overflow)
    }

    /// Applies one event and returns what the kernel must do for it.
    pub fn step(&mut self, event: &Event) -> ModelStep {
        let mut decisions = Vec::new();
        let outcome = match *event {
            Event::Submit { t, job, p, level } => self.submit(t, job, p, level, &mut decisions),
            Event::Advance { t } if t < self.now => Outcome::Refused(RejectReason::TimeWentBackwards),
            Event::Advance { t } => {
                self.advance(t, &mut decisions);
                Outcome::Advanced
            }
            Event::Reset => {
                self.queues.iter_mut().for_each(Vec::clear);
                self.now = 0;
                self.last_admitting = None;
                Outcome::Reset
            }
        };
        ModelStep { outcome, decisions }
    }

    fn advance(&mut self, t: Tick, out: &mut Vec<Decision>) {
        for (id, queue) in (0..).zip(self.queues.iter_mut()) {
            run_queue(id, queue, self.now, t, out);
        }
        self.now = t;
    }

    fn submit(&mut self, t: Tick, job: JobId, p: Tick, level: u8, out: &mut Vec<Decision>) -> Outcome {
        // A submit from the past cannot advance anything: it is refused as it stands.
        if t < self.now {
            return reject(job, RejectReason::TimeWentBackwards, out);
        }
        self.advance(t, out);
        if p == 0 {
            return reject(job, RejectReason::ZeroProcessingTime, out);
        }
        let deadline = match self.deadline(t, p, usize::from(level)) {
            Ok(deadline) => deadline,
            Err(reason) => return reject(job, reason, out),
        };
        let new = ModelJob { job, p, remaining: p, deadline };
        // Every machine that passes the test and has room, in index order.
        let mut feasible = Vec::new();
        let mut full_seen = false;
        for (machine, queue) in self.queues.iter().enumerate() {
            let Some(index) = admission_index(queue, t, &new) else { continue };
            if queue.len() >= self.queue_capacity {
                full_seen = true;
                continue;
            }
            feasible.push((machine, index));
        }
        let Some((machine, index)) = self.pick(&feasible, t, &new) else {
            let reason = if full_seen { RejectReason::QueueFull } else { RejectReason::NoFeasibleMachine };
            return reject(job, reason, out);
        };
        let id = MachineId::try_from(machine).unwrap_or(MachineId::MAX);
        if let Some(queue) = self.queues.get_mut(machine) {
            admit(id, queue, index, new, t, out);
        }
        self.last_admitting = Some(machine);
        Outcome::Accepted { machine: id }
    }

    /// The policy's choice among the feasible `(machine, index)` pairs (in index order).
    fn pick(&self, feasible: &[(usize, usize)], t: Tick, new: &ModelJob) -> Option<(usize, usize)> {
        let queue = |machine: usize| self.queue(machine);
        match self.policy {
            Policy::FirstFit => feasible.first().copied(),
            // The first feasible machine at or after the one after the last admitting
            // machine, else the first feasible one (wrapping).
            Policy::RoundRobin => {
                let from = self.last_admitting.map_or(0, |last| last + 1);
                feasible.iter().find(|(m, _)| *m >= from).or(feasible.first()).copied()
            }
            // `min_by_key` and `max_by_key` keep the first and the last of equal keys;
            // the negated key for the maximum keeps the first.
            Policy::BestFit => {
                feasible.iter().min_by_key(|(m, i)| slack_after(queue(*m), t, *i, new)).copied()
            }
            Policy::WorstFit => {
                feasible.iter().min_by_key(|(m, i)| -slack_after(queue(*m), t, *i, new)).copied()
            }
            Policy::LeastLoaded => feasible
                .iter()
                .min_by_key(|(m, _)| queue(*m).iter().map(|j| u128::from(j.remaining)).sum::<u128>())
                .copied(),
        }
    }
}

/// With `new` inserted at `index`, the least over the queue's jobs of deadline minus
/// finish time, the jobs running one after another from `t`.
fn slack_after(queue: &[ModelJob], t: Tick, index: usize, new: &ModelJob) -> i128 {
    let mut with_new = queue.to_vec();
    with_new.insert(index, *new);
    let mut finish = i128::from(t);
    let mut least = i128::MAX;
    for job in &with_new {
        finish += i128::from(job.remaining);
        least = least.min(i128::from(job.deadline) - finish);
    }
    least
}

/// Runs `queue` from `from` to `to`: the head runs; a head whose remaining work ends at
/// or before `to` completes there and the next head starts at that instant.
fn run_queue(id: MachineId, queue: &mut Vec<ModelJob>, from: Tick, to: Tick, out: &mut Vec<Decision>) {
    let mut clock = from;
    while let Some(head) = queue.first_mut() {
        let end = u128::from(clock) + u128::from(head.remaining);
        if end > u128::from(to) {
            head.remaining -= to - clock;
            return;
        }
        // `end <= to`, so it fits in a tick.
        clock = Tick::try_from(end).unwrap_or(Tick::MAX);
        let done = queue.remove(0);
        out.push(Decision::Complete { t: clock, job: done.job, machine: id });
        if let Some(next) = queue.first() {
            out.push(Decision::Start { t: clock, job: next.job, machine: id });
        }
    }
}

/// The Gupta–Palis test at `t`: where `new` goes in `queue` if the new job and every
/// job after it still meet their deadlines, or `None`.
fn admission_index(queue: &[ModelJob], t: Tick, new: &ModelJob) -> Option<usize> {
    // After every queued job whose deadline is <= the new one's.
    let index = queue.iter().rposition(|j| j.deadline <= new.deadline).map_or(0, |i| i + 1);
    let mut with_new = queue.to_vec();
    with_new.insert(index, *new);
    let mut finish = u128::from(t);
    for (position, job) in with_new.iter().enumerate() {
        finish += u128::from(job.remaining);
        if position >= index && finish > u128::from(job.deadline) {
            return None;
        }
    }
    Some(index)
}

/// Inserts `new` at `index` and emits the `Accept` and, when it takes the head, the
/// `Preempt` of the old head and the new job's `Start`.
fn admit(
    id: MachineId,
    queue: &mut Vec<ModelJob>,
    index: usize,
    new: ModelJob,
    t: Tick,
    out: &mut Vec<Decision>,
) {
    let displaced = if index == 0 { queue.first().copied() } else { None };
    // Only a head that has already run counts as an interruption.
    let preempted = displaced.filter(|d| d.remaining < d.p).map(|d| d.job);
    queue.insert(index, new);
    out.push(Decision::Accept { job: new.job, machine: id, deadline: new.deadline, preempted });
    if index == 0 {
        if let Some(old) = displaced {
            out.push(Decision::Preempt { t, job: old.job, machine: id });
        }
        out.push(Decision::Start { t, job: new.job, machine: id });
    }
}

fn reject(job: JobId, reason: RejectReason, out: &mut Vec<Decision>) -> Outcome {
    out.push(Decision::Reject { job, reason });
    Outcome::Rejected(reason)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn submit(t: Tick, job: JobId, p: Tick) -> Event {
        Event::Submit { t, job, p, level: 0 }
    }

    #[test]
    fn earlier_deadline_preempts_and_late_job_is_rejected() {
        let mut sim = ServiceLevelReference::new(1, 8, &[Level::whole(2, 1)]);
        let first = sim.step(&submit(0, 1, 4));
        assert_eq!(first.outcome, Outcome::Accepted { machine: 0 });
        // At 1, job 1 has 3 left (deadline 8); job 2 (p 1, deadline 3) goes first.
        let second = sim.step(&submit(1, 2, 1));
        assert_eq!(
            second.decisions,
            vec![
                Decision::Accept { job: 2, machine: 0, deadline: 3, preempted: Some(1) },
                Decision::Preempt { t: 1, job: 1, machine: 0 },
                Decision::Start { t: 1, job: 2, machine: 0 },
            ]
        );
        // Job 3 (p 3, deadline 7) goes between jobs 2 and 1: finishes at 5, job 1 at 8.
        assert_eq!(sim.step(&submit(1, 3, 3)).outcome, Outcome::Accepted { machine: 0 });
        // Job 4 (p 1, deadline 3) would itself finish at 3, but push job 1 to 9 > 8.
        let fourth = sim.step(&submit(1, 4, 1));
        assert_eq!(fourth.outcome, Outcome::Rejected(RejectReason::NoFeasibleMachine));
        let drain = sim.step(&Event::Advance { t: Tick::MAX });
        assert_eq!(
            drain.decisions,
            vec![
                Decision::Complete { t: 2, job: 2, machine: 0 },
                Decision::Start { t: 2, job: 3, machine: 0 },
                Decision::Complete { t: 5, job: 3, machine: 0 },
                Decision::Start { t: 5, job: 1, machine: 0 },
                Decision::Complete { t: 8, job: 1, machine: 0 },
            ]
        );
    }

    #[test]
    fn full_queue_passes_the_job_on_and_reports_queue_full() {
        let mut sim = ServiceLevelReference::new(2, 1, &[Level::whole(10, 1)]);
        assert_eq!(sim.step(&submit(0, 1, 1)).outcome, Outcome::Accepted { machine: 0 });
        assert_eq!(sim.step(&submit(0, 2, 1)).outcome, Outcome::Accepted { machine: 1 });
        assert_eq!(sim.step(&submit(0, 3, 1)).outcome, Outcome::Rejected(RejectReason::QueueFull));
    }

    #[test]
    fn refusals_and_reasons() {
        let mut sim = ServiceLevelReference::new(1, 4, &[Level { slack_milli: 1500, price_per_tick: 1 }]);
        assert_eq!(sim.step(&Event::Advance { t: 5 }).outcome, Outcome::Advanced);
        let back = sim.step(&Event::Advance { t: 4 });
        assert_eq!(
            back,
            ModelStep { outcome: Outcome::Refused(RejectReason::TimeWentBackwards), decisions: vec![] }
        );
        let reason = |step: ModelStep| step.outcome;
        assert_eq!(reason(sim.step(&submit(4, 1, 1))), Outcome::Rejected(RejectReason::TimeWentBackwards));
        assert_eq!(reason(sim.step(&submit(5, 2, 0))), Outcome::Rejected(RejectReason::ZeroProcessingTime));
        let unknown = Event::Submit { t: 5, job: 3, p: 1, level: 1 };
        assert_eq!(reason(sim.step(&unknown)), Outcome::Rejected(RejectReason::UnknownLevel));
        assert_eq!(reason(sim.step(&submit(5, 4, Tick::MAX - 1))), Outcome::Rejected(RejectReason::Overflow));
        // 1.5 * 3 = 4.5 rounds up to 5.
        assert_eq!(sim.deadline(5, 3, 0), Ok(10));
    }
}
