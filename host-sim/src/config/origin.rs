//! A command line with a scenario's options put in ([`Expanded`]), and where each
//! option came from ([`Origin`]), to name the key when the run refuses its value.

use std::ffi::OsString;
use std::path::PathBuf;

/// Where an option's value came from, to name it when the run refuses the value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    pub file: String,
    pub line: usize,
    pub key: String,
    /// The words the key gave, but the option's name (each item of a list too).
    pub values: Vec<String>,
}

/// The command line with a scenario file's options put in, and where they came from.
#[derive(Debug, Default)]
pub struct Expanded {
    pub args: Vec<OsString>,
    pub origins: Vec<Origin>,
    /// The scenario file read, an input of the run.
    pub scenario: Option<PathBuf>,
}

impl Expanded {
    /// Says where the option a `message` is about was set, if a scenario file set it:
    /// the first option named in it (as `--key`), else the key whose value it quotes
    /// (`"x"`, `` `x` ``) or starts a clause with (`x: ...`, a file name).
    pub fn origin_of(&self, message: &str) -> Option<&Origin> {
        let named = self.origins.iter().filter_map(|o| first_option(message, &o.key).map(|at| (at, o)));
        if let Some((_, origin)) = named.min_by_key(|(at, _)| *at) {
            return Some(origin);
        }
        let quoted = self.origins.iter().filter_map(|o| {
            let value = o.values.iter().filter(|v| quotes(message, v)).max_by_key(|v| v.len())?;
            Some((value.len(), o))
        });
        quoted.max_by_key(|(length, _)| *length).map(|(_, origin)| origin)
    }
}

/// Where `--key` first stands in `message` as a whole option name.
fn first_option(message: &str, key: &str) -> Option<usize> {
    let option = format!("--{key}");
    message.match_indices(&option).map(|(at, _)| at).find(|&at| {
        let next = message[at + option.len()..].chars().next();
        !next.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-')
    })
}

/// Whether `message` shows `value` in quotes (double or back), or as a clause's
/// subject (`value: `).
fn quotes(message: &str, value: &str) -> bool {
    if value.is_empty() {
        return false;
    }
    let subject = format!("{value}: ");
    message.contains(&format!("\"{value}\""))
        || message.contains(&format!("`{value}`"))
        || message.starts_with(&subject)
        || message.contains(&format!(" {subject}"))
}
