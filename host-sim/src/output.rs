//! Writing to standard output without a panic: what every model's subcommands print
//! through.

use std::io::{self, Write};

/// Writes `text` to standard output and flushes it. An error, a closed pipe among
/// them, is returned, never a panic as `print!` would; each subcommand maps it into
/// its own error, which `main` turns into a quiet exit for a closed pipe.
pub fn write_stdout(text: &str) -> io::Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes()).and_then(|()| out.flush())
}
