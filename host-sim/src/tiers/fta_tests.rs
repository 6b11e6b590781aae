//! The FTA reader on small generated files: the archive's whitespace, `NULL`s, header
//! and comment lines, fractional times, the alignments and the shift, and every
//! refusal with its file, line and column.

use super::*;
use crate::tiers::testbed::paper_resources;

const NODE: Alignment = Alignment { align: Align::Node, shift_s: 0 };
const FILE: Alignment = Alignment { align: Align::File, shift_s: 0 };

fn parse(text: &str, alignment: Alignment) -> Result<FtaTrace, TiersError> {
    parse_fta("x.tab", text.as_bytes(), &paper_resources(), alignment)
}

fn error(text: &str) -> String {
    parse(text, NODE).unwrap_err().to_string()
}

fn change(t: Tick, resource: u8, back: bool) -> Change {
    Change { t, resource, back }
}

/// As the archive ships it: a comment, the column names, columns padded by runs of
/// tabs (and spaces), `NULL` names and end reasons, fractional times, CRLF endings, a
/// trailing comment; node 40 appears first (desktop 1), node 7 second (desktop 2).
const ARCHIVE: &str = "# generated for a test, not archive data\r\n\
    event_id\t\tcomponent_id\tnode_id\tplatform_id\tnode_name\tevent_type\tevent_start_time\tevent_stop_time\tevent_end_reason\r\n\
    1\t\t\t0\t\t40\t\t1\t\tNULL\t\t1\t\t1102446000.000\t\t1102449600.000\t\tNULL\r\n\
    2\t\t\t0\t\t40\t\t1\t\tNULL\t\t0\t\t1102449600.000\t\t1102450500.900\t\t1\r\n\
    3  0  7  1  host-b  1  1102400000.5  1102403600.25  NULL\r\n\
    4\t0\t7\t1\thost-b\t0\t1102403600.25\t1102405400\r\n\
    # the end\r\n";

#[test]
fn the_archive_layout_is_read() {
    let fta = parse(ARCHIVE, NODE).unwrap();
    // Each node's own first event is its time 0; decimals are cut.
    let expected =
        vec![change(3600, 1, false), change(3600, 2, false), change(4500, 1, true), change(5400, 2, true)];
    assert_eq!(fta.changes, expected);
    assert_eq!((fta.events, fta.nodes, fta.desktops, fta.nodes_left_out), (4, 2, 2, 0));
    assert_eq!(fta.hash, INPUT_CRC.checksum(ARCHIVE.as_bytes()));
}

#[test]
fn the_file_alignment_keeps_the_common_clock() {
    let fta = parse(ARCHIVE, FILE).unwrap();
    // The file's earliest event (node 7's, 1102400000) is time 0 for both nodes.
    let expected = vec![
        change(3600, 2, false),
        change(5400, 2, true),
        change(49_600, 1, false),
        change(50_500, 1, true),
    ];
    assert_eq!(fta.changes, expected);
}

#[test]
fn a_shift_cuts_the_timelines_and_a_spanning_absence_starts_away() {
    // Node 7's absence is 3600..5400 from its first event: shifted by 4000 it spans
    // the new time 0; node 40's, 3600..4500, becomes 0..500 with a shift of 4000 too,
    // and a shift past both leaves nothing.
    let shifted = parse(ARCHIVE, Alignment { align: Align::Node, shift_s: 4000 }).unwrap();
    let expected =
        vec![change(0, 1, false), change(0, 2, false), change(500, 1, true), change(1400, 2, true)];
    assert_eq!(shifted.changes, expected);
    let past = parse(ARCHIVE, Alignment { align: Align::Node, shift_s: 5400 }).unwrap();
    assert_eq!(past.changes, vec![]);
    assert_eq!(past.first_leave(), None);
}

#[test]
fn absences_merge_and_a_null_stop_never_ends() {
    let text = "1 0 5 0 NULL 0 100 200 NULL\n\
                2 0 5 0 NULL 0 150 300 NULL\n\
                3 0 5 0 NULL 0 300 400 NULL\n\
                4 0 5 0 NULL 0 500 NULL NULL\n\
                5 0 5 0 NULL 0 600 700 NULL\n\
                6 0 5 0 NULL 0 900 900 NULL\n";
    let fta = parse(text, NODE).unwrap();
    // 100..200, 150..300 and 300..400 (touching) are one absence; the one from 500
    // has no end and swallows 600..700.
    assert_eq!(fta.changes, vec![change(0, 1, false), change(300, 1, true), change(400, 1, false)]);
    assert_eq!(fta.left_during(1), (1, 1));
    assert_eq!(fta.left_during(3), (1, 2));
}

#[test]
fn nodes_past_the_last_desktop_are_counted_and_left_out() {
    // The paper's testbed has nine desktops: nodes 1 to 9 get them, 10 to 12 do not.
    let text: String =
        (1..=12).map(|n| format!("{n} 0 {n} 0 NULL 0 {} {} NULL\n", 1000 + n, 2000 + n)).collect();
    let fta = parse(&text, FILE).unwrap();
    assert_eq!((fta.nodes, fta.desktops, fta.nodes_left_out), (12, 9, 3));
    assert_eq!(fta.changes.len(), 18);
    assert_eq!(fta.first_leave(), Some(0));
}

#[test]
fn an_empty_or_header_only_file_is_refused() {
    let why = "x.tab: no event line: the file is empty or holds only header and comment lines";
    for text in ["", "\n\n", "# only a comment\n", &format!("{}\n# and a comment\n", COLUMNS.join("\t"))] {
        assert_eq!(error(text), why, "{text:?}");
    }
}

