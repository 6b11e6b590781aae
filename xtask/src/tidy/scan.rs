//! Reading Rust source as rustfmt leaves it, line by line, without a parser: which
//! files are tests, where each function starts and ends, and which lines belong to
//! `#[cfg(test)]` items. Plain functions over strings, so the rules are tested on
//! small texts.

/// A function found in a file: its name, its first line (1-based) and its length in
/// lines, from the `fn` line through its closing brace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Function {
    pub(super) name: String,
    pub(super) line: usize,
    pub(super) lines: usize,
}

/// Whether `path` (relative, with `/`) holds only tests: anything under a `tests/` or
/// `benches/` folder, and files named `tests.rs`. Fuzz targets and examples are code.
pub(super) fn is_test_path(path: &str) -> bool {
    let mut parts = path.split('/');
    let file = parts.next_back().unwrap_or_default();
    file == "tests.rs" || parts.any(|dir| dir == "tests" || dir == "benches")
}

/// The leading spaces of `line`.
fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// The name in `line` if it starts a function item: optional visibility and
/// qualifiers, then `fn NAME`.
fn fn_name(line: &str) -> Option<&str> {
    let mut rest = line.trim_start();
    loop {
        let word_end = rest.find(' ').unwrap_or(rest.len());
        let word = rest.get(..word_end)?;
        let next = match word {
            "pub" | "const" | "async" | "unsafe" | "default" | "extern" => rest.get(word_end..)?,
            _ if word.starts_with("pub(") => rest.get(rest.find(')')? + 1..)?,
            _ if word.starts_with('"') => rest.get(word_end..)?,
            "fn" => {
                let after = rest.get(2..)?.trim_start();
                let name_end =
                    after.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(after.len());
                let name = after.get(..name_end)?;
                return name.starts_with(|c: char| c.is_alphabetic() || c == '_').then_some(name);
            }
            _ => return None,
        };
        rest = next.trim_start();
    }
}

/// The code of `line` before a `//` comment, without trailing spaces.
fn code(line: &str) -> &str {
    line.split("//").next().unwrap_or_default().trim_end()
}

/// The index of the line that closes the item opened at `start`: the first `}` at
/// the item's indentation once its body has opened, or the body's own line when the
/// body opens and closes on it. `None` when the item has no body (a `;` ends its
/// signature first) or never closes.
fn item_end(lines: &[&str], start: usize) -> Option<usize> {
    let depth = indent(lines.get(start)?);
    let mut open = false;
    for (i, line) in lines.iter().enumerate().skip(start) {
        let code = code(line);
        if open {
            if indent(line) == depth && code.trim_start().starts_with('}') {
                return Some(i);
            }
        } else if code.contains('{') {
            if code.ends_with('}') {
                return Some(i);
            }
            open = true;
        } else if code.ends_with(';') {
            return None;
        }
    }
    None
}

/// For each line, whether it belongs to a `#[cfg(test)]` item (the attribute, any
/// attributes after it, and the item through its closing brace).
pub(super) fn test_lines(lines: &[&str]) -> Vec<bool> {
    let mut inside = vec![false; lines.len()];
    let mut i = 0;
    while i < lines.len() {
        if lines.get(i).is_some_and(|l| l.trim() == "#[cfg(test)]") {
            let mut item = i + 1;
            while lines.get(item).is_some_and(|l| l.trim_start().starts_with("#[")) {
                item += 1;
            }
            let end = item_end(lines, item).unwrap_or(item);
            inside.iter_mut().take(end + 1).skip(i).for_each(|x| *x = true);
            i = end + 1;
        } else {
            i += 1;
        }
    }
    inside
}

/// Every function with a body outside `#[cfg(test)]` items, in order.
pub(super) fn functions(text: &str) -> Vec<Function> {
    let lines: Vec<&str> = text.lines().collect();
    let skipped = test_lines(&lines);
    let mut found = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if skipped.get(i).copied().unwrap_or(false) {
            continue;
        }
        let Some(name) = fn_name(line) else { continue };
        if let Some(end) = item_end(&lines, i) {
            found.push(Function { name: name.to_owned(), line: i + 1, lines: end - i + 1 });
        }
    }
    found
}

/// The name in `line` if it declares a module in its own file: `mod NAME;`, with any
/// visibility.
pub(super) fn mod_file(line: &str) -> Option<&str> {
    let l = line.trim();
    let l = match l.strip_prefix("pub") {
        Some(rest) if rest.starts_with('(') => rest.get(rest.find(')')? + 1..)?.trim_start(),
        Some(rest) => rest.trim_start(),
        None => l,
    };
    l.strip_prefix("mod ")?.strip_suffix(';')
}

/// The modules that `text` declares as `#[cfg(test)] mod NAME;` (their files hold
/// only tests, wherever they live).
pub(super) fn test_module_files(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut names = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if line.trim() != "#[cfg(test)]" {
            continue;
        }
        let item = lines.iter().skip(i + 1).find(|l| !l.trim_start().starts_with("#["));
        names.extend(item.and_then(|l| mod_file(l)).map(str::to_owned));
    }
    names
}

/// The folder that holds the files of the modules `path` declares: its own folder
/// for `lib.rs`, `main.rs` and `mod.rs`, else a folder named after the file.
pub(super) fn module_dir(path: &str) -> String {
    let (dir, file) = path.rsplit_once('/').unwrap_or(("", path));
    let stem = file.strip_suffix(".rs").unwrap_or(file);
    match stem {
        "lib" | "main" | "mod" => dir.to_owned(),
        _ if dir.is_empty() => stem.to_owned(),
        _ => format!("{dir}/{stem}"),
    }
}
