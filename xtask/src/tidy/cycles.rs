//! Import cycles between the files of one crate. Each crate's module tree is found
//! from `src/lib.rs` or `src/main.rs` through its `mod NAME;` lines; a file depends
//! on another when its code names a path into it: `crate::a::b`, `super::x`, or one
//! of its own child modules (`child::f`). A parent's `pub use child::X` is the
//! child's public face, not a use, and a child naming its parent (or any ancestor)
//! is how a module's shared items reach its children, not a use that can close a
//! cycle. `#[cfg(test)]` code is left out. The files of
//! each strongly connected group of two or more are a cycle, reported with one loop.

use std::collections::{BTreeMap, BTreeSet};

use super::files::Source;
use super::report::Finding;
use super::scan;

/// A module's path inside its crate (`[]` for the root) and the file that holds it.
type Modules = BTreeMap<Vec<String>, String>;

/// Adds a finding per cycle; returns how many crates were checked.
pub(super) fn check(sources: &[Source], tests: &BTreeSet<String>, findings: &mut Vec<Finding>) -> usize {
    let text: BTreeMap<&str, &str> = sources.iter().map(|s| (s.path.as_str(), s.text.as_str())).collect();
    let roots = sources.iter().map(|s| s.path.as_str()).filter(|p| {
        let in_src = p.rsplit_once('/').is_some_and(|(dir, _)| dir == "src" || dir.ends_with("/src"));
        in_src && (p.ends_with("/lib.rs") || p.ends_with("/main.rs"))
    });
    let mut crates = 0;
    for root in roots {
        crates += 1;
        let modules = module_tree(root, &text, tests);
        let graph = edges(&modules, &text);
        for group in strongly_connected(&graph) {
            let path = group.first().cloned().unwrap_or_default();
            let message = format!("import cycle: {}", loop_through(&graph, &group).join(" -> "));
            findings.push(Finding { path, line: 0, function: "import cycle".to_owned(), message });
        }
    }
    crates
}

/// Every module reachable from `root` through non-test `mod NAME;` lines.
fn module_tree(root: &str, text: &BTreeMap<&str, &str>, tests: &BTreeSet<String>) -> Modules {
    let mut modules = Modules::new();
    let mut todo = vec![(Vec::new(), root.to_owned())];
    while let Some((module, file)) = todo.pop() {
        let source = text.get(file.as_str()).copied().unwrap_or_default();
        let dir = scan::module_dir(&file);
        for child in declared_modules(source) {
            let candidates = [format!("{dir}/{child}.rs"), format!("{dir}/{child}/mod.rs")];
            if let Some(path) =
                candidates.into_iter().find(|p| text.contains_key(p.as_str()) && !tests.contains(p))
            {
                let mut path_in_crate = module.clone();
                path_in_crate.push(child);
                todo.push((path_in_crate, path));
            }
        }
        modules.insert(module, file);
    }
    modules
}

/// The names of the `mod NAME;` lines of `source` outside `#[cfg(test)]` items; a
/// line that calls a list of models to declare their modules (`model_modules!`,
/// `model_folders!`, snapshots' `for_each_model!(models)`) declares one per model.
fn declared_modules(source: &str) -> Vec<String> {
    let lines: Vec<&str> = source.lines().collect();
    let skipped = scan::test_lines(&lines);
    let kept = lines.iter().zip(skipped).filter(|(_, test)| !test);
    let mut names = Vec::new();
    for (line, _) in kept {
        if MODEL_MODULES.iter().any(|call| line.trim_start().starts_with(call)) {
            names.extend(crate::models::names().into_iter().map(|(name, _)| name.to_owned()));
        }
        names.extend(scan::mod_file(line).map(str::to_owned));
    }
    names
}

/// The calls that declare one module per model.
const MODEL_MODULES: &[&str] = &[
    "crate::for_each_model!(crate::model_modules!",
    "for_each_model!(model_folders)",
    "for_each_model!(models)",
];

/// For each file, the files of its crate it names paths into.
fn edges(modules: &Modules, text: &BTreeMap<&str, &str>) -> BTreeMap<String, BTreeSet<String>> {
    let mut graph = BTreeMap::new();
    for (module, file) in modules {
        let source = text.get(file.as_str()).copied().unwrap_or_default();
        let children = declared_modules(source);
        let mut targets = BTreeSet::new();
        for path in named_paths(source, &children) {
            let absolute = match path.first().map(String::as_str) {
                Some("crate") => path.get(1..).unwrap_or_default().to_vec(),
                Some("self") => module.iter().chain(path.iter().skip(1)).cloned().collect(),
                Some("super") => {
                    let ups = path.iter().take_while(|s| *s == "super").count();
                    let mut p = module.get(..module.len().saturating_sub(ups)).unwrap_or_default().to_vec();
                    p.extend(path.iter().skip(ups).cloned());
                    p
                }
                _ => module.iter().chain(&path).cloned().collect(),
            };
            let target = (0..=absolute.len()).rev().find_map(|n| {
                let prefix = absolute.get(..n)?;
                modules.get(prefix).map(|file| (prefix, file))
            });
            // A module naming one of its ancestors is how a parent's shared items
            // reach its children; only the other direction can close a cycle.
            if let Some((_, target)) = target.filter(|(prefix, t)| *t != file && !module.starts_with(prefix))
            {
                targets.insert(target.clone());
            }
        }
        graph.insert(file.clone(), targets);
    }
    graph
}

