//! The reservation model's side of the host contract ([`crate::model::HostModel`]):
//! its subcommands (`reserve`, `reserve-sweep`) and their dispatch, and its row of `compare` with its
//! documented defaults.

use std::collections::HashMap;

use kernel::JobId;
use kernel::log::Body;
use kernel::reservation::{Decision as ResvDecision, Event as ResvEvent};

use super::{Experiment, Input};
use crate::compare::{CompareError, Row, mean};
use crate::error::CliError;
use crate::error::model_result;
use crate::files::Files;
use crate::model::{HostModel, Reservation};
use crate::reservation;
use crate::workload::Workload;

/// The reservation model's subcommands (their places in `host-sim --help`).
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Flexible advance reservations (Netto et al. 2007): one configuration.
    #[command(display_order = 2, allow_negative_numbers = true, after_help = EXAMPLE_RESERVE)]
    Reserve(super::cli::RunArgs),
    /// Flexible advance reservations: the paper's figures 2-7 as CSV, and its findings.
    #[command(display_order = 3, allow_negative_numbers = true, after_help = EXAMPLE_RESERVE_SWEEP)]
    ReserveSweep(super::cli::SweepArgs),
}

const EXAMPLE_RESERVE: &str = "Example: host-sim reserve --trace ../shared/traces/SDSC-SP2-1998-4.2-cln.swf.gz \
--criterion edf --load 1.25 --flex medium --log out/sdsc-resv.log";
const EXAMPLE_RESERVE_SWEEP: &str =
    "Example: host-sim reserve-sweep --trace ../shared/traces/SDSC-SP2-1998-4.2-cln.swf.gz --out out/netto";

/// What `reserve-sweep --out` writes (and its figures).
const SWEEP: &[&str] = &["fig2.csv", "fig3.csv", "fig4.csv", "fig5.csv", "fig6.csv", "fig7.csv"];

impl HostModel for Reservation {
    type Command = Command;
    const SAMPLE: &'static [&'static str] = &["reserve", "--nodes", "16", "--window", "1d", "--offers", "1.0", "--load", "1.25"];

    fn dispatch(command: &Command) -> Result<(), CliError> {
        match command {
            Command::Reserve(args) => model_result(crate::jobs_out::around(
                args,
                args.jobs.jobs_out.as_deref(),
                |args| &mut args.output.log,
                super::cli::reserve,
            )),
            Command::ReserveSweep(args) => model_result(super::cli::reserve_sweep(args)),
        }
    }

    fn files(command: &Command) -> Files {
        let new = Files::default();
        match command {
            Command::Reserve(args) => new.traces(&args.input.source).output("--log", args.output.log.as_deref()).output("--jobs-out", args.jobs.jobs_out.as_deref()),
            Command::ReserveSweep(args) => {
                let files = new.traces(&args.input.source);
                crate::shard::files(files, &args.shard, Some(&args.out), SWEEP, args.plots)
            }
        }
    }

    fn compare(workload: &Workload, nodes: u32) -> Result<Row, CompareError> {
        let experiment = Experiment::paper(nodes);
        let mut times = Times::default();
        let mut record = |body: Body| times.see(&body);
        let outcome =
            reservation::simulate_recorded(&Input { jobs: &workload.jobs }, &experiment, Some(&mut record))?;
        let accepted = outcome.totals.accepted + outcome.totals.offers_accepted;
        Ok(Row {
            model: "reserve",
            after: "flexible advance reservations (Netto et al. 2007)",
            requests: outcome.totals.requests,
            accepted_pct: 100.0
                * reservation::metrics::ratio(u128::from(accepted), u128::from(outcome.totals.requests)),
            utilisation_pct: outcome.utilisation.0,
            income: None,
            income_unit: "-",
            violations: 0,
            mean_wait_s: times.mean_wait(),
            mean_bounded_slowdown: times.mean_slowdown(),
            configuration: "EDF, load 1.0, 15-day windows".to_owned(),
            utilisation_of: format!("{nodes} nodes over its windows"),
        })
    }
}

/// Submit, start and end times of reservations, from the kernel's records.
#[derive(Debug, Default)]
struct Times {
    submitted: HashMap<JobId, u64>,
    started: HashMap<JobId, u64>,
    waits: Vec<u64>,
    slowdowns: Vec<f64>,
}

impl Times {
    fn see(&mut self, body: &Body) {
        match *body {
            Body::ReservationEvent(ResvEvent::Request(request)) => {
                self.submitted.insert(request.job, request.t);
            }
            Body::ReservationDecision(ResvDecision::Start { t, job }) => {
                self.started.insert(job, t);
                if let Some(&submit) = self.submitted.get(&job) {
                    self.waits.push(t.saturating_sub(submit));
                }
            }
            Body::ReservationDecision(ResvDecision::End { t, job, .. }) => {
                if let (Some(&submit), Some(&start)) = (self.submitted.get(&job), self.started.get(&job)) {
                    let run = t.saturating_sub(start).max(10);
                    self.slowdowns.push(t.saturating_sub(submit) as f64 / run as f64);
                }
            }
            _ => {}
        }
    }

    fn mean_wait(&self) -> f64 {
        mean(self.waits.iter().map(|&w| w as f64))
    }

    fn mean_slowdown(&self) -> f64 {
        mean(self.slowdowns.iter().copied())
    }
}
