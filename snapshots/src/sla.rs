//! SLA scenarios (`model sla`): parsing, running through the host's SLA engine, and
//! the rendering the snapshots hold.

use std::collections::HashMap;
use std::fmt::Write as _;

use host_sim::sla::metrics::{Terms, summarise};
use kernel::JobId;
use kernel::log::Body;
use kernel::sla::{Config, Decision, Direction, Event, Heuristic, Order, RejectReason, Request, Term};
use replay::engine::sla::SlaEngine;
use replay::format::{Header, Model};

use super::{ModelScenario, Outcome, ScenarioError, listing, narrow};

/// An SLA scenario: the kernel's configuration and the events.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SlaScenario {
    pub config: Config,
    pub events: Vec<Event>,
}

impl Default for SlaScenario {
    /// Four nodes, 10-tick slots, a start every slot, 100 ticks an hour, `min(TS)`.
    fn default() -> Self {
        let order = Order::Heuristic(Heuristic::single(Direction::Min, Term::Ts));
        Self { config: Config { ticks_per_hour: 100, ..Config::new(4, 10, order) }, events: Vec::new() }
    }
}

impl ModelScenario for SlaScenario {
    /// One directive of an SLA scenario (after `model sla`).
    fn directive(&mut self, words: &[&str]) -> Result<(), String> {
        let number = |i: usize, what: &str| super::number(words, i, what);
        let config_line = matches!(words.first(), Some(&("nodes" | "slot" | "step" | "hour" | "order")));
        if config_line && !self.events.is_empty() {
            return Err("the configuration must come before the first event".into());
        }
        let c = &mut self.config;
        match words {
            ["nodes", _] => c.nodes = narrow(number(1, "a node count")?, "nodes")?,
            ["slot", _] => {
                // Δt follows the slot unless it was given.
                let same = c.step_ticks == c.slot_ticks;
                c.slot_ticks = number(1, "a slot length")?;
                if same {
                    c.step_ticks = c.slot_ticks;
                }
            }
            ["step", _] => c.step_ticks = number(1, "a step between starts")?,
            ["hour", _] => c.ticks_per_hour = number(1, "ticks per hour")?,
            ["order", "random", _] => c.order = Order::Random { seed: number(2, "a seed")? },
            ["order", ..] => {
                let text = words[1..].join(" ");
                let spec = host_sim::sla::heuristic::parse(&text).map_err(|e| format!("order: {e}"))?;
                c.order = spec.order(0);
            }
            ["submit", _, _, _, _, _, _] => {
                let request = Request {
                    job: narrow(number(2, "a job id")?, "job")?,
                    ncpu: narrow(number(3, "a node count")?, "nodes")?,
                    td: number(4, "a duration")?,
                    ts: number(5, "an earliest start")?,
                    tf: number(6, "a latest finish")?,
                };
                self.events.push(Event::Submit { t: number(1, "a time")?, request });
            }
            ["submit", ..] => return Err("`submit T JOB NCPU TD TS TF`".into()),
            ["plan", _] => self.events.push(Event::Plan { t: number(1, "a time")? }),
            ["reset", _] => self.events.push(Event::Reset { t: number(1, "a time")? }),
            _ => return Err(format!("unknown sla directive `{}`", words.join(" "))),
        }
        Ok(())
    }

    /// Runs the scenario and renders the listing and the counts.
    fn run(&self, file: &str) -> Result<Outcome, ScenarioError> {
        let mut engine = SlaEngine::new(self.config)
            .map_err(|source| ScenarioError::Engine { file: file.to_owned(), source })?;
        let mut bodies = Vec::new();
        let mut decisions = Vec::new();
        let mut counts = Counts::default();
        for event in &self.events {
            decisions.clear();
            engine.step(*event, &mut decisions);
            bodies.push(Body::SlaEvent(*event));
            bodies.extend(decisions.iter().map(|d| Body::SlaDecision(*d)));
            counts.step(event, &decisions);
        }
        let mut rendering = listing(&bodies);
        let c = &self.config;
        let _ = writeln!(
            rendering,
            "{} nodes, {}-tick slots, starts every {} ticks, {} ticks an hour, order {}",
            c.nodes, c.slot_ticks, c.step_ticks, c.ticks_per_hour, c.order
        );
        counts.render(&mut rendering);
        Ok(Outcome { bodies, rendering })
    }

