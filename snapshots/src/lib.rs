//! Scenarios: small text files of events, run through the kernel and rendered as a
//! readable decision listing followed by the thesis' metrics. The insta snapshots in
//! `tests/` hold those renderings, so any change of behaviour shows up as a diff to
//! review.
//!
//! # Scenario format
//! One directive per line; `#` starts a comment; blank lines are ignored.
//!
//! ```text
//! machines 2          # machines in use (default 1)
//! queue 16            # queue capacity, one of the engine's compiled sizes (default 16)
//! policy best-fit     # first-fit | best-fit | worst-fit | least-loaded | round-robin
//!                     # (default first-fit; any other is named above the listing)
//! level 2             # a service level with slack factor 2 and the default price 21 - sf
//! level 1.5 price 30  # slack factors may be fractional; the price may be given
//! submit 0 1 10       # submit at t=0 job 1 with p=10 on level 0
//! submit 5 2 3 1      # ... on level 1
//! advance 100         # time passes to 100
//! drain               # time passes until every queue is empty
//! reset               # forget everything and return to time 0
//! ```
//!
//! Levels must all come before the first event. The scenario always ends with a
//! drain, so every accepted job completes and the metrics are whole.
//!
//! # Reservation scenarios
//! A scenario whose first directive is `model reservation` runs the reservation
//! kernel (`replay::engine::reservation`) instead. Its configuration comes before the
//! first event:
//!
//! ```text
//! model reservation
//! nodes 8             # the pool (default 4)
//! slot 10             # slot length in ticks (default 10)
//! criterion edf       # fifo | edf | lff | bjf | shuffle (default edf)
//! fixing half         # never | at_acceptance | quarter | half | three_quarters (default never)
//! offers 4            # offer trials per rejection, 0 = no offers (default 0)
//! request 0 1 4 30 10 100 flexible 7
//!                     # at t=0 job 1 asks for 4 nodes for 30 ticks in [10, 100]:
//!                     # strict | relaxed | flexible; the shuffle key is optional (default 0)
//! finish 35 1         # the host reports job 1 finished at 35
//! advance 50          # time passes to 50
//! drain               # time passes to the end: every reservation starts and ends
//! reset               # forget everything and return to time 0
//! ```
//!
//! It also always ends with a drain.
//!
//! # Tiers scenarios
//! A scenario whose first directive is `model tiers` runs the tiers kernel
//! (`replay::engine::tiers`). Its configuration comes before the first event:
//!
//! ```text
//! model tiers
//! policy qos-res      # no-qos | qos | qos-res (default qos-res)
//! slot 10             # slot length in ticks (default 10)
//! laxity 1000         # rescheduling threshold in thousandths (default 1000)
//! bronze 1000         # Bronze internal deadline in ticks (default 1000)
//! resource high 2 1000  # a resource: group, nodes, speed in thousandths (in index order)
//! submit 0 1 gold 20 10 60  # at t=0 job 1, Gold, work 20, window [10, 60]
//! submit 0 2 bronze 30      # Bronze has no window
//! finish 35 1         # the host reports job 1 finished at 35
//! leave 40 1          # resource 1 leaves; `return 90 1` brings it back
//! advance 50          # time passes to 50
//! reset
//! ```
//!
//! It has no drain: the scenario reports the finishes it wants. Its listing is followed by the counts of its
//! decisions and the node-ticks its executed reservations used.
//!
//! # SLA scenarios
//! A scenario whose first directive is `model sla` runs the SLA kernel
//! (`replay::engine::sla`). Its configuration comes before the first event:
//!
//! ```text
//! model sla
//! nodes 4             # the machine's nodes (default 4)
//! slot 10             # slot length in ticks (default 10)
//! step 30             # Δt, a multiple of the slot (default: the slot)
//! hour 100            # ticks per hour, for the terms' fixed point (default 100)
//! order min(TF - 0.8*tD)  # the heuristic as the paper writes it, or `random SEED` (default min(TS))
//! submit 0 1 2 40 0 300   # at t=0 job 1 asks for 2 nodes for 40 ticks in [0, 300]
//! plan 0              # fit the pending batch at t=0
//! reset 0             # a new, empty machine at t=0 (pending requests are dropped)
//! ```
//!
//! It has no drain: a request is decided at a plan. Its listing is followed by the
//! configuration and the counts of its decisions.

use std::collections::HashMap;
use std::fmt::Write as _;

