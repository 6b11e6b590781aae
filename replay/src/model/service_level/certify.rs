//! [`audit_schedule`]: an offline schedule (each job's machine, or none) replayed as the
//! events and decisions a kernel would have logged for it, through
//! [`ServiceLevelAudit`]. The audit knows nothing of how the schedule was found; it
//! checks only that the schedule keeps its promises (every accepted job runs from its
//! release, one job at a time per machine, never idle with work, its work adding up to
//! `p` by its deadline). So an optimum's schedule that passes is feasible by a check
//! independent of the solver, and the income it returns is the one the schedule earns.
//!
//! Each machine runs its jobs by preemptive EDF (ties by the job's index), which meets
//! every deadline of a set whenever any schedule of that set on one machine does.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use kernel::service_level::{Decision, Event, MachineId, RejectReason};
use kernel::{JobId, Tick};

use super::audit::{ServiceLevelAudit, ServiceLevelViolation};
use super::optimum::OfflineJob;

/// The income `placed` earns on `jobs` (`placed[j]`: the machine of job `j`, or `None`
/// for a rejected job, as is a job past its end), once its replay on `machines`
/// machines passes the audit; the audit's violation otherwise. Job `j` is logged as
/// job identifier `j` (past `u32::MAX` jobs the identifiers repeat, and the audit
/// refuses the schedule).
pub fn audit_schedule(
    jobs: &[OfflineJob],
    machines: u16,
    placed: &[Option<MachineId>],
) -> Result<u128, ServiceLevelViolation> {
    let placed = |j: usize| placed.get(j).copied().flatten();
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    order.sort_by_key(|&j| (jobs[j].release, j));
    let mut replay = Replay {
        jobs,
        edf: vec![Edf::default(); usize::from(machines)],
        audit: ServiceLevelAudit::new(machines),
        decisions: Vec::new(),
    };
    let mut income = 0u128;
    for &j in &order {
        let (job, t) = (id(j), jobs[j].release);
        replay.run_until(t);
        let verdict = match placed(j) {
            Some(machine) => {
                let deadline = jobs[j].deadline;
                Decision::Accept { job, machine, deadline, preempted: None }
            }
            None => Decision::Reject { job, reason: RejectReason::NoFeasibleMachine },
        };
        replay.decisions.push(verdict);
        if let Some(machine) = placed(j) {
            replay.admit(machine, j, t);
            income += u128::from(jobs[j].income);
        }
        replay.step(Event::Submit { t, job, p: jobs[j].p, level: 0 })?;
    }
    replay.run_until(Tick::MAX);
    replay.step(Event::Advance { t: Tick::MAX })?;
    replay.audit.finish()?;
    Ok(income)
}

/// Job `j`'s identifier in the replay (the caller checked that every index fits).
fn id(j: usize) -> JobId {
    JobId::try_from(j).unwrap_or(JobId::MAX)
}

/// One machine under preemptive EDF.
#[derive(Clone, Debug, Default)]
struct Edf {
    /// The running job: `(deadline, index, since, work left when it started)`.
    running: Option<(Tick, usize, Tick, Tick)>,
    /// Waiting jobs by `(deadline, index)`, with the work each has left.
    waiting: BinaryHeap<Reverse<(Tick, usize, Tick)>>,
}

struct Replay<'a> {
    jobs: &'a [OfflineJob],
    edf: Vec<Edf>,
    audit: ServiceLevelAudit,
    /// The decisions of the event being built.
    decisions: Vec<Decision>,
}

