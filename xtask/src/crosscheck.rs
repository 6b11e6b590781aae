//! `cargo xtask crosscheck`: the kernel's decisions against an independent
//! implementation of the rules, `tools/crosscheck.py` (Python, no code shared), on
//! every shared trace: under each machine-choice policy asked for (all five by
//! default), with the level sets asked for (by default one level with sf 1, 2 and 5
//! and levels 1..5, seed 7), on 1, 4 and 16 machines. Each run's log is re-verified
//! by `replay verify`, exported as JSON lines, and re-decided submit by submit by the
//! script, which also checks the submits against the trace it reads itself. Any
//! mismatch stops the run.

use std::fs;
use std::process::{Command, Stdio};

use crate::cmd::{Result, host_sim_bin, replay_bin, run, shared_traces, target_dir};

const MACHINES: [&str; 3] = ["1", "4", "16"];
/// Every policy, by the name `host-sim --policy` takes.
pub const POLICIES: [&str; 5] = ["first-fit", "best-fit", "worst-fit", "least-loaded", "round-robin"];
/// The level sets by name: one level with sf 1, 2 or 5, or levels 1..5 (seed 7).
pub const LEVEL_SETS: [(&str, &[&str]); 4] = [
    ("sf1", &["--slack", "1"]),
    ("sf2", &["--slack", "2"]),
    ("sf5", &["--slack", "5"]),
    ("levels", &["--levels", "1,2,3,4,5", "--seed", "7"]),
];

/// `policies` and `level_sets` are comma-separated names from [`POLICIES`] and
/// [`LEVEL_SETS`] (or `all`).
pub fn crosscheck(policies: &str, level_sets: &str) -> Result {
    let policies = pick("--policy", policies, &POLICIES.map(|p| (p, p)))?;
    let level_sets = pick("--level-sets", level_sets, &LEVEL_SETS)?;
    let Some(traces) = shared_traces("crosscheck")? else { return Ok(()) };
    crate::toolchain::build_release_tools("build release tools")?;
    let out = target_dir().join("xtask/crosscheck");
    fs::create_dir_all(&out).map_err(|e| format!("crosscheck: cannot create {}: {e}", out.display()))?;
    let (log, jsonl) = (out.join("run.log"), out.join("run.jsonl"));
    let script = crate::cmd::root().join("tools/crosscheck.py");
    let total = traces.len() * MACHINES.len() * level_sets.len() * policies.len();
    let mut runs = 0;
    for trace in &traces {
        let name = trace.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        for machines in MACHINES {
            for levels in &level_sets {
                for policy in &policies {
                    runs += 1;
                    let what = format!(
                        "{runs}/{total}: {name}, {machines} machines, {}, {policy}",
                        levels.join(" ")
                    );
                    let mut sim = Command::new(host_sim_bin());
                    sim.arg("run").arg("--trace").arg(trace).args(["--machines", machines]).args(*levels);
                    sim.args(["--policy", policy]);
                    // The summary is not needed: the log is what gets checked.
                    run(&format!("run {what}"), sim.arg("--log").arg(&log).stdout(Stdio::null()))?;
                    run(&format!("verify {what}"), Command::new(replay_bin()).arg("verify").arg(&log))?;
                    let mut export = Command::new(replay_bin());
                    run(&format!("export {what}"), export.arg("export").arg(&log).arg("--out").arg(&jsonl))?;
                    run(
                        &format!("crosscheck {what}"),
                        Command::new("python3").arg(&script).arg(trace).arg(&jsonl),
                    )?;
                }
            }
        }
    }
    println!(
        "==> crosscheck: {runs} runs ({} traces x {} machine counts x {} level sets x {} policies), every decision matches the independent implementation",
        traces.len(),
        MACHINES.len(),
        level_sets.len(),
        policies.len()
    );
    Ok(())
}

/// The values of the named entries of `table` that `list` names, in table order;
/// `all` names every entry.
fn pick<T: Copy>(option: &str, list: &str, table: &[(&str, T)]) -> Result<Vec<T>> {
    if list.trim() == "all" {
        return Ok(table.iter().map(|(_, v)| *v).collect());
    }
    let names: Vec<&str> = list.split(',').map(str::trim).collect();
    if let Some(unknown) = names.iter().find(|n| !table.iter().any(|(k, _)| k == *n)) {
        let known: Vec<&str> = table.iter().map(|(k, _)| *k).collect();
        return Err(format!("crosscheck {option}: `{unknown}` is not one of {} (or all)", known.join(", ")));
    }
    Ok(table.iter().filter(|(k, _)| names.contains(k)).map(|(_, v)| *v).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_pick_in_table_order_and_unknown_names_are_refused() {
        let picked = pick("--policy", "round-robin,first-fit", &POLICIES.map(|p| (p, p))).unwrap();
        assert_eq!(picked, ["first-fit", "round-robin"]);
        assert_eq!(pick("--level-sets", "all", &LEVEL_SETS).unwrap().len(), 4);
        let err = pick("--level-sets", "sf2,sf3", &LEVEL_SETS).unwrap_err();
        assert_eq!(err, "crosscheck --level-sets: `sf3` is not one of sf1, sf2, sf5, levels (or all)");
    }
}