use host_sim::service_level::metrics::{MetricContext, Tally};
use kernel::log::Body;
use kernel::service_level::{Decision, Event, Level, Policy};
use kernel::{JobId, Tick};
use replay::engine::EngineError;
use replay::engine::service_level::Engine;
use replay::export::describe;
use replay::format::{FormatError, Header, LogWriter, Model};

mod reservation;
mod sla;
mod tiers;

pub use reservation::ReservationScenario;
pub use sla::SlaScenario;
pub use tiers::TiersScenario;

/// A parsed scenario.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scenario {
    pub machines: u16,
    pub queue_capacity: u32,
    /// The machine-choice policy (`policy NAME`; first fit by default).
    pub policy: Policy,
    pub levels: Vec<Level>,
    pub events: Vec<Event>,
    /// A reservation scenario (`model reservation`): its configuration and events; the
    /// fields above are then unused.
    pub reservation: Option<ReservationScenario>,
    /// CRC-64 of the scenario file's text (or of the synthetic workload's parameters):
    /// the log header's input hash.
    pub input_hash: u64,
    /// A tiers scenario (`model tiers`): its configuration, resources and events.
    pub tiers: Option<TiersScenario>,
    /// An SLA scenario (`model sla`): its configuration and events.
    pub sla: Option<SlaScenario>,
}

#[derive(Debug, thiserror::Error)]
pub enum ScenarioError {
    #[error("{file}:{line}: {message}")]
    Parse { file: String, line: usize, message: String },
    #[error("{file}: {source}")]
    Engine { file: String, source: EngineError },
    #[error("{file}: writing the log: {source}")]
    Log { file: String, source: FormatError },
}

/// Parses a scenario; errors name the file and line.
pub fn parse(file: &str, text: &str) -> Result<Scenario, ScenarioError> {
    let mut scenario = Scenario {
        machines: 1,
        queue_capacity: 16,
        policy: Policy::FirstFit,
        levels: Vec::new(),
        events: Vec::new(),
        reservation: None,
        input_hash: host_sim::workload::INPUT_CRC.checksum(text.as_bytes()),
        tiers: None,
        sla: None,
    };
    let mut first = true;
    for (index, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        if first && words.as_slice() == ["model", "tiers"] {
            scenario.tiers = Some(TiersScenario::default());
            first = false;
            continue;
        }
        if first && words.as_slice() == ["model", "sla"] {
            scenario.sla = Some(SlaScenario::default());
            first = false;
            continue;
        }
        if let Some(t) = &mut scenario.tiers {
            t.directive(&words).map_err(|message| ScenarioError::Parse {
                file: file.to_owned(),
                line: index + 1,
                message,
            })?;
            continue;
        }
        if let Some(s) = &mut scenario.sla {
            s.directive(&words).map_err(|message| ScenarioError::Parse {
                file: file.to_owned(),
                line: index + 1,
                message,
            })?;
            continue;
        }
        let result = match (&mut scenario.reservation, words.as_slice()) {
            (None, ["model", "reservation"]) if first => {
                scenario.reservation = Some(ReservationScenario::default());
                Ok(())
            }
            (Some(r), _) => r.directive(&words),
            (None, _) => directive(&mut scenario, &words),
        };
        first = false;
        result.map_err(|message| ScenarioError::Parse { file: file.to_owned(), line: index + 1, message })?;
    }
    if scenario.tiers.is_some() || scenario.sla.is_some() {
        return Ok(scenario);
    }
    if let Some(r) = &mut scenario.reservation {
        r.events.push(kernel::reservation::Event::Advance { t: Tick::MAX });
        return Ok(scenario);
    }
    if scenario.levels.is_empty() {
        scenario.levels.push(Level::whole(1, 20));
    }
    scenario.events.push(Event::Advance { t: Tick::MAX });
    Ok(scenario)
}

/// Word `i` of a directive as a whole number; `what` names it in the error.
fn number(words: &[&str], i: usize, what: &str) -> Result<u64, String> {
    let directive = words.first().copied().unwrap_or_default();
    let word = words.get(i).ok_or_else(|| format!("`{directive}` needs {what}"))?;
    word.parse().map_err(|_| format!("{what}: `{word}` is not a whole number"))
}

/// `value` as a `u32`, or an error naming `what`.
fn narrow(value: u64, what: &str) -> Result<u32, String> {
    u32::try_from(value).map_err(|_| format!("{what}: {value} is too large"))
}

