//! The sla model's side of the host contract ([`crate::model::HostModel`]):
//! its subcommands (`sla`, `sla-sweep`) and their dispatch, and its row of `compare` with its
//! documented defaults.

use crate::compare::{CompareError, Row, mean};
use crate::error::CliError;
use crate::error::model_result;
use crate::files::Files;
use crate::model::{HostModel, Sla};
use crate::workload::Workload;

/// The SLA model's subcommands (their places in `host-sim --help`).
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// SLA priority heuristics and pricing on a parallel machine (Yarmolenko and
    /// Sakellariou): one heuristic on the paper's generated job sets or a trace.
    #[command(display_order = 11, allow_negative_numbers = true)]
    Sla(super::cli::RunArgs),
    /// SLA priority heuristics: every heuristic of the paper's Tables 1 and 2 (and all
    /// pairs of terms) over a grid of weights, the tables beside the paper's, its
    /// figures and findings.
    #[command(display_order = 12, allow_negative_numbers = true)]
    SlaSweep(super::cli::SweepArgs),
}

/// What `sla-sweep --out` writes (and its figures).
const SWEEP: &[&str] = &[
    "sla_points.csv",
    "sla_fig3.csv",
    "sla_fig4.csv",
    "sla_fig7.csv",
    "sla_fig8.csv",
    "sla_table1.csv",
    "sla_table2.csv",
    "sla_families.csv",
    "sla.json",
];

impl HostModel for Sla {
    type Command = Command;
    const SAMPLE: &'static [&'static str] = &["sla", "--heuristic", "min(TF + 0.5*A + 2*tL)", "--batch", "1h", "--seed", "5", "--slot", "1m"];

    fn dispatch(command: &Command) -> Result<(), CliError> {
        match command {
            Command::Sla(args) => model_result(crate::jobs_out::around(
                args,
                args.jobs.jobs_out.as_deref(),
                |args| &mut args.output.log,
                super::cli::run,
            )),
            Command::SlaSweep(args) => model_result(super::cli::run_sweep(args)),
        }
    }

    fn files(command: &Command) -> Files {
        let new = Files::default();
        match command {
            Command::Sla(args) => new.traces(&args.input).output("--log", args.output.log.as_deref()).output("--jobs-out", args.jobs.jobs_out.as_deref()),
            Command::SlaSweep(args) => {
                crate::shard::files(new, &args.shard, Some(&args.out), SWEEP, args.plots)
            }
        }
    }

    fn compare(workload: &Workload, nodes: u32) -> Result<Row, CompareError> {
        use crate::sla::generator::SLOT_TICKS;
        use crate::sla::{heuristic, mapping, run};
        let seed = 1;
        let spec =
            heuristic::parse("min(TF - 0.8*tD)").map_err(|e| crate::sla::SlaError::Usage(e.to_string()))?;
        let config = run::config(nodes, SLOT_TICKS, SLOT_TICKS, spec.order(seed));
        let mapped = mapping::map(&workload.jobs, nodes, seed);
        let batch = run::Batch::Every(3600);
        let largest = run::largest_batch(&mapped.requests, batch);
        let mut engine = crate::sla::log::engine(config, replay::engine::sla::batch_for(largest))?;
        let first = mapped.requests.iter().map(|r| r.terms.ts).min().unwrap_or(0);
        let last = mapped.requests.iter().map(|r| r.terms.tf).max().unwrap_or(0);
        let capacity = u128::from(nodes) * u128::from(last.saturating_sub(first).max(1));
        let input = run::Input { requests: mapped.requests, capacity };
        let (mut waits, mut slowdowns) = (Vec::new(), Vec::new());
        let out = run::run_set(&mut engine, &input, batch, &mut |_, _| {}, &mut |r, start| {
            let Some(start) = start else { return };
            waits.push(start.saturating_sub(r.submit) as f64);
            let end = start.saturating_add(r.terms.td);
            slowdowns.push(end.saturating_sub(r.submit) as f64 / r.terms.td.max(10) as f64);
        });
        let s = &out.summary;
        Ok(Row {
            model: "sla",
            after: "SLA priority heuristics (Yarmolenko and Sakellariou)",
            requests: s.requests,
            accepted_pct: s.sla_factor,
            utilisation_pct: s.cpu_utilisation,
            income: Some(s.income.asap_fair),
            income_unit: "ASAP Fair income, units",
            violations: 0,
            mean_wait_s: mean(waits.into_iter()),
            mean_bounded_slowdown: mean(slowdowns.into_iter()),
            configuration: "min(TF - 0.8*tD), 1 h batches".to_owned(),
            utilisation_of: format!("{nodes} nodes, first TS to last TF"),
        })
    }
}
