//! `cargo xtask tables` (a step of `verify`, after `docs`): the result tables as the
//! user's tools read them. Each model runs on the KTH trace (its first run of the
//! `traces` step); its log is exported as the per-job, pieces and Batsim tables
//! (docs/records.md), and its `--json` summary kept, as are those of its cross-host
//! runs (a built-in workload, or the trace's first jobs) and of `compare`; then `tools/check_tables.py`, in a virtual environment
//! with pandas, evalys and jsonschema from the package registry, reads every CSV the
//! documented commands wrote and these exports with pandas, loads each Batsim table
//! with evalys, holding its utilisation to the pieces', and validates every summary
//! and each log's JSON lines export against their JSON Schemas (`docs/schemas/`). Last, `tools/produce_stream.py`, a
//! producer of device record streams written from docs/stream-format.md alone, makes
//! each model's JSON lines export into a stream, which `replay import` must make into
//! a log that verifies and holds the same records.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::cmd::{Result, host_sim_bin, replay_bin, root, run, shared_traces, skipped, target_dir, works};

/// The Python packages the check imports, by the versions it was written against.
const PACKAGES: &[&str] = &["pandas>=2,<4", "evalys==4.0.7", "jsonschema>=4.20,<5"];

/// The trace every model's tables are made from.
const TRACE: &str = "KTH-SP2-1996-2.1-cln.swf.gz";

pub fn tables() -> Result {
    let Some(traces) = shared_traces("tables")? else { return Ok(()) };
    let Some(trace) = traces.iter().find(|t| t.ends_with(TRACE)) else {
        return Err(format!("tables: {TRACE} is not among the shared traces"));
    };
    let Some(python) = environment()? else { return Ok(()) };
    let out = target_dir().join("xtask/tables");
    let _ = fs::remove_dir_all(&out);
    let mut check = Command::new(&python);
    check.arg(root().join("tools/check_tables.py"));
    check.arg("--csv-under").arg(target_dir().join("xtask/docs")).arg(&out);
    check.arg("--schemas").arg(root().join("docs/schemas"));
    let mut producers = Vec::new();
    for model in crate::models::MODELS {
        let Some(&(label, options)) = model.traces.first() else { continue };
        let dir = out.join(model.name);
        fs::create_dir_all(&dir).map_err(|e| format!("tables: cannot create {}: {e}", dir.display()))?;
        let log = dir.join(format!("{label}.log"));
        let mut sim = Command::new(host_sim_bin());
        sim.arg(model.subcommand)
            .arg("--trace")
            .arg(trace)
            .args(options)
            .arg("--log")
            .arg(&log)
            .arg("--json");
        summary(&format!("{} on KTH", model.name), &mut sim, &dir.join("summary.json"))?;
        export(&log, &dir)?;
        producers.push((model.name, log, dir.clone()));
        check.arg("--model").arg(model.name).arg(&dir);
        check.arg("--export").arg(dir.join("export.jsonl"));
        check.arg("--summary").arg(model.name).arg(dir.join("summary.json"));
        for &(label, options, input) in model.crosshost {
            let path = dir.join(format!("{label}.json"));
            let mut sim = Command::new(host_sim_bin());
            sim.arg(model.subcommand).args(options).arg("--json");
            if let crate::models::Input::Trace(limit) = input {
                sim.arg("--trace").arg(trace).arg("--limit").arg(limit.to_string());
            }
            summary(&format!("{} ({label})", model.name), &mut sim, &path)?;
            check.arg("--summary").arg(model.name).arg(path);
        }
    }
    runs_beside(trace, &out, &mut check)?;
    run("tables: pandas, evalys and the JSON Schemas", &mut check)?;
    for (name, log, dir) in &producers {
        produced(name, &python, log, dir)?;
    }
    let names: Vec<&str> = producers.iter().map(|(name, _, _)| *name).collect();
    println!("==> tables: streams written from the spec import and verify: {}", names.join(", "));
    Ok(())
}

