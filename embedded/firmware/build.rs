//! Puts `memory.x` where cortex-m-rt's `link.x` finds it, links with `link.x` (the
//! vector table and start-up) and `defmt.x` (defmt's format-string table), and
//! rebuilds when the event streams change.

use std::env;
use std::fs;
use std::path::PathBuf;

fn main() {
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    fs::write(out.join("memory.x"), include_bytes!("memory.x")).expect("OUT_DIR is writable");
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rerun-if-changed=memory.x");
    println!("cargo:rustc-link-arg-bins=-Tlink.x");
    println!("cargo:rustc-link-arg-bins=-Tdefmt.x");
    println!("cargo:rerun-if-env-changed=EMBEDDED_STREAMS");
    if let Some(streams) = env::var_os("EMBEDDED_STREAMS") {
        println!("cargo:rerun-if-changed={}", PathBuf::from(streams).display());
    }
}
