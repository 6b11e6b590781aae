//! The steps of `cargo xtask verify`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::cmd::{
    Result, cargo, host_sim_bin, nightly_cargo, replay_bin, root, run, shared_traces, skipped, target_dir,
    works,
};
use crate::toolchain::{EMBEDDED_TARGET, ensure_target};

/// The fuzz targets beside the models' own (each model's is named as the model).
const SHARED_FUZZ_TARGETS: &[&str] = &["log_reader", "log_roundtrip", "calendar"];

pub fn verify(fuzz_seconds: u32) -> Result {
    run("fmt", cargo().args(["fmt", "--all", "--check"]))?;
    run("fmt (fuzz)", cargo().args(["fmt", "--manifest-path", "fuzz/Cargo.toml", "--check"]))?;
    run("fmt (python)", cargo().args(["fmt", "--manifest-path", "python/Cargo.toml", "--check"]))?;
    run(
        "fmt (embedded)",
        cargo().args(["fmt", "--all", "--manifest-path", "embedded/Cargo.toml", "--check"]),
    )?;
    println!("==> tidy: file and function lengths, models x layers, import cycles");
    crate::tidy::tidy(false)?;
    // With the `optimum` feature (HiGHS) when its build tools are here (always in CI),
    // so its code is linted and its tests run; without them, said once and skipped.
    let optimum = crate::toolchain::optimum_features()?;
    let clippy = ["clippy", "--workspace", "--all-targets"];
    run("clippy", cargo().args(clippy).args(&optimum).args(["--", "-D", "warnings"]))?;
    // Insta must compare, never write: a changed snapshot fails until it is reviewed.
    let mut test = cargo();
    test.args(["test", "--workspace"]).args(&optimum);
    run("test", test.env("INSTA_UPDATE", "no").env("INSTA_FORCE_PASS", "0"))?;
    embedded()?;
    crate::panic_check::panic_check(false)?;
    qemu()?;
    crate::toolchain::build_release_tools("build release tools")?;
    committed_logs()?;
    crate::docs::docs(false, &[])?;
    crate::tables::tables()?;
    crate::wheel::wheel()?;
    crate::cluster::cluster()?;
    crate::bad_inputs::bad_inputs(&[])?;
    crate::policy_table::verify_step(&root().join("docs/models/service_level.md"))?;
    crosshost()?;
    fuzz(fuzz_seconds, false)?;
    traces()?;
    println!("==> corpus: every model on every generated trace shape, each log verified");
    crate::corpus::corpus(false, false, &crate::models::trace_runs())?;
    scenarios()?;
    crate::scaffold::scaffold()
}

/// The kernel for a Cortex-M4F, with and without defmt.
fn embedded() -> Result {
    ensure_target("add embedded target")?;
    let kernel = ["build", "--release", "-p", "admission-kernel", "--target", EMBEDDED_TARGET];
    run("kernel for thumbv7em", cargo().args(kernel))?;
    run("kernel for thumbv7em with defmt", cargo().args(kernel).args(["--features", "defmt"]))
}

/// The firmware under QEMU (`cargo xtask embedded`), when `qemu-system-arm` is here;
/// when `CI=true` it must be.
fn qemu() -> Result {
    if !crate::embedded::qemu_present() {
        return skipped(
            "embedded (QEMU)",
            crate::embedded::QEMU,
            "the firmware's decisions were NOT compared with the host's",
            "apt-get install qemu-system-arm",
        );
    }
    crate::embedded::embedded(false)
}

/// Every model's outputs on s390x under QEMU against this host's (`cargo xtask
/// crosshost`), when its tools are here; when `CI=true` they must be.
fn crosshost() -> Result {
    let missing = crate::crosshost::missing_tools();
    if !missing.is_empty() {
        return skipped(
            "crosshost",
            &missing.join(", "),
            "no model's outputs were compared with a big-endian host's",
            &format!("apt-get install {}", crate::crosshost::PACKAGES),
        );
    }
    crate::crosshost::crosshost(false)
}

/// Every log committed under `snapshots/logs/` re-verifies.
fn committed_logs() -> Result {
    let dir = root().join("snapshots/logs");
    let logs = files_ending("committed logs", &dir, "log")?;
    if logs.is_empty() {
        return Err(format!("committed logs: none found in {}", dir.display()));
    }
    for log in logs {
        run("committed log", Command::new(replay_bin()).arg("verify").arg(&log))?;
    }
    Ok(())
}

