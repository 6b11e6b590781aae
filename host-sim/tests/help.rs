//! `host-sim --help` and every subcommand's keep the help rules (every argument has a
//! help line, every option's value name states its form or unit, every optional
//! option says its default: `replay/tests/common/help_rules.rs`, shared with
//! replay's help test), and `host-sim config --defaults` prints the real defaults.

#[path = "../../replay/tests/common/help_rules.rs"]
mod help_rules;

mod common;

use common::{host_sim, stdout};
use replay::engine::service_level::QUEUE_CAPACITIES;

fn help(args: &[&str]) -> String {
    stdout(&host_sim(args))
}

/// A help with clap's line wrapping undone (runs of whitespace as one space).
fn flat_help(args: &[&str]) -> String {
    help(args).split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Every subcommand the top-level help lists.
fn subcommands() -> Vec<String> {
    let subcommands = help_rules::subcommands(&help(&["--help"]));
    for known in ["run", "sweep", "reserve", "tiers", "sla", "whatif", "config", "compare"] {
        assert!(subcommands.iter().any(|s| s == known), "{known} not among {subcommands:?}");
    }
    subcommands
}

#[test]
fn every_argument_of_every_subcommand_keeps_the_help_rules() {
    let mut found = help_rules::violations("host-sim", &help(&["--help"]));
    for sub in subcommands() {
        let text = help(&[&sub, "--help"]);
        assert!(!help_rules::entries(&text).is_empty(), "host-sim {sub} --help lists no argument:\n{text}");
        found.extend(help_rules::violations(&format!("host-sim {sub}"), &text));
    }
    assert!(found.is_empty(), "help rules broken:\n{}", found.join("\n"));
}

/// The `key = value` lines of `config --defaults --command sub`, uncommented.
fn printed_defaults(sub: &str) -> Vec<(String, String)> {
    stdout(&host_sim(&["config", "--defaults", "--command", sub]))
        .lines()
        .filter(|line| !line.starts_with('#') && !line.starts_with("command ="))
        .filter_map(|line| line.split_once(" = "))
        .map(|(key, value)| (key.to_owned(), value.trim_matches('"').to_owned()))
        .collect()
}

/// What `config --defaults` prints for each option is the default its `--help` shows,
/// and a flag that is on by default (its help says "(the default)") is printed on.
#[test]
fn config_defaults_print_each_subcommands_real_defaults() {
    for sub in subcommands().into_iter().filter(|s| s != "config") {
        let entries = help_rules::entries(&help(&[&sub, "--help"]));
        for (key, value) in printed_defaults(&sub) {
            let name = format!("--{key}");
            let entry = entries.iter().find(|e| e.name == name);
            let entry = entry.unwrap_or_else(|| panic!("{sub}: `{key}` is no option of its --help"));
            let expected = match (&entry.value, entry.help.contains("(the default)")) {
                (None, on) => on.to_string(),
                (Some(_), _) => {
                    let shown = entry.help.split("[default: ").nth(1).and_then(|rest| rest.split(']').next());
                    shown
                        .unwrap_or_else(|| panic!("{sub} {name}: printed {value}, --help shows no default"))
                        .trim_matches('"')
                        .to_owned()
                }
            };
            assert_eq!(value, expected, "host-sim config --defaults --command {sub}: {key}");
        }
    }
}

/// The sweeps' figures are on by default, and `config --defaults` says so.
#[test]
fn config_defaults_print_plots_on() {
    for sub in ["sweep", "reserve-sweep", "tiers-sweep", "sla-sweep", "criteria"] {
        let printed = printed_defaults(sub);
        assert!(printed.contains(&("plots".into(), "true".into())), "{sub}: {printed:?}");
        assert!(printed.contains(&("no-plots".into(), "false".into())), "{sub}: {printed:?}");
    }
}

/// Each model's help says which of them use a job's processor count, as the models do:
/// `reserve` and `sla` use it; `run` and `tiers` read it and do not.
#[test]
fn help_says_which_models_use_a_jobs_size() {
    let run = flat_help(&["run", "--help"]);
    assert!(run.contains("`reserve` and `sla` use it"), "{run}");
    assert!(!run.contains("`tiers` use"), "{run}");
    // The passage a wide trace job's warning points to (`see --trace in host-sim tiers --help`).
    let tiers = help_rules::entries(&help(&["tiers", "--help"]));
    let trace = tiers.iter().find(|e| e.name == "--trace").expect("tiers --trace");
    assert!(trace.help.contains("processor count is not used"), "{trace:?}");
    for sub in ["reserve", "sla"] {
        let entries = help_rules::entries(&help(&[sub, "--help"]));
        let trace = entries.iter().find(|e| e.name == "--trace").expect("--trace");
        assert!(trace.help.contains("its processor count (SWF field 5, else 8"), "{sub}: {trace:?}");
    }
}

/// `--queue-capacity` names every compiled capacity, and only those, wherever it is taken.
#[test]
fn queue_capacity_help_names_the_compiled_sizes() {
    let sizes: Vec<String> = QUEUE_CAPACITIES.iter().map(u32::to_string).collect();
    let (last, first) = sizes.split_last().expect("capacities");
    let named = format!("{} or {last}", first.join(", "));
    for sub in ["run", "sweep", "optimum", "cv-sweep", "whatif"] {
        let text = help(&[sub, "--help"]);
        let entries = help_rules::entries(&text);
        let entry = entries.iter().find(|e| e.name == "--queue-capacity").expect("--queue-capacity");
        assert!(entry.help.contains(&named), "{sub}: {entry:?} does not name {named}");
    }
}

/// `reserve --fix-at` and `whatif --fix-at` describe the share alike.
#[test]
fn fix_at_is_described_once() {
    let describe = |sub: &str| {
        let entries = help_rules::entries(&help(&[sub, "--help"]));
        let entry = entries.into_iter().find(|e| e.name == "--fix-at").expect("--fix-at");
        let help = entry.help.strip_prefix("Reservation: ").unwrap_or(&entry.help);
        help.split(';').next().unwrap_or_default().to_owned()
    };
    let reserve = describe("reserve");
    assert!(reserve.contains("waiting time"), "{reserve}");
    assert_eq!(describe("whatif"), reserve);
}

/// A subcommand that writes no log does not speak of one.
#[test]
fn optimum_speaks_of_no_log() {
    let text = flat_help(&["optimum", "--help"]);
    assert!(!text.contains("log header"), "{text}");
}
