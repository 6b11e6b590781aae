//! The toolchains and build tools the steps need: the embedded target's name,
//! installing it (or another target, such as the cross-host check's) when it is
//! missing, finding a `size` that reads its ARM ELF files, and whether this run builds
//! `host-sim`'s optional `optimum` feature (HiGHS), which every release build of the
//! tools then shares. The embedded build, the panic-free link, the firmware run, the
//! footprint figure and every step that runs the release tools need them, so they
//! live below all of those.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::cmd::{Result, run, works};

pub(crate) const EMBEDDED_TARGET: &str = "thumbv7em-none-eabihf";

/// Installs the embedded target unless rustup lists it; `step` names the install.
pub(crate) fn ensure_target(step: &str) -> Result {
    ensure_rust_target(step, EMBEDDED_TARGET)
}

/// Installs `target` (the embedded one, s390x for the cross-host check) unless
/// rustup lists it; `step` names the install.
pub(crate) fn ensure_rust_target(step: &str, target: &str) -> Result {
    let installed = Command::new("rustup").args(["target", "list", "--installed"]).output();
    if installed.is_ok_and(|o| String::from_utf8_lossy(&o.stdout).lines().any(|l| l == target)) {
        return Ok(());
    }
    run(step, Command::new("rustup").args(["target", "add", target]))
}

/// The first of: `llvm-size` on the path, the one in the toolchain's `llvm-tools`
/// component, `arm-none-eabi-size`.
pub(crate) fn size_tool() -> Option<PathBuf> {
    let sysroot = Command::new("rustc").args(["--print", "sysroot"]).output().ok();
    let host = Command::new("rustc").args(["--print", "host-tuple"]).output().ok();
    let in_toolchain = sysroot.zip(host).map(|(s, h)| {
        let text = |b: Vec<u8>| String::from_utf8_lossy(&b).trim().to_owned();
        Path::new(&text(s.stdout)).join("lib/rustlib").join(text(h.stdout)).join("bin/llvm-size")
    });
    let candidates =
        [Some(PathBuf::from("llvm-size")), in_toolchain, Some(PathBuf::from("arm-none-eabi-size"))];
    candidates.into_iter().flatten().find(|tool| works(Command::new(tool).arg("--version")))
}

/// The Debian packages `host-sim`'s `optimum` feature needs to build HiGHS from source:
/// cmake and a C++ compiler for the solver, libclang for bindgen's bindings to its C API.
pub(crate) const OPTIMUM_PACKAGES: &str = "cmake g++ clang libclang-dev";

/// Whether this run builds and checks `host-sim`'s `optimum` feature (the HiGHS solver
/// behind `optimum` and `cv-sweep`): when its build tools are here, always when
/// `CI=true` (a CI run must not pass without it; their absence is then an error). Asked
/// once: every release build of the run must agree, or cargo would rebuild `host-sim`
/// between steps with and without the feature.
pub(crate) fn optimum() -> Result<bool> {
    static DECIDED: std::sync::OnceLock<std::result::Result<bool, String>> = std::sync::OnceLock::new();
    DECIDED.get_or_init(decide_optimum).clone()
}

fn decide_optimum() -> Result<bool> {
    let missing = optimum_tools_missing();
    if missing.is_empty() {
        return Ok(true);
    }
    crate::cmd::skipped(
        "optimum (HiGHS)",
        &missing.join(", "),
        "`host-sim optimum`, `cv-sweep`, their tests and docs/competitive-factor.md's commands were NOT built or run",
        &format!("apt-get install {OPTIMUM_PACKAGES}"),
    )?;
    Ok(false)
}

/// The tools HiGHS's build needs that this machine lacks.
fn optimum_tools_missing() -> Vec<&'static str> {
    let mut missing = Vec::new();
    if !works(Command::new("cmake").arg("--version")) {
        missing.push("cmake");
    }
    if !cxx_present() {
        missing.push("a C++ compiler");
    }
    if !libclang_present() {
        missing.push("libclang");
    }
    missing
}

/// Whether a C++ compiler runs (`CXX`, else `c++`, else `g++`): HiGHS needs one, and so
/// does libFuzzer, which cargo-fuzz's `libfuzzer-sys` compiles from its C++ sources.
pub(crate) fn cxx_present() -> bool {
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "c++".into());
    works(Command::new(&cxx).arg("--version")) || works(Command::new("g++").arg("--version"))
}

/// bindgen finds libclang through `LIBCLANG_PATH`, else in the usual LLVM folders.
fn libclang_present() -> bool {
    let mut dirs: Vec<PathBuf> = std::env::var_os("LIBCLANG_PATH").map(PathBuf::from).into_iter().collect();
    for base in ["/usr/lib", "/usr/local/lib", "/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu"] {
        let Ok(entries) = std::fs::read_dir(base) else { continue };
        dirs.push(PathBuf::from(base));
        dirs.extend(
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("llvm")))
                .map(|p| p.join("lib")),
        );
    }
    dirs.iter().any(|dir| {
        std::fs::read_dir(dir).is_ok_and(|entries| {
            entries
                .filter_map(std::result::Result::ok)
                .any(|e| e.file_name().to_string_lossy().starts_with("libclang"))
        })
    })
}

/// `--features host-sim/optimum` when this run builds the feature, else nothing.
pub(crate) fn optimum_features() -> Result<Vec<&'static str>> {
    Ok(if optimum()? { vec!["--features", "host-sim/optimum"] } else { Vec::new() })
}

/// The release `host-sim` and `replay` every later step runs, with the `optimum`
/// feature when this run builds it (so no two steps rebuild `host-sim` differently).
pub(crate) fn build_release_tools(step: &str) -> Result {
    let features = optimum_features()?;
    run(
        step,
        crate::cmd::cargo().args(["build", "--release", "-p", "host-sim", "-p", "replay"]).args(features),
    )
}
