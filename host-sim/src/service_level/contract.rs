//! The service-level model's side of the host contract ([`crate::model::HostModel`]):
//! its subcommands, and its row of `compare` with its documented defaults.

use super::levels;
use super::sim::{self, RunConfig};
use crate::compare::{CompareError, Row};
use crate::error::CliError;
use crate::workload::Workload;

use crate::model::{HostModel, ServiceLevel};

impl HostModel for ServiceLevel {
    type RunArgs = super::cli::RunArgs;
    type SweepArgs = super::cli::SweepArgs;

    fn run(args: &Self::RunArgs) -> Result<(), CliError> {
        super::cli::run(args)
    }

    fn sweep(args: &Self::SweepArgs) -> Result<(), CliError> {
        super::cli::sweep(args)
    }

    fn compare(workload: &Workload, _nodes: u32) -> Result<Row, CompareError> {
        let config = RunConfig::new(1, levels::build(&[2000], None).unwrap_or_default());
        let report = sim::run(&config, &workload.jobs, None)?;
        let m = &report.mean;
        Ok(Row {
            model: "run",
            after: "service levels (Lezama 2012)",
            requests: m.jobs_submitted as u64,
            accepted_pct: 100.0 - m.prj,
            utilisation_pct: m.me * 100.0,
            income: Some(m.g),
            income_unit: "G, price units",
            violations: 0,
            mean_wait_s: m.mwt,
            mean_bounded_slowdown: m.mbsd,
            configuration: "1 machine, sf = 2, one window".to_owned(),
            utilisation_of: "its 1 machine, ME".to_owned(),
        })
    }
}