#[test]
fn a_time_past_64_bits_is_refused() {
    let err = error("1 0 5 0 NULL 0 18446744073709551616 18446744073709551617 NULL\n");
    assert_eq!(err, "x.tab:1: event_start_time: `18446744073709551616` is past 2^64 - 1 seconds");
    let err = error("# c\n1 0 5 0 NULL 0 1 18446744073709551616.5 NULL\n");
    assert_eq!(err, "x.tab:2: event_stop_time: `18446744073709551616.5` is past 2^64 - 1 seconds");
    // The largest time is read.
    let fta = parse("1 0 5 0 NULL 0 18446744073709551614 18446744073709551615 NULL\n", NODE).unwrap();
    assert_eq!(fta.changes, vec![change(0, 1, false), change(1, 1, true)]);
}

#[test]
fn a_required_null_is_refused() {
    assert_eq!(error("1 0 NULL 0 n 0 1 2 NULL\n"), "x.tab:1: node_id: is NULL, and every event needs it");
    assert_eq!(error("1 0 5 0 n NULL 1 2 NULL\n"), "x.tab:1: event_type: is NULL, and every event needs it");
    assert_eq!(
        error("1 0 5 0 n 0 NULL 2 NULL\n"),
        "x.tab:1: event_start_time: is NULL, and every event needs it"
    );
}

#[test]
fn bad_fields_name_the_line_and_the_column() {
    let header = COLUMNS.join("\t");
    assert_eq!(
        error(&format!("{header}\n1\t1\t7\t1\tn\t0\t100\t50\t0\n")),
        "x.tab:2: event_stop_time: 50 is before the start 100"
    );
    assert_eq!(error("1\t1\t7\t1\tn\t2\t1\t5\t0\n"), "x.tab:1: event_type: `2` is not 0 or 1");
    let not_a_time =
        "x.tab:1: event_start_time: `1e9` is not a time (seconds since 1970: digits, optional decimals)";
    assert_eq!(error("1 0 5 0 n 0 1e9 2e9\n"), not_a_time);
    assert_eq!(
        error("1 0 5 0 n 0 -5 2\n"),
        "x.tab:1: event_start_time: `-5` is negative: times are seconds since 1970"
    );
    assert_eq!(
        error("1 0 5 0 n 0 1\n"),
        "x.tab:1: event_stop_time: missing: the line has 7 columns, and the first 8 are needed"
    );
    assert_eq!(
        error("1 0 5 0 desk top 0 1 2 NULL\n"),
        "x.tab:1: columns: the line has 10 columns, 9 at most (does a node_name hold a space?)"
    );
    // A second line of names is not a header any more.
    assert_eq!(
        error(&format!("{header}\n{header}\n")),
        "x.tab:2: node_id: `node_id` is not a node id (a whole number from 0 to 2^64 - 1)"
    );
}

#[test]
fn node_ids_are_whole_numbers() {
    for bad in ["abc", "-1", "1.5", "+3", "12345678901234567890123"] {
        let expected =
            format!("x.tab:1: node_id: `{bad}` is not a node id (a whole number from 0 to 2^64 - 1)");
        assert_eq!(error(&format!("1 0 {bad} 0 n 0 1 2 NULL\n")), expected);
    }
    let fta = parse("1 0 18446744073709551615 0 n 0 1 2 NULL\n", NODE).unwrap();
    assert_eq!(fta.nodes, 1);
}

#[test]
fn a_nul_byte_stops_the_reading_where_it_is() {
    // A sparse file: the first byte is refused, not a gigabyte-long line read whole.
    let text = vec![0; 3 << 20];
    let err = parse_fta("x.tab", text.as_slice(), &paper_resources(), NODE).unwrap_err().to_string();
    assert!(err.starts_with("x.tab:1: the line: a NUL byte at byte offset 0:"), "{err}");
    let err = error("# c\n1 0 5 0 n\0 0 1 2 NULL\n");
    assert!(err.starts_with("x.tab:2: the line: a NUL byte at byte offset 13:"), "{err}");
}

#[test]
fn bytes_that_are_not_utf8_are_only_names() {
    let mut text = b"1 0 5 0 h\xe9te 0 10 20 NULL\n".to_vec();
    text.extend_from_slice(b"2 0 5 0 h\xe9te 1 20 30 NULL\n");
    let fta = parse_fta("x.tab", text.as_slice(), &paper_resources(), NODE).unwrap();
    assert_eq!(fta.changes, vec![change(0, 1, false), change(10, 1, true)]);
}

#[test]
fn a_line_of_names_must_name_the_columns_in_their_order() {
    let swapped = "node_id component_id event_id platform_id node_name event_type event_start_time\n";
    let err = error(&format!("{swapped}1 0 5 0 n 0 1 2 NULL\n"));
    assert!(
        err.starts_with(
            "x.tab:1: column names: column 1 is named `node_id`, where the reader takes `event_id`"
        ),
        "{err}"
    );
    let long = format!("{} extra\n1 0 5 0 n 0 1 2 NULL\n", COLUMNS.join(" "));
    assert!(
        error(&long).starts_with(
            "x.tab:1: column names: column 10 is named `extra`, where the reader takes no column"
        )
    );
    // The first eight names alone are fine, as a file without end reasons has them.
    assert!(parse(&format!("{}\n1 0 5 0 n 0 1 2\n", COLUMNS[..8].join("\t")), NODE).is_ok());
}

#[test]
fn lines_that_end_in_a_carriage_return_alone_are_named() {
    let err = error("1 0 5 0 n 0 1 2 NULL\r2 0 5 0 n 0 3 4 NULL\r");
    assert!(err.starts_with("x.tab:1: the line: a carriage return at byte 21 with more after it"), "{err}");
}
