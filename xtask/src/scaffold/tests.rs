use std::fs;

use super::is_own;
use super::recipe::{EDITS, Edit, Place};

#[test]
fn the_models_own_files_are_the_ones_named_for_it() {
    assert!(is_own("kernel/src/accept_all/mod.rs"));
    assert!(is_own("replay/src/engine/accept_all.rs"));
    assert!(is_own("snapshots/tests/snapshots/scenarios__scenarios@accept_all_basic.scn.snap"));
    assert!(!is_own("replay/src/contract.rs"));
    assert!(!is_own("README.md"));
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = crate::cmd::target_dir().join("xtask/scaffold-tests").join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn an_edit_goes_next_to_its_one_line_and_a_missing_or_repeated_line_is_refused() {
    let dir = scratch("edit");
    fs::write(dir.join("f.txt"), "a\nb\nc\n").unwrap();
    let edit = |place, anchor| Edit { file: "f.txt", place, anchor, text: "x" };
    edit(Place::After, "b").apply(&dir).unwrap();
    edit(Place::Before, "a").apply(&dir).unwrap();
    edit(Place::End, "").apply(&dir).unwrap();
    assert_eq!(fs::read_to_string(dir.join("f.txt")).unwrap(), "x\na\nb\nx\nc\nx\n");
    let missing = edit(Place::After, "z").apply(&dir).unwrap_err();
    assert!(missing.contains("`z` is in f.txt 0 times, not once"), "{missing}");
    let repeated = edit(Place::After, "x").apply(&dir).unwrap_err();
    assert!(repeated.contains("3 times"), "{repeated}");
}

#[test]
fn every_edit_of_the_recipe_names_a_line_of_this_workspace_once() {
    let root = crate::cmd::root();
    for edit in EDITS.iter().filter(|e| !matches!(e.place, Place::End)) {
        let text = fs::read_to_string(root.join(edit.file)).unwrap();
        let count = text.lines().filter(|l| l.trim() == edit.anchor).count();
        assert_eq!(count, 1, "{}: `{}`", edit.file, edit.anchor);
    }
}
