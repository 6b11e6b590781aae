//! `sla-sweep --shard K/N`: the points of [`plan`] split among shards by
//! [`crate::shard::rows`], a part's row being one point's per-set summaries; the merge
//! puts them back on the plan's points, so that the tables, files and findings are the
//! unsplit run's.

use std::path::Path;

use indicatif::ProgressBar;

use super::super::SlaError;
use super::super::generator;
use super::{Point, Sweep, SweepConfig, assemble, plan, prepare_sets, run_points};
use crate::shard::{Grid, ShardArgs};
use crate::summary::InputRef;
use crate::workload::INPUT_CRC;

/// A point's expected cost, for balancing shards: 1 for every point, since each runs
/// the same sets on the same kernel, and heuristics of one, two and three terms and the
/// random order took about the same time per set (within 20 %, measured on 10 sets).
pub fn cost(_: &Point) -> u64 {
    1
}

/// The sweep of `config`: run here, whole or the points of `--shard`, or read from
/// `--merge-parts`; `None` for a shard, which wrote its part to `out`. `bar` counts runs.
pub fn run(
    config: &SweepConfig,
    shard: &ShardArgs,
    out: &Path,
    bar: &ProgressBar,
) -> Result<Option<Sweep>, SlaError> {
    let sets = generator::generate_sets(config.seed, config.sets);
    let points = plan(config.seed);
    // The sets are the input, named (and hashed) as `host-sim sla` names them in its log.
    let name = generator::describe(config.seed, config.sets);
    let hash = format!("{:016x}", INPUT_CRC.checksum(name.as_bytes()));
    let grid = Grid {
        identity: format!("sla-sweep {config:?}"),
        inputs: vec![InputRef { name, hash }],
        out: Some(out),
    };
    let rows = crate::shard::rows(shard, &grid, &points, cost, |mine| {
        run_points(config, &prepare_sets(&sets), mine, bar).map_err(SlaError::Usage)
    })?;
    Ok(rows.map(|runs| assemble(config, &sets, points, runs)))
}
