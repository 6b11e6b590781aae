//! Scenario files: every option has a key, the command line overrides the file, and
//! unknown keys and bad values are errors naming the file, the line and the key.

mod common;

use common::{HAND_TRACE, host_sim, host_sim_in, scratch, stderr_of_failure, stdout};

fn json(output: &std::process::Output) -> serde_json::Value {
    serde_json::from_str(&stdout(output)).unwrap()
}

#[test]
fn a_scenario_runs_and_the_command_line_overrides_it() {
    let dir = scratch("config-run");
    let file = dir.join("run.toml");
    std::fs::write(
        &file,
        "command = \"run\"\nmachines = 3\nlevels = [1, 2, 3]\nseed = 7\njobs = 200\njson = true\n",
    )
    .unwrap();
    let path = file.to_str().unwrap();
    let from_file = json(&host_sim(&["--config", path]));
    assert_eq!(from_file["machines"], 3);
    assert_eq!(from_file["levels"].as_array().map(Vec::len), Some(3));
    // The same as typing the options.
    let typed = json(&host_sim(&[
        "run",
        "--machines",
        "3",
        "--levels",
        "1,2,3",
        "--seed",
        "7",
        "--jobs",
        "200",
        "--json",
    ]));
    assert_eq!(from_file, typed);
    // The command line wins.
    let overridden = json(&host_sim(&["run", "--config", path, "--machines", "5"]));
    assert_eq!(overridden["machines"], 5);
    assert_eq!(overridden["levels"].as_array().map(Vec::len), Some(3));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn paths_are_relative_to_the_scenario_file() {
    let dir = scratch("config-paths");
    std::fs::create_dir_all(dir.join("traces")).unwrap();
    std::fs::create_dir_all(dir.join("scenarios")).unwrap();
    std::fs::write(dir.join("traces/hand.swf"), HAND_TRACE).unwrap();
    let file = dir.join("scenarios/hand.toml");
    let text = "command = \"reserve\"\ntrace = \"../traces/hand.swf\"\nnodes = 16\nwindow = \"1d\"\nlog = \"out/hand.log\"\njson = true\n";
    std::fs::write(&file, text).unwrap();
    std::fs::create_dir_all(dir.join("scenarios/out")).unwrap();
    let value = json(&host_sim(&["--config", file.to_str().unwrap()]));
    assert!(value["acceptance_rate"].is_number(), "{value}");
    assert!(dir.join("scenarios/out/hand.log").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn unknown_keys_and_bad_values_name_the_line() {
    let dir = scratch("config-errors");
    let cases = [
        (
            "command = \"run\"\n\nmachine = 4\n",
            ":3: key `machine`: `host-sim run` has no such option; its keys are",
        ),
        (
            "jobs = 10\nmachines = 99\n",
            ":2: key `machines`: invalid value '99' for '--machines <N>': 99 is not in 1..=64",
        ),
        ("json = \"yes\"\n", ":1: key `json`: is a flag: give true or false"),
        ("[run]\nmachines = 2\n", ":1: key `run`: is a table; give the option a value"),
        ("command = \"fly\"\n", ":1: key `command`: is not the name of a subcommand"),
        ("command = \"sweep\"\n", ":1: key `command`: the file is for `sweep`, the command line runs `run`"),
        ("machines = \n", ":1: not valid TOML (string values must be quoted"),
    ];
    for (index, (text, expected)) in cases.into_iter().enumerate() {
        let file = dir.join(format!("bad{index}.toml"));
        std::fs::write(&file, text).unwrap();
        let path = file.to_str().unwrap();
        let err = stderr_of_failure(&host_sim(&["run", "--config", path]));
        assert!(err.contains(&format!("{path}{expected}")), "{text:?}: {err}");
    }
    // A value the run itself refuses later is traced back to its key and line.
    let file = dir.join("late.toml");
    std::fs::write(&file, "jobs = 10\nwindow = \"7x\"\n").unwrap();
    let err = stderr_of_failure(&host_sim(&["run", "--config", file.to_str().unwrap()]));
    assert!(err.contains("`7x` is not a duration"), "{err}");
    assert!(err.contains(&format!("(set by {}:2, key `window`)", file.display())), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_defaults_file_is_a_scenario_that_runs() {
    let dir = scratch("config-defaults");
    for command in ["run", "sweep", "reserve", "reserve-sweep"] {
        let text = stdout(&host_sim(&["config", "--defaults", "--command", command]));
        assert!(text.contains(&format!("command = \"{command}\"")), "{text}");
        assert!(text.lines().filter(|l| l.starts_with('#')).count() > 5, "{text}");
        let file = dir.join(format!("{command}.toml"));
        std::fs::write(&file, &text).unwrap();
        if command == "run" {
            // Every default, read back, gives the same run as no options at all.
            let from_defaults =
                json(&host_sim(&["--config", file.to_str().unwrap(), "--jobs", "300", "--json"]));
            assert_eq!(from_defaults, json(&host_sim(&["run", "--jobs", "300", "--json"])));
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_sla_defaults_and_the_shipped_scenario_run() {
    let dir = scratch("config-sla");
    let text = stdout(&host_sim(&["config", "--defaults", "--command", "sla"]));
    assert!(text.contains("heuristic = \"min(TF - 0.8*tD)\"") && text.contains("sets = 100"), "{text}");
    let file = dir.join("sla.toml");
    std::fs::write(&file, &text).unwrap();
    let from_defaults = json(&host_sim(&["--config", file.to_str().unwrap(), "--sets", "2", "--json"]));
    assert_eq!(from_defaults, json(&host_sim(&["sla", "--sets", "2", "--json"])));
    // The shipped scenario, with fewer sets and its log here.
    let scenario = concat!(env!("CARGO_MANIFEST_DIR"), "/../scenarios/yarmolenko-sla.toml");
    let log = dir.join("sla.log");
    let value =
        json(&host_sim(&["--config", scenario, "--sets", "2", "--log", log.to_str().unwrap(), "--json"]));
    assert_eq!(value["heuristic"], "min(TF - 0.8*tD)");
    assert_eq!(value["sets"], 2);
    replay::verify::verify(replay::format::LogReader::open(&log).unwrap()).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn output_paths_of_any_value_name_are_relative_to_the_scenario_file() {
    let dir = scratch("config-outputs");
    let (scenarios, elsewhere) = (dir.join("scenarios"), dir.join("elsewhere"));
    std::fs::create_dir_all(&scenarios).unwrap();
    std::fs::create_dir_all(&elsewhere).unwrap();
    // `jobs-out` is named FILE.csv in the help, `log` FILE: both are paths.
    let file = scenarios.join("run.toml");
    std::fs::write(&file, "command = \"run\"\njobs = 200\njobs-out = \"jobs.csv\"\nlog = \"run.log\"\n")
        .unwrap();
    stdout(&host_sim_in(&elsewhere, &["--config", file.to_str().unwrap()]));
    assert!(scenarios.join("jobs.csv").is_file() && scenarios.join("run.log").is_file());
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0, "written in the working directory");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The subcommands `host-sim --help` lists, so a new one is covered.
fn subcommands() -> Vec<String> {
    let top = stdout(&host_sim(&["--help"]));
    let listed = top.split("Commands:\n").nth(1).and_then(|rest| rest.split("\n\n").next()).unwrap();
    // A name starts at the third column; a wrapped description further right.
    let named = listed.lines().filter(|line| line.strip_prefix("  ").is_some_and(|r| !r.starts_with(' ')));
    let names = named.filter_map(|line| line.split_whitespace().next()).filter(|n| *n != "help");
    names.map(str::to_owned).collect()
}

#[test]
fn every_help_lists_config() {
    let subcommands = subcommands();
    assert!(subcommands.len() >= 11, "{subcommands:?}");
    let mut helps = vec![vec!["--help".to_owned()], vec!["-h".to_owned()]];
    for sub in &subcommands {
        helps.push(vec![sub.clone(), "--help".to_owned()]);
        helps.push(vec![sub.clone(), "-h".to_owned()]);
    }
    for args in helps {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let help = stdout(&host_sim(&args)).split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            help.contains(
                "--config <FILE> Read options from a TOML scenario file (see `host-sim config --defaults`)"
            ),
            "{args:?}: {help}"
        );
    }
}

#[test]
fn config_has_no_scenario_and_a_scenario_names_no_other() {
    let dir = scratch("config-for-config");
    // Its `--command` would be the key that names the scenario's subcommand.
    let err = stderr_of_failure(&host_sim(&["config", "--defaults", "--command", "config"]));
    assert!(
        err.contains(
            "`host-sim config` has no scenario file (its --command would clash with the key `command`"
        ),
        "{err}"
    );
    let file = dir.join("config.toml");
    std::fs::write(&file, "command = \"config\"\ndefaults = true\n").unwrap();
    let path = file.to_str().unwrap();
    let err = stderr_of_failure(&host_sim(&["--config", path]));
    assert!(
        err.contains(&format!("{path}:1: key `command`: `host-sim config` has no scenario file")),
        "{err}"
    );
    std::fs::write(&file, "defaults = true\n").unwrap();
    let err = stderr_of_failure(&host_sim(&["config", "--config", path]));
    assert!(err.contains(&format!("{path}: `host-sim config` has no scenario file")), "{err}");
    // `config` as a key would name a second scenario.
    std::fs::write(&file, "jobs = 10\nconfig = \"other.toml\"\n").unwrap();
    let err = stderr_of_failure(&host_sim(&["run", "--config", path]));
    assert!(
        err.contains(&format!("{path}:2: key `config`: names a scenario file, which a scenario cannot")),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_second_config_is_refused_not_ignored() {
    let dir = scratch("config-twice");
    let file = dir.join("run.toml");
    std::fs::write(&file, "jobs = 10\n").unwrap();
    let path = file.to_str().unwrap();
    let joined = format!("--config={path}");
    for second in [&["--config", path][..], &[joined.as_str()][..]] {
        let args = [&["run", "--config", path][..], second].concat();
        let err = stderr_of_failure(&host_sim(&args));
        assert!(err.contains("--config is given twice; a run reads one scenario file"), "{args:?}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_scenario_error_names_the_file_line_and_key() {
    let dir = scratch("config-named");
    std::fs::write(dir.join("hand.swf"), HAND_TRACE).unwrap();
    let cases = [
        ("trace = 5\n", ":1: key `trace`: is a number; a file or folder name is a string, in quotes"),
        ("jobs = 10\nmachines = 2\nmachines = 3\n", ":3: key `machines`: is given twice; give each key once"),
        ("window = 2024-01-01\n", ":1: key `window`: is a date or time"),
        ("levels = [1, [2]]\n", ":1: key `levels`: has an item that is a list"),
        ("trace = \"\"\n", ":1: key `trace`: is an empty string"),
        ("out = \"figs\"\n", ":1: key `out`: `host-sim run` has no such option (it is a key of sweep,"),
        ("machines = \"\\u0007\"\n", ":1: key `machines`: is `\\u{7}`, which holds a control character"),
        ("command = 5\n", ":1: key `command`: is not the name of a subcommand; give one of run, sweep,"),
    ];
    for (index, (text, expected)) in cases.into_iter().enumerate() {
        let file = dir.join(format!("bad{index}.toml"));
        std::fs::write(&file, text).unwrap();
        let path = file.to_str().unwrap();
        let err = stderr_of_failure(&host_sim(&["--config", path]));
        assert!(err.contains(&format!("{path}{expected}")), "{text:?}: {err}");
    }
    // A value the run refuses later: the key that set it, not another the message names.
    let file = dir.join("late.toml");
    let path = file.to_str().unwrap();
    let cases = [
        ("trace = \"hand.swf\"\nlog = \"hand.swf\"\n", "--log", 2, "log"),
        ("jobs = 10\nlevels = [\"1\", \"x\"]\n", "`x`", 2, "levels"),
        ("jobs = 10\ntrace = \"nope.swf\"\n", "nope.swf", 2, "trace"),
    ];
    for (text, words, line, key) in cases {
        std::fs::write(&file, text).unwrap();
        let err = stderr_of_failure(&host_sim(&["--config", path]));
        assert!(
            err.contains(words) && err.contains(&format!("(set by {path}:{line}, key `{key}`)")),
            "{text:?}: {err}"
        );
    }
}

#[test]
fn a_scenario_that_is_no_text_file_is_named_so() {
    let dir = scratch("config-not-text");
    let garbage = dir.join("garbage.toml");
    std::fs::write(&garbage, b"jobs = \"1\xff\"\n").unwrap();
    let err = stderr_of_failure(&host_sim(&["--config", garbage.to_str().unwrap()]));
    assert!(err.contains("garbage.toml: byte 9 is not UTF-8 text"), "{err}");
    let err = stderr_of_failure(&host_sim(&["--config", dir.to_str().unwrap()]));
    assert!(err.contains("is a folder; --config names a scenario file"), "{err}");
    let err = stderr_of_failure(&host_sim(&["--config", "/dev/zero"]));
    assert!(err.contains("/dev/zero: a scenario file is at most 1048576 bytes"), "{err}");
    let err = stderr_of_failure(&host_sim(&["--config", ""]));
    assert!(err.contains("--config needs a file name"), "{err}");
}