/// The log's JSON lines made into a device stream by `tools/produce_stream.py`, then
/// imported: the log must verify and hold the original's records, byte for byte as
/// exported.
fn produced(name: &str, python: &Path, log: &Path, dir: &Path) -> Result {
    let (jsonl, stream, imported) =
        (dir.join("export.jsonl"), dir.join("produced.stream"), dir.join("imported.log"));
    let mut producer = Command::new(python);
    producer.arg(root().join("tools/produce_stream.py")).arg(&jsonl).arg(&stream);
    run(&format!("tables: {name}: a stream from the spec"), &mut producer)?;
    let mut import = Command::new(replay_bin());
    import.arg("import").arg(&stream).arg("--out").arg(&imported);
    run(&format!("tables: {name}: import"), &mut import)?;
    run(&format!("tables: {name}: verify"), Command::new(replay_bin()).arg("verify").arg(&imported))?;
    let records = |path: &Path| -> Result<Vec<String>> {
        let out = Command::new(replay_bin())
            .arg("export")
            .arg(path)
            .output()
            .map_err(|e| format!("tables: {e}"))?;
        Ok(String::from_utf8_lossy(&out.stdout).lines().skip(1).map(str::to_owned).collect())
    };
    if records(log)? != records(&imported)? {
        return Err(format!(
            "tables: {name}: {} holds other records than {}",
            imported.display(),
            log.display()
        ));
    }
    Ok(())
}

/// The summaries of `run --seeds` and of `compare` on the trace, checked by `check`.
fn runs_beside(trace: &Path, out: &Path, check: &mut Command) -> Result {
    let seeds = out.join("seeds.json");
    let mut sim = Command::new(host_sim_bin());
    sim.args([
        "run",
        "--machines",
        "4",
        "--levels",
        "1,2",
        "--seeds",
        "1..3",
        "--limit",
        "3000",
        "--json",
        "--trace",
    ]);
    summary("run --seeds on KTH", sim.arg(trace), &seeds)?;
    check.arg("--summary").arg("service_level_seeds").arg(seeds);
    let compare = out.join("compare.json");
    let mut sim = Command::new(host_sim_bin());
    sim.args(["compare", "--limit", "3000", "--json", "--trace"]).arg(trace);
    summary("compare on KTH", &mut sim, &compare)?;
    check.arg("--summary").arg("compare").arg(compare);
    Ok(())
}

/// Runs `sim` and keeps its standard output, the summary, in `path`.
fn summary(step: &str, sim: &mut Command, path: &Path) -> Result {
    println!("==> tables: {step}: {}", crate::cmd::render(sim));
    let output = sim.output().map_err(|e| format!("tables: {step}: cannot run: {e}"))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        return Err(format!("tables: {step}: exited with {}: {stderr}", output.status));
    }
    fs::write(path, &output.stdout).map_err(|e| format!("tables: cannot write {}: {e}", path.display()))
}

/// The log's header line and its three tables, in `dir`.
fn export(log: &Path, dir: &Path) -> Result {
    for (format, file) in [("csv", "jobs.csv"), ("segments", "segments.csv"), ("batsim", "batsim.csv")] {
        let mut replay = Command::new(replay_bin());
        replay.arg("export").arg(log).arg("--format").arg(format).arg("--out").arg(dir.join(file));
        run(&format!("tables: export {format}"), &mut replay)?;
    }
    let jsonl = Command::new(replay_bin())
        .arg("export")
        .arg(log)
        .output()
        .map_err(|e| format!("tables: cannot run replay export: {e}"))?;
    let text = String::from_utf8_lossy(&jsonl.stdout);
    let header = text.lines().next().ok_or("tables: replay export wrote no header line")?;
    fs::write(dir.join("export.jsonl"), text.as_bytes()).map_err(|e| format!("tables: {e}"))?;
    fs::write(dir.join("header.jsonl"), format!("{header}\n")).map_err(|e| format!("tables: {e}"))
}

/// The virtual environment's Python with the packages installed, made once under
/// the target folder; `None` (said, or an error with `CI=true`) where Python or the
/// package registry is not at hand.
fn environment() -> Result<Option<PathBuf>> {
    let venv = target_dir().join("xtask/pyenv");
    let python = venv.join("bin/python");
    let imports = "import pandas, evalys, jsonschema";
    if works(Command::new(&python).args(["-c", imports])) {
        return Ok(Some(python));
    }
    let lost = "no CSV was read by pandas and no Batsim table by evalys";
    if !works(Command::new("python3").args(["-m", "venv", "--help"])) {
        skipped("tables", "python3 with venv", lost, "apt-get install python3-venv")?;
        return Ok(None);
    }
    run("tables: virtual environment", Command::new("python3").args(["-m", "venv"]).arg(&venv))?;
    let mut pip = Command::new(venv.join("bin/pip"));
    pip.args(["install", "--quiet", "--disable-pip-version-check"]).args(PACKAGES);
    if run("tables: pip install", &mut pip).is_err() {
        skipped("tables", "the package registry (pip install failed)", lost, "pip install pandas evalys")?;
        return Ok(None);
    }
    Ok(Some(python))
}
