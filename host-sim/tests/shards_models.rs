//! The reservation, tiers and sla sweeps split into shards (`--shard K/N`) and merged
//! (`host-sim merge`): each shard writes only its part and prints nothing, the merged
//! outputs are the unsplit run's byte for byte, the merge prints what the unsplit run
//! printed, and a part of another sweep is refused.

mod common;

use std::path::Path;

use common::{HAND_TRACE, host_sim_in, scratch, stderr_of_failure, stdout};

/// Runs `sweep` (its options but `--out`) in three shards, each to `sK`; each writes
/// only its part and prints nothing.
fn shards(dir: &Path, sweep: &[&str]) {
    for k in 1..=3 {
        let (shard, out) = (format!("{k}/3"), format!("s{k}"));
        let printed = stdout(&host_sim_in(dir, &[sweep, &["--shard", &shard, "--out", &out]].concat()));
        assert_eq!(printed, "", "a shard prints nothing");
        let files: Vec<_> =
            std::fs::read_dir(dir.join(&out)).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(files, ["part.json"], "a shard writes only its part");
    }
}

/// Runs `sweep` (its options but `--out`) unsplit to `whole`, then in three shards
/// merged in a shuffled order to `merged`: every file of `whole` is `merged`'s, byte
/// for byte, and the two print the same, once `same` has taken out what may differ.
fn whole_and_merged_agree(dir: &Path, sweep: &[&str], same: impl Fn(&str) -> String) {
    let whole = stdout(&host_sim_in(dir, &[sweep, &["--out", "whole"]].concat()));
    shards(dir, sweep);
    let merged = stdout(&host_sim_in(dir, &["merge", "s2", "s3", "s1", "--out", "merged"]));
    assert!(!whole.is_empty(), "the unsplit run prints its findings");
    assert_eq!(same(&whole), same(&merged), "the merge prints what the unsplit run printed");
    let mut names: Vec<_> =
        std::fs::read_dir(dir.join("whole")).unwrap().map(|e| e.unwrap().file_name()).collect();
    names.sort();
    let mut merged_names: Vec<_> =
        std::fs::read_dir(dir.join("merged")).unwrap().map(|e| e.unwrap().file_name()).collect();
    merged_names.sort();
    assert_eq!(names, merged_names);
    assert!(names.len() > 2, "the CSV and the figures: {names:?}");
    for name in names {
        let (whole, merged) = (dir.join("whole").join(&name), dir.join("merged").join(&name));
        assert_eq!(std::fs::read(&whole).unwrap(), std::fs::read(&merged).unwrap(), "{name:?}");
    }
}

/// A scratch folder holding the hand-made trace as `hand.swf`.
fn with_trace(name: &str) -> std::path::PathBuf {
    let dir = scratch(name);
    std::fs::write(dir.join("hand.swf"), HAND_TRACE).unwrap();
    dir
}

const RESERVE: &[&str] = &["reserve-sweep", "--trace", "hand.swf", "--window", "1d"];
const TIERS: &[&str] = &["tiers-sweep", "--seeds", "1..1"];

#[test]
fn reserve_sweep_shards_merge_to_the_unsplit_runs_bytes() {
    let dir = with_trace("shards-reserve");
    whole_and_merged_agree(&dir, RESERVE, str::to_owned);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn tiers_sweep_shards_merge_to_the_unsplit_runs_bytes() {
    let dir = scratch("shards-tiers");
    whole_and_merged_agree(&dir, TIERS, str::to_owned);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The first line of `sla-sweep`'s output without its time (`in 12.3 s`), which is
/// the only thing a merge may print otherwise.
fn without_time(text: &str) -> String {
    let (first, rest) = text.split_once('\n').unwrap_or((text, ""));
    let timeless = match (first.find(") in "), first.find(" s;")) {
        (Some(from), Some(to)) if from < to => format!("{}{}", &first[..from + 1], &first[to + 2..]),
        _ => first.to_owned(),
    };
    format!("{timeless}\n{rest}")
}

#[test]
fn sla_sweep_shards_merge_to_the_unsplit_runs_bytes() {
    let dir = scratch("shards-sla");
    whole_and_merged_agree(&dir, &["sla-sweep", "--sets", "1", "--no-plots"], without_time);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_part_of_another_sweep_or_grid_is_refused() {
    let dir = with_trace("shards-foreign");
    let part = |sweep: &[&str], shard: &str, out: &str| {
        stdout(&host_sim_in(&dir, &[sweep, &["--shard", shard, "--out", out]].concat()));
    };
    part(RESERVE, "1/2", "reserve1");
    part(TIERS, "2/2", "tiers2");
    part(&[RESERVE, &["--seed", "2"]].concat(), "2/2", "seed2");
    part(&["tiers-sweep", "--seeds", "1..1", "--down-mean", "0"], "1/2", "faults1");
    let refused = |parts: &[&str]| {
        let error =
            stderr_of_failure(&host_sim_in(&dir, &[&["merge"], parts, &["--out", "merged"]].concat()));
        assert!(!dir.join("merged").exists(), "nothing written: {error}");
        error
    };
    // A part of another sweep is refused by its header, before its rows are read.
    for (parts, named) in [
        (["reserve1", "tiers2"], "tiers2/part.json: a part of another input"),
        (["tiers2", "reserve1"], "reserve1/part.json: a part of another input"),
    ] {
        let error = refused(&parts);
        assert!(error.contains(named), "{parts:?}: {error}");
    }
    for (parts, named) in [
        (["reserve1", "seed2"], "seed2/part.json: a part of another grid"),
        (["faults1", "tiers2"], "tiers2/part.json: a part of another grid"),
    ] {
        let error = refused(&parts);
        assert!(error.contains(named), "{parts:?}: {error}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
