//! The names of integration test files (`CRATE/tests/NAME.rs`): a file about one model
//! is `MODEL_topic.rs`, so that a model's tests sort together in every crate. A name
//! that holds a model's name elsewhere than at its start, or that is the model's name
//! alone, is a finding; a name without a model's (a shared part's topic) is not.

use super::report::Finding;

/// The findings on `paths` for the model names `models`.
pub(super) fn check<'a>(paths: impl IntoIterator<Item = &'a str>, models: &[&str]) -> Vec<Finding> {
    let mut findings = Vec::new();
    for path in paths {
        let Some(stem) = test_root_stem(path) else { continue };
        if let Some(message) = misnamed(stem, models) {
            findings.push(Finding { path: path.to_owned(), line: 0, function: String::new(), message });
        }
    }
    findings
}

/// The file stem of an integration test's root file (`CRATE/tests/NAME.rs`); `None`
/// for any other path, a test's helper module included.
fn test_root_stem(path: &str) -> Option<&str> {
    let mut parts = path.split('/');
    let (_, dir, file) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() || dir != "tests" {
        return None;
    }
    file.strip_suffix(".rs")
}

/// Why `stem` breaks the rule, if it does: the first model it names, matched on whole
/// `_`-separated words.
fn misnamed(stem: &str, models: &[&str]) -> Option<String> {
    let words: Vec<&str> = stem.split('_').collect();
    for model in models {
        let name: Vec<&str> = model.split('_').collect();
        let Some(at) = words.windows(name.len()).position(|w| w == name.as_slice()) else { continue };
        if at > 0 {
            return Some(format!("a test file about `{model}` is named `{model}_topic.rs`"));
        }
        if words.len() == name.len() {
            return Some(format!("a test file about `{model}` names its topic too: `{model}_topic.rs`"));
        }
    }
    None
}
