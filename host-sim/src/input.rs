//! The trace input every model reads, declared once: the options (`--trace`,
//! `--skip-bad-lines`, `--allow-extra-fields`, `--allow-empty`, `--limit`), flattened
//! into every subcommand that reads a trace, and the one rule for the size of the
//! machine or pool a trace ran on.
//!
//! # Sizes
//! The one rule every model and `compare` use for what a job's size is and what the
//! machine's size is, so that the two are counted in one unit, processors:
//! - A job's size is its processor count: SWF field 5 (allocated processors), else
//!   field 8 (requested), else unknown (`-1` in both: `swf` reads it as 0, and each
//!   model leaves such a job out and counts it, or says why it needs no size). A
//!   value of either that is not `-1` or a `u32` is an error of the line, not passed
//!   over for the other field.
//! - The machine's size ([`pool_size`]) is the header's `MaxProcs`; else the larger of
//!   its `MaxNodes` and the widest job (a node count is a processor count only on
//!   machines of one processor per node, and a job is never wider than the machine it
//!   ran on, and `swf` refuses a usable job wider than its trace's `MaxProcs`); else
//!   the widest job; at least 1. Merged traces run on the largest of their machines.
//!   A model's own option (`--nodes`) overrides it.

use std::path::PathBuf;

/// The default of every `--nodes` that sizes a machine from a trace, as each `--help`
/// gives it: one text for the one rule ([`pool_size`]).
macro_rules! pool_rule_help {
    () => {
        "default: the trace's size in processors, by the rule every model shares: a job's \
         size is SWF field 5, else 8 (-1 and 0 are none); the machine's is MaxProcs, else \
         the larger of MaxNodes and the widest job, else the widest job"
    };
}
pub(crate) use pool_rule_help;

use clap::Args;

use crate::swf::SwfError;
use crate::swf::{self, SwfOptions};
use crate::workload::{Job, Workload};

/// What every `--trace` is, as each `--help` begins it; each model that reads a trace
/// its own way says the rest (`mut_arg("trace", ...)` on its options).
macro_rules! trace_help {
    () => {
        "SWF trace, plain or gzipped. Give it several times to merge traces on their relative \
         submit times (each starts at 0; ties by trace order, then line; jobs renumbered 1, 2, ...)"
    };
}
pub(crate) use trace_help;

/// The trace options, as every subcommand that reads a trace takes them.
#[derive(Clone, Debug, Default, Args)]
pub struct TraceArgs {
    #[arg(long, value_name = "FILE", help = concat!(trace_help!(),
        ". Without it, the subcommand's built-in workload (run, sweep and optimum: the synthetic one; \
         tiers: the paper's; sla: the generated sets); reserve, reserve-sweep and compare need a trace"))]
    pub trace: Vec<PathBuf>,
    /// Count malformed trace lines instead of stopping at the first.
    #[arg(long)]
    pub skip_bad_lines: bool,
    /// Read job lines with more than the 18 standard SWF fields (Alea's 21-field
    /// variant): the first 18 are read, the rest ignored.
    #[arg(long)]
    pub allow_extra_fields: bool,
    /// Exit 0 when the input has no usable job (otherwise that is an error).
    #[arg(long)]
    pub allow_empty: bool,
    /// Only the first N jobs of the trace, in submit order (at least 1); without it,
    /// every job.
    #[arg(long, value_name = "N", value_parser = crate::units::count, allow_hyphen_values = true)]
    pub limit: Option<u64>,
}

/// A trace read with [`TraceArgs`]: its jobs, and its machine's size by [`pool_size`].
#[derive(Clone, Debug)]
pub struct Traced {
    pub workload: Workload,
    /// The header's `MaxProcs`, of the largest machine when traces are merged.
    pub max_procs: Option<u64>,
    /// The header's `MaxNodes`, likewise.
    pub max_nodes: Option<u64>,
}

impl TraceArgs {
    /// How the SWF reader is to treat lines.
    pub const fn options(&self) -> SwfOptions {
        SwfOptions { skip_bad_lines: self.skip_bad_lines, allow_extra_fields: self.allow_extra_fields }
    }

    /// Reads `--trace` (merging several), or `None` without one, keeping the first
    /// `--limit` jobs (recorded as the `limit` setting every log header then carries).
    pub fn read(&self) -> Result<Option<Traced>, SwfError> {
        let mut parts = Vec::with_capacity(self.trace.len());
        let (mut max_procs, mut max_nodes) = (None, None);
        for path in &self.trace {
            let trace = swf::read(path, self.options())?;
            max_procs = max_procs.max(trace.max_procs);
            max_nodes = max_nodes.max(trace.max_nodes);
            parts.push(trace.workload);
        }
        if parts.is_empty() {
            return Ok(None);
        }
        let mut workload = crate::workload::merge(parts);
        if let Some(limit) = self.limit {
            workload.keep_first(limit);
        }
        Ok(Some(Traced { workload, max_procs, max_nodes }))
    }
}

/// A trace read as a stream ([`TraceArgs::scan`]): what its first pass found, and
/// its jobs one at a time ([`Scanned::jobs`]), in memory that does not grow with it.
#[derive(Clone, Debug)]
pub struct Scanned {
    /// Provenance, hash, excluded lines and settings (`limit` included), with no job.
    pub workload: Workload,
    /// The jobs [`Scanned::jobs`] gives: every usable job, or the first `--limit`.
    pub jobs: u64,
    pub max_procs: Option<u64>,
    pub max_nodes: Option<u64>,
    /// The widest usable job of all the traces, in processors.
    pub widest: u32,
    parts: Vec<swf::Scan>,
    limit: Option<u64>,
}

