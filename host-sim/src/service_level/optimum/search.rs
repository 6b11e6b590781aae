//! One cluster's `V*`, found in steps that each may close it:
//!
//! 1. the known schedule (the greedy run's) improved by [`super::improve`];
//! 2. the model's linear relaxation ([`milp::run`] relaxed): its optimum, floored, is an
//!    upper bound, and it closes the cluster when the schedule already earns it. On
//!    several machines it is the relaxation of the machines pooled into one with
//!    migration ([`Shape::pooled`]), which bounds every schedule without migration as
//!    the model's own relaxation does (whose jobs may also run on several machines, a
//!    share on each), from a model a machine's size;
//! 3. on several machines, while the cluster is open: the pooled model with each job
//!    accepted whole, within a quarter of the time. Its dual bound bounds every
//!    schedule without migration too, and the jobs it accepts, packed onto the machines
//!    by [`pack`], are a schedule. Then a schedule is built machine by machine: each
//!    machine the one-machine optimum of the jobs the machines before it left, within a
//!    quarter of the time left (all of it where the whole model is too large to build,
//!    and step 6 does not run);
//! 4. a neighbourhood of the schedule: the model over the jobs that the schedule or the
//!    relaxation take at all, those both take whole forced in. It is small (most jobs of
//!    an overloaded cluster are rejected by both), and its optimum is often the
//!    cluster's: then step 2's bound proves it without the whole model. It is skipped
//!    when more than half of the jobs would be free in it (on several machines, every
//!    job it keeps is: its machine is free);
//! 5. on several machines, while the cluster is open and the whole model will not
//!    run: the schedule improved a slice of jobs at a time around the others' runs
//!    ([`super::slices`]), with the time left;
//! 6. the whole model, from the best schedule so far, with the time left.
//!
//! Each step's schedule is checked by exact EDF per machine; each bound is the solver's
//! (the relaxation's optimum or the MIP's dual bound), floored after a margin of
//! `1e-3 + 1e-9 |bound|` for its tolerances. The result names the bound that closed the
//! cluster ([`Proof`]) and keeps the best schedule, which the caller audits.

use std::time::Instant;

use replay::model::service_level::OfflineJob;

use super::exact::{Bracket, Proof, Scheduled, income};
use super::improve::improve;
use super::milp::{self, MilpError, Shape};
use super::pack::pack;
use super::plan::{MAX_COLUMNS, columns};
use super::slices::by_slices;
use super::{Budget, Method, Solved};

/// A job's relaxed share at or below this is taken as rejected, at or above
/// `1 - SHARE_EPSILON` as accepted whole.
const SHARE_EPSILON: f64 = 1e-6;

/// The seconds per column that the first relaxation of a whole model on several
/// machines is given at least: HiGHS took 84 s over one of 256,738 columns (an HPC2N
/// week at k = 3 on 4 machines) when 15 s were left.
const ROOT_SECONDS_PER_COLUMN: f64 = 400e-6;

