//! One cluster's optimum as a mixed-integer program, solved by HiGHS.
//!
//! Time is cut at the cluster's distinct releases and deadlines into intervals `k` of
//! length `L_k`. For each job `j` and machine `i`: a binary `y_ji` (the job runs on
//! that machine) and, for each interval inside `[r_j, d_j]`, the share `z_jik` of its
//! work done there. Then `sum_k z_jik = y_ji` (all of its work, or none),
//! `sum_j p_j z_jik <= L_k` (an interval holds no more work than its length),
//! `sum_i y_ji <= 1` (one machine, no migration), and the objective is
//! `max sum w_j y_ji`. On one machine, any such allotment is sequenced inside each
//! interval, preemptively, so the model is exact for preemptive scheduling without
//! migration. Machines are alike: a job of rank `r` (release order) is allowed only
//! on machines `0..=r`, which keeps one of every relabelling of machines (order the
//! used machines by their earliest-ranked job).
//!
//! The solver works in floating point, so nothing it says is taken as it is: its
//! assignment is rounded, each machine's jobs checked by exact EDF
//! ([`super::exact::edf_feasible`]) and, should a tolerance have let an infeasible set
//! through, the cheapest jobs of that machine dropped until EDF passes; the income is
//! summed in integers. The upper bound is HiGHS's MIP dual bound, floored after a
//! margin of `1e-3 + 1e-9 |bound|` for its tolerances.

use highs::{ColProblem, HighsModelStatus, HighsSolutionStatus, Row, Sense};
use replay::model::service_level::OfflineJob;

use super::exact::{Bracket, edf_feasible};
use super::plan::{MAX_COLUMNS, columns};

/// What the solver could not do.
#[derive(Debug, thiserror::Error)]
pub enum MilpError {
    #[error("HiGHS refused the model ({0:?})")]
    Highs(highs::HighsStatus),
    #[error("HiGHS stopped with status {0:?}")]
    Status(HighsModelStatus),
}

/// The optimum of `jobs` (one cluster, every job able to fit alone) on `machines`
/// machines, within `seconds`; `floor` is the income of a schedule already known (the
/// greedy run's), which the result never falls below.
pub fn solve(
    jobs: &[OfflineJob],
    machines: usize,
    seconds: f64,
    placed: &[Option<u16>],
    floor: u128,
) -> Result<Bracket, MilpError> {
    let total: u128 = jobs.iter().map(|j| u128::from(j.income)).sum();
    if columns(jobs, machines) > MAX_COLUMNS {
        return Ok(Bracket { best: floor, upper: total });
    }
    // Incomes divided by their common divisor (the price, with one level): the same
    // optimum, with smaller costs for the solver.
    let unit = jobs.iter().fold(0u64, |g, j| gcd(g, j.income)).max(1);
    let Model { problem, y_columns, z_columns, cuts } = Model::build(jobs, machines, unit);
    let start = start_values(jobs, placed, &y_columns, &z_columns, &cuts, problem.num_cols());
    let mut highs = problem.try_optimise(Sense::Maximise).map_err(MilpError::Highs)?;
    if let Some(start) = start {
        // The known schedule as the first incumbent; a refusal only loses the head start.
        let _ = highs.try_set_solution(Some(&start), None, None, None);
    }
    highs.make_quiet();
    // HiGHS's own log on standard output when HOST_SIM_HIGHS_LOG is set, to see where a
    // slow window's time goes; it changes no result.
    if std::env::var_os("HOST_SIM_HIGHS_LOG").is_some() {
        let _ = highs.try_set_option("output_flag", true);
        let _ = highs.try_set_option("log_to_console", true);
    }
    // A gap below one unit of the scaled objective proves optimality (incomes are
    // integers); more heuristic effort than HiGHS's 0.05 finds the last tick sooner.
    let options: [(&str, f64); 4] = [
        ("time_limit", seconds.max(0.01)),
        ("mip_rel_gap", 0.0),
        ("mip_abs_gap", 0.5),
        ("mip_heuristic_effort", 0.3),
    ];
    for (name, value) in options {
        highs.try_set_option(name, value).map_err(|_| MilpError::Highs(highs::HighsStatus::Error))?;
    }
    for (name, value) in [("threads", 1), ("random_seed", 0)] {
        highs.try_set_option(name, value).map_err(|_| MilpError::Highs(highs::HighsStatus::Error))?;
    }
    let solved = highs.try_solve().map_err(MilpError::Highs)?;
    let status = solved.status();
    if !matches!(
        status,
        HighsModelStatus::Optimal
            | HighsModelStatus::ReachedTimeLimit
            | HighsModelStatus::ObjectiveBound
            | HighsModelStatus::ReachedInterrupt
    ) {
        return Err(MilpError::Status(status));
    }
    let best = if solved.primal_solution_status() == HighsSolutionStatus::Feasible {
        let values = solved.get_solution();
        verified_income(&y_columns, jobs, values.columns())
    } else {
        0
    };
    let bound = solved.double_info_value(c"mip_dual_bound").unwrap_or(f64::INFINITY);
    let upper = if bound.is_finite() && bound >= 0.0 {
        // The cast saturates; a bound past the total is cut to it below.
        (bound + 1e-3 + 1e-9 * bound).floor() as u128 * u128::from(unit)
    } else {
        total
    };
    let best = best.max(floor);
    Ok(Bracket { best, upper: upper.min(total).max(best) })
}

