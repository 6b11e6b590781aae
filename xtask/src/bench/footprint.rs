//! The kernel's code size for a Cortex-M4F: `xtask/footprint` (a bare-metal program
//! that builds a `ServiceLevelKernel<4, 32, 8>` and steps it) is built for `thumbv7em-none-eabihf`
//! at `opt-level = "s"` with LTO, unused code removed by the linker, and the `.text`
//! of the result is read with `llvm-size` (or another `size` that reads ARM ELF).

use std::path::Path;
use std::process::Command;

use crate::cmd::{cargo, render, root, run};
use crate::toolchain::{EMBEDDED_TARGET, ensure_target, size_tool};

const BINARY: &str = "kernel-footprint";

/// `.text` bytes of the footprint program, or why it could not be measured.
pub fn code_bytes(target: &Path) -> std::result::Result<u64, String> {
    ensure_target("bench: add embedded target")?;
    let manifest = root().join("xtask/footprint/Cargo.toml");
    let mut build = cargo();
    // Its own workspace would use its own target directory: name the shared one.
    build
        .args(["build", "--release", "--target", EMBEDDED_TARGET, "--manifest-path"])
        .arg(&manifest)
        .arg("--target-dir")
        .arg(target);
    run("bench: kernel footprint for thumbv7em", &mut build)?;
    let elf = target.join(EMBEDDED_TARGET).join("release").join(BINARY);
    let tool = size_tool().ok_or(
        "no size tool reads ARM ELF here: install LLVM (`apt-get install llvm`), \
         `rustup component add llvm-tools`, or `apt-get install binutils-arm-none-eabi`",
    )?;
    text_bytes(&tool, &elf)
}

/// The `.text` line of `size -A` (System V format, which GNU and LLVM both print).
fn text_bytes(tool: &Path, elf: &Path) -> std::result::Result<u64, String> {
    let mut cmd = Command::new(tool);
    cmd.arg("-A").arg(elf);
    let output = cmd.output().map_err(|e| format!("cannot start {}: {e}", render(&cmd)))?;
    let text = String::from_utf8_lossy(&output.stdout);
    text.lines()
        .find_map(|line| {
            let mut fields = line.split_whitespace();
            (fields.next() == Some(".text")).then(|| fields.next()?.parse().ok()).flatten()
        })
        .ok_or_else(|| format!("`{}` printed no .text size:\n{text}", render(&cmd)))
}
