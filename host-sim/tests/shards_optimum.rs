//! `optimum` and `cv-sweep` split into shards: `--plan N` says what `--shard K/N`
//! runs, without the solver; and (with the `optimum` feature) the merged outputs are
//! the unsplit run's, but for the measured seconds, and a part of another trace is
//! refused by name.

mod common;

use std::path::{Path, PathBuf};

use common::{host_sim_in, scratch, stdout};

fn kth() -> Option<PathBuf> {
    let trace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz");
    if trace.is_file() {
        return Some(trace);
    }
    println!("NOTICE: {} is absent; the optimum's shard tests are skipped", trace.display());
    None
}

/// One-day KTH windows that close well within the limit, or need no solver.
fn cv_grid(trace: &Path) -> Vec<String> {
    let grid = ["cv-sweep", "--window", "1d", "--weeks", "4", "--modes", "single", "--slacks", "3,6"];
    let mut args: Vec<String> = grid.iter().map(|a| a.to_string()).collect();
    args.extend(["--machine-counts", "1", "--no-plots", "--trace"].map(String::from));
    args.push(trace.display().to_string());
    args
}

fn run(dir: &Path, args: &[String], extra: &[&str]) -> String {
    let args: Vec<&str> = args.iter().map(String::as_str).chain(extra.iter().copied()).collect();
    stdout(&host_sim_in(dir, &args))
}

#[test]
fn a_plan_splits_every_window_once_and_sums_its_shards() {
    let Some(trace) = kth() else { return };
    let dir = scratch("shards-plan");
    let table = run(&dir, &cv_grid(&trace), &["--plan", "3", "--out", "plan"]);
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), 5, "a header, three shards and all: {table}");
    let field = |line: &str, i: usize| line.split_whitespace().nth(i).unwrap().to_owned();
    let windows: u32 = lines[1..4].iter().map(|l| field(l, 1).parse::<u32>().unwrap()).sum();
    assert_eq!(field(lines[4], 0), "all");
    assert_eq!(windows.to_string(), field(lines[4], 1), "{table}");
    assert_eq!(windows, 8, "4 windows of 2 configurations: {table}");
    let plan = std::fs::read_to_string(dir.join("plan/plan.csv")).unwrap();
    assert_eq!(plan.lines().count(), 9, "{plan}");
    assert!(plan.starts_with("trace,mode,sf_or_k,machines,window,jobs,clusters,solver_clusters,columns,"));
    // Windows that need no solver are expected to take no time.
    for row in plan.lines().skip(1) {
        let f: Vec<&str> = row.split(',').collect();
        assert_eq!(f[7] == "0", f[9] == "0.000", "{row}");
    }
    assert!(!dir.join("plan/cv.csv").exists(), "a plan solves nothing");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Lines without their measured seconds: the last CSV field, or a table's 9th column.
#[cfg(feature = "optimum")]
fn untimed(text: &str, table: bool) -> Vec<String> {
    text.lines()
        .map(|l| match table {
            true => l
                .split_whitespace()
                .enumerate()
                .filter(|&(i, _)| i != 8)
                .map(|(_, w)| w)
                .collect::<Vec<_>>()
                .join(" "),
            false => l.rsplit_once(',').map_or(l, |(kept, _)| kept).to_owned(),
        })
        .collect()
}

#[cfg(feature = "optimum")]
#[test]
fn a_sharded_cv_sweep_merges_to_the_unsplit_run() {
    let Some(trace) = kth() else { return };
    let dir = scratch("shards-cv");
    let grid = cv_grid(&trace);
    let printed = run(&dir, &grid, &["--out", "whole"]);
    for k in 1..=3 {
        let shard = format!("{k}/3");
        assert_eq!(
            run(&dir, &grid, &["--shard", &shard, "--out", &format!("s{k}")]),
            "",
            "a shard prints nothing"
        );
    }
    assert_eq!(run(&dir, &["merge", "s2", "s3", "s1", "--out", "merged"].map(String::from), &[]), printed);
    let read = |p: &str| std::fs::read_to_string(dir.join(p)).unwrap();
    assert_eq!(read("whole/cv-summary.csv"), read("merged/cv-summary.csv"));
    let whole = read("whole/cv.csv");
    assert_eq!(untimed(&whole, false), untimed(&read("merged/cv.csv"), false));
    assert!(!whole.contains("bracketed"), "every window exact, so any run gives the same: {whole}");
    // A part of another trace (the same grid on NASA's) is refused by name.
    let nasa = trace.with_file_name("NASA-iPSC-1993-3.1-cln.swf.gz");
    let mut other = cv_grid(&nasa);
    other.extend(["--shard", "2/3", "--out", "nasa2"].map(String::from));
    run(&dir, &other, &[]);
    let merge = host_sim_in(&dir, &["merge", "s1", "nasa2", "s3", "--out", "foreign"]);
    let error = common::stderr_of_failure(&merge);
    assert!(error.contains("nasa2/part.json: a part of another input"), "{error}");
    assert!(!dir.join("foreign").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(feature = "optimum")]
#[test]
fn a_sharded_optimum_merges_to_the_unsplit_run() {
    let Some(trace) = kth() else { return };
    let dir = scratch("shards-optimum");
    let trace = trace.display().to_string();
    let args: Vec<String> =
        ["optimum", "--trace", &trace, "--machines", "1", "--slack", "6", "--window", "1d"]
            .iter()
            .chain(&["--sample", "5"])
            .map(|a| a.to_string())
            .collect();
    let printed = run(&dir, &args, &["--out", "whole.csv"]);
    for k in 1..=2 {
        assert_eq!(run(&dir, &args, &["--shard", &format!("{k}/2"), "--out", &format!("s{k}")]), "");
    }
    let merged = run(&dir, &["merge", "s2", "s1", "--out", "merged.csv"].map(String::from), &[]);
    assert_eq!(untimed(&merged, true), untimed(&printed, true));
    let read = |p: &str| std::fs::read_to_string(dir.join(p)).unwrap();
    assert_eq!(untimed(&read("whole.csv"), false), untimed(&read("merged.csv"), false));
    assert_eq!(read("whole.csv").lines().count(), 6, "five windows");
    let missing = common::stderr_of_failure(&host_sim_in(&dir, &["merge", "s2", "--out", "m.csv"]));
    assert!(missing.contains("shard 1/2 is missing"), "{missing}");
    // A shard without its folder is refused before any window is solved.
    let no_out: Vec<&str> = args.iter().map(String::as_str).chain(["--shard", "1/2"]).collect();
    let error = common::stderr_of_failure(&host_sim_in(&dir, &no_out));
    assert!(error.contains("--shard needs --out DIR"), "{error}");
    std::fs::remove_dir_all(&dir).unwrap();
}
