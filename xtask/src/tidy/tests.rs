//! The rules on small texts: a function of 71 lines fails and one of 70 passes, a
//! `#[cfg(test)]` module is skipped, a file of 401 lines fails and one of 400 passes,
//! test paths are recognised, use trees and cycles are read as meant, repeated runs
//! are found from six lines, a model missing from a shared file is named, and a test
//! file about one model is named after it.

use std::collections::BTreeSet;

use super::files::Source;
use super::report::Finding;
use super::scan::{self, Function};
use super::{FILE_LINES_MAX, FN_LINES_MAX, cycles, file_too_long, registry, repeats, sizes, test_names};

/// A function `name` of `lines` lines in all (its `fn` line and closing brace
/// included), indented by `indent` spaces.
fn function(name: &str, lines: usize, indent: usize) -> String {
    let pad = " ".repeat(indent);
    let mut text = format!("{pad}pub(crate) fn {name}(x: u64) -> u64 {{\n");
    for i in 0..lines.saturating_sub(2) {
        text.push_str(&format!("{pad}    let x = x + {i};\n"));
    }
    text.push_str(&format!("{pad}}}\n"));
    text
}

fn findings_of(text: &str) -> Vec<Finding> {
    let mut findings = Vec::new();
    sizes("a/src/lib.rs", text, &mut findings);
    findings
}

#[test]
fn a_function_of_71_lines_fails_and_one_of_70_passes() {
    let text = format!("{}\n{}", function("short", FN_LINES_MAX, 0), function("long", FN_LINES_MAX + 1, 0));
    let found = scan::functions(&text);
    assert_eq!(
        found,
        [
            Function { name: "short".into(), line: 1, lines: 70 },
            Function { name: "long".into(), line: 72, lines: 71 }
        ]
    );
    let findings = findings_of(&text);
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert_eq!((findings[0].line, findings[0].function.as_str()), (72, "long"));
    assert_eq!(findings[0].message, "fn long has 71 lines, over the 70-line limit");
}

#[test]
fn methods_one_line_bodies_and_signatures_without_bodies_are_read() {
    let text = format!(
        "impl X {{\n{}    const fn one(&self) -> u8 {{ 1 }}\n}}\n\ntrait T {{\n    fn declared(&self)\n        -> u8;\n}}\n",
        function("method", 71, 4)
    );
    let found = scan::functions(&text);
    assert_eq!(
        found,
        [
            Function { name: "method".into(), line: 2, lines: 71 },
            Function { name: "one".into(), line: 73, lines: 1 }
        ]
    );
}

#[test]
fn a_test_module_is_skipped() {
    let text = format!(
        "{}\n#[cfg(test)]\n#[allow(clippy::unwrap_used)]\nmod tests {{\n    use super::*;\n\n{}}}\n\n{}",
        function("before", 3, 0),
        function("long_test_helper", 200, 4),
        function("after", 5, 0)
    );
    let names: Vec<String> = scan::functions(&text).into_iter().map(|f| f.name).collect();
    assert_eq!(names, ["before", "after"]);
    assert!(findings_of(&text).is_empty());
}

#[test]
fn a_file_of_401_lines_fails_and_one_of_400_passes() {
    let file = |lines: usize| "// a line\n".repeat(lines);
    assert_eq!(file_too_long(&file(FILE_LINES_MAX)), None);
    assert_eq!(
        file_too_long(&file(FILE_LINES_MAX + 1)).as_deref(),
        Some("401 lines, over the 400-line limit for a file")
    );
    let findings = findings_of(&file(FILE_LINES_MAX + 1));
    assert_eq!((findings[0].line, findings[0].function.as_str()), (401, ""));
}

#[test]
fn test_files_are_recognised_by_their_place_and_name() {
    assert!(scan::is_test_path("replay/tests/props.rs"));
    assert!(scan::is_test_path("host-sim/benches/support/mod.rs"));
    assert!(scan::is_test_path("xtask/src/tidy/tests.rs"));
    assert!(!scan::is_test_path("fuzz/fuzz_targets/tiers.rs"));
    assert!(!scan::is_test_path("host-sim/src/testbed.rs"));
    assert_eq!(scan::test_module_files("#[cfg(test)]\nmod props;\nmod real;\n"), ["props"]);
    assert_eq!(scan::mod_file("    pub(super) mod inner;"), Some("inner"));
    assert_eq!(scan::mod_file("pub mod inline {"), None);
    assert_eq!(scan::module_dir("a/src/lib.rs"), "a/src");
    assert_eq!(scan::module_dir("a/src/b.rs"), "a/src/b");
    assert_eq!(scan::module_dir("a/src/b/mod.rs"), "a/src/b");
}

fn source(path: &str, text: &str) -> Source {
    Source { path: path.to_owned(), text: text.to_owned() }
}

fn cycles_of(sources: &[Source]) -> Vec<String> {
    let mut findings = Vec::new();
    cycles::check(sources, &BTreeSet::new(), &mut findings);
    findings.into_iter().map(|f| f.message).collect()
}

#[test]
fn two_files_that_import_each_other_are_a_cycle() {
    let sources = [
        source("c/src/main.rs", "mod a;\nmod b;\nmod leaf;\n"),
        source("c/src/a.rs", "use crate::b::{self, f};\nuse crate::leaf::X;\n"),
        source("c/src/b.rs", "fn g() {\n    crate::a::h();\n}\n"),
        source("c/src/leaf.rs", "pub struct X;\n"),
    ];
    assert_eq!(cycles_of(&sources), ["import cycle: c/src/a.rs -> c/src/b.rs -> c/src/a.rs"]);
}