/// The model and where each job's `y_ji` columns sit.
struct Model {
    problem: ColProblem,
    /// For each job, its `y` column per allowed machine, in machine order.
    y_columns: Vec<Vec<usize>>,
    /// For each job and allowed machine, the column of its first `z` and that
    /// interval's index (its intervals and columns run on consecutively).
    z_columns: Vec<Vec<(usize, usize)>>,
    cuts: Vec<u64>,
}

impl Model {
    fn build(jobs: &[OfflineJob], machines: usize, unit: u64) -> Self {
        let mut cuts: Vec<u64> = jobs.iter().flat_map(|j| [j.release, j.deadline]).collect();
        cuts.sort_unstable();
        cuts.dedup();
        let intervals = cuts.len().saturating_sub(1);
        let mut problem = ColProblem::new();
        // Capacity rows, machine by machine.
        let capacity: Vec<Vec<Row>> = (0..machines)
            .map(|_| cuts.windows(2).map(|w| problem.add_row(..=(w[1] - w[0]) as f64)).collect())
            .collect();
        let mut order: Vec<usize> = (0..jobs.len()).collect();
        order.sort_by_key(|&j| (jobs[j].release, j));
        let mut rank = vec![0usize; jobs.len()];
        for (r, &j) in order.iter().enumerate() {
            rank[j] = r;
        }
        let assign: Vec<Option<Row>> =
            jobs.iter().map(|_| (machines > 1).then(|| problem.add_row(..=1.0))).collect();
        let mut y_columns = vec![Vec::new(); jobs.len()];
        let mut z_columns = vec![Vec::new(); jobs.len()];
        let mut column = 0usize;
        for (j, job) in jobs.iter().enumerate() {
            let first = cuts.partition_point(|&c| c < job.release);
            let last = cuts.partition_point(|&c| c < job.deadline).min(intervals);
            let p = job.p as f64;
            for rows in capacity.iter().take(rank[j] + 1) {
                let work = problem.add_row(0.0..=0.0);
                let mut y_entries = vec![(work, -1.0)];
                if let Some(row) = assign[j] {
                    y_entries.push((row, 1.0));
                }
                problem.add_integer_column((job.income / unit) as f64, 0.0..=1.0, &y_entries);
                y_columns[j].push(column);
                column += 1;
                z_columns[j].push((column, first));
                for k in first..last {
                    let length = (cuts[k + 1] - cuts[k]) as f64;
                    let share = (length / p).min(1.0);
                    problem.add_column(0.0, 0.0..=share, [(rows[k], p), (work, 1.0)]);
                    column += 1;
                }
            }
        }
        Self { problem, y_columns, z_columns, cuts }
    }
}

/// The income of the solver's assignment (`y_columns` as [`Model`] keeps them), each
/// machine checked by exact EDF (and its cheapest jobs dropped until it passes, should
/// tolerances have let an infeasible set through).
fn verified_income(y_columns: &[Vec<usize>], jobs: &[OfflineJob], values: &[f64]) -> u128 {
    let machines = y_columns.iter().map(Vec::len).max().unwrap_or(0);
    let mut on: Vec<Vec<OfflineJob>> = vec![Vec::new(); machines];
    for (j, columns) in y_columns.iter().enumerate() {
        let chosen = columns.iter().position(|&c| values.get(c).is_some_and(|&v| v > 0.5));
        if let Some(machine) = chosen {
            on[machine].push(jobs[j]);
        }
    }
    on.iter_mut()
        .map(|set| {
            set.sort_by_key(|j| std::cmp::Reverse(j.income));
            while !edf_feasible(set) {
                set.pop();
            }
            set.iter().map(|j| u128::from(j.income)).sum::<u128>()
        })
        .sum()
}

/// The known schedule (`placed`: each job's machine, or `None`) as values of every
/// column: its machines relabelled in order of their earliest-released job (the
/// model's symmetry cut allows that labelling), each machine's jobs run by EDF and
/// their runs cut at the intervals. `None` when a machine's jobs miss a deadline.
fn start_values(
    jobs: &[OfflineJob],
    placed: &[Option<u16>],
    y_columns: &[Vec<usize>],
    z_columns: &[Vec<(usize, usize)>],
    cuts: &[u64],
    columns: usize,
) -> Option<Vec<f64>> {
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    order.sort_by_key(|&j| (jobs[j].release, j));
    let mut labels: Vec<u16> = Vec::new();
    for &j in &order {
        if let Some(machine) = placed.get(j).copied().flatten()
            && !labels.contains(&machine)
        {
            labels.push(machine);
        }
    }
    let mut values = vec![0.0; columns];
    for (label, machine) in labels.iter().enumerate() {
        let mine: Vec<usize> =
            (0..jobs.len()).filter(|&j| placed.get(j).copied().flatten() == Some(*machine)).collect();
        let set: Vec<OfflineJob> = mine.iter().map(|&j| jobs[j]).collect();
        for (i, a, b) in super::exact::edf_segments(&set)? {
            let j = mine[i];
            let y = *y_columns[j].get(label)?;
            values[y] = 1.0;
            let (z0, first) = z_columns[j][label];
            let mut k = cuts.partition_point(|&c| c <= a).checked_sub(1)?;
            while k + 1 < cuts.len() && cuts[k] < b {
                let overlap = b.min(cuts[k + 1]).saturating_sub(a.max(cuts[k]));
                values[z0 + k.checked_sub(first)?] += overlap as f64 / jobs[j].p as f64;
                k += 1;
            }
        }
    }
    Some(values)
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}
