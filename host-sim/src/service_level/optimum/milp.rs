//! One cluster's optimum as a mixed-integer program, solved by HiGHS.
//!
//! Time is cut at the cluster's distinct releases and deadlines into intervals `k` of
//! length `L_k`. For each job `j` and machine `i`: a binary `y_ji` (the job runs on
//! that machine) and, for each interval inside `[r_j, d_j]`, the share `z_jik` of its
//! work done there. Then `sum_k z_jik = y_ji` (all of its work, or none),
//! `sum_j p_j z_jik <= L_k` (an interval holds no more work than its length),
//! `sum_i y_ji <= 1` (one machine, no migration), and the objective is
//! `max sum w_j y_ji`. On several machines a job's shares in one interval, summed over
//! the machines, are at most `L_k / p_j` too: it runs on one machine, so never on two
//! at once, which the relaxation would otherwise allow. A job without slack
//! (`d_j - r_j = p_j`) has no `z`: its shares are `L_k / p_j` of `y_ji`, so `y_ji`
//! enters the capacity rows itself, which also keeps two overlapping such jobs apart in
//! the relaxation. On one machine, any such
//! allotment is sequenced inside each
//! interval, preemptively, so the model is exact for preemptive scheduling without
//! migration. Machines are alike: a job of rank `r` (release order) is allowed only
//! on machines `0..=r`, which keeps one of every relabelling of machines (order the
//! used machines by their earliest-ranked job).
//!
//! The solver works in floating point, so nothing it says is taken as it is: its
//! assignment is rounded, each machine's jobs checked by exact EDF
//! ([`super::exact::edf_feasible`]) and, should a tolerance have let an infeasible set
//! through, the cheapest jobs of that machine dropped until EDF passes; the income is
//! summed in integers. The upper bound is the relaxation's optimum or HiGHS's MIP dual
//! bound; [`super::search`] floors it after a margin of `1e-3 + 1e-9 |bound|` for the
//! solver's tolerances. The same model serves relaxed (every `y_ji` continuous) and
//! with some jobs forced in (the neighbourhood of `search`'s step 4), and around the
//! runs of jobs outside the model that stay on their machines (the slices of
//! [`super::slices`]): each interval's capacity on a machine is then what those runs
//! leave of it, and every job may run on every machine.

use highs::{ColProblem, HighsModelStatus, HighsSolutionStatus, Row, Sense};
use replay::model::service_level::OfflineJob;

use super::exact::{edf_feasible, without_slack};

/// Past this many columns a pooled relaxation (several machines) is solved by HiGHS's
/// interior point method, below it and on one machine by its dual simplex. On pooled
/// relaxations of one-week windows the interior point method took 1.3 and 6.3 s where
/// the simplex took 3.1 and 56 s (132,098 and 297,144 columns), and up to twice as long
/// below 20,000 columns; the bound is the same. On one machine its shares are those of
/// another optimal vertex, with more jobs split, and the neighbourhood that closes most
/// one-machine windows no longer runs (an SDSC week at sf 6, exact in 1 s by the
/// simplex, stayed open at 60 s).
const IPM_COLUMNS: usize = 50_000;

/// What the solver could not do.
#[derive(Debug, thiserror::Error)]
pub enum MilpError {
    #[error("HiGHS refused the model ({0:?})")]
    Highs(highs::HighsStatus),
    #[error("HiGHS stopped with status {0:?}")]
    Status(HighsModelStatus),
}

/// What one HiGHS run gives: a schedule checked by exact EDF (each job's machine) and
/// its income (none from a pooled model, whose jobs may migrate), and the run's proven
/// upper bound in units of the scaled objective (the relaxation's optimum, or the MIP's
/// dual bound; infinite when it has none); for the relaxation and a pooled model, each
/// job's accepted share `sum_i y_ji`.
#[derive(Debug)]
pub struct Outcome {
    pub placed: Vec<Option<u16>>,
    pub income: u128,
    pub bound: f64,
    pub shares: Vec<f64>,
}

/// How a run sees the jobs: as binaries or relaxed, some forced to be accepted.
#[derive(Clone, Copy, Debug)]
pub struct Shape<'a> {
    pub relaxed: bool,
    pub forced: &'a [bool],
    /// Machines pooled into the one machine of the model, with migration: each
    /// interval holds this many times its length of work, a job's share of it at most
    /// its length. 1 for the model as it is.
    pub pooled: usize,
    /// For each machine, the runs `(start, end)` of jobs outside the model that stay
    /// where they are: the model's jobs run around them (empty: none). The machines
    /// are then unlike each other, and every job may run on every machine.
    pub busy: &'a [Vec<(u64, u64)>],
}