#[test]
fn one_way_imports_re_exports_and_test_code_are_no_cycle() {
    let sources = [
        source("c/src/lib.rs", "mod m;\npub use m::Thing;\n"),
        source("c/src/m/mod.rs", "mod inner;\npub use inner::Thing;\n"),
        source(
            "c/src/m/inner.rs",
            "use super::super::Other;\n#[cfg(test)]\nmod tests {\n    use crate::m::X;\n}\n",
        ),
    ];
    assert_eq!(cycles_of(&sources), Vec::<String>::new());
}

#[test]
fn a_run_of_six_lines_is_reported_and_one_of_five_is_not() {
    let body = |n: usize| (0..n).map(|i| format!("    let value_{i} = compute({i});\n")).collect::<String>();
    // Only the body is shared: each function's name and last call are its own.
    let file = |name: &str, n: usize| format!("fn {name}() {{\n{}    finish_{name}();\n}}\n", body(n));
    let found = |n: usize| {
        let sources = [source("c/src/a.rs", &file("a", n)), source("c/src/b.rs", &file("b", n))];
        repeats::find(&sources, &BTreeSet::new())
    };
    assert_eq!(found(5), Vec::<String>::new());
    assert_eq!(found(6), ["c/src/b.rs:2-7 repeats c/src/a.rs:2-7 (6 lines of code)"]);
}

/// Two models and one shared file, `runs.rs`, that must name each model's subcommand
/// in a row.
const TWO_MODELS: &[(&str, &str)] = &[("alpha", "first"), ("beta", "second")];
const ROWS: &[registry::Mention] = &[("the runs", "x/runs.rs", "(\"{s}\", ", "a row (\"{s}\", ...) for {m}")];

fn unmentioned(mentions: &[registry::Mention], files: &[(&str, &str)]) -> Vec<(String, String, String)> {
    let text_of = |path: &str| files.iter().find(|(p, _)| *p == path).map(|(_, text)| *text);
    let found = registry::unmentioned(TWO_MODELS, mentions, text_of);
    found.into_iter().map(|f| (f.path, f.function, f.message)).collect()
}

#[test]
fn a_model_missing_from_a_shared_file_is_named_with_its_layer_and_what_to_add() {
    let both = "const RUNS = [(\"first\", 1), (\"second\", 2)];\n";
    assert_eq!(unmentioned(ROWS, &[("x/runs.rs", both)]), []);
    // `second` appears, but not as a row: only the needle's shape counts.
    let one = "const RUNS = [(\"first\", 1)];\n// \"second\" is to come.\n";
    assert_eq!(
        unmentioned(ROWS, &[("x/runs.rs", one)]),
        [(
            "x/runs.rs".to_owned(),
            "beta".to_owned(),
            "the model `beta` is missing from the runs: add a row (\"second\", ...) for beta \
             (see xtask/src/tidy/registry.rs)"
                .to_owned()
        )]
    );
}

#[test]
fn a_missing_shared_file_is_one_finding_not_one_per_model() {
    let found = unmentioned(ROWS, &[]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!((found[0].0.as_str(), found[0].1.as_str()), ("x/runs.rs", ""));
    assert!(found[0].2.contains("x/runs.rs, which is missing"), "{}", found[0].2);
}

#[test]
fn the_real_needles_match_the_shapes_of_the_shared_files() {
    // One line in the shape of each shared file, per model, as the real files have it.
    let replay = "            alpha: Alpha [AlphaEvent AlphaDecision]\n            beta: Beta [BetaEvent BetaDecision]\n";
    let host = "            \"alpha\": Alpha(alpha),\n            \"beta\": Beta(beta),\n";
    let probe = "    use kernel::alpha::{self, AlphaKernel};\n    use kernel::beta;\n";
    let files = [
        ("replay/src/contract.rs", replay),
        ("host-sim/src/lib.rs", host),
        ("xtask/footprint/src/main.rs", probe),
    ];
    assert_eq!(unmentioned(registry::MENTIONS, &files), []);
    // A model named only inside another word is not in the list.
    let renamed = "            alphabet: Alpha [AlphaEvent AlphaDecision]\n            beta: Beta [BetaEvent BetaDecision]\n";
    let found = unmentioned(registry::MENTIONS, &[("replay/src/contract.rs", renamed), files[1], files[2]]);
    let missing: Vec<&str> = found.iter().map(|f| f.1.as_str()).collect();
    assert_eq!(missing, ["alpha"]);
    assert!(found[0].2.starts_with("the model `alpha` is missing from replay's list of models: add a row"));
}

#[test]
fn a_test_file_about_one_model_starts_with_its_name() {
    let models = ["service_level", "sla"];
    let paths = [
        "kernel/tests/service_level_rules.rs",
        "kernel/tests/calendar.rs",
        "replay/tests/common/sla.rs",
        "kernel/src/sla.rs",
        "replay/tests/verify_service_level.rs",
        "kernel/tests/sla.rs",
        "replay/tests/level_props.rs",
        "replay/tests/slack.rs",
    ];
    let found: Vec<(String, String)> =
        test_names::check(paths, &models).into_iter().map(|f| (f.path, f.message)).collect();
    assert_eq!(
        found,
        [
            (
                "replay/tests/verify_service_level.rs".to_owned(),
                "a test file about `service_level` is named `service_level_topic.rs`".to_owned()
            ),
            (
                "kernel/tests/sla.rs".to_owned(),
                "a test file about `sla` names its topic too: `sla_topic.rs`".to_owned()
            ),
        ]
    );
}
