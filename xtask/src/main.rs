//! Project automation: `cargo xtask SUBCOMMAND` (the alias is in
//! `.cargo/config.toml`). `cargo xtask verify` runs everything CI runs, in the order
//! a failure is cheapest to see; each other subcommand is one of its steps on its
//! own, or a measurement:
//!
//! - `verify`: fmt (the workspace, `fuzz/`, `embedded/`), `tidy`, clippy and the
//!   tests (with the `optimum` feature when its build tools are here; insta compares
//!   and never writes), the kernel built for `thumbv7em-none-eabihf` with and without
//!   defmt, `panic-check`, `embedded`, the committed logs re-verified, `docs`, `tables`, `wheel`, `cluster`, `bad-inputs`, NASA's
//!   row of the policy table checked (`policy-table`), `crosshost`, `fuzz`, every model on every shared trace (each log re-verified and
//!   re-made by `host-sim whatif`), `corpus`, and the shipped scenarios (`steps`).
//! - `tidy`: the size and shape rules, and every model in every layer (`tidy`).
//! - `docs`: every command the Markdown shows, run and its output compared (`docs`).
//! - `tables`: the result tables read with pandas and evalys (`tables`).
//! - `wheel`: the Python package built as a wheel, tested and its notebook run
//!   against the installed wheel (`wheel`).
//! - `cluster`: a sharded sweep as a job array on a one-node Slurm, merged to the
//!   unsplit run's bytes (`cluster`).
//! - `bad-inputs`: the kept bad-input campaign, every case of `tests/bad-inputs/`
//!   (`bad_inputs`).
//! - `fuzz`: every fuzz target for a while, then the planted-bound control
//!   (`fuzz_plant`).
//! - `panic-check`: no panic can be linked into the kernel (`panic_check`).
//! - `embedded`: the kernels on a Cortex-M4F under QEMU, byte for byte against the
//!   host (`embedded`).
//! - `crosshost`: every model's logs and JSON metrics byte for byte on this host and
//!   on s390x (big-endian) under `qemu-s390x` (`crosshost`).
//! - `corpus`: every model on generated trace shapes, each log verified (`corpus`).
//! - `crosscheck`: every service-level decision against `tools/crosscheck.py`, an
//!   independent implementation (`crosscheck`).
//! - `bench`: every performance figure of `docs/performance.md`, measured side by
//!   side (`bench`; `--scale`: `scale`).
//! - `policy-table`: which machine-choice policy wins which metric on the shared
//!   traces, the docs' table made from the sweeps (`policy_table`).
//!
//! Each step prints a `==>` line; the first failure stops the run with a non-zero
//! exit and names the step. Steps that need tools this machine may lack (the embedded
//! target, cargo-fuzz, nightly, the shared traces, QEMU, the s390x cross linker)
//! install or skip with a one-line notice naming the command that installs what they
//! lack; with `CI=true` nothing is skipped and a missing tool is an error.
//! `docs/testing.md` is the guide.

mod bad_inputs;
mod bench;
mod cluster;
mod cmd;
mod corpus;
mod crosscheck;
mod crosshost;
mod docs;
mod embedded;
mod fuzz_plant;
mod models;
mod panic_check;
mod policy_table;
mod scaffold;
mod scale;
mod steps;
mod tables;
mod tidy;
mod toolchain;
mod wheel;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

