//! SWF reading: order, exclusions, rounding, errors that name file, line and field,
//! gzip and plain input alike.

use std::io::Write;

use flate2::Compression;
use flate2::write::GzEncoder;

use super::*;
use crate::workload::{Excluded, INPUT_CRC, InputDigest, Job};

/// An SWF line with the given job number, submit time and run time; every other
/// field `-1`.
fn line(id: &str, submit: &str, run: &str) -> String {
    let mut fields = vec!["-1"; FIELDS];
    fields[0] = id;
    fields[1] = submit;
    fields[3] = run;
    fields.join(" ")
}

fn parse_text(text: &str, skip_bad_lines: bool) -> Result<Trace, SwfError> {
    parse("trace.swf", text.as_bytes(), SwfOptions { skip_bad_lines, allow_extra_fields: false })
}

/// Parses `text` and compares the jobs, as (id, release, p), and the exclusions.
fn check(text: &str, jobs: &[(u32, u64, u64)], excluded: Excluded) {
    let trace = parse_text(text, true).unwrap_or_else(|e| panic!("{e}"));
    let got: Vec<(u32, u64, u64)> = trace.workload.jobs.iter().map(|j| (j.id, j.release, j.p)).collect();
    assert_eq!(got, jobs);
    assert_eq!(trace.workload.excluded, excluded);
}

