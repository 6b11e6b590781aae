//! The reservation model's part of `host-sim whatif` ([`crate::whatif`]): a log's
//! requests back into mapped jobs, each with its actual run time, re-run by the
//! model's run loop ([`super::simulate_mapped`]).
//!
//! Each window starts with a `Reset`; the first `Request` of a job in it is the job's
//! request (a second one is the user's answer to an offer, which the run loop makes
//! again). A job's actual run time is `finish - start` when the log reports its
//! finish, and longer than its estimate when it started but was cut. A job that never
//! started has no actual run time in the log: under accurate estimates it is its
//! estimate; under `poisson80` it is unknown, and a what-if in which such a job would
//! start is refused by name rather than given a guessed run time. Window starts are
//! not in a log: the `k`-th window is placed at `k * window_ticks`, and every time
//! stays the same inside its window, which is all the run loop uses.

use std::collections::{HashMap, HashSet};

use kernel::log::Body;
use kernel::reservation::{Decision, Event};
use kernel::{JobId, Tick};
use replay::format::Header;

use super::cli::{parse_criterion, parse_fixing, parse_load, print_summary};
use super::mapping::{Estimates, Flex, Mapped, ReserveJob};
use super::run::Split;
use super::{Experiment, Outcome, ReserveError, simulate_mapped};
use crate::error::CliError;
use crate::output::RunOutputArgs;
use crate::units::parse_milli;
use crate::whatif::{Changes, Recorded, Whatif};
use crate::window::Window;

/// The options a reservation what-if applies.
const KNOWN: [&str; 4] = ["--criterion", "--nodes", "--fix-at", "--offers"];

impl Whatif for crate::model::Reservation {
    fn whatif(recorded: &Recorded, changes: &Changes, output: &RunOutputArgs) -> Result<(), CliError> {
        changes.refuse_except(&KNOWN, "a reservation")?;
        let experiment = experiment(recorded, changes)?;
        let rebuilt = requests(recorded, experiment.window_ticks)?;
        let unknown =
            if experiment.estimates == Estimates::Accurate { HashSet::new() } else { rebuilt.unknown };
        let mapped = Mapped { jobs: rebuilt.jobs, ..Mapped::default() };
        let split = Split { windows: rebuilt.windows, empty: 0, trailing_dropped: false };
        let workload = recorded.workload(Vec::new());
        let run = |record: Option<super::run::Recorder<'_>>| {
            guarded(&mapped, &split, &experiment, &unknown, record)
        };
        let outcome = match &output.log {
            Some(path) => {
                let header = super::log::header(&experiment, &workload);
                crate::record_log::write(path, &header, |record| run(Some(record)))?
            }
            None => run(None)?,
        };
        Ok(print_summary(&recorded.header.input_names(), &workload, &outcome, output.json)?)
    }
}

/// The run loop over the rebuilt requests, refusing a run in which a job whose actual
/// run time the log does not hold (`unknown`) starts.
fn guarded(
    mapped: &Mapped,
    split: &Split,
    experiment: &Experiment,
    unknown: &HashSet<JobId>,
    mut record: Option<super::run::Recorder<'_>>,
) -> Result<Outcome, ReserveError> {
    let mut started_unknown: Option<JobId> = None;
    let mut watch = |body: Body| {
        if let Body::ReservationDecision(Decision::Start { job, .. }) = body
            && unknown.contains(&job)
        {
            started_unknown.get_or_insert(job);
        }
        if let Some(record) = record.as_mut() {
            record(body);
        }
    };
    let outcome = simulate_mapped(mapped, split, experiment, Some(&mut watch))?;
    match started_unknown {
        Some(job) => Err(ReserveError::Usage(format!(
            "whatif: job {job} starts here but never ran in the log, whose estimates are {}: its actual \
             run time is not in the log, so this what-if is not decided",
            experiment.estimates.name()
        ))),
        None => Ok(outcome),
    }
}

/// A log's requests as the run loop takes them.
struct Rebuilt {
    jobs: Vec<ReserveJob>,
    windows: Vec<Window>,
    /// The jobs that never started in the log: their actual run time is not known.
    unknown: HashSet<JobId>,
}