fn directive(scenario: &mut Scenario, words: &[&str]) -> Result<(), String> {
    let number = |i: usize, what: &str| number(words, i, what);
    match words {
        ["machines", _] => scenario.machines = narrow(number(1, "a machine count")?, "machines")? as u16,
        ["queue", _] => scenario.queue_capacity = narrow(number(1, "a capacity")?, "queue")?,
        ["policy", name] => {
            scenario.policy = Policy::from_name(name).ok_or_else(|| {
                format!(
                    "policy `{name}` is not one of first-fit, best-fit, worst-fit, least-loaded, round-robin"
                )
            })?;
        }
        ["level", sf] | ["level", sf, "price", _] => {
            if !scenario.events.is_empty() {
                return Err("levels must come before the first event".into());
            }
            let slack_milli = host_sim::service_level::levels::parse_slack(sf).map_err(|e| e.to_string())?;
            let price = match words.get(3) {
                Some(_) => narrow(number(3, "a price")?, "price")?,
                None => host_sim::service_level::levels::default_price(slack_milli),
            };
            scenario.levels.push(Level { slack_milli, price_per_tick: price });
        }
        ["submit", _, _, _] | ["submit", _, _, _, _] => {
            let level = if words.len() == 5 { number(4, "a level index")? } else { 0 };
            let level = u8::try_from(level).map_err(|_| format!("level index {level} is too large"))?;
            let job = narrow(number(2, "a job id")?, "job")?;
            scenario.events.push(Event::Submit {
                t: number(1, "a time")?,
                job,
                p: number(3, "a processing time")?,
                level,
            });
        }
        ["advance", _] => scenario.events.push(Event::Advance { t: number(1, "a time")? }),
        ["drain"] => scenario.events.push(Event::Advance { t: Tick::MAX }),
        ["reset"] => scenario.events.push(Event::Reset),
        _ => return Err(format!("unknown directive `{}`", words.join(" "))),
    }
    Ok(())
}

/// A scenario made from the built-in seeded workload: `jobs` jobs of seed `seed`,
/// each with a level drawn by the same seeded draw host-sim uses.
pub fn synthetic(jobs: u32, seed: u64, machines: u16, levels: Vec<Level>) -> Scenario {
    let workload = host_sim::synthetic::generate(&host_sim::synthetic::SyntheticParams::new(jobs, seed));
    let mut draw = host_sim::service_level::levels::LevelDraw::new(seed, levels.len());
    let mut events: Vec<Event> = workload
        .jobs
        .iter()
        .map(|job| Event::Submit { t: job.release, job: job.id, p: job.p, level: draw.next_level() })
        .collect();
    events.push(Event::Advance { t: Tick::MAX });
    Scenario {
        machines,
        queue_capacity: 16,
        policy: Policy::FirstFit,
        levels,
        events,
        reservation: None,
        input_hash: workload.hash,
        tiers: None,
        sla: None,
    }
}

/// The seeded synthetic scenario the snapshots and committed logs hold: 40 jobs of
/// seed 7 on two machines with levels sf 1, 2 and 3.
pub fn synthetic_sample() -> Scenario {
    synthetic(40, 7, 2, host_sim::service_level::levels::thesis_set(3))
}

/// What a scenario produced: every record, and the rendering the snapshot holds.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub bodies: Vec<Body>,
    pub rendering: String,
}

/// Runs a scenario through the kernel and renders the listing and the metrics.
pub fn run(file: &str, scenario: &Scenario) -> Result<Outcome, ScenarioError> {
    if let Some(r) = &scenario.reservation {
        return r.run(file);
    }
    if let Some(t) = &scenario.tiers {
        return t.run(file);
    }
    if let Some(s) = &scenario.sla {
        return s.run(file);
    }
    let engine_error = |source| ScenarioError::Engine { file: file.to_owned(), source };
    let mut engine =
        Engine::new(scenario.machines, scenario.queue_capacity, scenario.policy, &scenario.levels)
            .map_err(engine_error)?;
    let mut metrics = Metrics::new(scenario);
    let mut bodies = Vec::new();
    let mut decisions = Vec::new();
    for event in &scenario.events {
        decisions.clear();
        engine.step(*event, &mut decisions);
        bodies.push(Body::Event(*event));
        bodies.extend(decisions.iter().map(|d| Body::Decision(*d)));
        metrics.event(event);
        decisions.iter().for_each(|d| metrics.decision(d));
    }
    let mut rendering = String::new();
    if scenario.policy != Policy::FirstFit {
        let _ = writeln!(rendering, "policy {}", scenario.policy.name());
    }
    for (seq, body) in bodies.iter().enumerate() {
        let _ = writeln!(rendering, "{seq:>4}  {}", describe(body));
    }
    rendering.push('\n');
    rendering.push_str(&metrics.render(scenario));
    Ok(Outcome { bodies, rendering })
}

