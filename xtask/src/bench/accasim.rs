//! AccaSim, the HPC workload-management simulator a user would otherwise pick, run
//! on the same trace as host-sim: installed from PyPI into a virtual environment under
//! the target directory, and driven by `xtask/accasim_driver.py` (FIFO dispatcher,
//! first-fit allocator, the trace's processor count, no output files).

use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::Command;

use flate2::read::MultiGzDecoder;

use super::child::Job;
use crate::cmd::{Result, render, root, works};

/// The release measured; 1.1.3 is the last on PyPI.
const PACKAGE: &str = "accasim==1.1.3";

/// A working AccaSim installation.
#[derive(Debug)]
pub struct AccaSim {
    python: PathBuf,
    driver: PathBuf,
}

/// AccaSim ready to run, or why it cannot be had (then its figures are null).
pub fn setup(target: &Path) -> std::result::Result<AccaSim, String> {
    let venv = target.join("accasim-venv");
    let python = venv.join("bin/python");
    let accasim = AccaSim { python, driver: root().join("xtask/accasim_driver.py") };
    if accasim.imports() {
        return Ok(accasim);
    }
    eprintln!("==> bench: installing {PACKAGE} into {}", venv.display());
    let mut create = Command::new("python3");
    create.args(["-m", "venv"]).arg(&venv);
    quiet(&mut create)?;
    let mut install = Command::new(&accasim.python);
    install.args(["-m", "pip", "install", "--quiet", PACKAGE]);
    quiet(&mut install)?;
    if accasim.imports() { Ok(accasim) } else { Err(format!("{PACKAGE} installed but does not import")) }
}

fn quiet(cmd: &mut Command) -> std::result::Result<(), String> {
    let output = cmd.output().map_err(|e| format!("cannot start {}: {e}", render(cmd)))?;
    if output.status.success() {
        return Ok(());
    }
    Err(format!("`{}` failed: {}", render(cmd), String::from_utf8_lossy(&output.stderr).trim()))
}

impl AccaSim {
    /// Whether the environment holds an importable AccaSim, with the driver's shim.
    fn imports(&self) -> bool {
        let check = "import collections, collections.abc; collections.Mapping = collections.abc.Mapping; \
                     import accasim.base.simulator_class";
        self.python.is_file() && works(Command::new(&self.python).args(["-c", check]))
    }

    /// One simulation of the plain-text `trace`, writing only to `results`.
    pub fn job(&self, trace: &Path, results: &Path) -> Job {
        Job::new(&self.python).arg(&self.driver).arg(trace).arg(results)
    }
}

/// The jobs AccaSim loaded, from the driver's JSON line.
pub fn jobs(stdout: &str) -> Result<u64> {
    let last = stdout.lines().last().unwrap_or_default();
    let value: serde_json::Value =
        serde_json::from_str(last).map_err(|e| format!("AccaSim driver output {last:?}: {e}"))?;
    value["jobs_loaded"].as_u64().ok_or_else(|| format!("AccaSim driver output without jobs_loaded: {last}"))
}

/// `trace` decompressed to `dir` (AccaSim reads plain SWF only), once.
pub fn plain_trace(trace: &Path, dir: &Path) -> Result<PathBuf> {
    let name = trace.file_name().map(|n| n.to_string_lossy().trim_end_matches(".gz").to_owned());
    let plain = dir.join(name.ok_or_else(|| format!("{} has no file name", trace.display()))?);
    if plain.is_file() {
        return Ok(plain);
    }
    let io = |e: std::io::Error| format!("decompressing {} to {}: {e}", trace.display(), plain.display());
    let mut input = MultiGzDecoder::new(BufReader::new(File::open(trace).map_err(io)?));
    let partial = plain.with_extension("swf.part");
    let mut output = BufWriter::new(File::create(&partial).map_err(io)?);
    std::io::copy(&mut input, &mut output).map_err(io)?;
    output.flush().map_err(io)?;
    drop(output);
    std::fs::rename(&partial, &plain).map_err(io)?;
    Ok(plain)
}
