//! The service-level model's part of `host-sim whatif` ([`crate::whatif`]): a log's
//! submits back into jobs, and the header's configuration with the options given.
//!
//! Each `Submit` is a job (its number, its processing time, its time in its window);
//! a `Reset` starts the next window. The window starts are not in a log (windows
//! without jobs are skipped), so the `k`-th window is placed at `k * window_ticks`:
//! every job keeps its time inside its window, which is all the run loop uses.
//! Levels are drawn from the seed as `run` draws them; the recorded levels must be
//! that draw (a log `run` wrote always is), so that keeping the seed and the number
//! of levels keeps every job's level, and changing either draws them as a run with
//! that change would.

use kernel::service_level::{Event, LevelId};
use replay::engine::service_level::MAX_MACHINES;
use replay::format::{Header, ServiceLevelHeader};

use super::cli::{check_queue_capacity, parse_alpha, print_summary};
use super::levels::{self, LevelDraw};
use super::sim::RunConfig;
use crate::error::CliError;
use crate::output::RunOutputArgs;
use crate::whatif::{Changes, Recorded, Whatif};
use crate::workload::Job;
use kernel::log::Body;

/// The options a service-level what-if applies.
const KNOWN: [&str; 8] =
    ["--policy", "--machines", "--slack", "--levels", "--prices", "--queue-capacity", "--seed", "--alpha"];

impl Whatif for crate::model::ServiceLevel {
    fn whatif(recorded: &Recorded, changes: &Changes, output: &RunOutputArgs) -> Result<(), CliError> {
        changes.refuse_except(&KNOWN, "a service-level")?;
        let (jobs, recorded_levels) = requests(recorded)?;
        let part =
            recorded.header.service_level().ok_or_else(|| recorded.error("no service-level header"))?;
        check_draw(recorded, part, &recorded_levels)?;
        let config = config(&recorded.header, part, changes)?;
        let workload = recorded.workload(jobs);
        let progress = crate::progress::bar(workload.jobs.len() as u64, "jobs");
        super::sim::check_jobs(&workload.jobs)?;
        let mut jobs = workload.jobs.iter().copied().map(Ok);
        let files = super::record::Files { log: output.log.as_deref(), ..Default::default() };
        let result = super::record::run(&config, &workload, &mut jobs, files, &progress);
        progress.finish_and_clear();
        print_summary(&workload, &config, &result?, output)
    }
}

/// The jobs of the log's submits, in log order, and the level each was given.
fn requests(recorded: &Recorded) -> Result<(Vec<Job>, Vec<LevelId>), CliError> {
    let length = recorded.header.window_ticks;
    let (mut jobs, mut job_levels) = (Vec::new(), Vec::new());
    let mut start: u64 = 0;
    for body in &recorded.records {
        match *body {
            Body::Event(Event::Submit { t, job, p, level }) => {
                let release =
                    start.checked_add(t).ok_or_else(|| recorded.error("a submit time overflows"))?;
                jobs.push(Job { id: job, release, p, procs: 1 });
                job_levels.push(level);
            }
            Body::Event(Event::Reset) => {
                let Some(length) = length else {
                    return Err(recorded.error("a Reset in a log of one window (no window_ticks)"));
                };
                start = start.checked_add(length).ok_or_else(|| recorded.error("too many windows"))?;
            }
            _ => {}
        }
    }
    Ok((jobs, job_levels))
}

/// The recorded levels are the seed's draw over the header's levels, as `run`
/// draws them; a log with levels given otherwise cannot be re-run by `run`'s loop.
fn check_draw(
    recorded: &Recorded,
    part: &ServiceLevelHeader,
    job_levels: &[LevelId],
) -> Result<(), CliError> {
    let header = &recorded.header;
    let mut draw = LevelDraw::new(header.seed, part.levels.len());
    for (position, &level) in job_levels.iter().enumerate() {
        let drawn = draw.next_level();
        if drawn != level {
            return Err(recorded.error(format!(
                "submit {} has level {level} where seed {} draws {drawn}: its levels were not drawn \
                 as `host-sim run` draws them, so its run loop cannot decide these requests again",
                position + 1,
                header.seed
            )));
        }
    }
    Ok(())
}

/// The header's configuration (its service-level part `part`) with `changes` applied.
fn config(header: &Header, part: &ServiceLevelHeader, changes: &Changes) -> Result<RunConfig, CliError> {
    let queue_capacity = changes.queue_capacity.unwrap_or(part.queue_capacity);
    check_queue_capacity(queue_capacity)?;
    let machines = changes.machines.unwrap_or(part.machines);
    if !(1..=MAX_MACHINES).contains(&machines) {
        return Err(CliError::Usage(format!("--machines {machines}: choose 1 to {MAX_MACHINES}")));
    }
    // Each error names its option, as `run` names it.
    let named = |option: &'static str| move |e: levels::LevelError| CliError::Usage(format!("{option}: {e}"));
    let slacks = match (&changes.slack, &changes.levels) {
        (_, Some(list)) => Some(levels::parse_slack_list(list).map_err(named("--levels"))?),
        (Some(sf), None) => Some(vec![levels::parse_slack(sf).map_err(named("--slack"))?]),
        (None, None) => None,
    };
    let prices =
        changes.prices.as_deref().map(levels::parse_prices).transpose().map_err(named("--prices"))?;
    let levels = match (slacks, prices) {
        (None, None) => part.levels.clone(),
        (None, Some(prices)) => {
            let slacks: Vec<u32> = part.levels.iter().map(|l| l.slack_milli).collect();
            levels::build(&slacks, Some(&prices)).map_err(named("--prices"))?
        }
        (Some(slacks), prices) => levels::build(&slacks, prices.as_deref()).map_err(named("--prices"))?,
    };
    let policy = match &changes.policy {
        Some(name) => super::policy::parse(name).map_err(|e| CliError::Usage(format!("--policy: {e}")))?,
        None => part.policy,
    };
    let alpha = changes.alpha.as_deref().or_else(|| header.setting("alpha")).unwrap_or("1");
    Ok(RunConfig {
        queue_capacity,
        policy,
        seed: changes.seed.unwrap_or(header.seed),
        window_ticks: header.window_ticks,
        alpha_milli: parse_alpha(alpha)?,
        ..RunConfig::new(machines, levels)
    })
}
