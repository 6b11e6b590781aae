//! Scenario files: `host-sim SUBCOMMAND --config FILE` reads the subcommand's options
//! from a TOML file, and options on the command line override it.
//!
//! The rules:
//! - Every option of every subcommand has a key: its long name without the dashes
//!   (`machines = 4`, `queue-capacity = 256`, `trace = "..."`). A flag is `true` or
//!   `false`; a list option (`levels`, `machine-counts`) is a string (`"1,2,3"`) or an
//!   array (`[1, 2, 3]`, joined with commas); an option given several times
//!   (`trace`) is an array.
//! - `command = "sweep"` names the subcommand; then `host-sim --config FILE` alone
//!   runs it. A subcommand on the command line that differs from it is an error.
//! - The value of an option whose value type is a path (`PathBuf`, whatever its value
//!   name: `FILE`, `DIR`, `FILE.csv`) is relative to the scenario file's folder
//!   (absolute paths are kept), so a scenario runs the same from any working directory.
//! - An unknown key, a table, and a value the option refuses are errors that name the
//!   file, the line and the key. An option given on the command line wins over the
//!   file's (a flag set in the file cannot be unset from the command line).
//!
//! The file's options are put in front of the command line's, and the whole is parsed
//! by the same `clap` definitions as ever, so a scenario can do nothing the command
//! line cannot. `host-sim config --defaults` prints a file with every option of a
//! subcommand and its default ([`defaults`]). `--config` itself is a global option of
//! the definition ([`option`]) only so that every `--help` lists it: [`expand`] takes it
//! out before clap parses, so clap never sees its value.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use clap::builder::ValueParser;
use clap::{Arg, ArgAction, Command};
use toml_edit::{Item, Value};

mod defaults;
mod origin;
mod scenario;
#[cfg(test)]
mod tests;

pub use defaults::defaults;
pub use origin::{Expanded, Origin};
use scenario::Scenario;

/// The option that names a scenario file, and so has no key in one.
const CONFIG_OPTION: &str = "config";
/// The subcommand that prints scenario files, and so reads none.
const CONFIG_SUBCOMMAND: &str = "config";

/// A scenario file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("{file}: cannot read the scenario: {source}")]
    Io {
        file: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{file} is a folder; --config names a scenario file")]
    Folder { file: String },
    #[error("{file}: a scenario file is at most {limit} bytes; this one is longer (is it a scenario?)")]
    TooLong { file: String, limit: u64 },
    #[error("{file}: byte {offset} is not UTF-8 text; a scenario is a TOML text file")]
    NotText { file: String, offset: usize },
    #[error("{file}:{line}: {message}")]
    Syntax { file: String, line: usize, message: String },
    /// `key` as shown: in backticks, escaped and cut if need be ([`shown`]).
    #[error("{file}:{line}: key {key}: {message}")]
    Key { file: String, line: usize, key: String, message: String },
    #[error("--config needs a file name")]
    MissingFile,
    #[error("--config is given twice; a run reads one scenario file")]
    Twice,
    #[error("--command: `{0}` is not a subcommand")]
    NotASubcommand(String),
    /// `config` prints scenario files and cannot be run from one: its own `--command`
    /// would be the key `command`, which names the scenario's subcommand. `file` is the
    /// scenario given to it, if any.
    #[error(
        "{}`host-sim config` has no scenario file (its --command would clash with the key \
         `command`, which names the scenario's subcommand); name another subcommand",
        file.as_ref().map(|f| format!("{f}: ")).unwrap_or_default()
    )]
    ForConfig { file: Option<String> },
}

/// `--config FILE` as a global option, so that `host-sim --help` and every subcommand's
/// help list it. Its value never reaches clap: [`expand`] takes it out first.
pub fn option() -> Arg {
    Arg::new(CONFIG_OPTION)
        .long(CONFIG_OPTION)
        .value_name("FILE")
        .value_parser(ValueParser::path_buf())
        .global(true)
        .help(
            "Read options from a TOML scenario file (see `host-sim config --defaults`); \
             options given here override it",
        )
}

/// Takes `--config FILE` out of `args` (program name first) and puts the file's
/// options in; `args` without `--config` come back as they are.
pub fn expand(mut args: Vec<OsString>, cli: &Command) -> Result<Expanded, ConfigError> {
    let Some(path) = take_config(&mut args)? else { return Ok(Expanded { args, ..Expanded::default() }) };
    let scenario = Scenario::read(&path)?;
    let at = scenario.subcommand(&mut args, cli)?;
    let name = args[at].to_string_lossy().into_owned();
    if name == CONFIG_SUBCOMMAND {
        return Err(scenario.for_config());
    }
    let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let (inserted, origins) = scenario.options(cli, &name, &args[at + 1..], &base)?;
    args.splice(at + 1..at + 1, inserted);
    Ok(Expanded { args, origins, scenario: Some(path) })
}

/// Removes `--config FILE` or `--config=FILE` and returns the file.
///
/// A second `--config` is refused here: clap declares `--config` only for the help
/// (see [`option`]), so it would take the second one and ignore it.
fn take_config(args: &mut Vec<OsString>) -> Result<Option<PathBuf>, ConfigError> {
    let is_config = |a: &OsString| a == "--config" || a.to_string_lossy().starts_with("--config=");
    let Some(at) = args.iter().position(is_config) else { return Ok(None) };
    let flag = args.remove(at).to_string_lossy().into_owned();
    let path = match flag.strip_prefix("--config=") {
        Some(path) => PathBuf::from(path),
        None if at < args.len() => PathBuf::from(args.remove(at)),
        None => return Err(ConfigError::MissingFile),
    };
    if path.as_os_str().is_empty() {
        return Err(ConfigError::MissingFile);
    }
    if args.iter().any(is_config) {
        return Err(ConfigError::Twice);
    }
    Ok(Some(path))
}

