//! One insta snapshot per scenario file: the decision listing and the metrics.
//! Review a changed snapshot decision by decision before accepting it.

use std::fs;
use std::path::Path;

fn name_of(path: &Path) -> String {
    path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
}

#[test]
fn scenarios() {
    insta::glob!("../scenarios", "*.scn", |path| {
        let name = name_of(path);
        let text = fs::read_to_string(path).unwrap();
        let scenario = snapshots::parse(&name, &text).unwrap();
        let outcome = snapshots::run(&name, &scenario).unwrap();
        insta::assert_snapshot!(outcome.rendering);
    });
}

#[test]
fn seeded_synthetic_run() {
    let scenario = snapshots::synthetic_sample();
    let outcome = snapshots::run("synthetic", &scenario).unwrap();
    insta::assert_snapshot!(outcome.rendering);
}