fn requests(recorded: &Recorded, length: Tick) -> Result<Rebuilt, CliError> {
    let mut rebuilt = Rebuilt { jobs: Vec::new(), windows: Vec::new(), unknown: HashSet::new() };
    let mut position: HashMap<JobId, usize> = HashMap::new();
    let mut started: HashMap<JobId, Tick> = HashMap::new();
    let overflow = || recorded.error("a request's time overflows");
    for body in &recorded.records {
        match *body {
            Body::ReservationEvent(Event::Reset) => {
                let index = rebuilt.windows.len() as u64;
                let start = index.checked_mul(length).ok_or_else(overflow)?;
                let at = rebuilt.jobs.len();
                rebuilt.windows.push(Window { index, start, jobs: at..at });
            }
            Body::ReservationEvent(Event::Request(r)) if !position.contains_key(&r.job) => {
                let Some(window) = rebuilt.windows.last_mut() else {
                    return Err(recorded.error("a request before the first Reset"));
                };
                let at = |t: Tick| window.start.checked_add(t).ok_or_else(overflow);
                let (submit, ready, deadline) = (at(r.t)?, at(r.ready)?, at(r.deadline)?);
                position.insert(r.job, rebuilt.jobs.len());
                rebuilt.unknown.insert(r.job);
                rebuilt.jobs.push(ReserveJob {
                    id: r.job,
                    submit,
                    nodes: r.nodes,
                    estimate: r.estimate,
                    actual: r.estimate,
                    ready,
                    deadline,
                    kind: r.kind,
                    shuffle_key: r.shuffle_key,
                });
                window.jobs.end = rebuilt.jobs.len();
            }
            Body::ReservationDecision(Decision::Start { t, job }) => {
                started.insert(job, t);
                rebuilt.unknown.remove(&job);
                // Cut at its reservation's end unless a finish says otherwise: any
                // run time past the estimate is the same to the run loop.
                let job = position.get(&job).and_then(|&p| rebuilt.jobs.get_mut(p));
                job.into_iter().for_each(|j| j.actual = j.estimate.saturating_add(1));
            }
            Body::ReservationEvent(Event::Finish { t, job }) => {
                let ran = started.get(&job).map(|&s| t.saturating_sub(s));
                let entry = position.get(&job).and_then(|&p| rebuilt.jobs.get_mut(p));
                if let (Some(ran), Some(entry)) = (ran, entry) {
                    entry.actual = ran;
                }
            }
            _ => {}
        }
    }
    Ok(rebuilt)
}

/// The header's experiment with `changes` applied.
fn experiment(recorded: &Recorded, changes: &Changes) -> Result<Experiment, CliError> {
    let header: &Header = &recorded.header;
    let config =
        header.reservation().map(|r| r.config).ok_or_else(|| recorded.error("no reservation header"))?;
    let setting = |key: &str| {
        header.setting(key).ok_or_else(|| recorded.error(format!("the header has no `{key}` setting")))
    };
    let bad = |key: &str| recorded.error(format!("the header's `{key}` setting is not one `reserve` writes"));
    // The option read as `reserve --offers` reads it, in the same words; the header's
    // value as the header's.
    let offers_phi_milli = match changes.offers.as_deref() {
        Some("off") => None,
        Some(text) => {
            Some(crate::units::parse_decimal(text).map_err(|e| CliError::Usage(format!("--offers: {e}")))?)
        }
        None => match setting("offers")? {
            "off" => None,
            text => Some(parse_milli(text).ok_or_else(|| bad("offers"))?),
        },
    };
    Ok(Experiment {
        seed: header.seed,
        load_milli: parse_load(setting("load")?).map_err(|_| bad("load"))?,
        flex: Flex::parse(setting("flex")?).ok_or_else(|| bad("flex"))?,
        estimates: Estimates::parse(setting("estimates")?).ok_or_else(|| bad("estimates"))?,
        nodes: changes.nodes.unwrap_or(config.nodes),
        slot_ticks: config.slot_ticks,
        criterion: changes.criterion.as_deref().map(parse_criterion).transpose()?.unwrap_or(config.criterion),
        fixing: match &changes.fix_at {
            Some(share) => parse_fixing(Some(share))?,
            None => config.fixing,
        },
        offers_phi_milli,
        offer_trials: if config.offer_trials > 0 {
            config.offer_trials
        } else {
            Experiment::paper(1).offer_trials
        },
        window_ticks: header.window_ticks.ok_or_else(|| recorded.error("the header has no window length"))?,
    })
}
