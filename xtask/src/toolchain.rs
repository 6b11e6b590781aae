//! The embedded target and the tools around it: the target's name, installing it
//! (or another target, such as the cross-host check's) when it is missing, and
//! finding a `size` that reads its ARM ELF files. The embedded build, the panic-free
//! link, the firmware run and the footprint figure all need them, so they live below
//! all four.

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
