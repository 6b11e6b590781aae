//! `host-sim tiers` over a trace read in one pass rather than two: the tiers
//! model's part of [`crate::one_pass`] (its header, stamped with the trace as the
//! reading found it; its run loop over the jobs as they come). A tiers run needs
//! nothing of the trace before it starts (no job size, and the seeded changes' end
//! is found as the trace streams), so one pass is taken whenever the shared part
//! allows it; options that two passes refuse only after the trace's errors (an
//! availability file that cannot be read, alignment options without one) read the
//! trace twice, so that errors keep their order. The warning about jobs wider than
//! one processor is printed after the run either way ([`super::cli::run`]), after
//! the warning about an empty input, as two passes print them.

use std::path::Path;

use replay::format::Header;

use super::availability::Availability;
use super::cli::{Parsed, TiersArgs, built, header};
use super::metrics::Summary;
use super::{Ran, Scenario, TiersError};
use crate::input::Scanned;
use crate::one_pass::{self, Held, Log, LogError, OnePass};
use crate::record_log;
use crate::workload::Job;

/// What a `tiers` run gives: its scenario, the availability file it read, its
/// summary and run.
pub type Done = (Scenario, Option<Availability>, (Summary, Ran));

/// `host-sim tiers` over `args`' trace read once: `None` (nothing done) without a
/// trace or where one pass does not apply, for the caller to read it twice.
pub fn run(args: &TiersArgs) -> Option<Result<Done, TiersError>> {
    let stand_in = args.input.stand_in()?;
    let parsed = Parsed::new(args).ok()?;
    let (scenario, _, read) = built(args, parsed, Some(stand_in)).ok()?;
    let model = Tiers { args, parsed, scenario: &scenario, read: read.as_ref() };
    let done = one_pass::run(model, &args.input, args.output.log.as_deref())?;
    Some(done.map(|(_, ran)| (scenario, read, ran)))
}

/// The tiers model's part of a one-pass run: the scenario built on the trace's
/// stand-in, whose requests it does not use.
struct Tiers<'a> {
    args: &'a TiersArgs,
    parsed: Parsed,
    scenario: &'a Scenario,
    read: Option<&'a Availability>,
}

impl OnePass for Tiers<'_> {
    type Value = (Summary, Ran);
    type Error = TiersError;

    fn header(&self, scanned: &Scanned) -> Header {
        header(self.args, self.scenario, self.parsed.mix, self.read, Some(&scanned.workload))
    }

    fn run(
        &mut self,
        jobs: &mut dyn Iterator<Item = Job>,
        log: Option<(&mut Log, &Path)>,
    ) -> Result<(Summary, Ran), TiersError> {
        let (scenario, mix, jobs) = (self.scenario, self.parsed.mix, jobs.map(Ok));
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
