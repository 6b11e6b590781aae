//! Accept-all scenarios (`model accept_all`): `submit T JOB` lines, run through the
//! kernel, listed with their counts.

use std::fmt::Write as _;

use kernel::accept_all::{AcceptAllKernel, Config, Decision, Event};
use kernel::contract::Kernel;
use kernel::log::Body;
use replay::format::{Header, Model};

use super::{ModelScenario, Outcome, ScenarioError, listing, narrow};

/// An accept-all scenario: its requests.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AcceptAllScenario {
    pub events: Vec<Event>,
}

impl ModelScenario for AcceptAllScenario {
    fn directive(&mut self, words: &[&str]) -> Result<(), String> {
        match words {
            ["submit", _, _] => {
                let t = super::number(words, 1, "a time")?;
                let job = narrow(super::number(words, 2, "a job id")?, "job")?;
                self.events.push(Event::Submit { t, job });
                Ok(())
            }
            _ => Err(format!("unknown accept_all directive `{}` (`submit T JOB`)", words.join(" "))),
        }
    }

    fn run(&self, _: &str) -> Result<Outcome, ScenarioError> {
        let mut kernel = AcceptAllKernel::new(Config {});
        let (mut bodies, mut accepted) = (Vec::new(), 0);
        for &event in &self.events {
            bodies.push(Body::AcceptAllEvent(event));
            kernel.step(event, &mut |decision| {
                accepted += u64::from(matches!(decision, Decision::Accept { .. }));
                bodies.push(Body::AcceptAllDecision(decision));
            });
        }
        let mut rendering = listing(&bodies);
        let _ = writeln!(rendering, "{} requests, {accepted} accepted", self.events.len());
        Ok(Outcome { bodies, rendering })
    }

    fn header(&self) -> Header {
        Header::new(Model::AcceptAll(replay::engine::accept_all::header(Config {})))
    }
}
