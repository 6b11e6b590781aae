//! The log file format: round trips, and damaged logs that are read up to the last
//! intact block and then reported, never with a panic.

use kernel::log::{Body, Record};
use kernel::{Decision, Event, Level, Policy};
use replay::format::{FormatError, Header, LogReader, LogWriter};

fn header() -> Header {
    let mut header = Header::new(2, 64, Policy::FirstFit, vec![Level::whole(1, 20), Level::whole(2, 19)]);
    header.seed = 7;
    header.input_name = "unit".into();
    header.command = "run --machines 2".into();
    header
}

/// A log of `jobs` submits, each with an accept and a start: three records a job.
fn sample_log(jobs: u32) -> (Vec<u8>, Vec<Body>) {
    let mut bodies = Vec::new();
    for job in 0..jobs {
        let t = u64::from(job) * 3;
        let level = u8::from(job % 2 == 1);
        bodies.push(Body::Event(Event::Submit { t, job, p: 2, level }));
        bodies.push(Body::Decision(Decision::Accept { job, machine: 1, deadline: t + 4, preempted: None }));
        bodies.push(Body::Decision(Decision::Start { t, job, machine: 1 }));
    }
    let mut writer = LogWriter::new(Vec::new(), &header()).unwrap();
    for body in &bodies {
        writer.record(*body).unwrap();
    }
    (writer.finish().unwrap(), bodies)
}

/// Reads every record; returns them and the error that stopped the reading, if any.
fn read_all(bytes: &[u8]) -> (Vec<Record>, Option<FormatError>) {
    let mut reader = match LogReader::new(bytes) {
        Ok(reader) => reader,
        Err(e) => return (Vec::new(), Some(e)),
    };
    let mut records = Vec::new();
    loop {
        match reader.next_record() {
            Ok(Some(record)) => records.push(record),
            Ok(None) => return (records, None),
            Err(e) => return (records, Some(e)),
        }
    }
}

fn bodies_of(records: &[Record]) -> Vec<Body> {
    records.iter().map(|r| r.body).collect()
}

#[test]
fn round_trip_keeps_header_and_records() {
    let (bytes, bodies) = sample_log(2000);
    let reader = LogReader::new(&bytes[..]).unwrap();
    assert_eq!(reader.header(), &header());
    let (records, error) = read_all(&bytes);
    assert!(error.is_none(), "{error:?}");
    assert_eq!(bodies_of(&records), bodies);
    assert!(records.iter().zip(0u64..).all(|(r, i)| r.seq == i));
}

#[test]
fn the_same_records_give_the_same_bytes() {
    assert_eq!(sample_log(500).0, sample_log(500).0);
}

#[test]
fn a_cut_log_is_read_up_to_its_last_intact_block() {
    let (bytes, bodies) = sample_log(3000);
    for cut in (0..bytes.len()).step_by(97).chain([bytes.len() - 1]) {
        let (records, error) = read_all(&bytes[..cut]);
        let error =
            error.unwrap_or_else(|| panic!("a log cut at {cut} of {} bytes was accepted", bytes.len()));
        assert!(
            matches!(error, FormatError::Truncated { .. } | FormatError::BadMagic),
            "cut at {cut}: {error}"
        );
        assert_eq!(bodies_of(&records), bodies[..records.len()]);
    }
}

#[test]
fn a_cut_log_names_the_offset_and_the_records_kept() {
    let (bytes, _) = sample_log(3000);
    let cut = bytes.len() - 10;
    let (records, error) = read_all(&bytes[..cut]);
    let message = error.unwrap().to_string();
    let expected =
        format!("the log ends early at byte {cut}, after {} intact records (no footer)", records.len());
    assert_eq!(message, expected);
    assert!(records.len() > 8000, "{} records kept", records.len());
}

#[test]
fn every_flipped_byte_is_detected() {
    let (bytes, bodies) = sample_log(300);
    for at in 0..bytes.len() {
        let mut damaged = bytes.clone();
        damaged[at] ^= 0x20;
        let (records, error) = read_all(&damaged);
        assert!(error.is_some(), "a flipped byte at {at} went unnoticed");
        assert_eq!(bodies_of(&records), bodies[..records.len()], "flip at {at}");
    }
}

#[test]
fn another_version_is_refused_by_name() {
    let (mut bytes, _) = sample_log(1);
    bytes[8] = 9;
    let (_, error) = read_all(&bytes);
    assert_eq!(
        error.unwrap().to_string(),
        "log format version 9 is not supported (this build reads version 1)"
    );
}

#[test]
fn trailing_bytes_are_reported() {
    let (mut bytes, _) = sample_log(1);
    bytes.extend_from_slice(b"xyz");
    let (records, error) = read_all(&bytes);
    assert_eq!(records.len(), 3);
    assert!(matches!(error, Some(FormatError::TrailingBytes { bytes: 3, .. })), "{error:?}");
}
