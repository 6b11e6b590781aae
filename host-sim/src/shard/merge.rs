//! `host-sim merge DIR... --out OUT`: the shards' parts joined into the unsplit run's
//! outputs. The command line the shards ran is read from the first part, and run
//! again with `--out OUT` and its rows taken from the parts (`--merge-parts`), so that
//! the same code writes the same bytes; the sweep checks every part against its grid.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::Args;

use super::{ShardError, part};

/// `host-sim merge`.
#[derive(Clone, Debug, Args)]
pub struct MergeArgs {
    /// The shards' folders (each holds the part.json its `--shard K/N` run wrote), one
    /// per shard, in any order.
    #[arg(value_name = "DIR", required = true, num_args = 1..)]
    pub parts: Vec<PathBuf>,
    /// Write the sweep's outputs here, as the unsplit run writes them to its --out.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
}

/// The command line that merges `args`'s parts: the shards' own, its rows from them.
pub fn merge(args: &MergeArgs) -> Result<Vec<OsString>, ShardError> {
    let first = args.parts.first().ok_or(ShardError::NoParts)?;
    let header = part::header(first)?;
    let mut argv: Vec<OsString> = vec!["host-sim".into()];
    argv.extend(header.args.iter().map(OsString::from));
    argv.push("--out".into());
    argv.push(args.out.clone().into_os_string());
    argv.push("--merge-parts".into());
    argv.extend(args.parts.iter().map(|p| p.clone().into_os_string()));
    Ok(argv)
}
