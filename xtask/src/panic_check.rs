//! No panic can be linked: `xtask/footprint` built with `--features link-check`
//! reaches every model's state machine and the record encoding from bytes the
//! optimiser cannot see, and its panic handler calls `KERNEL_PANIC_PATH_IS_REACHABLE`,
//! a function defined nowhere. The linker drops the handler, and so the reference,
//! only when no kept code can panic: the program links exactly when the kernel has no
//! reachable panic.
//!
//! The step also checks that the probe covers every module of `kernel/src/lib.rs`
//! (its `COVERED` list), and runs a negative control: with `--features
//! planted-panic` (an out-of-bounds index put back) the link must fail, so the check
//! cannot pass by checking nothing. When the real check fails, the panic call sites
//! are named (function, file and line) from a build with a looping handler.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::cmd::{Result, cargo, render, root, target_dir, works};
use crate::toolchain::{EMBEDDED_TARGET, ensure_target};

/// The symbol the `link-check` panic handler calls; it is defined nowhere.
const MARKER: &str = "KERNEL_PANIC_PATH_IS_REACHABLE";
const BINARY: &str = "kernel-footprint";

/// The check, then its negative control. `plant` runs only the planted build and
/// reports it as the check would (to see the failure).
pub fn panic_check(plant: bool) -> Result {
    ensure_target("bench: add embedded target")?;
    covered_modules()?;
    if plant {
        println!("==> panic-free link: with a panic planted (--features planted-panic); this must fail");
        return link("planted-panic").map(|()| {
            println!("==> panic-free link: the planted panic linked: the check is broken");
        });
    }
    link("link-check")?;
    println!(
        "==> panic-free link: the kernel links with a panic handler that cannot link: no panic is reachable"
    );
    match link("planted-panic") {
        Err(e) if e.contains(MARKER) => {
            println!("==> panic-free link: negative control: a planted panic fails the link, as it must");
            Ok(())
        }
        Err(e) => Err(format!("panic-free link: the negative control failed for another reason: {e}")),
        Ok(()) => Err(
            "panic-free link: the negative control linked although it plants a panic: the check proves nothing"
                .into(),
        ),
    }
}

fn dir() -> PathBuf {
    target_dir().join("panic-check")
}

