//! The fence and `sh` line checks of `cargo xtask docs`, on small Markdown texts.

use super::{check_fences, joined, sh_line};

#[test]
fn a_fence_without_a_language_is_named_by_file_and_line() {
    let text = "# t\n\n```\nplain\n```\n";
    let error = check_fences("docs/t.md", text).unwrap_err();
    assert!(error.contains("docs/t.md:3"), "{error}");
    assert!(error.contains("without a language"), "{error}");
}

#[test]
fn a_console_block_is_what_makes_a_file_run() {
    assert!(check_fences("a.md", "```console\n$ host-sim\n```\n").unwrap());
    assert!(!check_fences("a.md", "```text\n$ host-sim\n```\n```toml\nx = 1\n```\n").unwrap());
}

#[test]
fn an_indented_console_block_is_refused_because_trycmd_would_skip_it() {
    let error = check_fences("a.md", "- item\n  ```console\n  $ host-sim\n  ```\n").unwrap_err();
    assert!(error.contains("a.md:2") && error.contains("indented"), "{error}");
}

#[test]
fn sh_blocks_hold_setup_and_xtask_lines_that_parse() {
    sh_line("cargo run --release -p host-sim").unwrap();
    sh_line("cargo xtask verify").unwrap();
    sh_line("cargo xtask crosscheck --policy best-fit,round-robin --level-sets sf2,levels").unwrap();
    sh_line("apt-get install qemu-system-arm").unwrap();
    let shell = sh_line("mkdir -p out").unwrap_err();
    assert!(shell.contains("console block"), "{shell}");
    let unknown = sh_line("cargo xtask verfy").unwrap_err();
    assert!(unknown.contains("not an xtask command line"), "{unknown}");
    let option = sh_line("cargo xtask fuzz --second 60").unwrap_err();
    assert!(option.contains("not an xtask command line"), "{option}");
}

#[test]
fn a_sh_line_error_names_the_line_of_its_command() {
    let text = "x\n```sh\n# a comment\ncargo xtask verify\nls \\\n  out\n```\n";
    let error = check_fences("r.md", text).unwrap_err();
    assert!(error.starts_with("docs r.md:5:") && error.contains("`ls out`"), "{error}");
}

#[test]
fn continuation_lines_join_and_comments_are_left_out() {
    let body = [
        (1, "# c"),
        (2, "cargo xtask bench \\"),
        (3, "    --json   # the last line"),
        (4, ""),
        (5, "cargo bench"),
    ];
    let commands = joined(&body);
    assert_eq!(commands, vec![(2, "cargo xtask bench --json".to_owned()), (5, "cargo bench".to_owned())]);
}

#[test]
fn shown_output_ending_on_text_needs_an_empty_line_after_it() {
    let error = check_fences("a.md", "```console\n$ host-sim\nhost-sim run\n```\n").unwrap_err();
    assert!(error.contains("a.md:3") && error.contains("empty line"), "{error}");
    check_fences("a.md", "```console\n$ host-sim\nhost-sim run\n\n```\n").unwrap();
    check_fences("a.md", "```console\n$ host-sim\nhost-sim run\n...\n```\n").unwrap();
    check_fences("a.md", "```console\n$ mkdir -p out\n```\n").unwrap();
}