impl Replay<'_> {
    /// Runs every machine up to `t`: each completion by then, and the next job's start.
    fn run_until(&mut self, t: Tick) {
        for (machine, edf) in (0..).zip(self.edf.iter_mut()) {
            while let Some((_, j, since, left)) = edf.running {
                let done = since.saturating_add(left);
                if done > t {
                    break;
                }
                self.decisions.push(Decision::Complete { t: done, job: id(j), machine });
                edf.running = None;
                if let Some(Reverse((deadline, next, work))) = edf.waiting.pop() {
                    self.decisions.push(Decision::Start { t: done, job: id(next), machine });
                    edf.running = Some((deadline, next, done, work));
                }
            }
        }
    }

    /// Job `j`, accepted at `t` on `machine`: started there when it is idle or when `j`
    /// is due before the running job (which is preempted), queued otherwise.
    fn admit(&mut self, machine: MachineId, j: usize, t: Tick) {
        let Some(edf) = self.edf.get_mut(usize::from(machine)) else { return };
        let job = &self.jobs[j];
        match edf.running {
            Some((deadline, k, since, left)) if (job.deadline, j) < (deadline, k) => {
                self.decisions.push(Decision::Preempt { t, job: id(k), machine });
                edf.waiting.push(Reverse((deadline, k, left - (t - since))));
            }
            Some(_) => {
                edf.waiting.push(Reverse((job.deadline, j, job.p)));
                return;
            }
            None => {}
        }
        self.decisions.push(Decision::Start { t, job: id(j), machine });
        edf.running = Some((job.deadline, j, t, job.p));
    }

    /// Hands `event` and the decisions built for it to the audit.
    fn step(&mut self, event: Event) -> Result<(), ServiceLevelViolation> {
        let result = self.audit.step(&event, &self.decisions);
        self.decisions.clear();
        result
    }
}

#[cfg(test)]
mod tests {
    use super::super::audit::Violation;
    use super::*;

    fn job(release: Tick, p: Tick, deadline: Tick, income: u64) -> OfflineJob {
        OfflineJob { release, p, deadline, income }
    }

    #[test]
    fn a_feasible_schedule_earns_its_income() {
        // Job 1 preempts job 0 (due earlier), both meet their deadlines; job 2 waits
        // on machine 1 behind job 3; job 4 is rejected.
        let jobs = [job(0, 4, 10, 40), job(1, 2, 4, 20), job(0, 3, 9, 30), job(0, 2, 3, 20), job(2, 9, 11, 90)];
        let placed = [Some(0), Some(0), Some(1), Some(1), None];
        assert_eq!(audit_schedule(&jobs, 2, &placed), Ok(110));
    }

    #[test]
    fn an_infeasible_schedule_is_refused() {
        // Both jobs on one machine need 8 ticks before tick 6.
        let jobs = [job(0, 4, 6, 40), job(0, 4, 6, 40)];
        let found = audit_schedule(&jobs, 1, &[Some(0), Some(0)]).map_err(|e| e.violation);
        assert!(matches!(found, Err(Violation::DeadlineMissed { .. })), "{found:?}");
        assert_eq!(audit_schedule(&jobs, 2, &[Some(0), Some(1)]), Ok(80));
    }

    #[test]
    fn a_machine_out_of_range_is_refused() {
        let jobs = [job(0, 1, 5, 10)];
        let found = audit_schedule(&jobs, 1, &[Some(3)]).map_err(|e| e.violation);
        assert_eq!(found, Err(Violation::UnknownMachine(3)));
    }

    #[test]
    fn the_replay_agrees_with_brute_force_on_small_instances() {
        // Every subset on one machine: the audit passes exactly when EDF feasibility
        // says the subset fits.
        let jobs = [job(0, 3, 5, 3), job(1, 2, 4, 2), job(2, 2, 7, 2), job(4, 3, 9, 3), job(3, 1, 5, 1)];
        let mut fitting = 0;
        for mask in 0u32..32 {
            let placed: Vec<Option<MachineId>> = (0..5).map(|j| (mask >> j & 1 == 1).then_some(0)).collect();
            let set: Vec<(Tick, Tick, Tick)> =
                (0..5).filter(|j| mask >> j & 1 == 1).map(|j| (jobs[j].release, jobs[j].p, jobs[j].deadline)).collect();
            let fits = super::super::feasibility::edf_meets_deadlines(&set);
            assert_eq!(audit_schedule(&jobs, 1, &placed).is_ok(), fits, "subset {mask:05b}");
            fitting += usize::from(fits);
        }
        // Both answers occur.
        assert!(fitting > 1 && fitting < 32, "{fitting} subsets fit");
    }
}
