//! `cargo xtask crosscheck`: the kernel's decisions against an independent
//! implementation of the rules, `tools/crosscheck.py` (Python, no code shared), on
//! every shared trace: one level with sf 1, 2 and 5 and levels 1..5 (seed 7), on 1, 4
//! and 16 machines. Each run's log is re-verified by `replay verify`, exported as JSON
//! lines, and re-decided submit by submit by the script, which also checks the submits
//! against the trace it reads itself. Any mismatch stops the run.

use std::fs;
use std::process::{Command, Stdio};

use crate::steps::{Result, cargo, host_sim_bin, replay_bin, run, shared_traces, target_dir};

const MACHINES: [&str; 3] = ["1", "4", "16"];
const LEVELS: [&[&str]; 4] =
    [&["--slack", "1"], &["--slack", "2"], &["--slack", "5"], &["--levels", "1,2,3,4,5", "--seed", "7"]];

pub fn crosscheck() -> Result {
    let Some(traces) = shared_traces("crosscheck")? else { return Ok(()) };
    run("build release tools", cargo().args(["build", "--release", "-p", "host-sim", "-p", "replay"]))?;
    let out = target_dir().join("xtask/crosscheck");
    fs::create_dir_all(&out).map_err(|e| format!("crosscheck: cannot create {}: {e}", out.display()))?;
    let (log, jsonl) = (out.join("run.log"), out.join("run.jsonl"));
    let script = crate::steps::root().join("tools/crosscheck.py");
    let mut runs = 0;
    for trace in &traces {
        let name = trace.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        for machines in MACHINES {
            for levels in LEVELS {
                let what = format!("{name}, {machines} machines, {}", levels.join(" "));
                let mut sim = Command::new(host_sim_bin());
                sim.arg("run").arg("--trace").arg(trace).args(["--machines", machines]).args(levels);
                // The summary is not needed: the log is what gets checked.
                run(&format!("run {what}"), sim.arg("--log").arg(&log).stdout(Stdio::null()))?;
                run(&format!("verify {what}"), Command::new(replay_bin()).arg("verify").arg(&log))?;
                let mut export = Command::new(replay_bin());
                run(&format!("export {what}"), export.arg("export").arg(&log).arg("--out").arg(&jsonl))?;
                run(
                    &format!("crosscheck {what}"),
                    Command::new("python3").arg(&script).arg(trace).arg(&jsonl),
                )?;
                runs += 1;
            }
        }
    }
    println!("==> crosscheck: {runs} runs, every decision matches the independent implementation");
    Ok(())
}