/// Builds the probe with `feature`; a failure to link on the marker is explained.
fn link(feature: &str) -> Result {
    let mut build = cargo();
    build
        .args(["build", "--release", "--target", EMBEDDED_TARGET, "--features", feature, "--manifest-path"])
        .arg(root().join("xtask/footprint/Cargo.toml"))
        .arg("--target-dir")
        .arg(dir());
    println!("==> panic-free link ({feature}): {}", render(&build));
    let output =
        build.output().map_err(|e| format!("panic-free link: cannot start {}: {e}", render(&build)))?;
    if output.status.success() {
        return Ok(());
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !stderr.contains(MARKER) {
        return Err(format!("panic-free link ({feature}): the build failed:\n{stderr}"));
    }
    Err(format!(
        "panic-free link ({feature}): a panic is reachable from the kernel: the probe's panic handler, \
         which calls the undefined `{MARKER}`, was kept by the linker. Panic call sites:\n{}\
         Replace each with an operation that cannot panic (see kernel/src/panic_free.rs).",
        explain(feature)
    ))
}

/// The functions, files and lines that call into `core::panicking`, from a build whose
/// handler loops (so that it links), with line tables.
fn explain(feature: &str) -> String {
    let features = format!("{feature},explain");
    let mut build = cargo();
    build
        .args(["build", "--release", "--target", EMBEDDED_TARGET, "--features", &features, "--manifest-path"])
        .arg(root().join("xtask/footprint/Cargo.toml"))
        .arg("--target-dir")
        .arg(dir().join("explain"))
        .env("CARGO_PROFILE_RELEASE_DEBUG", "line-tables-only");
    if !works(&mut build) {
        return format!("    (could not build the explaining probe: {})\n", render(&build));
    }
    let elf = dir().join("explain").join(EMBEDDED_TARGET).join("release").join(BINARY);
    call_sites(&elf).unwrap_or_else(|e| format!("    ({e})\n"))
}

fn call_sites(elf: &Path) -> std::result::Result<String, String> {
    let objdump = Command::new("llvm-objdump")
        .args(["-d", "--no-show-raw-insn", "--demangle"])
        .arg(elf)
        .output()
        .map_err(|e| format!("llvm-objdump is needed to name the call sites: {e}"))?;
    let listing = String::from_utf8_lossy(&objdump.stdout);
    let mut out = String::new();
    for line in listing.lines() {
        let is_call = line.contains("\tbl\t") || line.contains("\tb.w\t") || line.contains("\tb\t");
        let to_panic = line.contains("<core::panicking::") || line.contains("panic_on_ord_violation>");
        // `+0x..` is a branch inside a panic function (the handler's own loop).
        if !is_call || !to_panic || line.contains("+0x") {
            continue;
        }
        let Some(address) = line.split(':').next().map(str::trim) else { continue };
        // Calls inside the panic functions themselves are not call sites.
        let inlined = Command::new("llvm-addr2line")
            .args(["-f", "-i", "-C", "-e"])
            .arg(elf)
            .arg(format!("0x{address}"))
            .output()
            .map_err(|e| format!("llvm-addr2line is needed to name the call sites: {e}"))?;
        let frames = String::from_utf8_lossy(&inlined.stdout);
        if frames.lines().next().is_some_and(|f| f.starts_with("core::panicking")) {
            continue;
        }
        let pairs: Vec<&str> = frames.lines().collect();
        let trail: Vec<String> = pairs
            .chunks(2)
            .filter(|pair| pair.get(1).is_some_and(|loc| !loc.starts_with("/rustc/")))
            .map(|pair| {
                format!("{} ({})", pair.first().copied().unwrap_or("?"), pair.get(1).copied().unwrap_or("?"))
            })
            .collect();
        out.push_str(&format!("    0x{address}: {}\n", trail.join(" <- ")));
    }
    if out.is_empty() {
        out.push_str("    (none found in the listing)\n");
    }
    Ok(out)
}

/// Every module of `kernel/src/lib.rs` must be in the probe's `COVERED` list.
fn covered_modules() -> Result {
    let lib = root().join("kernel/src/lib.rs");
    let probe = root().join("xtask/footprint/src/main.rs");
    let read = |p: &Path| {
        fs::read_to_string(p).map_err(|e| format!("panic-free link: cannot read {}: {e}", p.display()))
    };
    let lib_text = read(&lib)?;
    let probe_text = read(&probe)?;
    let modules = lib_text.lines().filter_map(|line| {
        let line = line.trim();
        let rest = line
            .strip_prefix("pub mod ")
            .or_else(|| line.strip_prefix("pub(crate) mod "))
            .or_else(|| line.strip_prefix("mod "))?;
        rest.strip_suffix(';').map(str::trim)
    });
    let start = probe_text
        .find("pub const COVERED")
        .ok_or_else(|| format!("panic-free link: {} has no COVERED list", probe.display()))?;
    let list = probe_text.get(start..).and_then(|t| t.split_once("];")).map_or("", |(list, _)| list);
    let covered: Vec<&str> = list.split('"').skip(1).step_by(2).collect();
    let missing: Vec<&str> = modules.filter(|m| !covered.contains(m)).collect();
    if missing.is_empty() {
        println!("==> panic-free link: the probe covers every kernel module ({})", covered.join(", "));
        return Ok(());
    }
    Err(format!(
        "panic-free link: kernel module(s) {} (kernel/src/lib.rs) are not reached by the link check: \
         call them from `link_check` in {} under the `link-check` feature and add them to COVERED",
        missing.join(", "),
        probe.display()
    ))
}
