//! A scenario file read and parsed ([`Scenario`]): its subcommand and the words of
//! its keys, each error at the file, the line and the key.

use std::ffi::{OsStr, OsString};
use std::io::Read;
use std::path::Path;

use clap::{Arg, Command};
use toml_edit::Document;

use super::{CONFIG_OPTION, CONFIG_SUBCOMMAND, ConfigError, Origin, check, has_key, shown, values_of};

/// The largest scenario read: a scenario is a page of options, and `--config
/// /dev/zero` would otherwise be read until memory ran out.
const MAX_BYTES: u64 = 1 << 20;

/// A scenario file read and parsed, kept with its text to name the line of a key.
pub(super) struct Scenario {
    file: String,
    text: String,
    document: Document<String>,
}

impl Scenario {
    pub(super) fn read(path: &Path) -> Result<Self, ConfigError> {
        let file = path.display().to_string();
        if std::fs::metadata(path).is_ok_and(|m| m.is_dir()) {
            return Err(ConfigError::Folder { file });
        }
        let io = |source| ConfigError::Io { file: file.clone(), source };
        let mut bytes = Vec::new();
        std::fs::File::open(path).and_then(|f| f.take(MAX_BYTES + 1).read_to_end(&mut bytes)).map_err(io)?;
        if bytes.len() as u64 > MAX_BYTES {
            return Err(ConfigError::TooLong { file, limit: MAX_BYTES });
        }
        let text = String::from_utf8(bytes)
            .map_err(|e| ConfigError::NotText { file: file.clone(), offset: e.utf8_error().valid_up_to() })?;
        let document = Document::parse(text.clone()).map_err(|e| syntax(&file, &text, &e))?;
        Ok(Self { file, text, document })
    }

    /// The line of `key` (from 1; 0 if unknown).
    fn line(&self, key: &str) -> usize {
        let span = self.document.as_table().key(key).and_then(toml_edit::Key::span);
        span.map_or(0, |s| line_at(&self.text, s.start))
    }

    fn key_error(&self, key: &str, message: String) -> ConfigError {
        ConfigError::Key { file: self.file.clone(), line: self.line(key), key: shown(key), message }
    }

    /// The error for a scenario run with `config`: at the `command` key if the file
    /// names it, else about the whole file (the command line named `config`).
    pub(super) fn for_config(&self) -> ConfigError {
        if self.document.contains_key("command") {
            let message = ConfigError::ForConfig { file: None }.to_string();
            return self.key_error("command", message);
        }
        ConfigError::ForConfig { file: Some(self.file.clone()) }
    }

    /// Where the subcommand is in `args`: the command line's, else the file's
    /// `command` (put in), else `run` (put in).
    pub(super) fn subcommand(&self, args: &mut Vec<OsString>, cli: &Command) -> Result<usize, ConfigError> {
        let on_command_line =
            args.iter().skip(1).position(|a| cli.find_subcommand(a).is_some()).map(|i| i + 1);
        let in_file = match self.document.get("command") {
            None => None,
            Some(item) => match item.as_str() {
                Some(name) if cli.find_subcommand(name).is_some() => Some(name.to_owned()),
                _ => {
                    let subcommands = cli.get_subcommands().map(Command::get_name);
                    let names: Vec<&str> = subcommands.filter(|n| *n != CONFIG_SUBCOMMAND).collect();
                    let message =
                        format!("is not the name of a subcommand; give one of {}", names.join(", "));
                    return Err(self.key_error("command", message));
                }
            },
        };
        match (on_command_line, &in_file) {
            (Some(at), Some(name)) if args[at] != OsStr::new(name) => {
                let given = args[at].to_string_lossy().into_owned();
                Err(self.key_error(
                    "command",
                    format!("the file is for `{name}`, the command line runs `{given}`"),
                ))
            }
            (Some(at), _) => Ok(at),
            (None, name) => {
                args.insert(1, OsString::from(name.as_deref().unwrap_or("run")));
                Ok(1)
            }
        }
    }

    /// The words of every key of the file for subcommand `sub` (named `name`), but
    /// those `given` on the command line after the subcommand, and where each came from.
    pub(super) fn options(
        &self,
        cli: &Command,
        name: &str,
        given: &[OsString],
        base: &Path,
    ) -> Result<(Vec<OsString>, Vec<Origin>), ConfigError> {
        let Some(sub) = cli.find_subcommand(name) else { return Ok((Vec::new(), Vec::new())) };
        let mut inserted = Vec::new();
        let mut origins = Vec::new();
        for (key, item) in self.document.as_table().iter() {
            if key == "command" {
                continue;
            }
            if item.as_value().is_none() {
                return Err(self.key_error(key, "is a table; give the option a value".into()));
            }
            if key == CONFIG_OPTION {
                let message =
                    "names a scenario file, which a scenario cannot; give --config on the command line";
                return Err(self.key_error(key, message.into()));
            }
            let Some(arg) = sub.get_arguments().find(|a| a.get_long() == Some(key) && has_key(a)) else {
                return Err(self.key_error(key, unknown(cli, sub, name, key)));
            };
            let values = values_of(item, arg, base).map_err(|message| self.key_error(key, message))?;
            let on_command_line = given.iter().any(|a| {
                let a = a.to_string_lossy();
                a == format!("--{key}") || a.starts_with(&format!("--{key}="))
            });
            if on_command_line {
                continue;
            }
            check(sub, key, &values).map_err(|message| self.key_error(key, message))?;
            let flag = format!("--{key}");
            let words = values.iter().map(|v| v.to_string_lossy().into_owned()).filter(|v| *v != flag);
            let (file, line) = (self.file.clone(), self.line(key));
            origins.push(Origin { file, line, key: key.to_owned(), values: words.collect() });
            inserted.extend(values);
        }
        Ok((inserted, origins))
    }
}

/// Why `key` is not a key of `sub` (named `name`): the subcommands that have it, and
/// its own keys.
fn unknown(cli: &Command, sub: &Command, name: &str, key: &str) -> String {
    let keys = |c: &Command| -> Vec<String> {
        c.get_arguments().filter(|a| has_key(a)).filter_map(Arg::get_long).map(str::to_owned).collect()
    };
    let others: Vec<&str> =
        cli.get_subcommands().filter(|c| keys(c).iter().any(|k| k == key)).map(Command::get_name).collect();
    let elsewhere = match others.as_slice() {
        [] => String::new(),
        found => format!(" (it is a key of {})", found.join(", ")),
    };
    format!("`host-sim {name}` has no such option{elsewhere}; its keys are {}", keys(sub).join(", "))
}

/// The line (from 1) of byte `at` of `text`.
fn line_at(text: &str, at: usize) -> usize {
    text.get(..at).map_or(1, |before| before.matches('\n').count() + 1)
}

/// A file that is not TOML, at the line of the error; a key given twice is named.
fn syntax(file: &str, text: &str, error: &toml_edit::TomlError) -> ConfigError {
    let line = line_at(text, error.span().map_or(0, |s| s.start));
    let written = text.lines().nth(line - 1).unwrap_or_default().trim();
    let message = error.message().trim_end().replace('\n', "; ");
    let key = written.split('=').next().unwrap_or_default().trim().trim_matches(['"', '\'']);
    if message.contains("duplicate key") && !key.is_empty() {
        let message = "is given twice; give each key once".to_owned();
        return ConfigError::Key { file: file.to_owned(), line, key: shown(key), message };
    }
    let message = format!("not valid TOML ({message}): {}", replay::echo::echo(written));
    ConfigError::Syntax { file: file.to_owned(), line, message }
}
