//! A shard's part file: written by the shard, read and checked by the merge.

use std::collections::BTreeMap;
use std::io::{BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::{Grid, PART, Shard};
use crate::summary::InputRef;

/// What a part file says of itself, before its rows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartHeader {
    /// `host-sim sweep part`.
    pub format: String,
    /// host-sim's version: shards and the merge must be of one version.
    pub host_version: String,
    /// The subcommand and its options as the shard ran them (scenario files put in),
    /// but `--shard` and `--out`: the merge runs them again.
    pub args: Vec<String>,
    /// The grid's identity: the CRC-64 of a text that is the same exactly when every row
    /// depends on the same (the sweep's settings and the cuts made to its input).
    pub grid: String,
    /// The inputs, by file name and content hash.
    pub inputs: Vec<InputRef>,
    pub shard: Shard,
    /// The points of the whole grid.
    pub points: usize,
}

const FORMAT: &str = "host-sim sweep part";

#[derive(Serialize, Deserialize)]
struct PartFile<R> {
    header: PartHeader,
    /// Each row with its point's index in the grid.
    rows: Vec<(usize, R)>,
}

/// Why shards cannot be written or merged.
#[derive(Debug, Error)]
pub enum ShardError {
    #[error("--shard needs --out DIR: the shard's part is written there, for `host-sim merge`")]
    NoOut,
    #[error("{path}: cannot read the part: {source}")]
    Read { path: String, source: std::io::Error },
    #[error("{path}: not a part that `--shard` wrote: {source}")]
    Parse { path: String, source: serde_json::Error },
    #[error("{path}: cannot write the part: {source}")]
    Write { path: String, source: std::io::Error },
    #[error(transparent)]
    Stage(#[from] replay::staged::StageError),
    #[error("{path}: {why}")]
    Foreign { path: String, why: String },
    #[error("{a} and {b} both hold shard {shard}; give each shard's folder once")]
    Repeated { a: String, b: String, shard: Shard },
    #[error("shard {shard} is missing; give its folder (run it with --shard {shard})")]
    Missing { shard: Shard },
    #[error("give the folders of the shards to merge")]
    NoParts,
}

fn grid_hash(identity: &str) -> String {
    format!("{:016x}", crate::workload::INPUT_CRC.checksum(identity.as_bytes()))
}

fn part_path(dir: &Path) -> PathBuf {
    dir.join(PART)
}

/// Writes `DIR/part.json` for `shard`: its rows by their points' indices.
pub(super) fn write<R: Serialize>(
    dir: &Path,
    grid: &Grid<'_>,
    shard: Shard,
    points: usize,
    rows: impl Iterator<Item = (usize, R)>,
) -> Result<(), ShardError> {
    let header = PartHeader {
        format: FORMAT.to_owned(),
        host_version: env!("CARGO_PKG_VERSION").to_owned(),
        args: super::command_line(&["--shard", "--out"]),
        grid: grid_hash(&grid.identity),
        inputs: grid.inputs.clone(),
        shard,
        points,
    };
    let path = part_path(dir);
    std::fs::create_dir_all(dir)
        .map_err(|source| ShardError::Write { path: dir.display().to_string(), source })?;
    let file = PartFile { header, rows: rows.collect() };
    replay::staged::write(&path, |out, tmp| {
        let mut out = BufWriter::new(out);
        let written = serde_json::to_writer(&mut out, &file).map_err(std::io::Error::other);
        written
            .and_then(|()| out.write_all(b"\n"))
            .and_then(|()| out.flush())
            .map_err(|source| ShardError::Write { path: tmp.display().to_string(), source })
    })
}

/// The header of the part in `dir`.
pub fn header(dir: &Path) -> Result<PartHeader, ShardError> {
    #[derive(Deserialize)]
    struct Head {
        header: PartHeader,
    }
    let head: Head = read(dir)?;
    checked_format(dir, &head.header)?;
    Ok(head.header)
}

fn read<T: DeserializeOwned>(dir: &Path) -> Result<T, ShardError> {
    let path = part_path(dir);
    let name = path.display().to_string();
    let file =
        std::fs::File::open(&path).map_err(|source| ShardError::Read { path: name.clone(), source })?;
    serde_json::from_reader(BufReader::new(file)).map_err(|source| ShardError::Parse { path: name, source })
}

fn checked_format(dir: &Path, header: &PartHeader) -> Result<(), ShardError> {
    let path = part_path(dir).display().to_string();
    if header.format != FORMAT {
        return Err(ShardError::Foreign {
            path,
            why: format!("its format is {:?}, not {FORMAT:?}", header.format),
        });
    }
    let ours = env!("CARGO_PKG_VERSION");
    if header.host_version != ours {
        let why = format!(
            "a part of host-sim {}, not {ours}: shards and merge run one version",
            header.host_version
        );
        return Err(ShardError::Foreign { path, why });
    }
    Ok(())
}

/// The rows of the whole grid from the parts in `dirs`: each checked to be of this
/// grid (`grid`, and `points` when known before; else the first part's count, which
/// every other must share) over these inputs, every shard once.
pub(super) fn read_all<R: DeserializeOwned>(
    dirs: &[PathBuf],
    grid: &Grid<'_>,
    points: Option<usize>,
) -> Result<Vec<R>, ShardError> {
    let mut held: BTreeMap<u32, (&Path, PartFile<R>)> = BTreeMap::new();
    let mut count = None;
    let mut points = points;
    for dir in dirs {
        // The header first: a part of another grid or sweep is refused as such before
        // its rows (which may be of another shape) are read.
        let header = self::header(dir)?;
        let expected = *points.get_or_insert(header.points);
        foreign(dir, &header, grid, expected, count)?;
        let file: PartFile<R> = read(dir)?;
        let shard = file.header.shard;
        count = Some(shard.count);
        if let Some((other, _)) = held.get(&shard.index) {
            let (a, b) = (other.display().to_string(), dir.display().to_string());
            return Err(ShardError::Repeated { a, b, shard });
        }
        held.insert(shard.index, (dir, file));
    }
    let count = count.ok_or(ShardError::NoParts)?;
    if let Some(index) = (1..=count).find(|index| !held.contains_key(index)) {
        return Err(ShardError::Missing { shard: Shard { index, count } });
    }
    let mut rows: Vec<Option<R>> = (0..points.unwrap_or(0)).map(|_| None).collect();
    for (dir, file) in held.into_values() {
        let path = part_path(dir).display().to_string();
        for (index, row) in file.rows {
            match rows.get_mut(index) {
                Some(slot @ None) => *slot = Some(row),
                _ => {
                    return Err(ShardError::Foreign {
                        path,
                        why: format!("point {index} is not one of its own"),
                    });
                }
            }
        }
    }
    rows.into_iter().collect::<Option<Vec<R>>>().ok_or_else(|| ShardError::Foreign {
        path: dirs[0].display().to_string(),
        why: "the parts do not cover the grid's points".to_owned(),
    })
}

/// Refuses a part of another grid, input or split.
fn foreign(
    dir: &Path,
    header: &PartHeader,
    grid: &Grid<'_>,
    points: usize,
    count: Option<u32>,
) -> Result<(), ShardError> {
    let path = part_path(dir).display().to_string();
    let names = |inputs: &[InputRef]| {
        inputs.iter().map(|i| format!("{} (crc-64 {})", i.name, i.hash)).collect::<Vec<_>>().join(", ")
    };
    let why = if header.inputs != grid.inputs {
        format!("a part of another input, {}, not {}", names(&header.inputs), names(&grid.inputs))
    } else if header.grid != grid_hash(&grid.identity) || header.points != points {
        format!("a part of another grid (`{}`)", header.args.join(" "))
    } else if count.is_some_and(|n| n != header.shard.count) {
        format!(
            "shard {} of a split into {}, and the others are of {}",
            header.shard,
            header.shard.count,
            count.unwrap_or(0)
        )
    } else {
        return Ok(());
    };
    Err(ShardError::Foreign { path, why })
}
