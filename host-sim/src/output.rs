//! What every model's subcommands write: the run outputs they all take
//! ([`RunOutputArgs`]: `--log`, `--json`), and standard output without a panic.

use std::io::{self, Write};
use std::path::PathBuf;

use clap::Args;

/// The outputs of a one-configuration run, as every model's run subcommand takes them.
#[derive(Clone, Debug, Default, Args)]
pub struct RunOutputArgs {
    /// Write the decision log here: through FILE.tmp, renamed once whole, so that a
    /// failed run leaves no log that looks finished.
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
    /// Print the summary as one JSON object (the last line of standard output)
    /// instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Writes `text` to standard output and flushes it. An error, a closed pipe among
/// them, is returned, never a panic as `print!` would; each subcommand maps it into
/// its own error, which `main` turns into a quiet exit for a closed pipe.
pub fn write_stdout(text: &str) -> io::Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes()).and_then(|()| out.flush())
}
