//! A schedule on several machines from a set of jobs the machines can run pooled (with
//! migration): the set that the pooled integer model of [`super::search`] accepts.
//!
//! Such a set is often nearly the optimum without migration too, but the solvers that
//! keep each job on one machine rarely find it from the greedy schedule: they keep what
//! the greedy run accepted and fill around it, and a week of KTH on four machines
//! stayed 5 % below the pooled optimum. Packing the set instead starts from the jobs
//! that earn the most together:
//!
//! 1. each job of the set in turn goes to a machine whose jobs stay EDF-feasible with
//!    it, in six orders (by deadline, by release, longest first, least slack first, and
//!    the jobs without slack first, each part by release or by deadline: those jobs
//!    are fixed intervals, and placed by release they fit wherever no more of them
//!    overlap than there are machines), on the first such machine or on the one with
//!    the least work overlapping the job's window or expected inside it ([`Choice`]):
//!    eighteen packings;
//! 2. they are improved, the best first, while the time allows ([`improve`]) over the
//!    set alone (a job left out may take the place of cheaper ones), then over every
//!    job, then by ejection chains ([`chains`]: the jobs a job displaces move to other
//!    machines, displacing cheaper ones there in turn);
//! 3. the best result is the schedule.
//!
//! Past its time, it makes no further packing or improvement (the first of each is
//! always made). Every schedule it returns is checked by exact EDF per machine, in
//! integers.

use std::cmp::Reverse;
use std::time::Instant;

use replay::model::service_level::OfflineJob;

use super::exact::{edf_feasible, income};
use super::improve::{by_machine, dearest_first, improve, insert};

/// EDF runs the ejection chains may make, per job of the cluster.
const CHAIN_RUNS_PER_JOB: usize = 400;

/// A chain may eject jobs earning up to this many times the income of the job it
/// inserts: the ejected ones go to other machines where they can.
const CHAIN_REACH: u64 = 4;

/// An order of the jobs to pack, as a sort key.
type Key = fn(&OfflineJob) -> (u64, u64);

/// Which of the machines a job fits on a packing gives it.
#[derive(Clone, Copy, Debug)]
enum Choice {
    /// The first, in index order.
    First,
    /// The one with the least work of jobs whose windows overlap the job's.
    LeastWork,
    /// The one with the least work expected inside the job's window, each job's work
    /// spread evenly over its own window.
    LeastExpected,
}

/// The jobs of `set` (indices into `jobs`) packed onto `machines` machines and
/// improved with the other jobs as described above, within `seconds`: each job's
/// machine, or `None`.
pub fn pack(jobs: &[OfflineJob], machines: usize, set: &[usize], seconds: f64) -> Vec<Option<u16>> {
    let started = Instant::now();
    let over = || started.elapsed().as_secs_f64() >= seconds;
    let keys: [Key; 6] = [
        |j| (j.deadline, j.release),
        |j| (j.release, j.deadline),
        |j| (u64::MAX - j.p, j.deadline),
        |j| (j.deadline - j.release - j.p, j.deadline),
        |j| (u64::from(j.deadline - j.release > j.p), j.release),
        |j| (u64::from(j.deadline - j.release > j.p), j.deadline),
    ];
    let mut packings: Vec<(u128, Vec<Option<u16>>)> = Vec::new();
    for key in keys {
        let mut order = set.to_vec();
        order.sort_by_key(|&j| (key(&jobs[j]), j));
        for choice in [Choice::First, Choice::LeastWork, Choice::LeastExpected] {
            if !packings.is_empty() && over() {
                break;
            }
            let placed = packed(jobs, machines, &order, choice);
            packings.push((income(jobs, &placed), placed));
        }
    }
    // The best first; a stable sort keeps ties in the order above.
    packings.sort_by_key(|(earned, _)| Reverse(*earned));
    let sub: Vec<OfflineJob> = set.iter().map(|&j| jobs[j]).collect();
    let mut best: (u128, Vec<Option<u16>>) = (0, vec![None; jobs.len()]);
    for (tried, (_, placed)) in packings.into_iter().enumerate() {
        if tried > 0 && over() {
            break;
        }
        // Improved over the set alone (its jobs, their machines as packed), then with
        // every job.
        let start: Vec<Option<u16>> = set.iter().map(|&j| placed[j]).collect();
        let mut whole = vec![None; jobs.len()];
        for (&j, machine) in set.iter().zip(improve(&sub, machines, &start)) {
            whole[j] = machine;
        }
        let done = chains(jobs, machines, &improve(jobs, machines, &whole));
        let earned = income(jobs, &done);
        if earned > best.0 {
            best = (earned, done);
        }
    }
    best.1
}