// The usual clap entry point, as `replay`'s and `host-sim`'s are.
#[derive(Debug, Parser)]
#[command(about = "Project automation; `cargo xtask verify` runs what CI runs")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// fmt, tidy, clippy, tests, the embedded build, the panic-free link, the firmware under QEMU,
    /// committed logs, the cross-host check, fuzz smoke runs and the shared traces.
    Verify {
        /// Seconds each fuzz target runs for.
        #[arg(long, default_value_t = 20)]
        fuzz_seconds: u32,
    },
    /// The size and shape rules: file and function lengths, every model in every layer,
    /// no import cycles (see xtask/src/tidy/mod.rs).
    Tidy {
        /// Also list every run of six or more lines of code repeated outside tests (a
        /// report: it fails nothing).
        #[arg(long)]
        repeats: bool,
    },
    /// Only the fuzz targets, each for a while, then the planted-bound control (the
    /// service_level target holding greedy acceptance to a wrong bound must fail).
    Fuzz {
        #[arg(long, default_value_t = 60)]
        seconds: u32,
        /// Only the planted-bound control, with its whole output (to see the failure).
        #[arg(long)]
        plant: bool,
    },
    /// The kernel's decisions against tools/crosscheck.py on every shared trace: 7 traces
    /// x 3 machine counts x the level sets x the policies (all: 420 runs).
    Crosscheck {
        /// Policies, comma-separated: first-fit, best-fit, worst-fit, least-loaded,
        /// round-robin, or all.
        #[arg(long, value_name = "LIST", default_value = "all")]
        policy: String,
        /// Level sets, comma-separated: sf1, sf2, sf5 (one level with that slack
        /// factor), levels (levels 1..5, seed 7), or all.
        #[arg(long, value_name = "LIST", default_value = "all")]
        level_sets: String,
    },
    /// Every model's per-job, pieces and Batsim tables of the KTH trace, and every CSV
    /// the documented commands wrote, read with pandas and evalys (tools/check_tables.py;
    /// see xtask/src/tables.rs).
    Tables,
    /// A fifth model (accept everything) added to a copy of the workspace by the recipe
    /// of ARCHITECTURE.md: the files and lines it touches outside its own, counted and
    /// held to 12 and 60, and the copy formatted, tidied, built and tested (see
    /// xtask/src/scaffold/mod.rs).
    Scaffold,
    /// The kernels on a Cortex-M4F under QEMU (mps2-an386): their records byte for byte
    /// against the host's, flash, RAM and stack figures.
    Embedded {
        /// Change one processing time in the host's copy of the service-level stream:
        /// the comparison must then fail, naming the first differing record.
        #[arg(long)]
        tamper: bool,
    },
    /// Every model's logs and JSON metrics on this host against s390x (big-endian) under
    /// qemu-s390x, byte for byte (see xtask/src/crosshost/mod.rs).
    Crosshost {
        /// Flip one byte of this host's log of the first run before comparing: the
        /// check must then fail, naming the run, the file and the byte offset.
        #[arg(long)]
        tamper: bool,
    },
    /// No panic can be linked: the kernel's probe links with a panic handler that cannot
    /// link, and a planted panic fails (see xtask/src/panic_check.rs).
    PanicCheck {
        /// Build with a panic planted (`--features planted-panic`) to see the failure.
        #[arg(long)]
        plant: bool,
    },
    /// Every model on every generated trace shape (target/xtask/corpus/), each log
    /// verified, with requests, acceptances, wall time and peak memory.
    Corpus {
        /// Also the million-job file (not in verify).
        #[arg(long)]
        large: bool,
        /// Also every shared trace, for one table of everything.
        #[arg(long)]
        shared: bool,
    },
    /// Every command shown in README.md, ARCHITECTURE.md and docs/ run, and the output
    /// shown compared (console blocks, by trycmd); every sh line checked (see xtask/src/docs.rs).
    Docs {
        /// Write what the commands printed into the Markdown instead of comparing, for review.
        #[arg(long)]
        bless: bool,
        /// Only these Markdown files (default: all of them).
        #[arg(value_name = "FILE")]
        files: Vec<std::path::PathBuf>,
    },
    /// The kept bad-input campaign: every case of tests/bad-inputs/*.toml run on the
    /// release tools, each held to its exit status and words (tests/bad-inputs/README.md).
    BadInputs {
        /// Only these classes (file names without `.toml`; default: all of them).
        #[arg(value_name = "CLASS")]
        classes: Vec<String>,
    },
    /// One Markdown file's console blocks, run by `docs` from the file's scratch folder.
    #[command(hide = true)]
    DocsCase {
        #[arg(value_name = "FILE")]
        file: std::path::PathBuf,
    },
    /// Which policy wins which metric on the shared traces: the five policies' sweeps
    /// tallied into the docs' Markdown table (see xtask/src/policy_table.rs).
    PolicyTable(policy_table::Args),
    /// Every performance figure, side by side with AccaSim; see docs/performance.md.
    Bench {
        /// End with one line holding every figure as a JSON object.
        #[arg(long)]
        json: bool,
        /// Runs of each side-by-side measurement (medians are reported).
        #[arg(long, default_value_t = 5)]
        runs: u32,
        /// Only the scale benchmark: every model's run and verify on generated traces
        /// of growing length, their growth per doubling and peak memory, and the end
        /// to end ratio to `gzip -dc` (see xtask/src/scale.rs).
        #[arg(long)]
        scale: bool,
        /// The scale benchmark's trace lengths, in jobs.
        #[arg(long, value_name = "N,N,...", value_delimiter = ',', default_values_t = scale::DEFAULT_SIZES)]
        scale_jobs: Vec<u32>,
        /// Also every run's peak memory on a trace of this many jobs (the issue's
        /// point is 10000000; the trace is written once under target/xtask/scale).
        #[arg(long, value_name = "N")]
        scale_memory: Option<u32>,
        /// Only the Python package's figures: ten KTH runs in a pool of ten threads
        /// against one after another, and its overhead on a KTH run against the native
        /// call and the binary (python/benches/pool.py, with the wheel `wheel` built).
        #[arg(long)]
        python: bool,
        /// Only the exact optimum's benchmark: the competitive-factor sample (the
        /// middle week of every shared trace at each grid point, one and four machines)
        /// solved by `--method whole` and `--method steps` side by side: solve time per
        /// window, windows exact and bracketed (see xtask/src/bench/optimum.rs).
        #[arg(long)]
        optimum: bool,
        /// The optimum benchmark's traces by name (KTH-SP2-1996-2.1-cln); without it,
        /// every shared trace.
        #[arg(long, value_name = "NAME")]
        optimum_trace: Vec<String>,
        /// The optimum benchmark's machine counts.
        #[arg(long, value_name = "M,M,...", value_delimiter = ',', default_values_t = [1u16, 4])]
        optimum_machines: Vec<u16>,
        /// The optimum benchmark's time limit per window, in seconds.
        #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
        optimum_time_limit: f64,
    },
    /// A 4-shard KTH sweep on a one-node Slurm started for it (slurm-wlm, munge, as
    /// root): the job array and its merge against the unsplit run, byte for byte, and one
    /// shard run again alone (see xtask/src/cluster.rs).
    Cluster,
    /// The Python package as its release artifact: the abi3 wheel built by maturin,
    /// installed in a fresh virtual environment, pytest and the example notebook run
    /// against it, and the README's `pip install ./python` (see xtask/src/wheel.rs).
    Wheel,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // The bench report must end with its JSON line: no closing line after it.
    let closing_line = !matches!(
        cli.command,
        Command::Bench { scale: false, optimum: false, .. } | Command::DocsCase { .. }
    );
    let result = match cli.command {
        Command::Verify { fuzz_seconds } => steps::verify(fuzz_seconds),
        Command::Tidy { repeats } => tidy::tidy(repeats),
        Command::Scaffold => scaffold::scaffold(),
        Command::Tables => tables::tables(),
        Command::Fuzz { seconds, plant } => steps::fuzz(seconds, plant),
        Command::Crosscheck { policy, level_sets } => crosscheck::crosscheck(&policy, &level_sets),
        Command::Embedded { tamper } => embedded::embedded(tamper),
        Command::Crosshost { tamper } => crosshost::crosshost(tamper),
        Command::PanicCheck { plant } => panic_check::panic_check(plant),
        Command::Corpus { large, shared } => corpus::corpus(large, shared, &models::trace_runs()),
        Command::Bench { scale: true, scale_jobs, scale_memory, .. } => {
            build_release().and_then(|()| scale::scale(&scale_jobs, scale_memory, &models::trace_runs()))
        }
        Command::Bench { python: true, runs, .. } => build_release().and_then(|()| wheel::bench(runs)),
        Command::Bench { optimum: true, optimum_trace, optimum_machines, optimum_time_limit, .. } => {
            let sample = bench::optimum::Sample {
                traces: &optimum_trace,
                machines: &optimum_machines,
                time_limit: optimum_time_limit,
            };
            build_release().and_then(|()| bench::optimum::optimum(&sample))
        }
        Command::Bench { json, runs, .. } => bench::bench(json, runs),
        Command::Wheel => build_release().and_then(|()| wheel::wheel()),
        Command::Cluster => build_release().and_then(|()| cluster::cluster()),
        Command::Docs { bless, files } => docs::docs(bless, &files),
        Command::BadInputs { classes } => bad_inputs::bad_inputs(&classes),
        Command::PolicyTable(args) => policy_table::policy_table(&args),
        Command::DocsCase { file } => docs::docs_case(&file),
    };
    match result {
        Ok(()) => {
            if closing_line {
                println!("==> all steps passed");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("==> FAILED: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The release `host-sim` and `replay` the scale benchmark runs.
fn build_release() -> cmd::Result {
    toolchain::build_release_tools("build release tools")
}