/// Solves the model of `jobs` (one cluster, every job able to fit alone) on `machines`
/// machines, incomes divided by `unit`, within `seconds`, starting from the schedule
/// `placed` when it is one.
pub fn run(
    jobs: &[OfflineJob],
    machines: usize,
    unit: u64,
    shape: Shape,
    placed: &[Option<u16>],
    seconds: f64,
) -> Result<Outcome, MilpError> {
    let Model { problem, y_columns, z_columns, cuts } = Model::build(jobs, machines, unit, shape);
    let columns = problem.num_cols();
    let labels = if shape.pooled > 1 {
        Labels::Pooled
    } else if !shape.busy.is_empty() {
        Labels::AsTheyAre
    } else {
        Labels::ByFirstJob
    };
    let start = start_values(jobs, placed, &y_columns, &z_columns, &cuts, (columns, labels));
    let mut highs = problem.try_optimise(Sense::Maximise).map_err(MilpError::Highs)?;
    if let Some(start) = start.filter(|_| !shape.relaxed) {
        // The known schedule as the first incumbent; a refusal only loses the head start.
        let _ = highs.try_set_solution(Some(&start), None, None, None);
    }
    configure(&mut highs, seconds)?;
    if shape.relaxed && shape.pooled > 1 && columns > IPM_COLUMNS {
        // The interior point method solves a large relaxation several times faster.
        highs.try_set_option("solver", "ipm").map_err(|_| MilpError::Highs(highs::HighsStatus::Error))?;
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
    let feasible = solved.primal_solution_status() == HighsSolutionStatus::Feasible;
    let values = solved.get_solution();
    let bound = if shape.relaxed {
        if status == HighsModelStatus::Optimal { solved.objective_value() } else { f64::INFINITY }
    } else {
        solved.double_info_value(c"mip_dual_bound").unwrap_or(f64::INFINITY)
    };
    let pooled = shape.pooled > 1;
    let shares: Vec<f64> = if (shape.relaxed || pooled) && feasible {
        y_columns.iter().map(|c| c.iter().flatten().map(|&k| values.columns().get(k).copied().unwrap_or(0.0)).sum()).collect()
    } else {
        Vec::new()
    };
    // A pooled model's acceptance is no schedule: its jobs may need migration.
    let (placed, income) = if feasible && !shape.relaxed && !pooled {
        verified_schedule(&y_columns, jobs, values.columns())
    } else {
        (vec![None; jobs.len()], 0)
    };
    Ok(Outcome { placed, income, bound, shares })
}

/// The run's options: its time limit, one thread, a fixed seed; a gap below one unit of
/// the scaled objective proves optimality (incomes are integers); more heuristic effort
/// than HiGHS's 0.05 finds the last tick sooner. HiGHS's own log goes to standard output
/// when HOST_SIM_HIGHS_LOG is set, to see where a slow window's time goes; it changes no
/// result.
fn configure(highs: &mut highs::Model, seconds: f64) -> Result<(), MilpError> {
    highs.make_quiet();
    if std::env::var_os("HOST_SIM_HIGHS_LOG").is_some() {
        let _ = highs.try_set_option("output_flag", true);
        let _ = highs.try_set_option("log_to_console", true);
    }
    let options: [(&str, f64); 4] = [
        ("time_limit", seconds.max(0.01)),
        ("mip_rel_gap", 0.0),
        ("mip_abs_gap", 0.5),
        ("mip_heuristic_effort", 0.3),
    ];
    let refused = |_| MilpError::Highs(highs::HighsStatus::Error);
    for (name, value) in options {
        highs.try_set_option(name, value).map_err(refused)?;
    }
    for (name, value) in [("threads", 1), ("random_seed", 0)] {
        highs.try_set_option(name, value).map_err(refused)?;
    }
    Ok(())
}

/// The model and where each job's `y_ji` columns sit.
struct Model {
    problem: ColProblem,
    /// For each job and machine, its `y` column, where it may run there.
    y_columns: Vec<Vec<Option<usize>>>,
    /// For each job and machine, the column of its first `z` and that interval's index
    /// (its intervals and columns run on consecutively); `None` where it may not run
    /// there or has no `z` (no slack).
    z_columns: Vec<Vec<Option<(usize, usize)>>>,
    cuts: Vec<u64>,
}

impl Model {
    fn build(jobs: &[OfflineJob], machines: usize, unit: u64, shape: Shape) -> Self {
        let cuts = cuts(jobs);
        let intervals = cuts.len().saturating_sub(1);
        let mut problem = ColProblem::new();
        let capacity = capacity_rows(&mut problem, &cuts, machines, shape);
        let rank = ranks(jobs);
        // A forced job takes one machine: on one machine its `y` is fixed, on more its
        // assignment row's sum is.
        let forced = |j: usize| shape.forced.get(j).copied().unwrap_or(false);
        let assign: Vec<Option<Row>> = (0..jobs.len())
            .map(|j| (machines > 1).then(|| problem.add_row(if forced(j) { 1.0 } else { 0.0 }..=1.0)))
            .collect();
        let mut y_columns = vec![Vec::new(); jobs.len()];
        let mut z_columns = vec![Vec::new(); jobs.len()];
        let mut column = 0usize;
        for (j, job) in jobs.iter().enumerate() {
            let first = cuts.partition_point(|&c| c < job.release);
            let last = cuts.partition_point(|&c| c < job.deadline).min(intervals);
            let p = job.p as f64;
            // A job with no slack runs over its whole window: its shares are `L_k / p_j`
            // of `y_ji`, so `y_ji` enters the capacity rows itself (and overlapping such
            // jobs exclude each other in the relaxation too).
            let pinned = without_slack(job);
            // On several machines a job runs on one of them only, so its work in an
            // interval is at most the interval's length, whatever the machine; the
            // relaxation would otherwise run a job on several machines at once.
            let parallel: Vec<Option<Row>> = (first..last)
                .map(|k| {
                    let length = (cuts[k + 1] - cuts[k]) as f64;
                    (machines > 1 && !pinned && length < p).then(|| problem.add_row(..=length / p))
                })
                .collect();
            for (machine, rows) in capacity.iter().enumerate() {
                // The symmetry cut, where the machines are alike (no runs of other jobs).
                if shape.busy.is_empty() && machine > rank[j] {
                    y_columns[j].push(None);
                    z_columns[j].push(None);
                    continue;
                }
                let work = (!pinned).then(|| problem.add_row(0.0..=0.0));
                let mut y_entries: Vec<(Row, f64)> = work.map(|w| (w, -1.0)).into_iter().collect();
                if pinned {
                    y_entries.extend((first..last).map(|k| (rows[k], (cuts[k + 1] - cuts[k]) as f64)));
                }
                if let Some(row) = assign[j] {
                    y_entries.push((row, 1.0));
                }
                let low = if forced(j) && machines == 1 { 1.0 } else { 0.0 };
                let cost = (job.income / unit) as f64;
                if shape.relaxed {
                    problem.add_column(cost, low..=1.0, &y_entries);
                } else {
                    problem.add_integer_column(cost, low..=1.0, &y_entries);
                }
                y_columns[j].push(Some(column));
                column += 1;
                z_columns[j].push(work.map(|_| (column, first)));
                for (k, work) in (first..last).filter_map(|k| work.map(|w| (k, w))) {
                    let length = (cuts[k + 1] - cuts[k]) as f64;
                    let share = (length / p).min(1.0);
                    let mut entries = vec![(rows[k], p), (work, 1.0)];
                    entries.extend(parallel[k - first].map(|row| (row, 1.0)));
                    problem.add_column(0.0, 0.0..=share, entries);
                    column += 1;
                }
            }
        }
        Self { problem, y_columns, z_columns, cuts }
    }
}

/// The cluster's distinct releases and deadlines, in order: the intervals' ends.
fn cuts(jobs: &[OfflineJob]) -> Vec<u64> {
    let mut cuts: Vec<u64> = jobs.iter().flat_map(|j| [j.release, j.deadline]).collect();
    cuts.sort_unstable();
    cuts.dedup();
    cuts
}

/// The capacity rows, machine by machine and interval by interval: the interval's
/// length (times the machines pooled), less what other jobs' runs take of it.
fn capacity_rows(problem: &mut ColProblem, cuts: &[u64], machines: usize, shape: Shape) -> Vec<Vec<Row>> {
    let pooled = shape.pooled.max(1) as u64;
    (0..machines)
        .map(|i| {
            let busy = busy_per_interval(cuts, shape.busy.get(i).map_or(&[], Vec::as_slice));
            let free = cuts.windows(2).zip(busy).map(|(w, busy)| ((w[1] - w[0]) * pooled).saturating_sub(busy));
            free.map(|free| problem.add_row(..=free as f64)).collect()
        })
        .collect()
}

/// The time that `runs` (none overlapping another) take of each interval between
/// consecutive `cuts`.
fn busy_per_interval(cuts: &[u64], runs: &[(u64, u64)]) -> Vec<u64> {
    let mut busy = vec![0u64; cuts.len().saturating_sub(1)];
    for &(start, end) in runs {
        let mut k = cuts.partition_point(|&c| c <= start).saturating_sub(1);
        while k + 1 < cuts.len() && cuts[k] < end {
            busy[k] += end.min(cuts[k + 1]).saturating_sub(start.max(cuts[k]));
            k += 1;
        }
    }
    busy
}

/// Each job's rank in release order (ties by index).
fn ranks(jobs: &[OfflineJob]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    order.sort_by_key(|&j| (jobs[j].release, j));
    let mut rank = vec![0usize; jobs.len()];
    for (r, &j) in order.iter().enumerate() {
        rank[j] = r;
    }
    rank
}

/// The solver's assignment (`y_columns` as [`Model`] keeps them) as each job's machine,
/// each machine checked by exact EDF (and its cheapest jobs dropped until it passes,
/// should tolerances have let an infeasible set through), and its income.
fn verified_schedule(y_columns: &[Vec<Option<usize>>], jobs: &[OfflineJob], values: &[f64]) -> (Vec<Option<u16>>, u128) {
    let machines = y_columns.iter().map(Vec::len).max().unwrap_or(0);
    let mut on: Vec<Vec<usize>> = vec![Vec::new(); machines];
    for (j, columns) in y_columns.iter().enumerate() {
        let chosen = columns.iter().position(|c| c.and_then(|c| values.get(c)).is_some_and(|&v| v > 0.5));
        if let Some(machine) = chosen {
            on[machine].push(j);
        }
    }
    let mut placed = vec![None; jobs.len()];
    let mut income = 0u128;
    for (machine, set) in on.iter_mut().enumerate() {
        set.sort_by_key(|&j| (std::cmp::Reverse(jobs[j].income), j));
        while !edf_feasible(&set.iter().map(|&j| jobs[j]).collect::<Vec<_>>()) {
            set.pop();
        }
        for &j in set.iter() {
            placed[j] = u16::try_from(machine).ok();
            income += u128::from(jobs[j].income);
        }
    }
    (placed, income)
}

/// How [`start_values`] names the known schedule's machines in the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Labels {
    /// All 0: the pooled model's one machine.
    Pooled,
    /// In order of their earliest-released job, which the model's symmetry cut allows.
    ByFirstJob,
    /// As the schedule names them: other jobs' runs make the machines unlike.
    AsTheyAre,
}