/// Each job of `order` in turn on a machine whose jobs stay EDF-feasible with it, as
/// `choice` picks among them, or on none.
fn packed(jobs: &[OfflineJob], machines: usize, order: &[usize], choice: Choice) -> Vec<Option<u16>> {
    let mut on: Vec<Vec<OfflineJob>> = vec![Vec::new(); machines];
    let mut placed = vec![None; jobs.len()];
    for &j in order {
        let job = jobs[j];
        let mut tried: Vec<usize> = (0..machines).collect();
        if !matches!(choice, Choice::First) {
            tried.sort_by_key(|&m| (load(&on[m], job, choice), m));
        }
        for machine in tried {
            let set = &mut on[machine];
            set.push(job);
            if edf_feasible(set) {
                placed[j] = u16::try_from(machine).ok();
                break;
            }
            set.pop();
        }
    }
    placed
}

/// A machine's load in `job`'s window as `choice` measures it, in units of 2^-32 ticks.
fn load(set: &[OfflineJob], job: OfflineJob, choice: Choice) -> u128 {
    let overlapping = set.iter().filter(|k| k.deadline > job.release && k.release < job.deadline);
    overlapping
        .map(|k| {
            let work = u128::from(k.p) << 32;
            if matches!(choice, Choice::LeastExpected) {
                let overlap = k.deadline.min(job.deadline) - k.release.max(job.release);
                work * u128::from(overlap) / u128::from((k.deadline - k.release).max(1))
            } else {
                work
            }
        })
        .sum()
}

/// The schedule `placed` of `jobs` on `machines` machines improved by ejection chains:
/// a job left out takes the place of the cheapest jobs in its way on one machine (as
/// in [`improve`], but those may earn more than it), and each of them moves to another
/// machine, displacing cheaper jobs there in turn if it must; the best such chain over
/// the machines is made when the income rises. Passes repeat while one improves,
/// within a budget of EDF runs.
pub fn chains(jobs: &[OfflineJob], machines: usize, placed: &[Option<u16>]) -> Vec<Option<u16>> {
    let mut on = by_machine(placed, machines);
    let mut placed = placed.to_vec();
    let mut budget = CHAIN_RUNS_PER_JOB.saturating_mul(jobs.len().max(1));
    let order = dearest_first(jobs);
    loop {
        let mut improved = false;
        for &j in &order {
            if placed[j].is_some() || budget == 0 {
                continue;
            }
            let best = (0..machines)
                .filter_map(|m| chain(jobs, &on, (m, j), &mut budget))
                .max_by_key(|c| (c.gain, Reverse(c.machine)));
            let Some(best) = best else { continue };
            on[best.machine].retain(|k| !best.ejected.contains(k));
            on[best.machine].push(j);
            placed[j] = u16::try_from(best.machine).ok();
            for &k in &best.ejected {
                placed[k] = None;
            }
            for (k, to, displaced) in &best.moved {
                on[*to].retain(|x| !displaced.contains(x));
                on[*to].push(*k);
                placed[*k] = u16::try_from(*to).ok();
                for &x in displaced {
                    placed[x] = None;
                }
            }
            improved = true;
        }
        if !improved || budget == 0 {
            return placed;
        }
    }
}

/// One ejection chain: `j` onto `machine`, the jobs `ejected` from it, of which
/// `moved` went on to other machines (each as `(job, machine, the jobs it displaced
/// there)`), for a rise in income of `gain`.
struct Chain {
    machine: usize,
    ejected: Vec<usize>,
    moved: Vec<(usize, usize, Vec<usize>)>,
    gain: u64,
}

