//! `cargo xtask wheel` (a step of `verify`, after `tables`): the Python package
//! (`python/`) as its release artifact. Its crate is linted (clippy; verify's `fmt`
//! step formats it), then
//! maturin, from the package registry, builds the abi3 wheel into
//! `<target>/xtask/wheel/dist/`, in the workspace's target folder. A fresh virtual
//! environment installs that wheel (and pytest, matplotlib, nbclient and ipykernel);
//! pytest runs `python/tests/` against it from outside the source tree, holding it to
//! the host-sim binary's numbers on the KTH trace, and the example notebook
//! (`examples/policies.ipynb`) is executed, any cell's error failing the step. Last,
//! the README's `pip install ./python` runs in a second fresh environment, and its
//! package's KTH run must give the binary's accepted count.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::cmd::{Result, cargo, host_sim_bin, root, run, shared_traces, skipped, target_dir, works};

/// maturin, the PEP 517 backend `python/pyproject.toml` names, by the versions it
/// names.
const MATURIN: &str = "maturin>=1.9,<2";

/// The notebook the step executes.
const NOTEBOOK: &str = "examples/policies.ipynb";

pub fn wheel() -> Result {
    let Some(traces) = shared_traces("wheel")? else { return Ok(()) };
    let lost = "the Python package was NOT built or tested";
    if !works(Command::new("python3").args(["-m", "venv", "--help"])) {
        return skipped("wheel", "python3 with venv", lost, "apt-get install python3-venv");
    }
    let manifest = root().join("python/Cargo.toml");
    let mut clippy = cargo();
    clippy.arg("clippy").arg("--manifest-path").arg(&manifest).args(["--", "-D", "warnings"]);
    run("wheel: clippy", clippy.env("CARGO_TARGET_DIR", target_dir()))?;
    let dir = target_dir().join("xtask/wheel");
    let wheel = build(&dir)?;
    let venv = dir.join("venv");
    let python = fresh(&venv)?;
    let extras = format!("{}[test,notebook]", wheel.display());
    run("wheel: install the wheel", pip(&venv).arg(extras))?;
    let kth = traces.iter().find(|t| t.ends_with("KTH-SP2-1996-2.1-cln.swf.gz"));
    let traces_dir =
        kth.and_then(|k| k.parent()).ok_or("wheel: the KTH trace is not among the shared traces")?;
    let mut pytest = Command::new(&python);
    pytest.args(["-m", "pytest", "-q", "-p", "no:cacheprovider"]).arg(root().join("python/tests"));
    pytest.current_dir(&dir).env("HOST_SIM", host_sim_bin()).env("ADMISSION_KERNEL_TRACES", traces_dir);
    pytest.env("ADMISSION_KERNEL_WHEEL", &wheel);
    run("wheel: pytest against the installed wheel", &mut pytest)?;
    let mut notebook = Command::new(&python);
    notebook.arg(root().join("tools/run_notebook.py")).arg(root().join(NOTEBOOK));
    run("wheel: the example notebook", notebook.env("ADMISSION_KERNEL_TRACES", traces_dir))?;
    from_source(&dir.join("source-venv"), &traces_dir.join("KTH-SP2-1996-2.1-cln.swf.gz"))
}

/// The wheel, built by maturin (in a virtual environment of its own, kept between
/// runs) into an emptied `dir/dist`.
fn build(dir: &Path) -> Result<PathBuf> {
    let builder = dir.join("maturin");
    if !works(Command::new(builder.join("bin/maturin")).arg("--version")) {
        fresh(&builder)?;
        run("wheel: install maturin", pip(&builder).arg(MATURIN))?;
    }
    let dist = dir.join("dist");
    let _ = fs::remove_dir_all(&dist);
    let mut maturin = Command::new(builder.join("bin/maturin"));
    maturin.args(["build", "--release", "--manifest-path"]).arg(root().join("python/Cargo.toml"));
    maturin.arg("--out").arg(&dist).env("CARGO_TARGET_DIR", target_dir());
    run("wheel: maturin build", &mut maturin)?;
    let built: Vec<PathBuf> = fs::read_dir(&dist)
        .map_err(|e| format!("wheel: cannot read {}: {e}", dist.display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "whl"))
        .collect();
    match built.as_slice() {
        [wheel] => {
            println!("==> wheel: built {}", wheel.display());
            Ok(wheel.clone())
        }
        _ => Err(format!("wheel: maturin left {} wheels in {}, not one", built.len(), dist.display())),
    }
}

/// The README's `pip install ./python`, in a fresh environment: its KTH run must
/// accept what the binary's does.
fn from_source(venv: &Path, kth: &Path) -> Result {
    let python = fresh(venv)?;
    let mut install = pip(venv);
    install.arg(root().join("python")).env("CARGO_TARGET_DIR", target_dir());
    run("wheel: pip install ./python", &mut install)?;
    let check = "import json, subprocess, sys, admission_kernel as ak\n\
         run = ak.run('service_level', trace=sys.argv[1], machines=4)\n\
         out = subprocess.run([sys.argv[2], 'run', '--trace', sys.argv[1], '--machines', '4', '--json'],\n\
             check=True, capture_output=True, text=True).stdout\n\
         cli = json.loads(out.strip().splitlines()[-1])\n\
         assert run.summary['counts'] == cli['counts'], (run.summary['counts'], cli['counts'])\n\
         assert len(run.jobs) == cli['counts']['submitted']\n\
         print('==> wheel: pip install ./python: accepted', run.summary['counts']['accepted'], 'as host-sim')";
    let mut smoke = Command::new(python);
    smoke.args(["-c", check]).arg(kth).arg(host_sim_bin()).current_dir(target_dir());
    run("wheel: the source install's KTH run", &mut smoke)
}

/// A new virtual environment at `venv` (any old one removed); its python.
fn fresh(venv: &Path) -> Result<PathBuf> {
    let _ = fs::remove_dir_all(venv);
    run("wheel: virtual environment", Command::new("python3").args(["-m", "venv"]).arg(venv))?;
    Ok(venv.join("bin/python"))
}

fn pip(venv: &Path) -> Command {
    let mut pip = Command::new(venv.join("bin/pip"));
    pip.args(["install", "--quiet", "--disable-pip-version-check"]);
    pip
}

/// `cargo xtask bench --python`: python/benches/pool.py with the wheel built and
/// installed in a fresh environment (the shared traces' KTH, `runs` rounds).
pub fn bench(runs: u32) -> Result {
    let Some(traces) = shared_traces("bench --python")? else { return Ok(()) };
    let kth = traces.iter().find(|t| t.ends_with("KTH-SP2-1996-2.1-cln.swf.gz"));
    let kth = kth.ok_or("bench --python: the KTH trace is not among the shared traces")?;
    let dir = target_dir().join("xtask/wheel");
    let wheel = build(&dir)?;
    let venv = dir.join("bench-venv");
    let python = fresh(&venv)?;
    run("bench: install the wheel", pip(&venv).arg(wheel))?;
    let mut bench = Command::new(python);
    bench
        .arg(root().join("python/benches/pool.py"))
        .arg(kth)
        .arg(host_sim_bin())
        .arg(runs.max(1).to_string());
    run("bench: the Python package", bench.current_dir(&dir))
}
