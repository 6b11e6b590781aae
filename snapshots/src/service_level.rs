//! Service-level scenarios (the default, no `model` line): parsing, the seeded
//! synthetic scenario, running through the host's runtime-sized engine, and the
//! rendering the snapshots hold (the listing, then the thesis' metrics per window).

use std::collections::HashMap;
use std::fmt::Write as _;

use host_sim::service_level::metrics::{MetricContext, Tally};
use kernel::log::Body;
use kernel::service_level::{Decision, Event, Level, Policy};
use kernel::{JobId, Tick};
use replay::engine::service_level::ServiceLevelEngine;
use replay::format::{Header, ServiceLevelHeader};

use super::{Model, ModelScenario, Outcome, Scenario, ScenarioError, listing, narrow};

/// A service-level scenario: the machines, the queue capacity, the policy, the
/// levels and the events.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServiceLevelScenario {
    pub machines: u16,
    pub queue_capacity: u32,
    /// The machine-choice policy (`policy NAME`; first fit by default).
    pub policy: Policy,
    pub levels: Vec<Level>,
    pub events: Vec<Event>,
}

impl Default for ServiceLevelScenario {
    /// One machine, a queue of 16, first fit, no level yet (one is added at the end
    /// if the scenario names none).
    fn default() -> Self {
        Self {
            machines: 1,
            queue_capacity: 16,
            policy: Policy::FirstFit,
            levels: Vec::new(),
            events: Vec::new(),
        }
    }
}

impl ModelScenario for ServiceLevelScenario {
    fn directive(&mut self, words: &[&str]) -> Result<(), String> {
        let number = |i: usize, what: &str| super::number(words, i, what);
        match words {
            ["machines", _] => self.machines = narrow(number(1, "a machine count")?, "machines")? as u16,
            ["queue", _] => self.queue_capacity = narrow(number(1, "a capacity")?, "queue")?,
            ["policy", name] => {
                self.policy = Policy::from_name(name).ok_or_else(|| {
                    format!(
                        "policy `{name}` is not one of first-fit, best-fit, worst-fit, least-loaded, round-robin"
                    )
                })?;
            }
            ["level", sf] | ["level", sf, "price", _] => {
                if !self.events.is_empty() {
                    return Err("levels must come before the first event".into());
                }
                let slack_milli =
                    host_sim::service_level::levels::parse_slack(sf).map_err(|e| e.to_string())?;
                let price = match words.get(3) {
                    Some(_) => narrow(number(3, "a price")?, "price")?,
                    None => host_sim::service_level::levels::default_price(slack_milli),
                };
                self.levels.push(Level { slack_milli, price_per_tick: price });
            }
            ["submit", _, _, _] | ["submit", _, _, _, _] => {
                let level = if words.len() == 5 { number(4, "a level index")? } else { 0 };
                let level = u8::try_from(level).map_err(|_| format!("level index {level} is too large"))?;
                let job = narrow(number(2, "a job id")?, "job")?;
                self.events.push(Event::Submit {
                    t: number(1, "a time")?,
                    job,
                    p: number(3, "a processing time")?,
                    level,
                });
            }
            ["advance", _] => self.events.push(Event::Advance { t: number(1, "a time")? }),
            ["drain"] => self.events.push(Event::Advance { t: Tick::MAX }),
            ["reset"] => self.events.push(Event::Reset),
            _ => return Err(format!("unknown directive `{}`", words.join(" "))),
        }
        Ok(())
    }

    /// A scenario without levels runs on one, sf 1 at price 20; every scenario ends
    /// with a drain, so every accepted job completes and the metrics are whole.
    fn finish(&mut self) {
        if self.levels.is_empty() {
            self.levels.push(Level::whole(1, 20));
        }
        self.events.push(Event::Advance { t: Tick::MAX });
    }

    fn run(&self, file: &str) -> Result<Outcome, ScenarioError> {
        let engine_error = |source| ScenarioError::Engine { file: file.to_owned(), source };
        let mut engine =
            ServiceLevelEngine::new(self.machines, self.queue_capacity, self.policy, &self.levels)
                .map_err(engine_error)?;
        let mut metrics = Metrics::new(self);
        let mut bodies = Vec::new();
        let mut decisions = Vec::new();
        for event in &self.events {
            decisions.clear();
            engine.step(*event, &mut decisions);
            bodies.push(Body::Event(*event));
            bodies.extend(decisions.iter().map(|d| Body::Decision(*d)));
            metrics.event(event);
            decisions.iter().for_each(|d| metrics.decision(d));
        }
        let mut rendering = String::new();
        if self.policy != Policy::FirstFit {
            let _ = writeln!(rendering, "policy {}", self.policy.name());
        }
        rendering.push_str(&listing(&bodies));
        rendering.push_str(&metrics.render(self));
        Ok(Outcome { bodies, rendering })
    }

    fn header(&self) -> Header {
        let part =
            ServiceLevelHeader::new(self.machines, self.queue_capacity, self.policy, self.levels.clone());
        Header::new(part.into())
    }
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
    let scenario =
        ServiceLevelScenario { machines, queue_capacity: 16, policy: Policy::FirstFit, levels, events };
    Scenario { model: Model::ServiceLevel(scenario), input_hash: workload.hash }
}

/// The seeded synthetic scenario the snapshots and committed logs hold: 40 jobs of
/// seed 7 on two machines with levels sf 1, 2 and 3.
pub fn synthetic_sample() -> Scenario {
    synthetic(40, 7, 2, host_sim::service_level::levels::thesis_set(3))
}

/// Metric bookkeeping across the windows a scenario's resets delimit.
struct Metrics {
    levels: Vec<Level>,
    jobs: HashMap<JobId, (Tick, Tick, u8)>,
    windows: Vec<Tally>,
}

impl Metrics {
    fn new(scenario: &ServiceLevelScenario) -> Self {
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

    fn render(&self, scenario: &ServiceLevelScenario) -> String {
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
