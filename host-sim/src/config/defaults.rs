//! `host-sim config --defaults`: a scenario file with every option of a subcommand
//! and its default, each after its help text.

use clap::{ArgAction, Command};

use super::{ConfigError, has_key};

/// A scenario file with every option of subcommand `name` and its default, each
/// after its help text; options without a default are commented out.
///
/// `config` itself is refused: its `--command` would be written as the key `command`,
/// which already names the scenario's subcommand, so the file could never be read.
pub fn defaults(cli: &Command, name: &str) -> Result<String, ConfigError> {
    if name == super::CONFIG_SUBCOMMAND {
        return Err(ConfigError::ForConfig { file: None });
    }
    let sub = cli.find_subcommand(name).ok_or_else(|| ConfigError::NotASubcommand(name.to_owned()))?;
    let mut out = format!(
        "# A host-sim scenario: `host-sim --config FILE` runs it, and options given on the\n\
         # command line override it. Paths are relative to this file's folder.\n\
         command = \"{name}\"\n"
    );
    for arg in sub.get_arguments().filter(|a| has_key(a)) {
        let Some(long) = arg.get_long() else { continue };
        out.push('\n');
        let help =
            arg.get_long_help().or_else(|| arg.get_help()).map(ToString::to_string).unwrap_or_default();
        for line in help.lines() {
            out.push_str(format!("# {line}").trim_end());
            out.push('\n');
        }
        let defaults: Vec<String> =
            arg.get_default_values().iter().map(|v| v.to_string_lossy().into_owned()).collect();
        match (arg.get_action(), defaults.as_slice()) {
            // A flag's default is clap's (`false` unless the option says otherwise,
            // as `--plots` does): what a run without it does.
            (ArgAction::SetTrue, [one]) if one == "true" => out.push_str(&format!("{long} = true\n")),
            (ArgAction::SetTrue, _) => out.push_str(&format!("{long} = false\n")),
            (_, [one]) => out.push_str(&format!("{long} = {}\n", literal(one))),
            _ => {
                let value = arg.get_value_names().and_then(|n| n.first()).map_or("VALUE", |n| n.as_str());
                let example = if matches!(arg.get_action(), ArgAction::Append) {
                    format!("[\"{value}\"]")
                } else {
                    format!("\"{value}\"")
                };
                out.push_str(&format!("# {long} = {example}\n"));
            }
        }
    }
    Ok(out)
}

/// A default value as TOML: a number as it is, anything else quoted.
fn literal(text: &str) -> String {
    if text.parse::<i64>().is_ok() { text.to_owned() } else { format!("{text:?}") }
}