/// A short run of each fuzz target, when cargo-fuzz and nightly are here, then the
/// negative control of the service-level bound checks (`fuzz_plant`); `plant` runs
/// only the control, showing its whole output.
pub fn fuzz(seconds: u32, plant: bool) -> Result {
    let has_nightly = works(Command::new("rustup").args(["run", "nightly", "rustc", "--version"]));
    let has_cargo_fuzz = works(nightly_cargo().args(["fuzz", "--version"]));
    // libFuzzer itself is C++, compiled by the fuzz targets' build.
    let has_cxx = crate::toolchain::cxx_present();
    if !has_nightly || !has_cargo_fuzz || !has_cxx {
        let (missing, install) = if !has_nightly {
            ("a nightly toolchain", "rustup toolchain install nightly")
        } else if !has_cargo_fuzz {
            ("cargo-fuzz", "cargo +nightly install cargo-fuzz --locked")
        } else {
            ("a C++ compiler (libFuzzer is C++)", "apt-get install g++")
        };
        return skipped("fuzz", missing, "no fuzz target ran and the planted-bound control did not", install);
    }
    if plant {
        return crate::fuzz_plant::planted_bound(true);
    }
    let models = crate::models::MODELS.iter().map(|m| m.name);
    for target in models.chain(SHARED_FUZZ_TARGETS.iter().copied()) {
        let time = format!("-max_total_time={seconds}");
        let mut cmd = nightly_cargo();
        cmd.current_dir(root().join("fuzz")).args(["fuzz", "run", target, "--", &time]);
        run(&format!("fuzz {target}"), &mut cmd)?;
    }
    crate::fuzz_plant::planted_bound(false)
}

/// The runs of the `traces` step ([`crate::models::MODELS`]) whose what-if is checked on a prefix of each trace (its
/// first N jobs, a run of its own) rather than on the whole trace's log: a what-if
/// takes as long as its run, and the reservation runs on the largest traces take
/// minutes (HPC2N about two), which the rest of the step does not.
const WHATIF_PREFIX: &[(&str, u64)] = &[("reservation", 10_000)];

/// Every run of the `traces` step (each model's in [`crate::models::MODELS`]) over every shared trace, each log re-verified, and
/// what-if'ed under its recorded configuration (`host-sim whatif`), which must
/// re-make it byte for byte.
fn traces() -> Result {
    let Some(traces) = shared_traces("traces")? else { return Ok(()) };
    let out = target_dir().join("xtask/traces");
    fs::create_dir_all(&out).map_err(|e| format!("traces: cannot create {}: {e}", out.display()))?;
    for trace in &traces {
        let name = trace.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        for (label, subcommand, options) in &crate::models::trace_runs() {
            let log = out.join(format!("{name}.{label}.log"));
            let mut sim = Command::new(host_sim_bin());
            sim.arg(subcommand).arg("--trace").arg(trace).args(*options).arg("--log").arg(&log);
            run(&format!("trace {name} ({label})"), &mut sim)?;
            run(&format!("verify {name} ({label})"), Command::new(replay_bin()).arg("verify").arg(&log))?;
            let prefix = WHATIF_PREFIX.iter().find(|(l, _)| l == label).map(|&(_, limit)| limit);
            let whatif_of = match prefix {
                None => log,
                Some(limit) => {
                    let log = out.join(format!("{name}.{label}.first{limit}.log"));
                    let mut sim = Command::new(host_sim_bin());
                    sim.arg(subcommand).arg("--trace").arg(trace).args(*options);
                    sim.arg("--limit").arg(limit.to_string()).arg("--log").arg(&log);
                    run(&format!("trace {name} ({label}, first {limit} jobs)"), &mut sim)?;
                    log
                }
            };
            whatif_remakes(&format!("whatif {name} ({label})"), &whatif_of)?;
        }
    }
    Ok(())
}

/// `host-sim whatif LOG` with no option must write LOG again, byte for byte.
fn whatif_remakes(step: &str, log: &Path) -> Result {
    let again = log.with_extension("whatif.log");
    let mut whatif = Command::new(host_sim_bin());
    whatif.arg("whatif").arg(log).arg("--log").arg(&again).stdout(std::process::Stdio::null());
    run(step, &mut whatif)?;
    let read =
        |path: &Path| fs::read(path).map_err(|e| format!("{step}: cannot read {}: {e}", path.display()));
    let (original, remade) = (read(log)?, read(&again)?);
    match original.iter().zip(&remade).position(|(a, b)| a != b) {
        Some(at) => Err(format!("{step}: {} differs from {} at byte {at}", again.display(), log.display())),
        None if original.len() != remade.len() => Err(format!(
            "{step}: {} is {} bytes, {} is {}",
            again.display(),
            remade.len(),
            log.display(),
            original.len()
        )),
        None => Ok(()),
    }
}

/// Every shipped scenario under `scenarios/` runs (they read the shared traces), and
/// every log they write re-verifies.
fn scenarios() -> Result {
    if shared_traces("scenarios")?.is_none() {
        return Ok(());
    }
    let dir = root().join("scenarios");
    let files = files_ending("scenarios", &dir, "toml")?;
    if files.is_empty() {
        return Err(format!("scenarios: none found in {}", dir.display()));
    }
    // The scenarios write under target/scenarios/ (relative to their folder).
    let out = root().join("target/scenarios");
    fs::create_dir_all(&out).map_err(|e| format!("scenarios: cannot create {}: {e}", out.display()))?;
    for file in &files {
        let name = file.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        run(&format!("scenario {name}"), Command::new(host_sim_bin()).arg("--config").arg(file))?;
    }
    for log in files_ending("scenarios", &out, "log")? {
        run("scenario log", Command::new(replay_bin()).arg("verify").arg(&log))?;
    }
    Ok(())
}

/// The files of `dir` with extension `ext`, sorted by name; `step` names the failure.
fn files_ending(step: &str, dir: &Path, ext: &str) -> Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(|e| format!("{step}: cannot read {}: {e}", dir.display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    files.sort();
    Ok(files)
}
