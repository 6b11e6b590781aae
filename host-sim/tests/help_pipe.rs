//! Help texts name every option's values and units and give an example per
//! subcommand; a reader that goes away (`host-sim ... | head`) ends the run quietly.

mod common;

use std::io::Read;
use std::process::{Command, Stdio};

use common::{HAND_TRACE, host_sim, scratch, stdout};

/// A subcommand's help with clap's line wrapping undone (runs of whitespace as one space).
fn help(args: &[&str]) -> String {
    stdout(&host_sim(args)).split_whitespace().collect::<Vec<_>>().join(" ")
}

const SUBCOMMANDS: [&str; 9] =
    ["run", "sweep", "reserve", "reserve-sweep", "criteria", "compare", "config", "tiers", "tiers-sweep"];

#[test]
fn every_subcommand_has_an_example() {
    for sub in SUBCOMMANDS {
        let help = help(&[sub, "--help"]);
        let at =
            help.find("Example: host-sim ").unwrap_or_else(|| panic!("{sub} --help has no example:\n{help}"));
        let example = &help[at..];
        assert!(example.starts_with(&format!("Example: host-sim {sub} ")), "{sub}: {example}");
        // Outputs go under out/, which .gitignore covers.
        let writes = example.contains("--out ") || example.contains("--log ") || example.contains('>');
        assert!(!writes || example.contains(" out/"), "{sub}: {example}");
    }
}

#[test]
fn help_names_values_and_units() {
    let run = help(&["run", "--help"]);
    let top = help(&["--help"]);
    for needle in [
        "16, 32, 64, 256 or 1024",
        "a bare number is seconds",
        "first-fit",
        "round-robin",
        "one tick is one second",
        "processor count is not used",
        "--jobs-out",
        "--seeds",
    ] {
        assert!(run.contains(needle) || top.contains(needle), "run: {needle}");
    }
    let sweep = help(&["sweep", "--help"]);
    assert!(sweep.contains("least-loaded") && sweep.contains("a bare number is seconds"), "{sweep}");
    let reserve = help(&["reserve", "--help"]);
    for needle in ["Poisson(80)", "mean 25%, 50% or 100%", "above 0", "phi = shift / Te", "ticks (seconds)"] {
        assert!(reserve.contains(needle), "reserve --help lacks {needle}:\n{reserve}");
    }
    let tiers = help(&["tiers", "--help"]);
    assert!(tiers.contains("0 to 100") && tiers.contains("re-placement of lost jobs"), "{tiers}");
}

/// Runs host-sim with its standard output closed before it writes anything.
fn with_closed_stdout(args: &[&str]) -> (bool, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_host-sim"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut stderr = String::new();
    child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    (child.wait().unwrap().success(), stderr)
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let dir = scratch("closed-pipe");
    let trace = dir.join("hand.swf");
    std::fs::write(&trace, HAND_TRACE).unwrap();
    let trace = trace.to_str().unwrap();
    let runs: [&[&str]; 7] = [
        &["run", "--jobs", "2000", "--levels", "1,2,3"],
        &["run", "--jobs", "500", "--seeds", "1..4"],
        &["sweep", "--jobs", "300", "--slacks", "1,2", "--machine-counts", "1", "--window", "all"],
        &["reserve", "--trace", trace],
        &["tiers"],
        &["config", "--defaults"],
        &["--jobs", "2000", "--json"],
    ];
    for args in runs {
        let (success, stderr) = with_closed_stdout(args);
        assert!(success && stderr.is_empty(), "{args:?}: {stderr}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