fn error(text: &str) -> String {
    match parse_text(text, false) {
        Ok(_) => panic!("expected an error for {text:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn jobs_are_ordered_by_submit_then_line() {
    let text = [
        "; MaxProcs: 128",
        &line("7", "500", "10"),
        &line("3", "100", "20"),
        &line("9", "500", "30"),
        &line("1", "100", "40"),
        &line("2", "300", "50"),
    ]
    .join("\n");
    check(&text, &[(3, 0, 20), (1, 0, 40), (2, 200, 50), (7, 400, 10), (9, 400, 30)], Excluded::default());
    let trace = parse_text(&text, false).unwrap();
    assert_eq!(trace.max_procs, Some(128));
    assert_eq!(trace.max_nodes, None);
}

#[test]
fn excluded_jobs_are_counted_by_reason() {
    let text = [
        line("1", "50", "-1"),  // unknown run time
        line("2", "60", "0"),   // zero
        line("3", "70", "0.4"), // rounds to zero
        line("4", "-5", "10"),  // negative submit
        line("5", "-1", "0"),   // both: counted once, as a run time
        line("6", "-0.4", "8"), // rounds to 0, kept
        line("7", "80", "0.5"), // rounds to 1, kept
        "not a job line at all".to_owned(),
    ]
    .join("\n");
    let excluded = Excluded { run_time_nonpositive: 4, negative_submit: 1, bad_lines: 1 };
    // The first usable job (6, submit 0) is the origin.
    check(&text, &[(6, 0, 8), (7, 80, 1)], excluded);
    assert_eq!(excluded.total(), 6);
}

#[test]
fn fractions_round_half_away_from_zero() {
    assert_eq!(round_half_away("2.5"), Ok(3));
    assert_eq!(round_half_away("-2.5"), Ok(-3));
    assert_eq!(round_half_away("2.49"), Ok(2));
    assert_eq!(round_half_away("2.4999"), Ok(2));
    assert_eq!(round_half_away("0.5"), Ok(1));
    assert_eq!(round_half_away("-0.5"), Ok(-1));
    assert_eq!(round_half_away(".7"), Ok(1));
    assert_eq!(round_half_away("+12"), Ok(12));
    assert_eq!(round_half_away("31.69"), Ok(32));
    assert_eq!(round_half_away("9223372036854775807"), Ok(i64::MAX));
    assert_eq!(round_half_away("9223372036854775807.5"), Err(NumberError::OutOfRange));
    assert_eq!(round_half_away("1e5"), Err(NumberError::NotANumber));
    assert_eq!(round_half_away("."), Err(NumberError::NotANumber));
    assert_eq!(round_half_away("-"), Err(NumberError::NotANumber));
    check(
        &[line("1", "10.5", "99.5"), line("2", "12.4", "1.49")].join("\n"),
        &[(1, 0, 100), (2, 1, 1)],
        Excluded::default(),
    );
}

#[test]
fn errors_name_file_line_and_field() {
    let good = line("1", "0", "10");
    let cases = [
        (line("2", "5", "abc"), "trace.swf:3: field 4 (run time): `abc` is not a number"),
        (line("2", "x5", "1"), "trace.swf:3: field 2 (submit time): `x5` is not a number"),
        (
            line("2.5", "5", "1"),
            "trace.swf:3: field 1 (job number): `2.5` is not a job number (a whole number from 0 to 4294967295)",
        ),
        (
            line("-2", "5", "1"),
            "trace.swf:3: field 1 (job number): `-2` is not a job number (a whole number from 0 to 4294967295)",
        ),
        (line("1", "5", "1"), "trace.swf:3: field 1 (job number): job 1 is already on line 2"),
        (
            line("2", "99999999999999999999", "1"),
            "trace.swf:3: field 2 (submit time): `99999999999999999999` is out of range",
        ),
        (
            "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17".to_owned(),
            "trace.swf:3: 17 fields, an SWF job line has exactly 18",
        ),
        (
            format!("{good} 19"),
            "trace.swf:3: 19 fields, an SWF job line has exactly 18; for a variant with more fields after the \
             standard 18 (such as Alea's 21-field traces), --allow-extra-fields reads the 18 and ignores the rest",
        ),
        (
            "2 5 -1 1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 n/a".to_owned(),
            "trace.swf:3: field 18 (think time): `n/a` is not a number",
        ),
    ];
    for (bad, expected) in cases {
        assert_eq!(error(&format!("; header\n{good}\n{bad}\n")), expected);
    }
    let not_utf8 = [b"; header\n".as_slice(), &[0xff, 0xfe, b'\n']].concat();
    let err = parse("t.swf", &not_utf8, SwfOptions::default()).unwrap_err();
    assert_eq!(err.to_string(), "t.swf:2: the line is not valid UTF-8: byte 1 of the line is ff");
    let utf16 = parse("t.swf", b"\xff\xfe1\x00 \x00", SwfOptions::default()).unwrap_err().to_string();
    assert!(
        utf16.ends_with("is ff (the file starts with a UTF-16 byte-order mark: an SWF trace is ASCII text)")
    );
}

#[test]
fn bad_lines_can_be_skipped_and_counted() {
    let text = [
        line("1", "0", "10"),
        line("2", "5", "abc"),
        "1 2 3".to_owned(),
        line("1", "9", "4"),
        line("3", "7", "5"),
    ]
    .join("\n");
    check(&text, &[(1, 0, 10), (3, 7, 5)], Excluded { bad_lines: 3, ..Excluded::default() });
}

#[test]
fn blank_lines_trailing_blanks_and_crlf_are_fine() {
    let text = format!("; c\r\n\r\n   \n{}   \t\r\n{}\r\n\n", line("1", "10", "3"), line("2", "11", "4"));
    check(&text, &[(1, 0, 3), (2, 1, 4)], Excluded::default());
}

#[test]
fn gzip_and_plain_read_the_same() {
    let text = [line("4", "100", "7"), line("5", "90", "8")].join("\n") + "\n";
    let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
    encoder.write_all(text.as_bytes()).unwrap();
    let gz = encoder.finish().unwrap();
    assert_eq!(&gz[..2], &[0x1f, 0x8b]);
    let dir = std::env::temp_dir().join(format!("host-sim-swf-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (plain_path, gz_path) = (dir.join("t.swf"), dir.join("t.swf.gz"));
    std::fs::write(&plain_path, &text).unwrap();
    std::fs::write(&gz_path, &gz).unwrap();
    let plain = read(&plain_path, SwfOptions::default()).unwrap();
    let zipped = read(&gz_path, SwfOptions::default()).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(plain.workload.jobs, zipped.workload.jobs);
    assert_eq!(plain.workload.hash, zipped.workload.hash);
    assert_eq!(plain.workload.hash, INPUT_CRC.checksum(text.as_bytes()));
    assert_eq!(
        zipped.workload.jobs,
        vec![Job { id: 5, release: 0, p: 8, procs: 0 }, Job { id: 4, release: 10, p: 7, procs: 0 }]
    );
    assert_eq!(zipped.workload.name, gz_path.display().to_string());
}

#[test]
fn a_missing_file_is_named() {
    let err = read(Path::new("no/such/trace.swf"), SwfOptions::default()).unwrap_err();
    assert!(err.to_string().starts_with("no/such/trace.swf: cannot read the trace: "), "{err}");
}

#[test]
fn input_hash_is_crc64_xz() {
    // The CRC-64/XZ check value of "123456789".
    assert_eq!(INPUT_CRC.checksum(b"123456789"), 0x995d_c9bb_df19_39fa);
}

#[test]
fn the_input_digest_is_input_crc() {
    // Lengths and splits on both sides of the carry-less path's 128-byte blocks.
    let text: Vec<u8> = (0..5000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8).collect();
    for (len, cut) in [(0, 0), (9, 4), (127, 64), (128, 1), (129, 100), (1000, 333), (5000, 2500)] {
        let mut digest = InputDigest::new();
        digest.update(&text[..cut]);
        digest.update(&text[cut..len]);
        assert_eq!(digest.finalize(), INPUT_CRC.checksum(&text[..len]), "{len} {cut}");
    }
}

#[test]
fn unicode_blanks_and_vertical_tabs_separate_fields_as_before() {
    // `str::split_whitespace` splits on these; the byte-level fast path must agree.
    let ideographic = line("1", "10", "3").replace(' ', "\u{3000}");
    let vertical_tab = line("2", "11", "4").replacen(' ', "\u{0B}", 3);
    check(&[ideographic, vertical_tab].join("\n"), &[(1, 0, 3), (2, 1, 4)], Excluded::default());
    let nbsp_comment = format!("\u{A0};{}\n{}", "MaxProcs: 4", line("1", "0", "1"));
    assert_eq!(parse_text(&nbsp_comment, false).unwrap().max_procs, Some(4));
    // U+001F is not whitespace in Rust: one field short.
    let unit_separator = line("3", "12", "5").replacen(' ', "\u{1F}", 1);
    assert_eq!(error(&unit_separator), "trace.swf:1: 17 fields, an SWF job line has exactly 18");
}

#[test]
fn gzip_members_are_all_read_and_hashed() {
    let parts = [line("4", "100", "7") + "\n", line("5", "90", "8") + "\n"];
    let mut gz = Vec::new();
    for part in &parts {
        let mut encoder = GzEncoder::new(Vec::new(), Compression::fast());
        encoder.write_all(part.as_bytes()).unwrap();
        gz.extend(encoder.finish().unwrap());
    }
    let dir = std::env::temp_dir().join(format!("host-sim-swf-members-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("t.swf.gz");
    std::fs::write(&path, &gz).unwrap();
    let trace = read(&path, SwfOptions::default());
    std::fs::remove_dir_all(&dir).unwrap();
    let trace = trace.unwrap();
    assert_eq!(trace.workload.jobs.len(), 2);
    assert_eq!(trace.workload.hash, INPUT_CRC.checksum(parts.concat().as_bytes()));
}

#[test]
fn a_damaged_gzip_stream_is_named() {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
    encoder.write_all(line("1", "0", "5").repeat(100).as_bytes()).unwrap();
    let mut gz = encoder.finish().unwrap();
    let middle = gz.len() / 2;
    gz[middle] ^= 0xff;
    let dir = std::env::temp_dir().join(format!("host-sim-swf-damaged-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.swf.gz");
    std::fs::write(&path, &gz).unwrap();
    let err = read(&path, SwfOptions::default()).unwrap_err().to_string();
    std::fs::remove_dir_all(&dir).unwrap();
    let expected = format!("{}: cannot decompress the gzip stream: ", path.display());
    assert!(err.starts_with(&expected), "{err}");
}

#[test]
fn lines_cut_by_the_end_of_a_buffer_are_read_whole() {
    let text = [
        "; MaxProcs: 64".to_owned(),
        line("1", "10", "3"),
        String::new(),
        line("2", "11", "4"),
        line("3", "9", "5"), // the last line has no line feed
    ]
    .join("\n");
    let whole = parse_text(&text, false).unwrap();
    for capacity in [1, 2, 7, 64] {
        let input = std::io::BufReader::with_capacity(capacity, text.as_bytes());
        let cut = parse_lines("trace.swf", input, SwfOptions::default(), Source::Plain).unwrap();
        assert_eq!(cut.workload.jobs, whole.workload.jobs, "capacity {capacity}");
        assert_eq!(cut.workload.hash, INPUT_CRC.checksum(text.as_bytes()));
        assert_eq!(cut.max_procs, Some(64));
        let bad = format!("{text}\n{}", line("4", "x", "1"));
        let input = std::io::BufReader::with_capacity(capacity, bad.as_bytes());
        let err = parse_lines("trace.swf", input, SwfOptions::default(), Source::Plain).unwrap_err();
        assert_eq!(err.to_string(), "trace.swf:6: field 2 (submit time): `x` is not a number");
    }
    assert_eq!(whole.workload.jobs.iter().map(|j| j.id).collect::<Vec<_>>(), [3, 1, 2]);
}

#[test]
fn a_comment_is_a_comment_whatever_its_bytes() {
    // `; Jos\xe9` is Latin-1, common in old SWF headers: not UTF-8, still a comment,
    // with or without --skip-bad-lines, and the header line after it is still read.
    let text =
        [b"; Computer: Jos\xe9's machine\n".as_slice(), b"; MaxProcs: 64\n", line("1", "0", "5").as_bytes()]
            .join(&b"\n"[..]);
    for skip_bad_lines in [false, true] {
        let options = SwfOptions { skip_bad_lines, allow_extra_fields: false };
        let trace = parse("trace.swf", &text, options).unwrap();
        assert_eq!(trace.workload.jobs.len(), 1);
        assert_eq!(trace.workload.excluded, Excluded::default());
        assert_eq!(trace.max_procs, Some(64));
    }
}

#[test]
fn a_byte_order_mark_before_the_first_line_is_skipped() {
    let text = format!("\u{FEFF}{}\n{}", line("1", "0", "5"), line("2", "3", "4"));
    check(&text, &[(1, 0, 5), (2, 3, 4)], Excluded::default());
    let commented = format!("\u{FEFF}; MaxProcs: 8\n{}", line("1", "0", "5"));
    assert_eq!(parse_text(&commented, false).unwrap().max_procs, Some(8));
    // Only at the very start: a mark on a later line is not a blank, and the error
    // shows it by its code (it is invisible).
    let later = format!("{}\n\u{FEFF}{}", line("1", "0", "5"), line("2", "3", "4"));
    assert_eq!(error(&later), "trace.swf:2: field 1 (job number): `\\u{feff}2` is not a number");
}

#[test]
fn extra_fields_are_read_only_when_asked_for() {
    // Alea's variant: the 18 standard fields, then 3 more.
    let text = format!("{} 7 8 9\n{} 1 2 3", line("1", "0", "5"), line("2", "4", "6"));
    let err = error(&text);
    assert!(err.starts_with("trace.swf:1: 21 fields"), "{err}");
    assert!(err.contains("--allow-extra-fields"), "{err}");
    let options = SwfOptions { skip_bad_lines: false, allow_extra_fields: true };
    let trace = parse("trace.swf", text.as_bytes(), options).unwrap();
    let got: Vec<(u32, u64, u64)> = trace.workload.jobs.iter().map(|j| (j.id, j.release, j.p)).collect();
    assert_eq!(got, [(1, 0, 5), (2, 4, 6)]);
    // The standard fields are still checked, and a short line is still refused.
    let bad = format!("{} x", line("1", "0", "abc"));
    let err = parse("trace.swf", bad.as_bytes(), options).unwrap_err().to_string();
    assert_eq!(err, "trace.swf:1: field 4 (run time): `abc` is not a number");
    let short = "1 0 -1 5";
    let err = parse("trace.swf", short.as_bytes(), options).unwrap_err().to_string();
    assert_eq!(err, "trace.swf:1: 4 fields, an SWF job line has exactly 18");
}

#[test]
fn processors_are_allocated_else_requested() {
    let mut fields: Vec<String> = line("1", "0", "5").split(' ').map(str::to_owned).collect();
    fields[4] = "8".into();
    let allocated = fields.join(" ");
    fields[4] = "-1".into();
    fields[7] = "16".into();
    let requested = fields.join(" ").replacen('1', "2", 1);
    let neither = line("3", "0", "5");
    let trace = parse_text(&[allocated, requested, neither].join("\n"), false).unwrap();
    let procs: Vec<(u32, u32)> = trace.workload.jobs.iter().map(|j| (j.id, j.procs)).collect();
    assert_eq!(procs, [(1, 8), (2, 16), (3, 0)]);
}

/// A job line with `allocated` and `requested` processors.
fn sized(id: &str, allocated: &str, requested: &str) -> String {
    let mut fields: Vec<String> = line(id, "0", "5").split(' ').map(str::to_owned).collect();
    (fields[4], fields[7]) = (allocated.into(), requested.into());
    fields.join(" ")
}

#[test]
fn a_processor_count_out_of_range_is_an_error_not_the_other_field() {
    let range = "(a whole number from 0 to 4294967295, or -1 for unknown)";
    for (allocated, requested, field, shown) in [
        ("4294967296", "4", "5 (allocated processors)", "4294967296"),
        ("12345678901234567890", "4", "5 (allocated processors)", "12345678901234567890"),
        ("-5", "4", "5 (allocated processors)", "-5"),
        ("4", "99999999999999999999999", "8 (requested processors)", "99999999999999999999999"),
        ("-1", "-2", "8 (requested processors)", "-2"),
    ] {
        let expected = format!("trace.swf:1: field {field}: `{shown}` is not a processor count {range}");
        assert_eq!(error(&sized("1", allocated, requested)), expected);
    }
    let trace = parse_text(&sized("1", "4294967295", "-1"), false).unwrap();
    assert_eq!(trace.workload.jobs[0].procs, u32::MAX);
}

#[test]
fn machine_sizes_conflict_with_each_other_and_with_wider_jobs() {
    let job = sized("1", "8", "-1");
    assert_eq!(
        error(&format!("; MaxProcs: 4\n; MaxProcs: 8\n{job}")),
        "trace.swf:2: header field MaxProcs: 8, but line 1 gives MaxProcs 4"
    );
    assert_eq!(
        error(&format!("; MaxNodes: 4\n{job}\n; MaxNodes: 2")),
        "trace.swf:3: header field MaxNodes: 2, but line 1 gives MaxNodes 4"
    );
    let wider = "the job uses 8 processors, more than the machine's MaxProcs 4";
    let expected = format!("trace.swf:2: field 5 (allocated processors): {wider} (line 1); ");
    assert!(error(&format!("; MaxProcs: 4\n{job}")).starts_with(&expected));
    let expected = format!("trace.swf:1: field 8 (requested processors): {wider} (line 2); ");
    assert!(error(&format!("{}\n; MaxProcs: 4", sized("1", "0", "8"))).starts_with(&expected));
    // The same value twice, `-1` and a job of the machine's width are fine; so is a
    // wide job left out (its run time is not positive).
    let fine = format!("; MaxProcs: 8\n; MaxProcs: -1\n; MaxProcs: 8\n{job}\n{}", line("2", "0", "-1"));
    assert_eq!(parse_text(&fine, false).unwrap().max_procs, Some(8));
}

#[test]
fn nul_bytes_in_a_long_line_stop_the_reading() {
    let err = error(&"\0".repeat(3 << 20));
    assert_eq!(
        err,
        "trace.swf:1: a NUL byte at byte offset 0 of a line over 1048576 bytes: the file is not an SWF text \
         trace (a binary or sparse file?)"
    );
    assert_eq!(error(&line("1", "0", "5\0")), "trace.swf:1: field 4 (run time): `5\\0` is not a number");
}

#[test]
fn bytes_after_the_last_gzip_member_are_named_with_their_offset() {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
    encoder.write_all(line("1", "0", "5").as_bytes()).unwrap();
    let gz = encoder.finish().unwrap();
    let garbage = [gz.as_slice(), b"garbage"].concat();
    let err = decompress("t.gz", garbage).unwrap_err().to_string();
    let expected = format!(
        "t.gz: cannot decompress the gzip stream: trailing bytes after the gzip stream at byte offset {}",
        gz.len()
    );
    assert!(err.starts_with(&expected), "{err}");
    let cut = gz[..gz.len() - 4].to_vec();
    let err = decompress("t.gz", cut).unwrap_err().to_string();
    assert!(err.ends_with("the file ends inside it (a truncated file?)"), "{err}");
    assert_eq!(
        decompress("t.gz", [gz.clone(), gz].concat()).unwrap(),
        line("1", "0", "5").repeat(2).into_bytes()
    );
}

#[test]
fn lines_that_end_in_a_carriage_return_alone_are_named() {
    let text = format!("; MaxProcs: 4\r{}\r{}\r", line("1", "0", "5"), line("2", "1", "5"));
    let expected = "trace.swf:1: a carriage return inside the line, at byte 14, with more after it";
    assert!(error(&text).starts_with(expected), "{}", error(&text));
    let options = SwfOptions { skip_bad_lines: false, allow_extra_fields: true };
    let jobs = format!("{}\r{}\r", line("1", "0", "5"), line("2", "1", "5"));
    let err = parse("trace.swf", jobs.as_bytes(), options).unwrap_err().to_string();
    assert!(err.contains("a carriage return inside the line"), "{err}");
}