/// The chain that inserts `j` on `machine` (as `(machine, j)`), when it raises the
/// income: each job it ejects, dearest first, goes to the other machine where the
/// jobs it displaces in turn (as [`insert`] picks them, cheaper than it) earn least.
fn chain(jobs: &[OfflineJob], on: &[Vec<usize>], (machine, j): (usize, usize), budget: &mut usize) -> Option<Chain> {
    let limit = jobs[j].income.saturating_mul(CHAIN_REACH);
    let (mut ejected, lost) = insert(jobs, &on[machine], j, limit, budget)?;
    ejected.sort_by_key(|&k| (Reverse(jobs[k].income), k));
    let mut others: Vec<Vec<usize>> = on.to_vec();
    let mut moved = Vec::new();
    let mut back = 0u64;
    for &k in &ejected {
        let best = (0..others.len())
            .filter(|&to| to != machine)
            .filter_map(|to| insert(jobs, &others[to], k, jobs[k].income, budget).map(|out| (to, out)))
            .min_by_key(|(to, (_, cost))| (*cost, *to));
        let Some((to, (displaced, cost))) = best else { continue };
        others[to].retain(|x| !displaced.contains(x));
        others[to].push(k);
        back += jobs[k].income - cost;
        moved.push((k, to, displaced));
    }
    let gain = (jobs[j].income + back).checked_sub(lost).filter(|&g| g > 0)?;
    Some(Chain { machine, ejected, moved, gain })
}

#[cfg(test)]
mod tests {
    use super::super::improve::every_machine_feasible;
    use super::*;

    /// Jobs from a small deterministic walk: releases in `0..60`, work `1..=12`, slack
    /// factor 2 (a few without slack), income the work times a price of 1 or 3.
    fn instance(seed: u64, n: usize) -> Vec<OfflineJob> {
        let mut x = seed;
        (0..n)
            .map(|_| {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let (release, p) = ((x >> 33) % 60, 1 + (x >> 45) % 12);
                let window = if (x >> 20).is_multiple_of(5) { p } else { 2 * p };
                OfflineJob { release, p, deadline: release + window, income: p * (1 + 2 * ((x >> 10) % 2)) }
            })
            .collect()
    }

    #[test]
    fn a_packing_keeps_every_machine_feasible_and_beats_each_plain_one() {
        for seed in 0..40u64 {
            let jobs = instance(seed, 30);
            let machines = 2 + (seed % 3) as usize;
            // Every other set leaves out every third job, as a pooled model's would.
            let set: Vec<usize> = (0..jobs.len()).filter(|j| seed % 2 == 0 || j % 3 != 0).collect();
            let placed = pack(&jobs, machines, &set, 60.0);
            assert!(every_machine_feasible(&jobs, &placed, machines), "seed {seed}");
            let mut order = set.clone();
            order.sort_by_key(|&j| (jobs[j].deadline, jobs[j].release, j));
            for choice in [Choice::First, Choice::LeastWork, Choice::LeastExpected] {
                let plain = packed(&jobs, machines, &order, choice);
                assert!(every_machine_feasible(&jobs, &plain, machines), "seed {seed}, {choice:?}");
                assert!(income(&jobs, &placed) >= income(&jobs, &plain), "seed {seed}, {choice:?}");
            }
        }
    }

    #[test]
    fn a_chain_moves_the_jobs_in_the_way_to_another_machine() {
        // Machine 0 holds two small jobs over [0, 4]; machine 1 has room for one of
        // them. The long job left out (income 8) needs all of machine 0: the chain moves
        // one small job to machine 1 and drops the other (income 2), a rise of 6.
        let small = OfflineJob { release: 0, p: 2, deadline: 4, income: 2 };
        let long = OfflineJob { release: 0, p: 4, deadline: 4, income: 8 };
        let other = OfflineJob { release: 0, p: 2, deadline: 4, income: 2 };
        let jobs = [small, small, long, other];
        let placed = chains(&jobs, 2, &[Some(0), Some(0), None, Some(1)]);
        assert_eq!(income(&jobs, &placed), 12);
        assert_eq!(placed[2], Some(0));
        assert!(every_machine_feasible(&jobs, &placed, 2));
    }
}