impl TraceArgs {
    /// Reads `--trace` once for what [`TraceArgs::read`] gives but the jobs (every
    /// error of the traces included), or `None` without one.
    pub fn scan(&self) -> Result<Option<Scanned>, SwfError> {
        let parts = self.trace.iter().map(|path| swf::Scan::new(path, self.options()));
        Ok(self.scanned(parts.collect::<Result<Vec<_>, _>>()?))
    }

    /// Starts reading `--trace` in one pass ([`swf::Scan::once`]), the first
    /// trace's thread doing `helper`'s work too; empty without a trace.
    pub fn once(&self, mut helper: Option<Box<dyn swf::Helper>>) -> Result<Vec<swf::Once>, SwfError> {
        let reading = self.trace.iter().map(|path| swf::Scan::once(path, self.options(), helper.take()));
        reading.collect()
    }

    /// A stand-in for what [`TraceArgs::once`] reads, without reading: the shape of what
    /// [`TraceArgs::scan`] gives, every count and hash 0; `None` without a trace.
    pub fn stand_in(&self) -> Option<Scanned> {
        self.scanned(self.trace.iter().map(|path| swf::Scan::empty(path, self.options())).collect())
    }

    /// What [`TraceArgs::scan`] gives once each trace's pass gave `parts`.
    pub fn scanned(&self, parts: Vec<swf::Scan>) -> Option<Scanned> {
        if parts.is_empty() {
            return None;
        }
        let mut workload = crate::workload::merge(parts.iter().map(|p| p.workload.clone()).collect());
        let mut jobs: u64 = parts.iter().map(|p| p.jobs).sum();
        if let Some(limit) = self.limit {
            workload.keep_first(limit);
            jobs = jobs.min(limit);
        }
        Some(Scanned {
            workload,
            jobs,
            max_procs: parts.iter().filter_map(|p| p.max_procs).max(),
            max_nodes: parts.iter().filter_map(|p| p.max_nodes).max(),
            widest: parts.iter().map(|p| p.widest).max().unwrap_or(0),
            parts,
            limit: self.limit,
        })
    }
}

impl Scanned {
    /// The jobs, in the order and with the numbers [`TraceArgs::read`] gives them:
    /// merged traces merged as streams (release, then trace order, then line),
    /// renumbered from 1; the first `--limit`.
    pub fn jobs(&self) -> Result<impl Iterator<Item = Result<Job, SwfError>> + use<>, SwfError> {
        let streams = self.parts.iter().map(swf::Scan::stream).collect::<Result<Vec<_>, _>>()?;
        let limit = usize::try_from(self.limit.unwrap_or(u64::MAX)).unwrap_or(usize::MAX);
        Ok(crate::workload::MergedJobs::new(streams).take(limit))
    }
}

/// The jobs of traces read once ([`TraceArgs::once`]), as [`Scanned::jobs`] gives
/// them: merged, renumbered when there are several, the first `limit`.
pub fn jobs_once(
    reading: &mut [swf::Once],
    limit: Option<u64>,
) -> impl Iterator<Item = Result<Job, SwfError>> + use<'_> {
    let limit = usize::try_from(limit.unwrap_or(u64::MAX)).unwrap_or(usize::MAX);
    crate::workload::MergedJobs::new(reading.iter_mut().collect()).take(limit)
}

impl Traced {
    /// The machine's size in processors by the one rule ([`pool_size`]), for `jobs`.
    pub fn pool_size(&self, jobs: &[Job]) -> u32 {
        pool_size(self.max_procs, self.max_nodes, jobs)
    }
}

/// The size of the machine a trace ran on, in processors: `MaxProcs`, else the larger
/// of `MaxNodes` and the widest of `jobs`, else the widest of `jobs` (at least 1). A
/// header value past `u32` or zero is passed over as missing.
pub fn pool_size(max_procs: Option<u64>, max_nodes: Option<u64>, jobs: &[Job]) -> u32 {
    pool_size_widest(max_procs, max_nodes, jobs.iter().map(|j| j.procs).max().unwrap_or(1))
}

/// [`pool_size`] from the widest job's processors alone (a first pass's
/// [`Scanned::widest`]).
pub fn pool_size_widest(max_procs: Option<u64>, max_nodes: Option<u64>, widest: u32) -> u32 {
    let header = |n: Option<u64>| n.and_then(|n| u32::try_from(n).ok()).filter(|&n| n > 0);
    let widest = widest.max(1);
    header(max_procs).unwrap_or_else(|| header(max_nodes).map_or(widest, |nodes| nodes.max(widest)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(procs: u32) -> Job {
        Job { id: 1, release: 0, p: 1, procs }
    }

    #[test]
    fn processors_first_then_nodes_or_the_widest_job() {
        let jobs = [job(3), job(17), job(0)];
        assert_eq!(pool_size(Some(1152), Some(144), &jobs), 1152);
        assert_eq!(pool_size(None, Some(144), &jobs), 144);
        // Nodes of several processors: a job wider than MaxNodes widens the machine.
        assert_eq!(pool_size(None, Some(8), &jobs), 17);
        assert_eq!(pool_size(Some(64), Some(8), &jobs), 64);
        assert_eq!(pool_size(Some(0), Some(144), &jobs), 144);
        assert_eq!(pool_size(None, None, &jobs), 17);
        assert_eq!(pool_size(None, None, &[]), 1);
        assert_eq!(pool_size(Some(u64::MAX), None, &jobs), 17);
    }
}
