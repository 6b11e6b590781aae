//! `cargo xtask crosshost`: every model's outputs byte for byte on this host and on
//! s390x, a big-endian machine, under `qemu-s390x`.
//!
//! 1. Builds `host-sim` for this host (release) and for `s390x-unknown-linux-gnu`
//!    (profile `crosshost`, linked by `s390x-linux-gnu-gcc`, in
//!    `target/crosshost/build` so the host's build stays as it is), the latter
//!    without default features: the `optimum` feature's C++ solver (HiGHS) is not
//!    cross-built, and no compared run uses it.
//! 2. Runs each model's rows (`crosshost` in [`crate::models::MODELS`]) on both, each side in its own folder under
//!    `target/crosshost/`, with `--log RUN.log --json` (standard output to
//!    `RUN.json`): the same relative log name on both sides, because the JSON
//!    summary names its log.
//! 3. Compares every log and JSON output byte for byte ([`compare`]); a difference
//!    fails and names the run, the file and the first differing byte offset.
//!
//! The runs are small (trace prefixes through `--limit`, the built-in workloads):
//! under QEMU each takes a second or two, so the cross build is most of the time.

pub mod compare;
#[cfg(test)]
mod tests;

use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::cmd::{
    Result, cargo, host_sim_bin, in_ci, render, run, shared_traces, target_dir, wait_within, works,
};
use crate::toolchain::ensure_rust_target;
use compare::Side;

pub const TARGET: &str = "s390x-unknown-linux-gnu";
pub const QEMU: &str = "qemu-s390x";
const LINKER: &str = "s390x-linux-gnu-gcc";
/// Where Debian's cross packages put s390x's C library and dynamic loader.
const SYSROOT: &str = "/usr/s390x-linux-gnu";
/// The Debian packages that hold what the check runs, as `.ci/run` installs them.
pub const PACKAGES: &str = "qemu-user gcc-s390x-linux-gnu libc6-dev-s390x-cross";
/// The cargo profile of the s390x build (see the workspace's Cargo.toml).
const PROFILE: &str = "crosshost";
/// Every run takes a second or two under QEMU; past this it is stuck.
const TIME_LIMIT: Duration = Duration::from_secs(120);
/// The shared trace the trace runs read (28,476 jobs; each run takes a prefix).
const TRACE: &str = "KTH-SP2-1996-2.1-cln.swf.gz";

/// What a run reads: its subcommand's built-in workload, or the first N jobs of
/// [`TRACE`].
use crate::models::Input::{BuiltIn, Trace};

/// A run: `(label, subcommand, options, input)`, one of each model's rows in
/// [`crate::models::MODELS`]: `host-sim SUBCOMMAND OPTIONS [--trace TRACE --limit N]
/// --log LABEL.log --json`.
type Run = (&'static str, &'static str, &'static [&'static str], crate::models::Input);

/// The tools the check needs that this machine lacks, by name.
pub fn missing_tools() -> Vec<String> {
    let mut missing = Vec::new();
    for tool in [QEMU, LINKER] {
        if !works(Command::new(tool).arg("--version")) {
            missing.push(tool.to_owned());
        }
    }
    // The C library's start file, which the link needs (its package brings the
    // dynamic loader QEMU needs too).
    let start_file = Path::new(SYSROOT).join("lib/crt1.o");
    if !start_file.is_file() {
        missing.push(start_file.display().to_string());
    }
    missing
}

