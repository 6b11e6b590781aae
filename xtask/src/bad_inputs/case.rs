//! A class file read into its cases (the format is `tests/bad-inputs/README.md`): every
//! key checked for its type, and a key the format does not have refused, naming the
//! file, the line and the case.

use std::ops::Range;

use toml_edit::{Document, Item, TableLike};

use super::edits::{Edit, parse_edit, parse_hex};

/// The programs a command may run.
pub(super) const PROGRAMS: &[&str] = &["host-sim", "replay"];

/// The keys of a case, in the order they take effect.
const KEYS: &[&str] = &[
    "name", "files", "hex", "copy", "dirs", "setup", "edits", "run", "status", "stderr", "stdout", "changes",
];

/// One case of a class file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Case {
    pub name: String,
    /// Files written into the scratch folder (`files`, then `hex`), name to bytes.
    pub files: Vec<(String, Vec<u8>)>,
    /// Files copied in: name to a path relative to the repository root.
    pub copies: Vec<(String, String)>,
    pub dirs: Vec<String>,
    pub setup: Vec<Vec<String>>,
    pub edits: Vec<Edit>,
    pub run: Vec<String>,
    pub status: i32,
    pub stderr: Vec<String>,
    pub stdout: Vec<String>,
    pub changes: Vec<String>,
}

/// The cases of the class file `file` (named so in errors), whose text is `text`.
pub(super) fn parse_class(file: &str, text: &str) -> Result<Vec<Case>, String> {
    let document =
        Document::parse(text.to_owned()).map_err(|e| format!("{file}: {}", e.to_string().trim_end()))?;
    if let Some((key, _)) = document.as_table().iter().find(|(key, _)| *key != "case") {
        return Err(format!(
            "{file}: unknown top-level key `{key}`: a class file holds only [[case]] tables"
        ));
    }
    let Some(item) = document.get("case") else { return Ok(Vec::new()) };
    let tables = item.as_array_of_tables().ok_or(format!("{file}: `case` must be [[case]] tables"))?;
    let mut cases: Vec<Case> = Vec::new();
    for (index, table) in tables.iter().enumerate() {
        let line = line_of(text, table.span());
        let name = table.get("name").and_then(Item::as_str).map_or(String::new(), str::to_owned);
        let case =
            parse_case(table).map_err(|e| format!("{file}:{line}: case {} {name:?}: {e}", index + 1))?;
        if cases.iter().any(|c| c.name == case.name) {
            return Err(format!(
                "{file}:{line}: case {} {name:?}: the name is taken by an earlier case",
                index + 1
            ));
        }
        cases.push(case);
    }
    Ok(cases)
}

/// The line (from 1) a span starts on; 0 when the parser gave no span.
fn line_of(text: &str, span: Option<Range<usize>>) -> usize {
    span.map_or(0, |s| text.get(..s.start).map_or(0, |before| before.matches('\n').count() + 1))
}

fn parse_case(table: &dyn TableLike) -> Result<Case, String> {
    if let Some((key, _)) = table.iter().find(|(key, _)| !KEYS.contains(key)) {
        return Err(format!("unknown key `{key}` (the keys: {})", KEYS.join(", ")));
    }
    let name = table.get("name").ok_or("`name` is missing")?;
    let name = name.as_str().filter(|n| !n.trim().is_empty()).ok_or("`name` must be a string, not empty")?;
    let mut files = texts(table, "files")?.into_iter().map(|(k, v)| (k, v.into_bytes())).collect::<Vec<_>>();
    for (file, hex) in texts(table, "hex")? {
        files.push((file, parse_hex(&hex).map_err(|e| format!("`hex`: {e}"))?));
    }
    let copies = texts(table, "copy")?;
    let dirs = strings(table, "dirs")?;
    for path in files.iter().map(|f| &f.0).chain(copies.iter().map(|c| &c.0)).chain(&dirs) {
        inside(path)?;
    }
    let setup = match table.get("setup") {
        None => Vec::new(),
        Some(item) => {
            let array = item.as_array().ok_or("`setup` must be an array of commands")?;
            array.iter().map(|v| command(v, "setup")).collect::<Result<_, _>>()?
        }
    };
    let edits = edit_tables(table)?.into_iter().map(parse_edit).collect::<Result<Vec<_>, _>>()?;
    let run = command(table.get("run").and_then(Item::as_value).ok_or("`run` is missing")?, "run")?;
    let status = table.get("status").ok_or("`status` is missing")?;
    let status = status.as_integer().filter(|s| (0..=2).contains(s)).ok_or("`status` must be 0, 1 or 2")?;
    Ok(Case {
        name: name.to_owned(),
        files,
        copies,
        dirs,
        setup,
        edits,
        run,
        status: i32::try_from(status).unwrap_or(-1),
        stderr: strings(table, "stderr")?,
        stdout: strings(table, "stdout")?,
        changes: strings(table, "changes")?,
    })
}

