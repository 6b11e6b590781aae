//! `cargo xtask bad-inputs [CLASS...]`: the kept bad-input campaign (a step of
//! `verify`). Every `tests/bad-inputs/CLASS.toml` holds the cases of one class: a
//! command, the exit status it must give and the words its message must contain
//! (`tests/bad-inputs/README.md` is the format). Each case runs on the release
//! `host-sim` and `replay` in a scratch folder of its own,
//! `target/xtask/bad-inputs/CLASS/N`, two at a time.
//!
//! - [`case`]: a class file read into its cases, unknown keys refused.
//! - [`edits`]: the damage a case makes to a file, and a log's checksums made right.
//! - [`run`]: one case run and held to its words and to the checks of every case.

use std::fs;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::cmd::{Result, root, target_dir};

mod case;
mod edits;
mod run;

use case::{Case, parse_class};

/// The folder of the class files.
const DIR: &str = "tests/bad-inputs";
/// Cases run at once.
const WORKERS: usize = 2;

/// One class: its name (the file's without `.toml`) and its cases.
struct Class {
    name: String,
    cases: Vec<Case>,
}

pub fn bad_inputs(only: &[String]) -> Result {
    let classes = read_classes(only)?;
    crate::toolchain::build_release_tools("bad-inputs")?;
    let jobs: Vec<(&Class, usize)> =
        classes.iter().flat_map(|class| (0..class.cases.len()).map(move |i| (class, i))).collect();
    println!("==> bad-inputs: {} cases in {} classes, {WORKERS} at a time", jobs.len(), classes.len());
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..WORKERS {
            scope.spawn(|| {
                while let Some(&(class, i)) = jobs.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let case = &class.cases[i];
                    let scratch =
                        target_dir().join("xtask/bad-inputs").join(&class.name).join((i + 1).to_string());
                    if let Err(report) = run::run_case(case, &scratch) {
                        let head = format!("{DIR}/{}.toml, case {} {:?}", class.name, i + 1, case.name);
                        failures
                            .lock()
                            .unwrap_or_else(std::sync::PoisonError::into_inner)
                            .push((head, report));
                    }
                }
            });
        }
    });
    let mut failures = failures.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    failures.sort();
    for (head, report) in &failures {
        println!("==> bad-inputs FAILED: {head}\n{report}");
    }
    let counts: Vec<String> = classes.iter().map(|c| format!("{} {}", c.name, c.cases.len())).collect();
    println!("==> bad-inputs: {} cases in {} classes: {}", jobs.len(), classes.len(), counts.join(", "));
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!("bad-inputs: {} of {} cases failed (above)", failures.len(), jobs.len()))
    }
}

/// Every class file, sorted by name, or only those named; a name with no file is an
/// error listing the classes there are.
fn read_classes(only: &[String]) -> Result<Vec<Class>> {
    let dir = root().join(DIR);
    let entries =
        fs::read_dir(&dir).map_err(|e| format!("bad-inputs: cannot read {}: {e}", dir.display()))?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    paths.sort();
    let name_of = |p: &PathBuf| p.file_stem().map_or(String::new(), |s| s.to_string_lossy().into_owned());
    let names: Vec<String> = paths.iter().map(name_of).collect();
    if let Some(unknown) = only.iter().find(|c| !names.contains(c)) {
        return Err(format!("bad-inputs: no class `{unknown}` in {DIR} (the classes: {})", names.join(", ")));
    }
    let mut classes = Vec::new();
    for path in paths.iter().filter(|p| only.is_empty() || only.contains(&name_of(p))) {
        let file = format!("{DIR}/{}.toml", name_of(path));
        let text = fs::read_to_string(path).map_err(|e| format!("bad-inputs: cannot read {file}: {e}"))?;
        let cases = parse_class(&file, &text).map_err(|e| format!("bad-inputs: {e}"))?;
        classes.push(Class { name: name_of(path), cases });
    }
    Ok(classes)
}

#[cfg(test)]
mod tests;