/// The whole check. `tamper` flips one byte of this host's log of the first run
/// (best fit, or the first built-in run when the trace is absent) before comparing: the check must then fail, naming that run, file and byte.
pub fn crosshost(tamper: bool) -> Result {
    let started = Instant::now();
    let missing = missing_tools();
    if !missing.is_empty() {
        return Err(format!(
            "crosshost: {} not found (Debian: `apt-get install {PACKAGES}`; .ci/run installs them)",
            missing.join(", ")
        ));
    }
    let trace = match shared_traces("crosshost")? {
        Some(traces) => traces.into_iter().find(|p| p.file_name().is_some_and(|n| n == TRACE)),
        None => None,
    };
    if trace.is_none() {
        if in_ci() {
            return Err(format!("crosshost: ../shared/traces/{TRACE} is missing, and CI=true requires it"));
        }
        println!("==> crosshost: ../shared/traces/{TRACE} is absent: only the built-in workloads run");
    }
    let dir = target_dir().join("crosshost");
    let (native, emulated) = build(&dir)?;
    let built = started.elapsed();
    let host = std::env::consts::ARCH;
    let all = crate::models::crosshost_runs();
    let runs: Vec<_> = all.iter().filter(|row| row.3 == BuiltIn || trace.is_some()).collect();
    // Named apart even when this host is itself an s390x.
    let native_dir = dir.join(format!("host-{host}"));
    let emulated_dir = dir.join("qemu-s390x");
    let native_time = run_all(host, &native_dir, &runs, trace.as_deref(), &|| Command::new(&native))?;
    let qemu = || {
        let mut cmd = Command::new(QEMU);
        cmd.arg("-L").arg(SYSROOT).arg(&emulated);
        cmd
    };
    let emulated_time = run_all("s390x", &emulated_dir, &runs, trace.as_deref(), &qemu)?;
    if let (true, Some((label, ..))) = (tamper, runs.first()) {
        plant_difference(&native_dir.join(format!("{label}.log")))?;
    }
    let (files, bytes) = compare_all(host, &native_dir, &emulated_dir, &runs)?;
    println!(
        "==> crosshost: {} runs, {files} files ({bytes} bytes) identical on {host} and s390x; \
         builds {:.1} s, runs {:.1} s on {host} and {:.1} s under QEMU, {:.1} s in all",
        runs.len(),
        built.as_secs_f64(),
        native_time.as_secs_f64(),
        emulated_time.as_secs_f64(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Builds host-sim for this host (release) and for s390x; returns both binaries.
fn build(dir: &Path) -> Result<(PathBuf, PathBuf)> {
    crate::toolchain::build_release_tools("crosshost: host-sim (this host)")?;
    ensure_rust_target("crosshost: add s390x target", TARGET)?;
    let build_dir = dir.join("build");
    let mut cross = cargo();
    cross
        .args(["build", "--profile", PROFILE, "-p", "host-sim", "--bin", "host-sim", "--target", TARGET])
        // Without the `optimum` feature: its solver, HiGHS, is C++ built by cmake for the
        // host, and none of the compared runs needs it.
        .arg("--no-default-features")
        .arg("--target-dir")
        .arg(&build_dir)
        .env("CARGO_TARGET_S390X_UNKNOWN_LINUX_GNU_LINKER", LINKER);
    run("crosshost: host-sim (s390x)", &mut cross)?;
    Ok((host_sim_bin(), build_dir.join(TARGET).join(PROFILE).join("host-sim")))
}

/// Runs every row of `runs` with `sim` (the binary, or QEMU with it) in `out`,
/// emptied first; returns the time the runs took.
fn run_all(
    host: &str,
    out: &Path,
    runs: &[&Run],
    trace: Option<&Path>,
    sim: &dyn Fn() -> Command,
) -> Result<Duration> {
    if out.exists() {
        fs::remove_dir_all(out).map_err(|e| format!("crosshost: cannot empty {}: {e}", out.display()))?;
    }
    fs::create_dir_all(out).map_err(|e| format!("crosshost: cannot create {}: {e}", out.display()))?;
    let started = Instant::now();
    for (label, subcommand, options, input) in runs {
        let mut cmd = sim();
        cmd.arg(subcommand).args(*options);
        if let (Trace(jobs), Some(trace)) = (input, trace) {
            cmd.arg("--trace").arg(trace).arg("--limit").arg(jobs.to_string());
        }
        cmd.arg("--log").arg(format!("{label}.log")).arg("--json").current_dir(out);
        run_limited(&format!("crosshost: {label} on {host}"), &mut cmd, &out.join(format!("{label}.json")))?;
    }
    Ok(started.elapsed())
}

/// Runs `cmd` with its standard output in `stdout` and a time limit; a failure
/// names `step` and shows the standard error.
fn run_limited(step: &str, cmd: &mut Command, stdout: &Path) -> Result {
    let stderr = stdout.with_extension("stderr");
    let create = |path: &Path| {
        File::create(path).map_err(|e| format!("{step}: cannot create {}: {e}", path.display()))
    };
    cmd.stdin(Stdio::null()).stdout(create(stdout)?).stderr(create(&stderr)?);
    println!("==> {step}: {}", render(cmd));
    let mut child = cmd.spawn().map_err(|e| format!("{step}: cannot start {}: {e}", render(cmd)))?;
    let status = wait_within(&mut child, TIME_LIMIT, step)?;
    if status.success() {
        return Ok(());
    }
    let text = fs::read(&stderr).map(|b| String::from_utf8_lossy(&b).into_owned()).unwrap_or_default();
    Err(format!("{step}: `{}` exited with {status}:\n{text}", render(cmd)))
}

/// `--tamper`: flips one byte of `path`, this host's copy.
fn plant_difference(path: &Path) -> Result {
    let mut bytes =
        fs::read(path).map_err(|e| format!("crosshost: --tamper: cannot read {}: {e}", path.display()))?;
    let offset = compare::tamper(&mut bytes)
        .ok_or_else(|| format!("crosshost: --tamper: {} is empty", path.display()))?;
    fs::write(path, &bytes)
        .map_err(|e| format!("crosshost: --tamper: cannot write {}: {e}", path.display()))?;
    println!("==> crosshost: --tamper: flipped a bit of byte {offset} of {}", path.display());
    Ok(())
}

/// Every run's log and JSON output, this host's against s390x's; returns the files
/// and bytes compared, or every difference found.
fn compare_all(host: &str, native: &Path, emulated: &Path, runs: &[&Run]) -> Result<(usize, usize)> {
    let read = |dir: &Path, file: &str| {
        let path = dir.join(file);
        fs::read(&path).map_err(|e| format!("crosshost: cannot read {}: {e}", path.display()))
    };
    let (mut files, mut bytes, mut differences) = (0, 0, Vec::new());
    for row @ (label, ..) in runs {
        for file in [format!("{label}.log"), format!("{label}.json")] {
            let (a, b) = (read(native, &file)?, read(emulated, &file)?);
            match compare::compare(label, &file, Side { host, bytes: &a }, Side { host: "s390x", bytes: &b })
            {
                Ok(length) => (files, bytes) = (files + 1, bytes + length),
                Err(e) => differences.push(format!("{e}\n    (run `{label}` is `{}`)", describe(row))),
            }
        }
    }
    if differences.is_empty() {
        return Ok((files, bytes));
    }
    Err(format!(
        "crosshost: {} of {} files differ between {host} ({}) and s390x ({}):\n  {}",
        differences.len(),
        runs.len() * 2,
        native.display(),
        emulated.display(),
        differences.join("\n  ")
    ))
}

/// A run's command line as both sides ran it (the trace by its file name).
fn describe((label, subcommand, options, input): &Run) -> String {
    let quoted: Vec<String> =
        options.iter().map(|o| if o.contains(' ') { format!("'{o}'") } else { (*o).to_owned() }).collect();
    let trace = match input {
        Trace(jobs) => format!(" --trace {TRACE} --limit {jobs}"),
        BuiltIn => String::new(),
    };
    format!("host-sim {subcommand} {}{trace} --log {label}.log --json", quoted.join(" "))
}
