//! The committed logs of older format versions (`tests/data/v*.log`): every one still
//! reads and verifies, and a copy of a version 4 or 5 snapshot log holds the header
//! and the records of the version 6 log that the snapshot tests make now, with the
//! same bytes after the header.

use std::fs;
use std::path::{Path, PathBuf};

use replay::format::{FORMAT_VERSION, LogReader};
use replay::verify::verify;

/// Every committed older log, by name.
fn older_logs() -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut paths: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "log"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), fs::read(&p).unwrap()))
        .collect()
}

/// The end of the header frame: the magic, the version, the frame's kind, length,
/// payload and checksum.
fn header_end(bytes: &[u8]) -> usize {
    15 + u32::from_le_bytes(bytes[11..15].try_into().unwrap()) as usize + 4
}

#[test]
fn every_committed_older_log_reads_and_verifies() {
    let logs = older_logs();
    assert!(logs.len() >= 11, "{}", logs.len());
    for (name, bytes) in &logs {
        let version = u16::from_le_bytes([bytes[8], bytes[9]]);
        assert!((2..FORMAT_VERSION).contains(&version), "{name}: version {version}");
        assert!(name.starts_with(&format!("v{version}_")), "{name}: version {version}");
        let reader = LogReader::new(&bytes[..]).unwrap();
        assert_eq!(reader.header().format_version, version, "{name}");
        let report = verify(reader).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(report.records > 0, "{name}");
    }
}

#[test]
fn a_copy_from_before_version_6_holds_the_records_of_its_remake() {
    let snapshots = Path::new(env!("CARGO_MANIFEST_DIR")).join("../snapshots/logs");
    let mut compared = 0;
    for (name, old) in older_logs() {
        // Versions 2 and 3 held the command line and the input's path: their logs
        // are not the snapshot tests' of today.
        let Some(("v4" | "v5", scenario)) = name.split_once('_') else { continue };
        let Ok(new) = fs::read(snapshots.join(scenario)) else { continue };
        let (mut a, mut b) = (LogReader::new(&old[..]).unwrap(), LogReader::new(&new[..]).unwrap());
        assert_eq!(b.header().format_version, FORMAT_VERSION, "{scenario}");
        let mut header = a.header().clone();
        header.format_version = FORMAT_VERSION;
        assert_eq!(&header, b.header(), "{name}: the header read from the old layout");
        loop {
            let (record, again) = (a.next_record().unwrap(), b.next_record().unwrap());
            assert_eq!(record, again, "{name}");
            if record.is_none() {
                break;
            }
        }
        assert_eq!(old[header_end(&old)..], new[header_end(&new)..], "{name}: the blocks and the footer");
        compared += 1;
    }
    // One copy of each model at least: service levels, reservations, tiers, SLA.
    assert!(compared >= 4, "{compared}");
}