/// The optimum of `jobs` (one cluster, every job able to fit alone) on `machines`
/// machines, within `seconds`; `placed` is a known schedule (the greedy run's) and
/// `floor` its income, which the result never falls below.
pub fn solve(
    jobs: &[OfflineJob],
    machines: usize,
    budget: Budget,
    placed: &[Option<u16>],
    floor: u128,
) -> Result<Solved, MilpError> {
    let Budget { seconds, method } = budget;
    let total: u128 = jobs.iter().map(|j| u128::from(j.income)).sum();
    // On several machines the steps' models are a machine's size (the relaxation pooled,
    // the schedules machine by machine): they run where the whole model is too large.
    let whole_fits = columns(jobs, machines) <= MAX_COLUMNS;
    let steps_fit = method == Method::Steps && columns(jobs, 1) <= MAX_COLUMNS;
    if !whole_fits && !steps_fit {
        let bracket = Bracket { best: floor, upper: total };
        return Ok(Solved { bracket, schedule: placed.to_vec(), proof: Proof::Open });
    }
    let started = Instant::now();
    let left = || seconds - started.elapsed().as_secs_f64();
    // Incomes divided by their common divisor (the price, with one level): the same
    // optimum, with smaller costs for the solver.
    let unit = jobs.iter().fold(0u64, |g, j| gcd(g, j.income)).max(1);
    let scaled = |bound: f64| -> u128 {
        if bound.is_finite() && bound >= 0.0 {
            // The cast saturates; a bound past the total is cut to it.
            ((bound + 1e-3 + 1e-9 * bound).floor() as u128).saturating_mul(u128::from(unit)).min(total)
        } else {
            total
        }
    };
    let whole = vec![false; jobs.len()];
    let mut known = Known { schedule: placed.to_vec(), best: floor, upper: total, proof: Proof::AllEarned };
    if method == Method::Steps {
        known = steps(jobs, machines, unit, known, whole_fits, (&scaled, &left))?;
        if known.best >= known.upper {
            let proof = if known.best >= total { Proof::AllEarned } else { known.proof };
            return Ok(Solved { bracket: Bracket::exact(known.best), schedule: known.schedule, proof });
        }
    }
    if !whole_fits || !carried(jobs, machines, left()) {
        let bracket = Bracket { best: known.best, upper: known.upper.max(known.best) };
        return Ok(Solved { bracket, schedule: known.schedule, proof: Proof::Open });
    }
    let shape = Shape { relaxed: false, forced: &whole, pooled: 1, busy: &[] };
    let solved = milp::run(jobs, machines, unit, shape, &known.schedule, left())?;
    note("whole model", started, known.best.max(solved.income), scaled(solved.bound));
    let (schedule, best) =
        if solved.income > known.best { (solved.placed, solved.income) } else { (known.schedule, known.best) };
    let bracket = Bracket { best, upper: known.upper.min(scaled(solved.bound)).max(best) };
    let proof = match bracket.status() {
        _ if best >= total => Proof::AllEarned,
        super::exact::Status::Exact => Proof::BranchAndBound,
        super::exact::Status::Bracketed => Proof::Open,
    };
    Ok(Solved { bracket, schedule, proof })
}

/// Whether the whole model of `jobs` on `machines` machines gets through its first
/// relaxation within `seconds`. HiGHS does not stop inside it, so on several machines
/// a model that the time left cannot carry through it would overrun the limit. On one
/// machine it is far quicker (5 s for a CTC week of 385,180 columns), and the steps
/// before it leave most of the time.
fn carried(jobs: &[OfflineJob], machines: usize, seconds: f64) -> bool {
    machines == 1 || columns(jobs, machines) as f64 * ROOT_SECONDS_PER_COLUMN <= seconds
}


/// What is known of a cluster's optimum: the best schedule, its income, a bound and
/// what proves it.
struct Known {
    schedule: Vec<Option<u16>>,
    best: u128,
    upper: u128,
    proof: Proof,
}

impl Known {
    /// Takes `schedule` when it earns more than the best so far.
    fn offer(&mut self, schedule: Vec<Option<u16>>, earned: u128) {
        if earned > self.best {
            (self.schedule, self.best) = (schedule, earned);
        }
    }

    /// Takes `upper`, proven by `proof`, when it is tighter than the bound so far.
    fn bound(&mut self, upper: u128, proof: Proof) {
        if upper < self.upper {
            (self.upper, self.proof) = (upper, proof);
        }
    }
}

