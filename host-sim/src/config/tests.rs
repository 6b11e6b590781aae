//! Which keys are paths, the `--config` option itself, and the defaults file of
//! `config`, checked on small hand-built definitions.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use clap::{Arg, ArgAction, Command, value_parser};
use toml_edit::Document;

use super::{ConfigError, defaults, has_key, is_path, option, values_of};

/// A definition with path options under several value names, and a string option
/// named `FILE` that is not a path.
fn probe() -> Command {
    Command::new("probe")
        .arg(
            Arg::new("jobs_out").long("jobs-out").value_name("FILE.csv").value_parser(value_parser!(PathBuf)),
        )
        .arg(Arg::new("out").long("out").value_name("DIR").value_parser(value_parser!(PathBuf)))
        .arg(
            Arg::new("trace")
                .long("trace")
                .value_name("FILE")
                .action(ArgAction::Append)
                .value_parser(value_parser!(PathBuf)),
        )
        .arg(Arg::new("label").long("label").value_name("FILE"))
        .arg(Arg::new("raw").long("raw").value_name("DIR").value_parser(value_parser!(OsString)))
}

/// The words a scenario's `key = value` line gives for the option `key` of `probe()`.
fn words(line: &str, base: &Path) -> Vec<String> {
    let document: Document<String> = Document::parse(line.to_owned()).unwrap();
    let (key, item) = document.as_table().iter().next().unwrap();
    let command = probe();
    let arg = command.get_arguments().find(|a| a.get_long() == Some(key)).unwrap();
    values_of(item, arg, base).unwrap().into_iter().map(|w| w.to_string_lossy().into_owned()).collect()
}

#[test]
fn the_value_type_decides_what_is_a_path() {
    let command = probe();
    let paths: Vec<&str> = command.get_arguments().filter(|a| is_path(a)).filter_map(Arg::get_long).collect();
    assert_eq!(paths, ["jobs-out", "out", "trace"]);
}

#[test]
fn path_values_are_relative_to_the_scenario_folder() {
    let base = Path::new("scenarios/here");
    let joined = |name: &str| base.join(name).display().to_string();
    assert_eq!(words("jobs-out = \"jobs.csv\"", base), ["--jobs-out", &joined("jobs.csv")]);
    assert_eq!(words("out = \"figures\"", base), ["--out", &joined("figures")]);
    assert_eq!(
        words("trace = [\"a.swf\", \"/abs/b.swf\"]", base),
        ["--trace", &joined("a.swf"), "--trace", "/abs/b.swf"]
    );
    // A value name says nothing: a string named FILE, and an OsString, are kept.
    assert_eq!(words("label = \"x.txt\"", base), ["--label", "x.txt"]);
    assert_eq!(words("raw = \"y\"", base), ["--raw", "y"]);
}

#[test]
fn the_config_option_is_global_and_has_no_key() {
    let config = option();
    assert!(config.is_global_set());
    assert_eq!(config.get_long(), Some("config"));
    assert!(!has_key(&config));
    // Declared on a definition, it reaches every subcommand's help but no defaults file.
    let cli = Command::new("top").arg(option()).subcommand(probe());
    let text = defaults(&cli, "probe").unwrap();
    assert!(!text.contains("config ="), "{text}");
}

#[test]
fn the_defaults_of_config_and_of_no_subcommand_are_refused() {
    let cli = Command::new("top").subcommand(probe()).subcommand(Command::new("config"));
    let refused = defaults(&cli, "config").unwrap_err();
    assert!(matches!(refused, ConfigError::ForConfig { file: None }), "{refused}");
    assert!(refused.to_string().contains("clash with the key `command`"), "{refused}");
    let unknown = defaults(&cli, "fly").unwrap_err();
    assert_eq!(unknown.to_string(), "--command: `fly` is not a subcommand");
}
