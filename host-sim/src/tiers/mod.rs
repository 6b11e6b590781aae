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
//! - [`once`]: `tiers` over a trace read once, its log's header written last.
//! - [`metrics`]: rejection, violation, rescheduling and Bronze waits.
//! - [`sweep`]: 3 policies x 4 mixes x seeds in parallel, CSV and JSON, and the paper's
//!   statements beside ours.
//! - [`figures`]: the paper's Figures 8-13 as SVG, from the sweep's cells.
//! - [`cli`]: the `tiers` and `tiers-sweep` subcommands.
//! - `error`: [`TiersError`], which every module of the side returns.
//!
//! # Memory
//! A run holds memory that does not grow with its trace. A [`Scenario`]'s requests
//! are [`Requests::Listed`] or, for a trace, [`Requests::Trace`], each job mapped as
//! it comes (the same draws in the same order as [`testbed::trace_workload`]); its
//! seeded availability changes are drawn as the run goes ([`faults::Seeded`], whose
//! merge is held to the sorted list by `the_lazy_merge_is_the_sorted_list`), up to an
//! end the run learns once its last request is read ([`faults::trace_until`]).
//! [`run::run`] is the one loop for both: it reads one request ahead, follows only
//! the jobs still in play, and hands each SLA's fate on once final, which
//! [`metrics::Tally`] adds up as it comes; `run_tests.rs` holds the lazy feeds to the
//! lists they replace.

pub mod availability;
pub mod cli;
pub mod contract;
mod error;
pub mod faults;
pub mod figures;
pub mod fta;
pub mod log;
pub mod metrics;
pub mod once;
pub mod run;
pub mod sweep;
pub mod testbed;
pub mod whatif;

pub use error::TiersError;

use kernel::tiers::{Config, Decision, Event, Policy, Request, Resource};

use faults::{ChangePlan, Faults};
use metrics::{Summary, Tally};
use run::{JobFate, RequestStream, RunOutput};

/// Where a run's requests come from.
#[derive(Clone, Debug)]
pub enum Requests {
    /// Held whole (the paper's workload, a log's, `compare`'s trace).
    Listed(Vec<Request>),
    /// A trace's jobs, streamed ([`crate::input::Scanned::jobs`]) and mapped to SLAs
    /// by `mix` as they come ([`testbed::TraceRequests`]).
    Trace { scanned: Box<crate::input::Scanned>, mix: testbed::Mix },
}

/// One run's whole input.
#[derive(Clone, Debug)]
pub struct Scenario {
    pub config: Config,
    pub resources: Vec<Resource>,
    pub requests: Requests,
    pub changes: ChangePlan,
    pub faults: Faults,
    pub seed: u64,
}

/// What a run of a scenario gives besides its summary.
#[derive(Debug)]
pub struct Ran {
    pub out: RunOutput,
    /// Trace jobs wider than one processor (each ran on one node).
    pub wide: u64,
}

impl Scenario {
    /// The paper's testbed and workload for `policy` and `mix`, with seeded faults.
    pub fn paper(policy: Policy, mix: testbed::Mix, seed: u64, faults: Faults) -> Self {
        let resources = testbed::paper_resources();
        let requests = testbed::paper_workload(mix, seed);
        let changes = ChangePlan::Seeded { until: Some(faults::paper_until(&requests)) };
        let requests = Requests::Listed(requests);
        Self { config: Config::new(policy), resources, requests, changes, faults, seed }
    }

    pub fn run(&self) -> Result<(Summary, Ran), TiersError> {
        self.run_observed(&mut |_, _| {}, &mut |_| {})
    }

    /// Runs the scenario: `observe` sees every event with its decisions, `fated`
    /// every SLA's final fate (in no set order; [`JobFate::seq`] is its place).
    pub fn run_observed(
        &self,
        observe: &mut dyn FnMut(&Event, &[Decision]),
        fated: &mut dyn FnMut(&JobFate),
    ) -> Result<(Summary, Ran), TiersError> {
        match &self.requests {
            Requests::Listed(list) => {
                let (summary, out) = self.run_requests(&mut list.iter().map(|&r| Ok(r)), observe, fated)?;
                Ok((summary, Ran { out, wide: 0 }))
            }
            Requests::Trace { scanned, mix } => self.run_trace(scanned.jobs()?, *mix, observe, fated),
        }
    }

    /// [`Scenario::run_observed`] over a trace's `jobs` (as
    /// [`crate::input::Scanned::jobs`] gives them) mapped to SLAs by `mix` as they
    /// come, in place of the scenario's requests (a trace read once,
    /// [`once`]).
    pub fn run_trace(
        &self,
        jobs: impl Iterator<Item = Result<crate::workload::Job, crate::swf::SwfError>>,
        mix: testbed::Mix,
        observe: &mut dyn FnMut(&Event, &[Decision]),
        fated: &mut dyn FnMut(&JobFate),
    ) -> Result<(Summary, Ran), TiersError> {
        let mut late = None;
        let (summary, out, wide) = {
            let jobs = jobs.map_while(|job| match job {
                Ok(job) if late.is_none() => match self.too_late(&job) {
                    Some(why) => {
                        late = Some(why);
                        None
                    }
                    None => Some(Ok(job)),
                },
                other => Some(other),
            });
            let mut requests = testbed::TraceRequests::new(jobs, mix, self.seed);
            let (summary, out) = self.run_requests(&mut requests, observe, fated)?;
            (summary, out, requests.wide)
        };
        match late {
            Some(why) => Err(TiersError::Usage(why)),
            None => Ok((summary, Ran { out, wide })),
        }
    }

    /// Why `job` is released too late for the seeded availability (see
    /// [`faults::too_late`]); `None` under an availability file.
    fn too_late(&self, job: &crate::workload::Job) -> Option<String> {
        let ChangePlan::Seeded { .. } = self.changes else { return None };
        let volunteers = self.resources.iter().filter(|r| r.group == kernel::tiers::Group::Low).count();
        faults::too_late(self.faults, volunteers as u64, job.id, job.release)
    }

    /// The run loop over `requests`, its fates tallied.
    fn run_requests(
        &self,
        requests: RequestStream<'_>,
        observe: &mut dyn FnMut(&Event, &[Decision]),
        fated: &mut dyn FnMut(&JobFate),
    ) -> Result<(Summary, RunOutput), TiersError> {
        let mut tally = Tally::default();
        let mut fated = |f: &JobFate| {
            tally.add(f);
            fated(f);
        };
        let settings = (self.faults, self.seed);
        let out =
            run::run(self.config, &self.resources, requests, &self.changes, settings, observe, &mut fated)?;
        Ok((tally.summary(), out))
    }
}