/// Whether the option has a key in a scenario: every long option but `--help`,
/// `--version` and `--config` (a scenario does not name another).
fn has_key(arg: &Arg) -> bool {
    let builtin = matches!(
        arg.get_action(),
        ArgAction::Help | ArgAction::HelpLong | ArgAction::HelpShort | ArgAction::Version
    );
    arg.get_long().is_some() && !builtin && arg.get_id() != CONFIG_OPTION
}

/// Whether the option's value is a file or folder name (relative to the scenario).
///
/// The value's type decides, not its value name: every `PathBuf` option, named `FILE`,
/// `DIR` or `FILE.csv`, gets clap's path parser. An `OsString` is not taken for a path,
/// since nothing says it names a file.
fn is_path(arg: &Arg) -> bool {
    arg.get_value_parser().type_id() == ValueParser::path_buf().type_id()
}

/// The command-line words for `item` as the value of `arg`.
fn values_of(item: &Item, arg: &Arg, base: &Path) -> Result<Vec<OsString>, String> {
    let long = format!("--{}", arg.get_long().unwrap_or_default());
    let Some(value) = item.as_value() else { return Err("is a table; give the option a value".into()) };
    if matches!(arg.get_action(), ArgAction::SetTrue) {
        return match value.as_bool() {
            Some(true) => Ok(vec![long.into()]),
            Some(false) => Ok(Vec::new()),
            None => Err("is a flag: give true or false".into()),
        };
    }
    let word = |v: &Value| word(v, arg, base);
    let repeated = matches!(arg.get_action(), ArgAction::Append);
    match value {
        // An empty list would give no option at all, so `trace = []` would silently
        // run the built-in workload: refused, as an empty option on the command line.
        Value::Array(items) if items.is_empty() => {
            Err("is an empty list; give at least one value, or leave the key out for its default".into())
        }
        Value::Array(items) if repeated => items
            .iter()
            .map(|v| Ok(vec![long.clone().into(), word(v).map_err(in_list)?.into()]))
            .collect::<Result<Vec<_>, String>>()
            .map(|v| v.concat()),
        Value::Array(items) => {
            let words = items.iter().map(|v| word(v).map_err(in_list)).collect::<Result<Vec<_>, _>>()?;
            Ok(vec![long.into(), words.join(",").into()])
        }
        scalar => Ok(vec![long.into(), word(scalar)?.into()]),
    }
}

/// The command-line word for one value of `arg`: a path relative to `base`.
fn word(value: &Value, arg: &Arg, base: &Path) -> Result<String, String> {
    let path = is_path(arg);
    let text = match value {
        Value::String(s) if path && s.value().is_empty() => {
            return Err("is an empty string; give a file or folder name, or leave the key out".into());
        }
        Value::String(s) if s.value().chars().any(char::is_control) => {
            return Err(format!(
                "is {}, which holds a control character; give printable text",
                shown(s.value())
            ));
        }
        Value::String(s) => s.value().clone(),
        other if path => {
            return Err(format!("is {}; a file or folder name is a string, in quotes", kind(other)));
        }
        Value::Integer(i) => i.value().to_string(),
        Value::Float(f) => f.value().to_string(),
        Value::Boolean(b) => b.value().to_string(),
        other => return Err(format!("is {}; give a string, a number or a boolean", kind(other))),
    };
    if path && Path::new(&text).is_relative() {
        return Ok(base.join(&text).display().to_string());
    }
    Ok(text)
}

/// A value's problem, said of an item of the key's list.
fn in_list(message: String) -> String {
    format!("has an item that {message}")
}

/// What a TOML value is, in words.
fn kind(value: &Value) -> &'static str {
    match value {
        Value::String(_) => "a string",
        Value::Integer(_) => "a number",
        Value::Float(_) => "a number",
        Value::Boolean(_) => "a boolean",
        Value::Datetime(_) => "a date or time",
        Value::Array(_) => "a list",
        Value::InlineTable(_) => "a table",
    }
}

/// A key or value as a message shows it: in backticks, and through
/// [`replay::echo::echo`] (escaped, cut) unless it is short and printable.
fn shown(text: &str) -> String {
    let plain = text.chars().count() <= replay::echo::ECHO_MAX && !text.chars().any(char::is_control);
    if plain { format!("`{text}`") } else { replay::echo::echo(text) }
}

/// Parses the option alone against the subcommand's definition (every option made
/// optional), so a value clap refuses is named with its line.
fn check(sub: &Command, key: &str, values: &[OsString]) -> Result<(), String> {
    let trial = sub.clone().mut_args(|a| a.required(false)).no_binary_name(true);
    trial
        .try_get_matches_from(values)
        .map(|_| ())
        // A typed option's own refusal is `main`'s to word, with this line.
        .or_else(|e| match std::error::Error::source(&e) {
            Some(source) if source.is::<crate::units::Refused>() => Ok(()),
            _ => Err(e),
        })
        .map_err(|e| {
            let text = e.to_string();
            let mut first = text.lines().next().unwrap_or_default().trim_start_matches("error: ").to_owned();
            // clap shows the value as it is: a long or unprintable one is echoed instead.
            for value in values.iter().map(|v| v.to_string_lossy()) {
                if shown(&value) != format!("`{value}`") && !value.is_empty() {
                    first =
                        first.replace(&format!("'{value}'"), &shown(&value)).replace(&*value, &shown(&value));
                }
            }
            first
        })
        .map_err(|m| if m.is_empty() { format!("--{key} is refused") } else { m })
}
