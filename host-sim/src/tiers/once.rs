//! `host-sim tiers` over a trace read in one pass rather than two: the tiers
//! model's part of [`crate::one_pass`] (its header, stamped with the trace as the
//! reading found it; its run loop over the jobs as they come). A tiers run needs
//! nothing of the trace before it starts (no job size, and the seeded changes' end
//! is found as the trace streams), so one pass is taken wherever the shared part
//! allows it, except where options that two passes refuse only after the trace's
//! errors would be refused (`super::cli::run` builds the scenario and says when).
//! The warning about jobs wider than one processor is printed after the run either
//! way, after the warning about an empty input, as two passes print them.

use std::path::Path;

use replay::format::Header;

use super::metrics::Summary;
use super::testbed::Mix;
use super::{Ran, Scenario, TiersError};
use crate::input::{Scanned, TraceArgs};
use crate::one_pass::{self, Held, Log, LogError, OnePass};
use crate::record_log;
use crate::workload::Job;

/// `scenario` (built on `source`'s stand-in, [`TraceArgs::stand_in`]) over
/// `source`'s trace read once, its jobs mapped by `mix`, logging to `log` under
/// `header` (of the trace as given): `None` (nothing done) where one pass does not
/// apply, for the caller to read the trace twice.
pub fn run(
    scenario: &Scenario,
    mix: Mix,
    source: &TraceArgs,
    log: Option<&Path>,
    header: &dyn Fn(&Scanned) -> Header,
) -> Option<Result<Logged, TiersError>> {
    let done = one_pass::run(Tiers { scenario, mix, header }, source, log)?;
    Some(done.map(|(scanned, ran)| (header(&scanned), ran)))
}

/// A run's log header (made once the traces are read), its summary and its run.
pub type Logged = (Header, (Summary, Ran));

/// The tiers model's part of a one-pass run: the scenario built on the trace's
/// stand-in, whose requests it does not use, and its header.
struct Tiers<'a> {
    scenario: &'a Scenario,
    mix: Mix,
    header: &'a dyn Fn(&Scanned) -> Header,
}

impl OnePass for Tiers<'_> {
    type Value = (Summary, Ran);
    type Error = TiersError;

    fn header(&self, scanned: &Scanned) -> Header {
        (self.header)(scanned)
    }

    fn run(
        &mut self,
        jobs: &mut dyn Iterator<Item = Job>,
        log: Option<(&mut Log, &Path)>,
    ) -> Result<(Summary, Ran), TiersError> {
        let (scenario, mix, jobs) = (self.scenario, self.mix, jobs.map(Ok));
        match log {
            Some((writer, at)) => record_log::record(writer, at, |record| {
                scenario.run_trace(jobs, mix, &mut super::log::recording(record), &mut |_| {})
            }),
            None => scenario.run_trace(jobs, mix, &mut |_, _| {}, &mut |_| {}),
        }
    }

    fn settle(&mut self, _: &Scanned, _: bool) -> Result<Held, TiersError> {
        Ok(Held::Yes)
    }

    fn log_error(&self, error: LogError, path: &Path) -> TiersError {
        error.staged(path).into()
    }
}
