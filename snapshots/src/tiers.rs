//! Tiers scenarios (`model tiers`): parsing, running through the host's tiers kernel,
//! and the rendering the snapshots hold.

use std::fmt::Write as _;

use kernel::log::Body;
use kernel::tiers::{Config, Decision, Event, Group, Policy, Request, Resource, Tier};
use replay::engine::tiers::TiersEngine;
use replay::format::{Header, Model};

use super::{ModelScenario, Outcome, ScenarioError, job_end, listing, narrow};

/// A tiers scenario: the kernel's configuration, its resources and the events.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TiersScenario {
    pub config: Config,
    pub resources: Vec<Resource>,
    pub events: Vec<Event>,
}

impl Default for TiersScenario {
    fn default() -> Self {
        let config = Config { slot_ticks: 10, bronze_deadline: 1000, ..Config::new(Policy::QosRes) };
        Self { config, resources: Vec::new(), events: Vec::new() }
    }
}

impl ModelScenario for TiersScenario {
    /// One directive of a tiers scenario (after `model tiers`).
    fn directive(&mut self, words: &[&str]) -> Result<(), String> {
        let number = |i: usize, what: &str| super::number(words, i, what);
        let resource = |i: usize| -> Result<u8, String> {
            let r = number(i, "a resource index")?;
            u8::try_from(r).map_err(|_| format!("resource: {r} is too large"))
        };
        let config_line =
            matches!(words.first(), Some(&("policy" | "slot" | "laxity" | "bronze" | "resource")));
        if config_line && !self.events.is_empty() {
            return Err("the configuration must come before the first event".into());
        }
        match words {
            ["policy", name] => {
                self.config.policy = Policy::from_name(name)
                    .ok_or_else(|| format!("unknown policy `{name}` (no-qos, qos, qos-res)"))?;
            }
            ["slot", _] => self.config.slot_ticks = number(1, "a slot length")?,
            ["laxity", _] => self.config.laxity_threshold_milli = number(1, "a laxity in thousandths")?,
            ["bronze", _] => self.config.bronze_deadline = number(1, "a Bronze deadline")?,
            ["resource", group, _, _] => {
                let group = match *group {
                    "high" => Group::High,
                    "low" => Group::Low,
                    _ => return Err(format!("unknown group `{group}` (high, low)")),
                };
                let nodes = narrow(number(2, "a node count")?, "nodes")?;
                let speed_milli = narrow(number(3, "a speed in thousandths")?, "speed")?;
                self.resources.push(Resource { group, nodes, speed_milli });
            }
            ["submit", _, _, tier, _, ..] => {
                let tier = match *tier {
                    "gold" => Tier::Gold,
                    "silver" => Tier::Silver,
                    "bronze" => Tier::Bronze,
                    _ => return Err(format!("unknown tier `{tier}` (gold, silver, bronze)")),
                };
                let (ready, deadline) = match (tier, words.len()) {
                    (Tier::Bronze, 5) => (0, 0),
                    (_, 7) => (number(5, "a start time")?, number(6, "a deadline")?),
                    _ => {
                        return Err(
                            "`submit T JOB TIER WORK [READY DEADLINE]`: Gold and Silver need a window".into(),
                        );
                    }
                };
                self.events.push(Event::Submit(Request {
                    t: number(1, "a time")?,
                    job: narrow(number(2, "a job id")?, "job")?,
                    tier,
                    work: number(4, "a work")?,
                    ready,
                    deadline,
                }));
            }
            ["finish", _, _] => self.events.push(job_end(words).map(|(t, job)| Event::Finish { t, job })?),
            ["advance", _] => self.events.push(Event::Advance { t: number(1, "a time")? }),
            ["leave", _, _] => {
                self.events.push(Event::Leave { t: number(1, "a time")?, resource: resource(2)? })
            }
            ["return", _, _] => {
                self.events.push(Event::Return { t: number(1, "a time")?, resource: resource(2)? })
            }
            ["reset"] => self.events.push(Event::Reset),
            _ => return Err(format!("unknown tiers directive `{}`", words.join(" "))),
        }
        Ok(())
    }

    /// Runs the scenario and renders the listing and the counts.
    fn run(&self, file: &str) -> Result<Outcome, ScenarioError> {
        let mut engine = TiersEngine::new(self.config, &self.resources)
            .map_err(|source| ScenarioError::Engine { file: file.to_owned(), source })?;
        let mut bodies = Vec::new();
        let mut decisions = Vec::new();
        let mut counts = [0u64; 8];
        for event in &self.events {
            decisions.clear();
            engine.step(*event, &mut decisions);
            bodies.push(Body::TiersEvent(*event));
            bodies.extend(decisions.iter().map(|d| Body::TiersDecision(*d)));
            for d in &decisions {
                let i = match d {
                    Decision::Accept { .. } => 0,
                    Decision::Reject { .. } => 1,
                    Decision::Move { .. } => 2,
                    Decision::Start { .. } => 3,
                    Decision::End { .. } => 4,
                    Decision::Lost { .. } => 5,
                    Decision::Replace { .. } => 6,
                    Decision::Violate { .. } => 7,
                };
                counts[i] += 1;
            }
        }
        let mut rendering = listing(&bodies);
        let c = &self.config;
        let _ = writeln!(
            rendering,
            "policy {}, {}-tick slots, laxity threshold {}/1000, Bronze deadline {}; resources: {}",
            c.policy.name(),
            c.slot_ticks,
            c.laxity_threshold_milli,
            c.bronze_deadline,
            self.resources
                .iter()
                .enumerate()
                .map(|(i, r)| format!("r{i} {} x{} speed {}", r.group.name(), r.nodes, r.speed_milli))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let [a, r, m, s, e, l, p, v] = counts;
        let _ = writeln!(
            rendering,
            "{a} accepted, {r} rejected, {m} moved, {s} started, {e} ended, {l} lost, {p} re-placed, {v} violated"
        );
        Ok(Outcome { bodies, rendering })
    }

    fn header(&self) -> Header {
        Header::new(Model::Tiers(replay::engine::tiers::header(self.config, &self.resources)))
    }
}
