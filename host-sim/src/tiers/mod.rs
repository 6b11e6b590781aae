//! The host side of Gold, Silver and Bronze SLAs over reliable and volunteer resources
//! (Tomás et al., §6): the paper's testbed and workload, SWF traces mapped to SLAs,
//! seeded faults or a Failure Trace Archive file, the run loop around
//! [`kernel::tiers::TiersKernel`], the paper's figures, and the sweep of Figures 8-13.
//!
//! - [`testbed`]: Table 1's resources, §6.2's workload, traces into SLAs.
//! - [`faults`]: seeded availability and owner load.
//! - [`fta`]: the Failure Trace Archive reader (`--availability FILE`) and its time
//!   alignment.
//! - [`availability`]: the alignment options, their settings, and the summary's
//!   account of the file (with its warning when no desktop left).
//! - [`run`]: the event loop (submissions, finishes, leaves and returns).
//! - [`metrics`]: rejection, violation, rescheduling and Bronze waits.
//! - [`sweep`]: 3 policies x 4 mixes x seeds in parallel, CSV and JSON, and the paper's
//!   statements beside ours.
//! - [`figures`]: the paper's Figures 8-13 as SVG, from the sweep's cells.
//! - [`cli`]: the `tiers` and `tiers-sweep` subcommands.
//! - `error`: [`TiersError`], which every module of the side returns.

pub mod availability;
pub mod cli;
pub mod contract;
mod error;
pub mod faults;
pub mod figures;
pub mod fta;
pub mod log;
pub mod metrics;
pub mod run;
pub mod sweep;
pub mod testbed;
pub mod whatif;

pub use error::TiersError;

use kernel::tiers::{Config, Policy, Request, Resource};

use faults::{Change, Faults};
use metrics::Summary;

/// One run's whole input.
#[derive(Clone, Debug)]
pub struct Scenario {
    pub config: Config,
    pub resources: Vec<Resource>,
    pub requests: Vec<Request>,
    pub changes: Vec<Change>,
    pub faults: Faults,
    pub seed: u64,
}

impl Scenario {
    /// The paper's testbed and workload for `policy` and `mix`, with seeded faults.
    pub fn paper(policy: Policy, mix: testbed::Mix, seed: u64, faults: Faults) -> Self {
        let resources = testbed::paper_resources();
        let requests = testbed::paper_workload(mix, seed);
        let changes = faults::seeded(&resources, faults, seed, faults::paper_until(&requests));
        Self { config: Config::new(policy), resources, requests, changes, faults, seed }
    }

    pub fn run(&self) -> Result<(Summary, run::RunOutput), TiersError> {
        self.run_observed(&mut |_, _| {})
    }

    pub fn run_observed(
        &self,
        observe: &mut dyn FnMut(&kernel::tiers::Event, &[kernel::tiers::Decision]),
    ) -> Result<(Summary, run::RunOutput), TiersError> {
        let out = run::run(
            self.config,
            &self.resources,
            &self.requests,
            &self.changes,
            self.faults,
            self.seed,
            observe,
        )?;
        Ok((metrics::summarise(&out.fates), out))
    }
}
