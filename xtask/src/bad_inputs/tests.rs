//! The class file parser, the edits and the message checks of `cargo xtask
//! bad-inputs`, on small texts and byte strings.

use replay::format::CRC32C;

use super::case::parse_class;
use super::edits::{Change, apply, parse_hex, recompute_crcs};
use super::run::message_faults;

const CASE: &str = r#"
[[case]]
name = "a cut log"
files."t.swf" = """
1 0 -1 100 4 -1 -1 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
"""
hex."h.bin" = "41 44 4d"
copy."k.log" = "snapshots/logs/ties.log"
setup = [["host-sim", "run", "--trace", "t.swf", "--log", "t.log"]]
edits = [{ file = "k.log", truncate = -3 }, { file = "k.log", at = 8, hex = "ff" }, { file = "k.log", crc = true }]
run = ["replay", "verify", "k.log"]
status = 1
stderr = ["k.log", "byte"]
changes = ["out.svg"]
"#;

#[test]
fn a_case_is_read_with_every_key() {
    let cases = parse_class("c.toml", CASE).unwrap();
    assert_eq!(cases.len(), 1);
    let case = &cases[0];
    assert_eq!(case.name, "a cut log");
    assert_eq!(case.files[0].0, "t.swf");
    assert_eq!(case.files[1], ("h.bin".to_owned(), b"ADM".to_vec()));
    assert_eq!(case.copies, [("k.log".to_owned(), "snapshots/logs/ties.log".to_owned())]);
    assert_eq!(case.setup[0][0], "host-sim");
    let changes: Vec<&Change> = case.edits.iter().map(|e| &e.change).collect();
    assert_eq!(changes, [&Change::Truncate(-3), &Change::Write { at: 8, bytes: vec![0xff] }, &Change::Crc]);
    assert_eq!((case.run.len(), case.status), (3, 1));
    assert_eq!(case.stderr, ["k.log", "byte"]);
    assert_eq!(case.changes, ["out.svg"]);
}

#[test]
fn an_unknown_key_names_the_file_the_line_and_the_case() {
    let text = "[[case]]\nname = \"one\"\nrun = [\"replay\"]\nstatus = 1\n\n[[case]]\nname = \"two\"\nrun = [\"replay\"]\nstatus = 1\nstderror = [\"x\"]\n";
    let error = parse_class("tests/bad-inputs/c.toml", text).unwrap_err();
    assert!(error.contains("tests/bad-inputs/c.toml:6: case 2 \"two\""), "{error}");
    assert!(error.contains("unknown key `stderror`"), "{error}");
    let error = parse_class("c.toml", "[[case]]\nname = \"e\"\nrun = [\"replay\"]\nstatus = 1\nedits = [{ file = \"k\", at = 1, hex = \"00\", size = 3 }]\n").unwrap_err();
    assert!(error.contains("case 1 \"e\"") && error.contains("unknown key `size`"), "{error}");
}

#[test]
fn wrong_values_are_refused_by_key() {
    let base = "[[case]]\nname = \"n\"\n";
    for (rest, expected) in [
        ("run = [\"ls\"]\nstatus = 1\n", "the program \"ls\""),
        ("run = [\"replay\"]\nstatus = 3\n", "`status` must be 0, 1 or 2"),
        ("run = [\"replay\"]\n", "`status` is missing"),
        ("status = 1\n", "`run` is missing"),
        ("run = [\"replay\"]\nstatus = 1\nfiles.\"../x\" = \"\"\n", "not a name inside the scratch folder"),
        ("run = [\"replay\"]\nstatus = 1\nhex.\"a\" = \"4\"\n", "odd number of digits"),
        ("run = [\"replay\"]\nstatus = 1\nedits = [{ file = \"a\", at = 1 }]\n", "give `at` and `hex`"),
        (
            "run = [\"replay\"]\nstatus = 1\nedits = [{ file = \"a\", truncate = 1, crc = true }]\n",
            "one change",
        ),
    ] {
        let error = parse_class("c.toml", &format!("{base}{rest}")).unwrap_err();
        assert!(error.contains(expected), "{rest}: {error}");
    }
    let twice = format!("{base}run = [\"replay\"]\nstatus = 1\n{base}run = [\"replay\"]\nstatus = 1\n");
    assert!(parse_class("c.toml", &twice).unwrap_err().contains("taken by an earlier case"));
    assert!(parse_class("c.toml", "").unwrap().is_empty());
}

#[test]
fn edits_count_from_the_end_when_negative_and_stay_inside_the_file() {
    let mut bytes = b"0123456789".to_vec();
    apply(&mut bytes, &Change::Write { at: -2, bytes: b"ab".to_vec() }).unwrap();
    assert_eq!(bytes, b"01234567ab");
    apply(&mut bytes, &Change::Truncate(-3)).unwrap();
    assert_eq!(bytes, b"0123456");
    apply(&mut bytes, &Change::Truncate(4)).unwrap();
    apply(&mut bytes, &Change::Append(vec![b'x'])).unwrap();
    assert_eq!(bytes, b"0123x");
    assert!(apply(&mut bytes, &Change::Write { at: 4, bytes: b"yz".to_vec() }).is_err());
    assert!(apply(&mut bytes, &Change::Truncate(9)).is_err());
    assert!(apply(&mut bytes, &Change::Truncate(-9)).is_err());
    assert_eq!(parse_hex("41 44\n4d").unwrap(), b"ADM");
    assert!(parse_hex("zz").is_err());
}

#[test]
fn the_checksums_of_a_committed_log_are_what_they_were_and_an_edit_is_checksummed_again() {
    let log = std::fs::read(crate::cmd::root().join("snapshots/logs/ties.log")).unwrap();
    let mut same = log.clone();
    recompute_crcs(&mut same).unwrap();
    assert_eq!(same, log);
    // The header's first payload byte changed: its frame's checksum follows it.
    let mut edited = log.clone();
    edited[15] ^= 1;
    recompute_crcs(&mut edited).unwrap();
    let length = u32::from_le_bytes(edited[11..15].try_into().unwrap()) as usize;
    let crc = u32::from_le_bytes(edited[15 + length..19 + length].try_into().unwrap());
    assert_eq!(crc, CRC32C.checksum(&edited[10..15 + length]));
    assert_ne!(edited[15 + length..19 + length], log[15 + length..19 + length]);
    assert!(recompute_crcs(&mut b"not a log".to_vec()).is_err());
}

#[test]
fn messages_with_debug_text_control_characters_or_long_lines_are_faults() {
    assert!(message_faults("error: k.log: byte 120: the log ends early\n").is_empty());
    assert!(message_faults("None of the jobs ran\n").len() == 1);
    assert!(message_faults("Nonesuch: fine\n").is_empty());
    for bad in ["got Some(3)", "Accept { job: 3 }", "Os { code: 2 }", "bell \u{7}", "nul \0"] {
        assert!(!message_faults(bad).is_empty(), "{bad}");
    }
    assert!(message_faults("a { b: c }").is_empty());
    assert_eq!(message_faults(&"x".repeat(1001)).len(), 1);
    assert!(message_faults(&"x".repeat(1000)).is_empty());
}
