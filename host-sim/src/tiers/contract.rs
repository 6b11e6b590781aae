//! The tiers model's side of the host contract ([`crate::model::HostModel`]):
//! its subcommands (`tiers`, `tiers-sweep`) and their dispatch, and its row of `compare` with its
//! documented defaults.

use std::collections::HashMap;

use kernel::JobId;

use crate::compare::{CompareError, Row, mean};
use crate::error::CliError;
use crate::error::model_result;
use crate::files::Files;
use crate::model::{HostModel, Tiers};
use crate::workload::Workload;

/// The tiers model's subcommands (their places in `host-sim --help`).
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Gold, Silver and Bronze SLAs over reliable and volunteer resources (Tomás et al.):
    /// one policy and tier mix.
    #[command(display_order = 9, allow_negative_numbers = true, after_help = EXAMPLE_TIERS)]
    Tiers(super::cli::RunArgs),
    /// Gold, Silver and Bronze: 3 policies x 4 mixes x seeds, CSV and JSON for Figures
    /// 8-13, and the paper's statements beside ours.
    #[command(display_order = 10, allow_negative_numbers = true, after_help = EXAMPLE_TIERS_SWEEP)]
    TiersSweep(super::cli::SweepArgs),
}

const EXAMPLE_TIERS: &str = "Example: host-sim tiers --policy qos-res --mix C --seed 3 --log out/tiers.log";
const EXAMPLE_TIERS_SWEEP: &str = "Example: host-sim tiers-sweep --seeds 1..5 --out out/tiers";

/// What `tiers-sweep --out` writes (and its figures).
const SWEEP: &[&str] = &["tiers_runs.csv", "tiers_cells.csv", "tiers.json"];

impl HostModel for Tiers {
    type Command = Command;
    const SAMPLE: &'static [&'static str] = &["tiers", "--policy", "qos-res", "--mix", "c", "--seed", "2", "--reliable", "2", "--volunteer", "3"];

    fn dispatch(command: &Command) -> Result<(), CliError> {
        match command {
            Command::Tiers(args) => model_result(crate::jobs_out::around(
                args,
                args.jobs.jobs_out.as_deref(),
                |args| &mut args.output.log,
                super::cli::run,
            )),
            Command::TiersSweep(args) => model_result(super::cli::run_sweep(args)),
        }
    }

    fn files(command: &Command) -> Files {
        let new = Files::default();
        match command {
            Command::Tiers(args) => new
                .traces(&args.input)
                .input("--availability", args.availability.as_deref())
                .output("--log", args.output.log.as_deref()).output("--jobs-out", args.jobs.jobs_out.as_deref()),
            Command::TiersSweep(args) => {
                crate::shard::files(new, &args.shard, Some(&args.out), SWEEP, args.plots)
            }
        }
    }

    fn compare(workload: &Workload, _nodes: u32) -> Result<Row, CompareError> {
        use crate::tiers::faults::{self, ChangePlan, DEFAULT_FAULTS};
        use crate::tiers::testbed::{self, MIXES};
        use kernel::tiers::{Config, Decision, Policy};

        let seed = 1;
        let resources = testbed::split_resources(3, 9);
        let requests = testbed::trace_workload(workload, MIXES[0], seed);
        let changes = ChangePlan::Seeded { until: Some(faults::trace_until(&requests)) };
        let first = requests.iter().map(|r| r.t).min().unwrap_or(0);
        let scenario = crate::tiers::Scenario {
            config: Config::new(Policy::QosRes),
            resources,
            requests: crate::tiers::Requests::Listed(requests),
            changes,
            faults: DEFAULT_FAULTS,
            seed,
        };
        let nodes: u64 = scenario.resources.iter().map(|r| u64::from(r.nodes)).sum();
        let (mut last, mut busy) = (first, 0u64);
        let mut running: HashMap<JobId, u64> = HashMap::new();
        let mut fates = Vec::new();
        let mut observe = |event: &kernel::tiers::Event, decisions: &[Decision]| {
            if let Some(t) = event.time() {
                last = last.max(t);
            }
            for decision in decisions {
                match *decision {
                    Decision::Start { t, job } => {
                        running.insert(job, t);
                    }
                    Decision::End { t, job, .. } | Decision::Lost { t, job, running: true } => {
                        if let Some(start) = running.remove(&job) {
                            busy += t.saturating_sub(start);
                        }
                    }
                    _ => {}
                }
            }
        };
        scenario.run_observed(&mut observe, &mut |f| fates.push(*f))?;
        // In input order, as the means below add them up.
        fates.sort_unstable_by_key(|f| f.seq);
        let accepted: Vec<_> = fates.iter().filter(|f| f.accepted).collect();
        let requests = fates.len() as u64;
        let span = last.saturating_sub(first).max(1);
        let waits = accepted.iter().filter_map(|f| f.first_start.map(|s| s.saturating_sub(f.submitted)));
        let slowdowns = accepted.iter().filter_map(|f| {
            let (start, end) = (f.first_start?, f.ended?);
            Some(end.saturating_sub(f.submitted) as f64 / end.saturating_sub(start).max(10) as f64)
        });
        Ok(Row {
            model: "tiers",
            after: "Gold, Silver and Bronze (Tomás et al.)",
            requests,
            accepted_pct: 100.0 * accepted.len() as f64 / requests.max(1) as f64,
            utilisation_pct: 100.0 * busy as f64 / (nodes.max(1) * span) as f64,
            income: None,
            income_unit: "-",
            violations: accepted.iter().filter(|f| f.violated).count() as u64,
            mean_wait_s: mean(waits.map(|w| w as f64).collect::<Vec<_>>().into_iter()),
            mean_bounded_slowdown: mean(slowdowns.collect::<Vec<_>>().into_iter()),
            configuration: "QoS+ReS, mix A".to_owned(),
            utilisation_of: format!("its {nodes} nodes, 3 cluster and 9 desktops"),
        })
    }
}