/// The paths `source` names outside `#[cfg(test)]` items and comments, as segments:
/// those starting `crate::`, `super::` or `self::`, and those into a module of
/// `children`, except in a `pub use` of a child (the parent's re-export).
fn named_paths(source: &str, children: &[String]) -> Vec<Vec<String>> {
    let lines: Vec<&str> = source.lines().collect();
    let skipped = scan::test_lines(&lines);
    let mut paths = Vec::new();
    let mut statement: Option<(bool, String)> = None;
    for (line, _) in lines.iter().zip(skipped).filter(|(_, test)| !test) {
        let code = line.split("//").next().unwrap_or_default().trim();
        let (re_export, found) = match statement.take() {
            Some((re_export, mut text)) => {
                text.push_str(code);
                (re_export, Some(text))
            }
            None => match use_tree(code) {
                Some((re_export, tree)) => (re_export, Some(tree.to_owned())),
                None => (false, None),
            },
        };
        let found = match found {
            Some(text) if text.contains(';') => expand_use(&text),
            Some(text) => {
                statement = Some((re_export, text));
                continue;
            }
            None => path_tokens(code),
        };
        for path in found {
            let head = path.first().map(String::as_str).unwrap_or_default();
            let child = children.iter().any(|c| c == head);
            if matches!(head, "crate" | "super" | "self") || (child && !re_export) {
                paths.push(path);
            }
        }
    }
    paths
}

/// The tree of a `use` line (after `use `), and whether it is a `pub` one.
fn use_tree(code: &str) -> Option<(bool, &str)> {
    if let Some(tree) = code.strip_prefix("use ") {
        return Some((false, tree));
    }
    let rest = code.strip_prefix("pub")?;
    let rest = if rest.starts_with('(') { rest.get(rest.find(')')? + 1..)? } else { rest };
    Some((true, rest.trim_start().strip_prefix("use ")?))
}

/// The paths a use tree names, one per leaf (and the group's own path for `self`
/// and `*`): `a::{b, c::{self, D}}` names `a::b`, `a::c` and `a::c::D`.
fn expand_use(tree: &str) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    let mut current: Vec<String> = Vec::new();
    let mut groups: Vec<usize> = vec![0];
    let mut alias = false;
    let mut token = String::new();
    for c in tree.chars().chain(std::iter::once(' ')) {
        if c.is_alphanumeric() || c == '_' {
            token.push(c);
            continue;
        }
        if !token.is_empty() {
            match token.as_str() {
                "as" => alias = true,
                _ if alias => alias = false,
                "self" => paths.push(current.clone()),
                _ => current.push(std::mem::take(&mut token)),
            }
            token.clear();
        }
        let top = groups.last().copied().unwrap_or(0);
        match c {
            '{' => groups.push(current.len()),
            '*' => paths.push(current.clone()),
            ',' | '}' | ';' => {
                if current.len() > top {
                    paths.push(current.clone());
                }
                if c == '}' {
                    groups.pop();
                }
                current.truncate(groups.last().copied().unwrap_or(0));
            }
            _ => {}
        }
    }
    paths
}

/// Every `a::b::c` chain of identifiers in `code`, and `a` of `a::{..}`.
fn path_tokens(code: &str) -> Vec<Vec<String>> {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut paths = Vec::new();
    let mut rest = code;
    while let Some(start) = rest.find(is_ident) {
        let before = rest.get(..start).unwrap_or_default();
        let mut segments = Vec::new();
        let mut cursor = rest.get(start..).unwrap_or_default();
        loop {
            let end = cursor.find(|c: char| !is_ident(c)).unwrap_or(cursor.len());
            segments.push(cursor.get(..end).unwrap_or_default().to_owned());
            cursor = cursor.get(end..).unwrap_or_default();
            match cursor.strip_prefix("::") {
                Some(next) if next.starts_with(is_ident) => cursor = next,
                _ => break,
            }
        }
        // A chain met inside another (`x::a::b` at `a`) was taken whole already.
        if (segments.len() > 1 || cursor.starts_with("::")) && !before.ends_with("::") {
            paths.push(segments);
        }
        rest = cursor;
    }
    paths
}

/// The groups of two or more files that reach each other, each sorted, by their
/// first file (a fixed point of reachability: small graphs, plain sets).
fn strongly_connected(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    let reach = |from: &String| {
        let mut seen = BTreeSet::new();
        let mut todo: Vec<&String> = graph.get(from).into_iter().flatten().collect();
        while let Some(next) = todo.pop() {
            if seen.insert(next.clone()) {
                todo.extend(graph.get(next).into_iter().flatten());
            }
        }
        seen
    };
    let reachable: BTreeMap<&String, BTreeSet<String>> = graph.keys().map(|k| (k, reach(k))).collect();
    let mut groups: BTreeSet<Vec<String>> = BTreeSet::new();
    for (file, from_file) in &reachable {
        let group: Vec<String> = from_file
            .iter()
            .filter(|other| reachable.get(other).is_some_and(|r| r.contains(*file)))
            .cloned()
            .collect();
        if group.len() > 1 {
            groups.insert(group);
        }
    }
    groups.into_iter().collect()
}

/// One loop through the group's first file: the shortest way back to it.
fn loop_through(graph: &BTreeMap<String, BTreeSet<String>>, group: &[String]) -> Vec<String> {
    let Some(start) = group.first() else { return Vec::new() };
    let mut came_from: BTreeMap<&String, &String> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(file) = queue.pop_front() {
        for next in graph.get(file).into_iter().flatten().filter(|n| group.contains(n)) {
            if next == start {
                let mut path = vec![start.clone()];
                let mut at = file;
                while at != start {
                    path.push(at.clone());
                    at = came_from.get(at).copied().unwrap_or(start);
                }
                path.push(start.clone());
                path.reverse();
                return path;
            }
            if !came_from.contains_key(next) {
                came_from.insert(next, file);
                queue.push_back(next);
            }
        }
    }
    group.to_vec()
}
