//! The decision log of a `tiers` run: tiers records under a header whose model is
//! [`replay::format::Model::Tiers`] (the kernel's configuration, resources
//! and capacities), written through [`crate::record_log`] so that a failed run never
//! leaves a log that looks whole.

use std::path::Path;

use crate::record_log::{self, Recorder};
use crate::units::format_milli;
use crate::workload::HOST_VERSION;
use kernel::log::Body;
use kernel::tiers::{Decision, Event};
use replay::format::{Header, Model};

use super::metrics::Summary;
use super::{Ran, Scenario, TiersError};

/// The header every tiers log of `scenario` starts from: the kernel's configuration
/// and resources, the seed, and the owner-load settings. The caller adds the inputs
/// and the options that shaped the events (`host-sim tiers` adds the trace or the
/// paper's workload, the mix and the availability's source).
pub fn header(scenario: &Scenario) -> Header {
    let mut header =
        Header::new(Model::Tiers(replay::engine::tiers::header(scenario.config, &scenario.resources)));
    header.host_version = HOST_VERSION.to_owned();
    header.seed = scenario.seed;
    header.set("load-pct", scenario.faults.load_pct);
    header.set("load-max", format_milli(scenario.faults.load_max_milli));
    header
}

/// Runs `scenario` and writes `header`, then every event and decision, to `path`.
pub fn run_logged(scenario: &Scenario, header: &Header, path: &Path) -> Result<(Summary, Ran), TiersError> {
    record_log::write(path, header, |record| scenario.run_observed(&mut recording(record), &mut |_| {}))
}

/// A run's observer that hands each event, then its decisions, to `record`.
pub fn recording(record: Recorder<'_>) -> impl FnMut(&Event, &[Decision]) + '_ {
    move |event, decisions| {
        record(Body::TiersEvent(*event));
        decisions.iter().for_each(|d| record(Body::TiersDecision(*d)));
    }
}