/// The log of a scenario, as `replay verify` reads it.
pub fn log_bytes(file: &str, scenario: &Scenario, outcome: &Outcome) -> Result<Vec<u8>, ScenarioError> {
    let log_error = |source| ScenarioError::Log { file: file.to_owned(), source };
    let mut header =
        Header::new(scenario.machines, scenario.queue_capacity, scenario.policy, scenario.levels.clone());
    if let Some(r) = &scenario.reservation {
        header = Header::new(0, 0, Policy::FirstFit, Vec::new());
        header.model = Model::Reservation(replay::engine::reservation::header(r.config));
    }
    if let Some(t) = &scenario.tiers {
        header = Header::new(0, 0, Policy::FirstFit, Vec::new());
        header.model = Model::Tiers(replay::engine::tiers::header(t.config, &t.resources));
    }
    if let Some(s) = &scenario.sla {
        header = Header::new(0, 0, Policy::FirstFit, Vec::new());
        header.set_model(Model::Sla(replay::engine::sla::header(s.config)));
    }
    header.host_version = concat!("snapshots ", env!("CARGO_PKG_VERSION")).to_owned();
    header = header.with_input(file, scenario.input_hash);
    let mut writer = LogWriter::new(Vec::new(), &header).map_err(log_error)?;
    for body in &outcome.bodies {
        writer.record(*body).map_err(log_error)?;
    }
    writer.finish().map_err(log_error)
}

/// Metric bookkeeping across the windows a scenario's resets delimit.
struct Metrics {
    levels: Vec<Level>,
    jobs: HashMap<JobId, (Tick, Tick, u8)>,
    windows: Vec<Tally>,
}

impl Metrics {
    fn new(scenario: &Scenario) -> Self {
        Self { levels: scenario.levels.clone(), jobs: HashMap::new(), windows: vec![Tally::default()] }
    }

    fn current(&mut self) -> &mut Tally {
        if self.windows.is_empty() {
            self.windows.push(Tally::default());
        }
        let last = self.windows.len() - 1;
        &mut self.windows[last]
    }

    fn event(&mut self, event: &Event) {
        match *event {
            Event::Submit { t, job, p, level } => {
                self.jobs.insert(job, (t, p, level));
                let deadline = self.levels.get(usize::from(level)).and_then(|l| l.deadline(t, p));
                self.current().submit(t, p, deadline);
            }
            Event::Advance { .. } => {}
            Event::Reset => self.windows.push(Tally::default()),
        }
    }

    fn decision(&mut self, decision: &Decision) {
        match *decision {
            Decision::Accept { preempted, .. } => self.current().accept(preempted.is_some()),
            Decision::Complete { t, job, .. } => {
                let (release, p, level) = self.jobs.get(&job).copied().unwrap_or_default();
                let price = self.levels.get(usize::from(level)).map_or(0, |l| l.price_per_tick);
                self.current().complete(release, p, price, t);
            }
            Decision::Reject { .. } | Decision::Start { .. } | Decision::Preempt { .. } => {}
        }
    }

    fn render(&self, scenario: &Scenario) -> String {
        let context = MetricContext {
            machines: scenario.machines,
            u_max: scenario.levels.iter().map(|l| l.price_per_tick).max().unwrap_or(0),
            alpha_milli: 1000,
            greedy_bound: host_sim::service_level::levels::greedy_bound(&scenario.levels),
        };
        let mut out = String::new();
        for (index, tally) in self.windows.iter().enumerate().filter(|(_, t)| t.submitted > 0) {
            let m = tally.finish(&context);
            let _ = writeln!(
                out,
                "window {index}: jobs {}/{} accepted, PRJ {:.2}%, MBSD {:.4}, MWT {:.4}, TPT {} ({:.4} of submitted), \
                 MNI {:.4}, ME {:.4}, G {:.3}, cV^u {:.4}, cV^l {:.4}, greedy bound {:.4}",
                m.jobs_accepted,
                m.jobs_submitted,
                m.prj,
                m.mbsd,
                m.mwt,
                m.tpt,
                m.tpt_fraction,
                m.mni,
                m.me,
                m.g,
                m.cv_u,
                m.cv_l,
                m.greedy_bound
            );
        }
        out
    }
}
