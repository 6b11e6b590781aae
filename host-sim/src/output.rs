//! What every model's subcommands write: the run outputs they all take
//! ([`RunOutputArgs`]: `--log`, `--json`), and standard output without a panic.

use std::cell::RefCell;
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

/// Writes `text` to standard output ([`stdout`]) and flushes it. An error, a closed
/// pipe among them, is returned, never a panic as `print!` would; each subcommand maps
/// it into its own error, which `main` turns into a quiet exit for a closed pipe.
pub fn write_stdout(text: &str) -> io::Result<()> {
    let mut out = stdout();
    out.write_all(text.as_bytes()).and_then(|()| out.flush())
}

thread_local! {
    /// What this thread wrote to standard output while [`capture`] runs.
    static CAPTURED: RefCell<Option<Vec<u8>>> = const { RefCell::new(None) };
}

/// Standard output as every subcommand writes it: the process's, locked, or this
/// thread's capture while [`capture`] runs (so that runs on several threads keep
/// their outputs apart).
#[derive(Debug)]
pub struct Stdout {
    real: Option<io::StdoutLock<'static>>,
}

/// This thread's standard output.
pub fn stdout() -> Stdout {
    let capturing = CAPTURED.with(|c| c.borrow().is_some());
    Stdout { real: (!capturing).then(|| io::stdout().lock()) }
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.real {
            Some(out) => out.write(buf),
            None => {
                CAPTURED.with(|c| c.borrow_mut().get_or_insert_with(Vec::new).extend_from_slice(buf));
                Ok(buf.len())
            }
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        self.real.as_mut().map_or(Ok(()), Write::flush)
    }
}

/// Runs `f` with what it writes to standard output through [`stdout`] kept in memory
/// instead, on this thread only; gives its result and those bytes. The Python package
/// reads a subcommand's `--json` summary this way.
pub fn capture<T>(f: impl FnOnce() -> T) -> (T, Vec<u8>) {
    /// Puts the outer capture back, even when `f` unwinds.
    struct Restore(Option<Vec<u8>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let outer = self.0.take();
            CAPTURED.with(|c| *c.borrow_mut() = outer);
        }
    }
    let restore = Restore(CAPTURED.with(|c| c.replace(Some(Vec::new()))));
    let result = f();
    let bytes = CAPTURED.with(|c| c.borrow_mut().take()).unwrap_or_default();
    drop(restore);
    (result, bytes)
}