/// Steps 1 to 5: the known schedule improved, the relaxation's bound (and on several
/// machines the pooled model's, its jobs packed, and the schedule built machine by
/// machine), the neighbourhood, and on several machines the slices.
fn steps(
    jobs: &[OfflineJob],
    machines: usize,
    unit: u64,
    mut known: Known,
    whole_follows: bool,
    (scaled, left): (&dyn Fn(f64) -> u128, &dyn Fn() -> f64),
) -> Result<Known, MilpError> {
    let started = Instant::now();
    known.schedule = improve(jobs, machines, &known.schedule);
    known.best = known.best.max(income(jobs, &known.schedule));
    note("improved", started, known.best, known.upper);
    let whole = vec![false; jobs.len()];
    // On several machines, the relaxation of the pooled machines with migration: the
    // same bound (a job's work split across the machines of the relaxed model is a
    // migrating job), from a model a machine's size.
    let shape = Shape { relaxed: true, forced: &whole, pooled: machines, busy: &[] };
    let relaxed = milp::run(jobs, 1, unit, shape, &[], left())?;
    known.bound(scaled(relaxed.bound), Proof::Relaxation);
    note("relaxation", started, known.best, known.upper);
    if machines > 1 && known.best < known.upper {
        pooled(jobs, machines, unit, &mut known, (scaled, left() / 4.0))?;
        note("pooled and packed", started, known.best, known.upper);
    }
    if machines > 1 && known.best < known.upper {
        // A quarter of the time when the whole model follows, else all of it.
        let share = if whole_follows && carried(jobs, machines, left() * 0.75) { left() / 4.0 } else { left() };
        let (schedule, earned) = machine_by_machine(jobs, machines, &known.schedule, share)?;
        known.offer(schedule, earned);
        note("machine by machine", started, known.best, known.upper);
    }
    if known.best < known.upper && !relaxed.shares.is_empty() {
        let found = neighbourhood(jobs, machines, unit, &known.schedule, &relaxed.shares, left() / 2.0)?;
        if let Some((better, earned)) = found {
            known.offer(better, earned);
        }
        note("neighbourhood", started, known.best, known.upper);
    }
    // Only with time nothing else would use: where the whole model runs, it keeps all
    // of the time left.
    if machines > 1 && known.best < known.upper && !(whole_follows && carried(jobs, machines, left())) {
        let (schedule, earned) = by_slices(jobs, (machines, unit), &known.schedule, known.upper, left())?;
        known.offer(schedule, earned);
        note("slices", started, known.best, known.upper);
    }
    Ok(known)
}

/// The machines pooled into one with migration as an integer model, within `seconds`
/// from the known schedule: its dual bound bounds every schedule without migration
/// too, and the jobs it accepts, packed onto the machines and improved with the rest
/// ([`pack`], in what the model left of the time, at least a quarter of it), are a
/// schedule.
fn pooled(
    jobs: &[OfflineJob],
    machines: usize,
    unit: u64,
    known: &mut Known,
    (scaled, seconds): (&dyn Fn(f64) -> u128, f64),
) -> Result<(), MilpError> {
    let started = Instant::now();
    let none = vec![false; jobs.len()];
    let shape = Shape { relaxed: false, forced: &none, pooled: machines, busy: &[] };
    let solved = milp::run(jobs, 1, unit, shape, &known.schedule, seconds)?;
    known.bound(scaled(solved.bound), Proof::BranchAndBound);
    let set: Vec<usize> = (0..jobs.len()).filter(|&j| solved.shares.get(j).is_some_and(|&s| s > 0.5)).collect();
    if !set.is_empty() {
        // What the model left of the time, and at least a quarter of it.
        let left = (seconds - started.elapsed().as_secs_f64()).max(seconds / 4.0);
        let packed = pack(jobs, machines, &set, left);
        let earned = income(jobs, &packed);
        known.offer(packed, earned);
    }
    Ok(())
}

/// With HOST_SIM_HIGHS_LOG set, a line on standard error after each step: its time and
/// what is known. It changes no result.
fn note(step: &str, started: Instant, best: u128, upper: u128) {
    if std::env::var_os("HOST_SIM_HIGHS_LOG").is_some() {
        eprintln!("host-sim: {step} after {:.3} s: [{best}, {upper}]", started.elapsed().as_secs_f64());
    }
}

