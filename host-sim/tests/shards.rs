//! A sweep split into shards (`--shard K/N`) and merged (`host-sim merge`): the
//! merged outputs are the unsplit run's, byte for byte, and a missing, repeated or
//! foreign part is refused by name, with nothing written.

mod common;

use std::path::Path;

use common::{host_sim_in, scratch, stderr_of_failure, stdout};

/// A small grid of the service-level sweep on the built-in workload of `jobs` jobs.
fn sweep(dir: &Path, jobs: &str, machines: &str, extra: &[&str]) {
    let grid = ["sweep", "--jobs", jobs, "--machine-counts", machines, "--slacks", "1,2,3", "--window", "1d"];
    stdout(&host_sim_in(dir, &[&grid[..], extra].concat()));
}

fn shards(dir: &Path, jobs: &str, machines: &str, count: u32, prefix: &str) {
    for k in 1..=count {
        let (shard, out) = (format!("{k}/{count}"), format!("{prefix}{k}"));
        sweep(dir, jobs, machines, &["--shard", &shard, "--out", &out]);
        assert!(dir.join(&out).join("part.json").is_file());
        assert!(!dir.join(&out).join("sweep.csv").exists(), "a shard writes only its part");
    }
}

#[test]
fn four_shards_merge_to_the_unsplit_runs_bytes() {
    let dir = scratch("shards-merge");
    sweep(&dir, "3000", "1,2,4", &["--out", "whole"]);
    shards(&dir, "3000", "1,2,4", 4, "s");
    stdout(&host_sim_in(&dir, &["merge", "s3", "s1", "s4", "s2", "--out", "merged"]));
    let mut names: Vec<_> =
        std::fs::read_dir(dir.join("whole")).unwrap().map(|e| e.unwrap().file_name()).collect();
    names.sort();
    assert!(names.len() > 2, "the CSV, the JSON and the figures: {names:?}");
    for name in names {
        let (whole, merged) = (dir.join("whole").join(&name), dir.join("merged").join(&name));
        assert_eq!(std::fs::read(&whole).unwrap(), std::fs::read(&merged).unwrap(), "{name:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_missing_a_repeated_and_a_foreign_part_are_refused_by_name() {
    let dir = scratch("shards-refused");
    shards(&dir, "2000", "1,2", 3, "s");
    shards(&dir, "1500", "1,2", 3, "other-input");
    shards(&dir, "2000", "1,4", 3, "other-grid");
    shards(&dir, "2000", "1,2", 2, "other-split");
    let refused = |parts: &[&str]| {
        let args = [&["merge"], parts, &["--out", "merged"]].concat();
        let error = stderr_of_failure(&host_sim_in(&dir, &args));
        assert!(!dir.join("merged").exists(), "nothing written: {error}");
        error
    };
    assert!(refused(&["s1", "s3"]).contains("shard 2/3 is missing"));
    assert!(refused(&["s1", "s2", "s2", "s3"]).contains("s2 and s2 both hold shard 2/3"));
    let input = refused(&["s1", "other-input2", "s3"]);
    assert!(input.contains("other-input2/part.json: a part of another input"), "{input}");
    let grid = refused(&["s1", "s2", "other-grid3"]);
    assert!(grid.contains("other-grid3/part.json: a part of another grid"), "{grid}");
    let split = refused(&["s1", "other-split2", "s3"]);
    assert!(split.contains("other-split2/part.json: shard 2/2 of a split into 2"), "{split}");
    let none = refused(&["empty"]);
    assert!(none.contains("empty/part.json: cannot read the part"), "{none}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_shard_needs_an_out_folder_and_a_shard_within_its_count() {
    let dir = scratch("shards-options");
    let error = stderr_of_failure(&host_sim_in(&dir, &["sweep", "--jobs", "100", "--shard", "1/2"]));
    assert!(error.contains("--shard needs --out DIR"), "{error}");
    let error =
        stderr_of_failure(&host_sim_in(&dir, &["sweep", "--jobs", "100", "--shard", "3/2", "--out", "x"]));
    assert!(error.contains("--shard") && error.contains("K/N"), "{error}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The Slurm scripts, run by `sh` as Slurm's tasks would run them (each array task
/// with its SLURM_ARRAY_TASK_ID), merge to the unsplit run's bytes.
#[test]
fn the_slurm_scripts_run_the_shards_and_their_merge() {
    let dir = scratch("shards-slurm");
    let grid = ["sweep", "--jobs", "2000", "--machine-counts", "1,2", "--slacks", "1,2,3", "--window", "1d"];
    let slurm =
        [&["slurm", "--shards", "3", "--time", "0:10:00", "--mem", "1G", "--out", "study", "--"], &grid[..]];
    stdout(&host_sim_in(&dir, &slurm.concat()));
    let shards = std::fs::read_to_string(dir.join("study/shards.sbatch")).unwrap();
    for line in ["#SBATCH --array=1-3", "#SBATCH --time=0:10:00", "#SBATCH --mem=1G"] {
        assert!(shards.lines().take_while(|l| l.starts_with('#')).any(|l| l == line), "{line} in\n{shards}");
    }
    for task in ["2", "3", "1"] {
        let mut run = std::process::Command::new("sh");
        run.arg("study/shards.sbatch").current_dir(&dir).env("SLURM_ARRAY_TASK_ID", task);
        let output = run.output().unwrap();
        assert!(output.status.success(), "task {task}: {}", String::from_utf8_lossy(&output.stderr));
    }
    let merge =
        std::process::Command::new("sh").arg("study/merge.sbatch").current_dir(&dir).output().unwrap();
    assert!(merge.status.success(), "{}", String::from_utf8_lossy(&merge.stderr));
    sweep(&dir, "2000", "1,2", &["--out", "whole"]);
    for name in ["sweep.csv", "sweep.json"] {
        let whole = std::fs::read(dir.join("whole").join(name)).unwrap();
        assert_eq!(whole, std::fs::read(dir.join("study/merged").join(name)).unwrap(), "{name}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
