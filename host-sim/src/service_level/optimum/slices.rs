//! A schedule on several machines improved one slice of the jobs at a time.
//!
//! On several machines the schedules that the other steps find stay a little below the
//! pooled bound, and the model that keeps each job on one machine is too large to close
//! the rest. A slice is a run of consecutive jobs in release order, accepted or not.
//! The jobs outside it stay on their machines, where they run as the known schedule's
//! EDF runs them; the slice's jobs are solved as a model of their own around those runs
//! (each machine's capacity in an interval is what the runs leave of it), so every
//! schedule of that model, put back with the runs, is a schedule of the cluster. Slices
//! overlap by half and sweep the cluster in release order, again while a sweep raises
//! the income and time is left.
//!
//! A move is kept only when it raises the income and every machine's jobs, the slice's
//! and the others together, pass exact EDF in integers.

use std::time::Instant;

use replay::model::service_level::OfflineJob;

use super::exact::{Scheduled, edf_segments, income};
use super::improve::{by_machine, every_machine_feasible};
use super::milp::{self, MilpError, Shape};

/// Jobs in a slice: a model of this many jobs on four machines takes well under a
/// second where the whole model of a week (several hundred) does not close in minutes.
const SLICE: usize = 96;

/// The longest a slice's model may take, in seconds.
const SLICE_SECONDS: f64 = 5.0;

/// `schedule` (each job's machine, or `None`) of `jobs` on `machines` machines improved
/// slice by slice within `seconds`, stopping once it earns `upper`: the schedule and
/// its income, never below the one it started from. Slices start at [`SLICE`] jobs; a
/// sweep that raises nothing doubles them, up to the whole cluster.
pub fn by_slices(
    jobs: &[OfflineJob],
    (machines, unit): (usize, u64),
    schedule: &[Option<u16>],
    upper: u128,
    seconds: f64,
) -> Result<Scheduled, MilpError> {
    sweeps(jobs, (machines, unit), schedule, (upper, seconds), SLICE)
}

/// [`by_slices`] from slices of `size` jobs.
pub(super) fn sweeps(
    jobs: &[OfflineJob],
    (machines, unit): (usize, u64),
    schedule: &[Option<u16>],
    (upper, seconds): (u128, f64),
    mut size: usize,
) -> Result<Scheduled, MilpError> {
    let started = Instant::now();
    let left = || seconds - started.elapsed().as_secs_f64();
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    order.sort_by_key(|&j| (jobs[j].release, j));
    let mut schedule = schedule.to_vec();
    let mut best = income(jobs, &schedule);
    size = size.max(2);
    loop {
        let before = best;
        let mut first = 0;
        let limit = SLICE_SECONDS * (size as f64 / SLICE as f64).max(1.0);
        while first < order.len() && best < upper && left() > 0.0 {
            let slice = &order[first..order.len().min(first + size)];
            let found = solve_slice(jobs, (machines, unit), &schedule, slice, left().min(limit))?;
            if let Some((better, earned)) = found
                && earned > best
            {
                (schedule, best) = (better, earned);
            }
            first += size / 2;
        }
        if best >= upper || left() <= 0.0 || (best <= before && size >= order.len()) {
            return Ok((schedule, best));
        }
        if best <= before {
            // A sweep that raised nothing: slices twice as large.
            size *= 2;
        }
    }
}

/// The model of the jobs of `slice` around the runs of the others in `schedule`,
/// within `seconds`: the cluster's schedule with the slice's jobs where the model put
/// them, and its income, when every machine passes exact EDF.
pub(super) fn solve_slice(
    jobs: &[OfflineJob],
    (machines, unit): (usize, u64),
    schedule: &[Option<u16>],
    slice: &[usize],
    seconds: f64,
) -> Result<Option<Scheduled>, MilpError> {
    let mut inside = vec![false; jobs.len()];
    for &j in slice {
        inside[j] = true;
    }
    // The runs of the jobs outside the slice, machine by machine, as the known
    // schedule's EDF makes them.
    let mut busy: Vec<Vec<(u64, u64)>> = Vec::with_capacity(machines);
    for set in by_machine(schedule, machines) {
        let on: Vec<OfflineJob> = set.iter().map(|&j| jobs[j]).collect();
        let Some(runs) = edf_segments(&on) else { return Ok(None) };
        let mut runs: Vec<(u64, u64)> = runs.into_iter().filter(|&(i, _, _)| !inside[set[i]]).map(|(_, a, b)| (a, b)).collect();
        runs.sort_unstable();
        busy.push(runs);
    }
    let sub: Vec<OfflineJob> = slice.iter().map(|&j| jobs[j]).collect();
    let start: Vec<Option<u16>> = slice.iter().map(|&j| schedule[j]).collect();
    let none = vec![false; sub.len()];
    let shape = Shape { relaxed: false, forced: &none, pooled: 1, busy: &busy };
    let solved = milp::run(&sub, machines, unit, shape, &start, seconds)?;
    let mut whole = schedule.to_vec();
    for (&j, machine) in slice.iter().zip(solved.placed) {
        whole[j] = machine;
    }
    Ok(every_machine_feasible(jobs, &whole, machines).then(|| {
        let earned = income(jobs, &whole);
        (whole, earned)
    }))
}
