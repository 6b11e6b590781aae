//! `host-sim reserve` over traces read in one pass rather than two: the reservation
//! model's part of [`crate::one_pass`] (its header, its streamed run, the check of
//! processor counts), where what the run needs before its first request is known
//! before the traces are read.
//!
//! A reservation run needs its pool's size before anything: the kernel is made for
//! it and the log's header names it. By the one rule ([`crate::input::pool_size`])
//! that size is `--nodes` when given, else `MaxProcs` when a trace's header gives
//! it, whatever the jobs; else it takes the widest job (`MaxNodes` alone, or no
//! size), known only once every job (with `--limit`, every job taken) was read. So
//! the traces are read once when `--nodes` is given or when the comment lines at
//! the top of the traces give `MaxProcs` ([`crate::swf::head_sizes`]; merged
//! traces: the largest), and twice otherwise. Should a later comment change
//! `MaxProcs` (the whole reading's size is not the one run), the one-pass run is
//! thrown away and made again in two passes. Options that two passes refuse only
//! once the traces are read (an unknown `--criterion`, a pool the kernel cannot
//! hold) read them twice too, so that errors keep their order.

use std::path::Path;

use replay::format::Header;

use super::stream::simulate_stream_on;
use super::{Experiment, Outcome, ReserveError, run};
use crate::input::{Scanned, TraceArgs, pool_size_widest};
use crate::one_pass::{self, Held, Log, LogError, OnePass};
use crate::record_log;
use crate::workload::{Job, Workload};

/// `host-sim reserve` (without `--compare-paper`) over `source`'s traces read once,
/// logging to `log`, when the pool's size is known before they are read (`nodes`,
/// `--nodes`, or the traces' headers): the workload as two passes find it and the
/// outcome; `None` (nothing done) otherwise, or when `experiment` (the run's, on a
/// pool of the size given) refuses its options, for the caller to read them twice.
pub fn reserve(
    source: &TraceArgs,
    nodes: Option<u32>,
    log: Option<&Path>,
    experiment: impl FnOnce(u32) -> Option<Experiment>,
) -> Option<Result<(Workload, Outcome), ReserveError>> {
    let experiment = experiment(nodes.or_else(|| head_pool(source))?)?;
    let kernel = run::engine(&experiment.run_options()).ok()?;
    let model = Reservation { source, nodes, experiment, kernel, widest: 0 };
    let done = one_pass::run(model, source, log)?;
    Some(done.map(|(scanned, outcome)| (scanned.workload, outcome)))
}

/// The pool's size when the traces' top comment lines settle it: the largest
/// `MaxProcs` they give, if one does.
fn head_pool(source: &TraceArgs) -> Option<u32> {
    let (mut max_procs, mut max_nodes) = (None, None);
    for path in &source.trace {
        let (procs, nodes) = crate::swf::head_sizes(path, source.options())?;
        (max_procs, max_nodes) = (max_procs.max(procs), max_nodes.max(nodes));
    }
    max_procs.map(|_| pool_size_widest(max_procs, max_nodes, 1))
}

/// The reservation model's part of a one-pass run: its experiment on the pool
/// taken for granted, its kernel, made for it, and the widest job the run took.
struct Reservation<'a> {
    source: &'a TraceArgs,
    /// `--nodes`.
    nodes: Option<u32>,
    experiment: Experiment,
    kernel: run::Kernel,
    widest: u32,
}

impl OnePass for Reservation<'_> {
    type Value = Outcome;
    type Error = ReserveError;

    fn header(&self, scanned: &Scanned) -> Header {
        super::log::header(&self.experiment, &scanned.workload)
    }

    fn run(
        &mut self,
        jobs: &mut dyn Iterator<Item = Job>,
        log: Option<(&mut Log, &Path)>,
    ) -> Result<Outcome, ReserveError> {
        let Self { experiment, kernel, widest, .. } = self;
        let jobs = jobs.inspect(|job| *widest = (*widest).max(job.procs)).map(Ok);
        match log {
            Some((writer, at)) => record_log::record(writer, at, |record| {
                simulate_stream_on(kernel, jobs, experiment, Some(record))
            }),
            None => simulate_stream_on(kernel, jobs, experiment, None),
        }
    }

    /// Two passes check the processor counts, then size the pool: with `--limit`,
    /// by the widest of the jobs taken, which they read first (a job out of order
    /// among them is the error then); else by the widest of every job.
    fn settle(&mut self, scanned: &Scanned, stopped: bool) -> Result<Held, ReserveError> {
        let source = self.source;
        if source.limit.is_some() && stopped {
            return Ok(Held::Yes);
        }
        let widest = if source.limit.is_some() { self.widest } else { scanned.widest };
        let sized =
            scanned.workload.check_sized_count("reserve", source.allow_empty, scanned.jobs, widest > 0);
        sized.map_err(ReserveError::Usage)?;
        let nodes =
            self.nodes.unwrap_or_else(|| pool_size_widest(scanned.max_procs, scanned.max_nodes, widest));
        Ok(if nodes == self.experiment.nodes { Held::Yes } else { Held::No })
    }

    fn log_error(&self, error: LogError, path: &Path) -> ReserveError {
        error.staged(path).into()
    }
}