/// A table of strings, name to text (`files`, `hex`, `copy`); absent is empty.
fn texts(table: &dyn TableLike, key: &str) -> Result<Vec<(String, String)>, String> {
    let Some(item) = table.get(key) else { return Ok(Vec::new()) };
    let entries = item.as_table_like().ok_or(format!("`{key}` must be a table of strings"))?;
    entries
        .iter()
        .map(|(name, value)| {
            let text = value.as_str().ok_or(format!("`{key}.{name}` must be a string"))?;
            Ok((name.to_owned(), text.to_owned()))
        })
        .collect()
}

/// An array of strings; absent is empty.
fn strings(table: &dyn TableLike, key: &str) -> Result<Vec<String>, String> {
    let Some(item) = table.get(key) else { return Ok(Vec::new()) };
    let array = item.as_array().ok_or(format!("`{key}` must be an array of strings"))?;
    array
        .iter()
        .map(|v| v.as_str().map(str::to_owned).ok_or(format!("`{key}` must hold only strings")))
        .collect()
}

/// A command: an array of strings whose first is a program of [`PROGRAMS`].
fn command(value: &toml_edit::Value, key: &str) -> Result<Vec<String>, String> {
    let array = value.as_array().ok_or(format!("`{key}`: a command is an array of strings"))?;
    let words: Vec<String> = array
        .iter()
        .map(|v| v.as_str().map(str::to_owned).ok_or(format!("`{key}`: a command holds only strings")))
        .collect::<Result<_, _>>()?;
    match words.first() {
        Some(program) if PROGRAMS.contains(&program.as_str()) => Ok(words),
        Some(program) => {
            Err(format!("`{key}`: the program {program:?} is not one of {}", PROGRAMS.join(", ")))
        }
        None => Err(format!("`{key}`: the command is empty")),
    }
}

/// The tables of `edits`: an array of inline tables or `[[case.edits]]`.
fn edit_tables(table: &dyn TableLike) -> Result<Vec<&dyn TableLike>, String> {
    match table.get("edits") {
        None => Ok(Vec::new()),
        Some(Item::ArrayOfTables(tables)) => Ok(tables.iter().map(|t| t as &dyn TableLike).collect()),
        Some(item) => {
            let array = item.as_array().ok_or("`edits` must be an array of tables")?;
            array
                .iter()
                .map(|v| {
                    v.as_inline_table()
                        .map(|t| t as &dyn TableLike)
                        .ok_or("`edits` must hold only tables".into())
                })
                .collect()
        }
    }
}

/// A file name of the scratch folder: relative, and never out of it.
fn inside(path: &str) -> Result<(), String> {
    let p = std::path::Path::new(path);
    if path.is_empty()
        || p.is_absolute()
        || p.components().any(|c| matches!(c, std::path::Component::ParentDir))
    {
        return Err(format!("{path:?} is not a name inside the scratch folder"));
    }
    Ok(())
}
