//! Reservation scenarios (`model reservation`): parsing, running through the host's
//! reservation kernel, and the rendering the snapshots hold.

use std::fmt::Write as _;

use kernel::log::Body;
use kernel::reservation::{Config, Criterion, Decision, Event, Fixing, Request, RequestKind};
use kernel::{JobId, Tick};
use replay::engine::reservation::ReservationEngine;
use replay::format::{Header, Model};

use super::{ModelScenario, Outcome, ScenarioError, job_end, listing, narrow};

/// A reservation scenario: the kernel's configuration and the events.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReservationScenario {
    pub config: Config,
    pub events: Vec<Event>,
}

impl Default for ReservationScenario {
    fn default() -> Self {
        let config = Config { offer_trials: 0, ..Config::new(4, 10) };
        Self { config, events: Vec::new() }
    }
}

impl ModelScenario for ReservationScenario {
    /// One directive of a reservation scenario (after `model reservation`).
    fn directive(&mut self, words: &[&str]) -> Result<(), String> {
        let number = |i: usize, what: &str| super::number(words, i, what);
        let config_line =
            matches!(words.first(), Some(&("nodes" | "slot" | "criterion" | "fixing" | "offers")));
        if config_line && !self.events.is_empty() {
            return Err("the configuration must come before the first event".into());
        }
        match words {
            ["nodes", _] => self.config.nodes = narrow(number(1, "a node count")?, "nodes")?,
            ["slot", _] => self.config.slot_ticks = number(1, "a slot length")?,
            ["criterion", name] => self.config.criterion = criterion(name)?,
            ["fixing", name] => self.config.fixing = fixing(name)?,
            ["offers", _] => {
                let trials = number(1, "an offer trial count")?;
                self.config.offer_trials =
                    u16::try_from(trials).map_err(|_| format!("offers: {trials} is too large"))?;
            }
            ["request", _, _, _, _, _, _, kind] | ["request", _, _, _, _, _, _, kind, _] => {
                let shuffle_key =
                    if words.len() == 9 { narrow(number(8, "a shuffle key")?, "shuffle key")? } else { 0 };
                self.events.push(Event::Request(Request {
                    t: number(1, "a time")?,
                    job: narrow(number(2, "a job id")?, "job")?,
                    nodes: narrow(number(3, "a node count")?, "nodes")?,
                    estimate: number(4, "an estimate")?,
                    ready: number(5, "a ready time")?,
                    deadline: number(6, "a deadline")?,
                    kind: request_kind(kind)?,
                    shuffle_key,
                }));
            }
            ["finish", _, _] => self.events.push(job_end(words).map(|(t, job)| Event::Finish { t, job })?),
            ["advance", _] => self.events.push(Event::Advance { t: number(1, "a time")? }),
            ["drain"] => self.events.push(Event::Advance { t: Tick::MAX }),
            ["reset"] => self.events.push(Event::Reset),
            _ => return Err(format!("unknown reservation directive `{}`", words.join(" "))),
        }
        Ok(())
    }

    /// Every reservation scenario ends with a drain: every reservation starts and ends.
    fn finish(&mut self) {
        self.events.push(Event::Advance { t: Tick::MAX });
    }

    /// Runs the scenario and renders the listing and the counts.
    fn run(&self, file: &str) -> Result<Outcome, ScenarioError> {
        let mut engine = ReservationEngine::new(self.config)
            .map_err(|source| ScenarioError::Engine { file: file.to_owned(), source })?;
        let mut counts = Counts::default();
        let mut bodies = Vec::new();
        let mut decisions = Vec::new();
        for event in &self.events {
            decisions.clear();
            engine.step(*event, &mut decisions);
            bodies.push(Body::ReservationEvent(*event));
            bodies.extend(decisions.iter().map(|d| Body::ReservationDecision(*d)));
            counts.event(event);
            decisions.iter().for_each(|d| counts.decision(d));
        }
        let mut rendering = listing(&bodies);
        let c = &self.config;
        let _ = writeln!(
            rendering,
            "pool {} nodes, {}-tick slots, criterion {}, fixing {}, {} offer trials",
            c.nodes,
            c.slot_ticks,
            c.criterion.name(),
            c.fixing.name(),
            c.offer_trials
        );
        rendering.push_str(&counts.render());
        Ok(Outcome { bodies, rendering })
    }

    fn header(&self) -> Header {
        Header::new(Model::Reservation(replay::engine::reservation::header(self.config)))
    }
}

fn criterion(name: &str) -> Result<Criterion, String> {
    [
        Criterion::Fifo,
        Criterion::Edf,
        Criterion::LeastFlexibleFirst,
        Criterion::BiggestJobFirst,
        Criterion::Shuffle,
    ]
    .into_iter()
    .find(|c| c.name() == name)
    .ok_or_else(|| format!("unknown criterion `{name}` (fifo, edf, lff, bjf, shuffle)"))
}

fn fixing(name: &str) -> Result<Fixing, String> {
    [Fixing::Never, Fixing::AtAcceptance, Fixing::Quarter, Fixing::Half, Fixing::ThreeQuarters]
        .into_iter()
        .find(|f| f.name() == name)
        .ok_or_else(|| {
            format!("unknown fixing rule `{name}` (never, at_acceptance, quarter, half, three_quarters)")
        })
}

fn request_kind(name: &str) -> Result<RequestKind, String> {
    match name {
        "strict" => Ok(RequestKind::Strict),
        "relaxed" => Ok(RequestKind::RelaxedStart),
        "flexible" => Ok(RequestKind::Flexible),
        _ => Err(format!("unknown request kind `{name}` (strict, relaxed, flexible)")),
    }
}

/// What the decisions of a reservation scenario add up to.
#[derive(Default)]
struct Counts {
    requests: u64,
    accepted: u64,
    rejected: u64,
    offers: u64,
    replans: u64,
    fixes: u64,
    early: u64,
    cut: u64,
    /// Nodes of each started job, for the node-ticks of its run.
    nodes: std::collections::HashMap<JobId, (u32, Tick)>,
    node_ticks: u128,
    requested: std::collections::HashMap<JobId, u32>,
}

impl Counts {
    fn event(&mut self, event: &Event) {
        if let Event::Request(r) = event {
            self.requests += 1;
            self.requested.insert(r.job, r.nodes);
        }
    }

    fn decision(&mut self, decision: &Decision) {
        match *decision {
            Decision::Accept { .. } => self.accepted += 1,
            Decision::Reject { .. } => self.rejected += 1,
            Decision::Offer { .. } => self.offers += 1,
            Decision::Replan { .. } => self.replans += 1,
            Decision::Fix { .. } => self.fixes += 1,
            Decision::Start { t, job } => {
                let nodes = self.requested.get(&job).copied().unwrap_or(0);
                self.nodes.insert(job, (nodes, t));
            }
            Decision::End { t, job, early, cut } => {
                self.early += u64::from(early);
                self.cut += u64::from(cut);
                if let Some((nodes, start)) = self.nodes.remove(&job) {
                    self.node_ticks += u128::from(nodes) * u128::from(t.saturating_sub(start));
                }
            }
        }
    }

    fn render(&self) -> String {
        format!(
            "requests {}: {} accepted, {} rejected, {} offers, {} replans, {} fixes, {} early finishes, {} cut; \
             {} node-ticks used\n",
            self.requests,
            self.accepted,
            self.rejected,
            self.offers,
            self.replans,
            self.fixes,
            self.early,
            self.cut,
            self.node_ticks
        )
    }
}
