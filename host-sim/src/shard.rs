//! A sweep split into shards and merged again. `--shard K/N` runs only the grid
//! points of shard K (of N), chosen by a deterministic split balanced by each point's
//! expected cost, and writes them to `DIR/part.json` instead of the sweep's outputs.
//! `host-sim merge DIR... --out OUT` reads the parts, checks that they are the N
//! shards of one grid over one input, and runs the recorded command line again with
//! its points taken from the parts: the outputs are the unsplit run's, byte for byte,
//! since they are written by the same code from the same rows.
//!
//! A part file is JSON: [`PartHeader`] (the format, host-sim's version, the command
//! line, the grid's identity, the inputs by content hash, the shard and the number of
//! points), then the rows, each with its point's index in the grid. Floats are written
//! by serde_json's shortest round-trip form and read back exactly (`float_roundtrip`).

use std::path::{Path, PathBuf};
use std::str::FromStr;

use clap::Args;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::summary::InputRef;
use crate::units::Refused;

mod merge;
mod part;
pub mod slurm;

pub use merge::{MergeArgs, merge};
pub use part::{PartHeader, ShardError};

thread_local! {
    /// The command line this thread runs, scenario files put in (a part records it).
    static ARGS: std::cell::RefCell<Vec<std::ffi::OsString>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Says which command line this thread runs (the program's name first): `app` calls
/// it before dispatching, so that a shard's part can record it.
pub fn set_command_line(args: &[std::ffi::OsString]) {
    ARGS.with(|a| *a.borrow_mut() = args.to_vec());
}

/// The command line this thread runs, without the program's name and without the
/// options in `leave_out` (each with its value).
pub fn command_line(leave_out: &[&str]) -> Vec<String> {
    let args = ARGS.with(|a| a.borrow().clone());
    let mut kept = Vec::new();
    let mut words = args.iter().skip(1).map(|a| a.to_string_lossy().into_owned());
    while let Some(word) = words.next() {
        let option = word.split('=').next().unwrap_or(&word);
        if leave_out.contains(&option) {
            if !word.contains('=') {
                words.next();
            }
            continue;
        }
        kept.push(word);
    }
    kept
}

/// The name of a shard's part in its folder.
pub const PART: &str = "part.json";

/// Shard `index` (from 1) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl FromStr for Shard {
    type Err = Refused;

    fn from_str(text: &str) -> Result<Self, Refused> {
        let refused = || {
            Refused(format!(
                "{} is not a shard; write K/N, shard K (1 to N) of N, as 2/8",
                replay::echo::echo(text)
            ))
        };
        let (k, n) = text.split_once('/').ok_or_else(refused)?;
        let (index, count): (u32, u32) =
            (k.trim().parse().map_err(|_| refused())?, n.trim().parse().map_err(|_| refused())?);
        if count == 0 || index == 0 || index > count {
            return Err(refused());
        }
        Ok(Self { index, count })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// The options of a sweep that can be split.
#[derive(Clone, Debug, Default, Args)]
pub struct ShardArgs {
    /// Run only shard K of N of the grid (points split by their expected cost) and write
    /// them to DIR/part.json of --out DIR; `host-sim merge` joins the N parts into the
    /// unsplit run's outputs. Without it, the whole grid runs here.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// The parts to take the grid's rows from instead of running it (what `host-sim
    /// merge` runs).
    #[arg(long, value_name = "DIR", num_args = 1.., hide = true)]
    pub merge_parts: Vec<PathBuf>,
}

/// What a grid is, for telling its parts apart: a text that is the same exactly when
/// the grid and everything its rows depend on are the same, the inputs by content, and
/// the folder a shard writes its part to.
#[derive(Debug)]
pub struct Grid<'a> {
    pub identity: String,
    pub inputs: Vec<InputRef>,
    pub out: Option<&'a Path>,
}

/// The rows of a sweep: every point's (unsplit), or `None` when this run was one
/// shard and wrote its part.
pub fn rows<P, R, E>(
    args: &ShardArgs,
    grid: &Grid<'_>,
    points: &[P],
    cost: impl Fn(&P) -> u64,
    run: impl Fn(&[&P]) -> Result<Vec<R>, E>,
) -> Result<Option<Vec<R>>, E>
where
    R: Serialize + DeserializeOwned,
    E: From<ShardError>,
{
    if !args.merge_parts.is_empty() {
        return Ok(Some(part::read_all(&args.merge_parts, grid, Some(points.len()))?));
    }
    let Some(shard) = args.shard else {
        return run(&points.iter().collect::<Vec<_>>()).map(Some);
    };
    grid.out.ok_or(ShardError::NoOut)?;
    let costs: Vec<u64> = points.iter().map(cost).collect();
    let owned: Vec<usize> = split(&costs, shard.count)
        .into_iter()
        .enumerate()
        .filter(|&(_, s)| s + 1 == shard.index)
        .map(|(i, _)| i)
        .collect();
    let mine: Vec<&P> = owned.iter().map(|&i| &points[i]).collect();
    let rows = run(&mine)?;
    write_part(grid, shard, points.len(), owned.into_iter().zip(rows))?;
    Ok(None)
}

/// Writes shard `shard`'s part to the grid's `--out` folder: `rows`, each with its
/// point's index among the grid's `points`.
pub fn write_part<R: Serialize>(
    grid: &Grid<'_>,
    shard: Shard,
    points: usize,
    rows: impl ExactSizeIterator<Item = (usize, R)>,
) -> Result<(), ShardError> {
    let out = grid.out.ok_or(ShardError::NoOut)?;
    let mine = rows.len();
    part::write(out, grid, shard, points, rows)?;
    eprintln!(
        "host-sim: shard {shard}: wrote {mine} of the grid's {points} points to {}",
        out.join(PART).display()
    );
    Ok(())
}

/// The rows of the whole grid from the parts in `dirs`, for a grid whose number of
/// points is known only to its shards: every part must say the same.
pub fn read_parts<R: DeserializeOwned>(dirs: &[PathBuf], grid: &Grid<'_>) -> Result<Vec<R>, ShardError> {
    part::read_all(dirs, grid, None)
}

/// The shard (from 0) of each point: the longest-processing-time rule, each point in
/// order of decreasing cost (ties by grid order) to the shard with the least expected
/// cost so far (ties to the lowest). The same costs give the same split everywhere.
pub fn split(costs: &[u64], count: u32) -> Vec<u32> {
    split_onto(costs, &mut vec![0u64; count.max(1) as usize])
}

/// [`split`] onto shards already loaded with `load` (which it adds to): a grid
/// split part after part, each part's points balanced on what the earlier left.
pub fn split_onto(costs: &[u64], load: &mut [u64]) -> Vec<u32> {
    let mut order: Vec<usize> = (0..costs.len()).collect();
    order.sort_by(|&a, &b| costs[b].cmp(&costs[a]).then(a.cmp(&b)));
    let mut shard_of = vec![0u32; costs.len()];
    for point in order {
        let (least, _) = load.iter().enumerate().min_by_key(|&(s, l)| (*l, s)).unwrap_or((0, &0));
        load[least] = load[least].saturating_add(costs[point].max(1));
        shard_of[point] = least as u32;
    }
    shard_of
}

/// The files of a sweep that can be split: a shard writes only its part to `out`; a
/// merge reads the parts; the unsplit run (and the merge) write `names` and figures.
pub fn files(
    files: crate::files::Files,
    args: &ShardArgs,
    out: Option<&Path>,
    names: &[&str],
    plots: crate::plot::PlotArgs,
) -> crate::files::Files {
    let files = args.merge_parts.iter().fold(files, |f, dir| f.input("--merge-parts", Some(&dir.join(PART))));
    if args.shard.is_some() {
        files.folder("--out", out, &[PART])
    } else {
        files.figures("--out", out, names, plots)
    }
}

#[cfg(test)]
mod tests;
