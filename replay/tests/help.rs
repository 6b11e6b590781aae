//! `replay --help` and every subcommand's: every argument has a help line, every
//! option's value name states its form, and every optional option says its default
//! (the rules of `common/help_rules.rs`, shared with host-sim's help test).

#[path = "common/help_rules.rs"]
mod help_rules;

use std::process::Command;

fn help(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_replay")).args(args).output().expect("the replay binary runs");
    assert!(out.status.success(), "replay {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("help is UTF-8")
}

#[test]
fn every_argument_of_every_subcommand_keeps_the_help_rules() {
    let subcommands = help_rules::subcommands(&help(&["--help"]));
    for known in ["verify", "import", "export", "show", "diff", "gantt"] {
        assert!(subcommands.iter().any(|s| s == known), "{known} not among {subcommands:?}");
    }
    let mut found = help_rules::violations("replay", &help(&["--help"]));
    for sub in &subcommands {
        let text = help(&[sub, "--help"]);
        assert!(!help_rules::entries(&text).is_empty(), "replay {sub} --help lists no argument:\n{text}");
        found.extend(help_rules::violations(&format!("replay {sub}"), &text));
    }
    assert!(found.is_empty(), "help rules broken:\n{}", found.join("\n"));
}

/// The parser finds what a reader sees, so the rules are not checking nothing.
#[test]
fn the_parser_reads_positionals_options_and_required_ones() {
    let text = help(&["gantt", "--help"]);
    let entries = help_rules::entries(&text);
    let log = entries.iter().find(|e| e.name == "<LOG>").expect("gantt's LOG");
    assert!(log.value.is_none() && !log.help.is_empty(), "{log:?}");
    let from = entries.iter().find(|e| e.name == "--from").expect("gantt --from");
    assert_eq!(from.value.as_deref(), Some("TICKS"), "{from:?}");
    assert!(from.help.contains("[default: 0]"), "{from:?}");
    assert_eq!(help_rules::required(&text), ["--out"]);
    assert!(help_rules::is_form("all|0|DURATION") && help_rules::is_form("FILE.csv"));
    assert!(!help_rules::is_form("T") && !help_rules::is_form("SF,SF,..."));
}