/// The known schedule (`placed`: each job's machine, or `None`) as values of every
/// column (`columns` of them), its machines named by `labels`, each machine's jobs run
/// by EDF and their runs cut at the intervals. `None` when a machine's jobs miss a
/// deadline or a job sits where the model has no column for it.
fn start_values(
    jobs: &[OfflineJob],
    placed: &[Option<u16>],
    y_columns: &[Vec<Option<usize>>],
    z_columns: &[Vec<Option<(usize, usize)>>],
    cuts: &[u64],
    (columns, labels): (usize, Labels),
) -> Option<Vec<f64>> {
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    order.sort_by_key(|&j| (jobs[j].release, j));
    let mut used: Vec<u16> = Vec::new();
    for &j in &order {
        if let Some(machine) = placed.get(j).copied().flatten()
            && !used.contains(&machine)
        {
            used.push(machine);
        }
    }
    let mut values = vec![0.0; columns];
    for (first_job, machine) in used.iter().enumerate() {
        let label = match labels {
            Labels::Pooled => 0,
            Labels::ByFirstJob => first_job,
            Labels::AsTheyAre => usize::from(*machine),
        };
        let mine: Vec<usize> =
            (0..jobs.len()).filter(|&j| placed.get(j).copied().flatten() == Some(*machine)).collect();
        let set: Vec<OfflineJob> = mine.iter().map(|&j| jobs[j]).collect();
        for (i, a, b) in super::exact::edf_segments(&set)? {
            let j = mine[i];
            let y = (*y_columns[j].get(label)?)?;
            values[y] = 1.0;
            // A job without slack has no shares of its own.
            let Some((z0, first)) = z_columns[j][label] else { continue };
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