    fn header(&self) -> Header {
        Header::new(Model::Sla(replay::engine::sla::header(self.config)))
    }
}

/// One job set's requests and starts, for its incomes.
#[derive(Debug, Default)]
struct PricedSet {
    terms: Vec<Terms>,
    starts: Vec<Option<kernel::Tick>>,
}

/// What an SLA run's summary counts: requests, acceptances and the node-ticks they
/// hold, rejections by reason, and each job set (the events between resets) for its
/// incomes: every submitted request's terms, and its start if it was accepted.
#[derive(Debug)]
struct Counts {
    requests: HashMap<JobId, Request>,
    submitted: u64,
    accepted: u64,
    node_ticks: u64,
    /// Rejections, in the order of `RejectReason::ALL`.
    rejected: [u64; 7],
    sets: Vec<PricedSet>,
    /// Each request's index in the current set.
    position: HashMap<JobId, usize>,
}

impl Default for Counts {
    fn default() -> Self {
        Self {
            requests: HashMap::new(),
            submitted: 0,
            accepted: 0,
            node_ticks: 0,
            rejected: [0; 7],
            sets: vec![PricedSet::default()],
            position: HashMap::new(),
        }
    }
}

impl Counts {
    /// One event and the decisions it drew: a submit joins the current set before
    /// its decisions count, and a reset closes a set that holds requests after them.
    fn step(&mut self, event: &Event, decisions: &[Decision]) {
        if let Event::Submit { request, .. } = event {
            self.submit(request);
        }
        decisions.iter().for_each(|d| self.decision(d));
        if matches!(event, Event::Reset { .. }) && self.sets.last().is_some_and(|set| !set.terms.is_empty()) {
            self.sets.push(PricedSet::default());
            self.position.clear();
        }
    }

    fn submit(&mut self, request: &Request) {
        self.submitted += 1;
        self.requests.insert(request.job, *request);
        if let Some(set) = self.sets.last_mut() {
            self.position.insert(request.job, set.terms.len());
            set.terms.push(Terms { ts: request.ts, tf: request.tf, td: request.td, ncpu: request.ncpu });
            set.starts.push(None);
        }
    }

    fn decision(&mut self, decision: &Decision) {
        match *decision {
            Decision::Accept { job, start } => {
                self.accepted += 1;
                self.node_ticks += self.requests.get(&job).map_or(0, |r| u64::from(r.ncpu) * r.td);
                if let (Some(set), Some(&i)) = (self.sets.last_mut(), self.position.get(&job))
                    && let Some(slot) = set.starts.get_mut(i)
                {
                    *slot = Some(start);
                }
            }
            Decision::Reject { reason, .. } => {
                let i = RejectReason::ALL.iter().position(|r| *r == reason).unwrap_or(0);
                self.rejected[i] += 1;
            }
        }
    }

    /// The counts line, then each set's incomes.
    fn render(&self, rendering: &mut String) {
        let reasons: Vec<String> = RejectReason::ALL
            .iter()
            .zip(self.rejected)
            .filter(|(_, n)| *n > 0)
            .map(|(reason, n)| format!("{n} {reason}"))
            .collect();
        let _ = writeln!(
            rendering,
            "{} requests: {} accepted ({} node-ticks), {} rejected{}",
            self.submitted,
            self.accepted,
            self.node_ticks,
            self.rejected.iter().sum::<u64>(),
            if reasons.is_empty() { String::new() } else { format!(" ({})", reasons.join(", ")) }
        );
        // The incomes of each set (host-sim's pricing, eq. 8): Rigid and ASAP client
        // constraints by SLA, CPU and Fair provider policies.
        for (i, set) in self.sets.iter().filter(|set| !set.terms.is_empty()).enumerate() {
            let income = summarise(&set.terms, &set.starts, 1).income;
            let _ = writeln!(
                rendering,
                "set {i} income: rigid sla {:.3} cpu {:.3} fair {:.3}; asap sla {:.3} cpu {:.3} fair {:.3}",
                income.rigid_sla,
                income.rigid_cpu,
                income.rigid_fair,
                income.asap_sla,
                income.asap_cpu,
                income.asap_fair
            );
        }
    }
}