/// The model over the jobs `schedule` accepts or `shares` takes a part of, those both
/// take whole forced in, solved within `seconds` from `schedule`: the schedule it finds
/// (for all of `jobs`) and its income.
fn neighbourhood(
    jobs: &[OfflineJob],
    machines: usize,
    unit: u64,
    schedule: &[Option<u16>],
    shares: &[f64],
    seconds: f64,
) -> Result<Option<Scheduled>, MilpError> {
    let kept: Vec<usize> =
        (0..jobs.len()).filter(|&j| schedule[j].is_some() || shares[j] > SHARE_EPSILON).collect();
    let forced: Vec<bool> =
        kept.iter().map(|&j| schedule[j].is_some() && shares[j] >= 1.0 - SHARE_EPSILON).collect();
    // A neighbourhood with most of the jobs still free is as hard as the whole model:
    // its time goes to the whole model instead. On several machines a forced job is
    // free too (its machine is not fixed).
    let free = if machines == 1 { forced.iter().filter(|&&f| !f).count() } else { kept.len() };
    if seconds <= 0.0 || free == 0 || free > jobs.len() / 2 {
        return Ok(None);
    }
    let sub: Vec<OfflineJob> = kept.iter().map(|&j| jobs[j]).collect();
    if columns(&sub, machines) > MAX_COLUMNS || !carried(&sub, machines, seconds) {
        return Ok(None);
    }
    let start: Vec<Option<u16>> = kept.iter().map(|&j| schedule[j]).collect();
    let shape = Shape { relaxed: false, forced: &forced, pooled: 1, busy: &[] };
    let solved = milp::run(&sub, machines, unit, shape, &start, seconds)?;
    let mut whole = vec![None; jobs.len()];
    for (&j, machine) in kept.iter().zip(solved.placed) {
        whole[j] = machine;
    }
    Ok(Some((whole, solved.income)))
}

/// A schedule built one machine at a time, then improved one machine at a time: each
/// machine in turn gets the one-machine optimum (within a share of `seconds`) of the
/// jobs no other machine holds, starting from the jobs it has (on the first pass, the
/// jobs `schedule` has on it that are still free). Passes repeat while one raises the
/// income and time is left; every step keeps each machine's set EDF-feasible and
/// never lowers the income.
fn machine_by_machine(
    jobs: &[OfflineJob],
    machines: usize,
    schedule: &[Option<u16>],
    seconds: f64,
) -> Result<Scheduled, MilpError> {
    let started = Instant::now();
    let share = seconds / (2 * machines) as f64;
    let mut built: Vec<Option<u16>> = vec![None; jobs.len()];
    for pass in 0.. {
        let mut raised = false;
        for label in (0..machines).filter_map(|m| u16::try_from(m).ok()) {
            let left = seconds - started.elapsed().as_secs_f64();
            if pass > 0 && left <= 0.0 {
                break;
            }
            let free: Vec<usize> = (0..jobs.len()).filter(|&j| built[j].is_none() || built[j] == Some(label)).collect();
            let sub: Vec<OfflineJob> = free.iter().map(|&j| jobs[j]).collect();
            let hint = if pass == 0 { schedule } else { &built };
            let start: Vec<Option<u16>> = free.iter().map(|&j| (hint[j] == Some(label)).then_some(0)).collect();
            let floor = income(&sub, &start);
            let budget = Budget { seconds: share.min(left.max(0.0)), method: Method::Steps };
            let solved = solve(&sub, 1, budget, &start, floor)?;
            raised |= pass > 0 && solved.bracket.best > floor;
            for (&j, on) in free.iter().zip(&solved.schedule) {
                built[j] = on.map(|_| label);
            }
        }
        if pass > 0 && (!raised || started.elapsed().as_secs_f64() >= seconds) {
            break;
        }
    }
    let earned = income(jobs, &built);
    Ok((built, earned))
}


fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}
