//! The log file format: round trips, and damaged logs that are read up to the last
//! intact block and then reported, never with a panic.

use kernel::log::{Body, Record};
use kernel::service_level::{Decision, Event, Level, Policy};
use replay::format::{
    CRC32C, CodecError, FormatError, Header, KIND_BLOCK, LogReader, LogWriter, Model, ServiceLevelHeader,
};

fn header() -> Header {
    let levels = vec![Level::whole(1, 20), Level::whole(2, 19)];
    let mut header = Header::new(ServiceLevelHeader::new(2, 64, Policy::FirstFit, levels).into());
    header.seed = 7;
    header = header.with_input("unit", 0x0123_4567_89ab_cdef);
    header.set("alpha", "1");
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

/// Records handed over in batches of any size, across block ends, give the bytes of
/// one `record` call each (the blocks are cut after the same records).
#[test]
fn records_written_in_batches_are_written_one_by_one() {
    let (bytes, bodies) = sample_log(3000);
    assert!(bytes.len() > 3 * replay::format::BLOCK_TARGET_BYTES, "the sample spans several blocks");
    for batch in [1, 2, 7, 100, 4096, bodies.len()] {
        let mut writer = LogWriter::new(Vec::new(), &header()).unwrap();
        for chunk in bodies.chunks(batch) {
            writer.record_all(chunk).unwrap();
        }
        assert_eq!(writer.records(), bodies.len() as u64);
        assert_eq!(writer.finish().unwrap(), bytes, "batches of {batch}");
    }
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
    for (version, message) in [
        (1, "log format version 1 is not supported (this build reads versions 2 to 6)"),
        (9, "log format version 9 is not supported (this build reads versions 2 to 6)"),
    ] {
        let (mut bytes, _) = sample_log(1);
        bytes[8] = version;
        let (_, error) = read_all(&bytes);
        assert_eq!(error.unwrap().to_string(), message);
    }
}

/// `sample_log(jobs)` as version 2 wrote it: the same records, the version 2 after
/// the magic and in the header, and version 2's header layout (a command line, no
/// host version, no settings, no reservation field).
fn sample_log_v2(jobs: u32) -> (Vec<u8>, Vec<Body>) {
    let (bytes, bodies) = sample_log(jobs);
    let h = header();
    let s = h.service_level().unwrap();
    let v2 = (
        2u16,
        &h.kernel_version,
        s.machines,
        s.queue_capacity,
        s.policy,
        &s.levels,
        h.seed,
        &h.inputs[0].name,
        &h.inputs[0].hash,
        h.window_ticks,
        "run --machines 2",
    );
    (with_header(&bytes, 2, &postcard::to_stdvec(&v2).unwrap()), bodies)
}

/// `sample_log(jobs)` as version 4 wrote it: the same records, and version 4's
/// header layout, with the service level's fields after the provenance and its model
/// variant empty.
fn sample_log_v4(jobs: u32) -> (Vec<u8>, Vec<Body>) {
    let (bytes, bodies) = sample_log(jobs);
    let h = header();
    let s = h.service_level().unwrap();
    let v4 = (
        (4u16, &h.kernel_version, &h.host_version),
        (s.machines, s.queue_capacity, s.policy, &s.levels),
        (h.seed, &h.inputs, h.window_ticks, &h.settings),
        0u8,
    );
    (with_header(&bytes, 4, &postcard::to_stdvec(&v4).unwrap()), bodies)
}

/// The log `bytes` with the version `version` after the magic and its header frame's
/// payload replaced by `payload`.
fn with_header(bytes: &[u8], version: u16, payload: &[u8]) -> Vec<u8> {
    let header_len = u32::from_le_bytes(bytes[11..15].try_into().unwrap()) as usize;
    let mut out = bytes[..8].to_vec();
    out.extend_from_slice(&version.to_le_bytes());
    let start = out.len();
    out.push(bytes[10]);
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(payload);
    let crc = CRC32C.checksum(&out[start..]);
    out.extend_from_slice(&crc.to_le_bytes());
    out.extend_from_slice(&bytes[15 + header_len + 4..]);
    out
}

#[test]
fn a_version_2_log_is_read_with_its_own_header_layout() {
    let (bytes, bodies) = sample_log_v2(400);
    let reader = LogReader::new(&bytes[..]).unwrap();
    let mut expected = header();
    expected.format_version = 2;
    expected.settings.clear();
    assert_eq!(reader.header(), &expected);
    assert!(matches!(reader.header().model, Model::ServiceLevel(_)));
    let (records, error) = read_all(&bytes);
    assert!(error.is_none(), "{error:?}");
    assert_eq!(bodies_of(&records), bodies);
    // A version 2 header under a version 4 magic does not decode as a version 4 one.
    let mut mislabelled = bytes.clone();
    mislabelled[8] = 4;
    let (_, error) = read_all(&mislabelled);
    assert!(matches!(error, Some(FormatError::Corrupt { .. })), "{error:?}");
}

#[test]
fn a_reservation_header_round_trips() {
    use kernel::reservation::{Config, Criterion, Fixing};
    use replay::format::ReservationHeader;
    let mut header = header();
    let config = Config {
        nodes: 8,
        slot_ticks: 10,
        criterion: Criterion::Shuffle,
        fixing: Fixing::Half,
        offer_trials: 4,
    };
    header.model = replay::format::Model::Reservation(ReservationHeader {
        config,
        slots: 1 << 16,
        waiting: 2048,
        running: 2048,
        offers: 8,
    });
    let bytes = LogWriter::new(Vec::new(), &header).unwrap().finish().unwrap();
    assert_eq!(LogReader::new(&bytes[..]).unwrap().header(), &header);
}

/// The magic, the version and the header of `sample_log`, then `frames`, each given
/// as (kind, payload) and framed with a valid checksum.
fn with_frames(frames: &[(u8, Vec<u8>)]) -> Vec<u8> {
    let (bytes, _) = sample_log(0);
    let header_len = u32::from_le_bytes(bytes[11..15].try_into().unwrap()) as usize;
    let mut out = bytes[..10 + 5 + header_len + 4].to_vec();
    for (kind, payload) in frames {
        let start = out.len();
        out.push(*kind);
        out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        out.extend_from_slice(payload);
        let crc = CRC32C.checksum(&out[start..]);
        out.extend_from_slice(&crc.to_le_bytes());
    }
    out
}

#[test]
fn an_intact_block_that_a_writer_could_not_have_written_is_reported() {
    // A Reset record (tag 0x02) in a block that claims to start at record 5.
    let (_, error) = read_all(&with_frames(&[(KIND_BLOCK, vec![5, 1, 0x02])]));
    assert!(matches!(error, Some(FormatError::SequenceGap { expected: 0, found: 5, .. })), "{error:?}");
    // One record counted, two present.
    let (records, error) = read_all(&with_frames(&[(KIND_BLOCK, vec![0, 1, 0x02, 0x02])]));
    assert_eq!(records.len(), 1);
    assert_eq!(
        error.unwrap().to_string(),
        format!(
            "record 1 in the block at byte {} does not decode: 1 bytes follow the block's last record",
            with_frames(&[]).len()
        )
    );
    // More records counted than bytes to hold them.
    let (records, error) = read_all(&with_frames(&[(KIND_BLOCK, vec![0, 3, 0x02, 0x02])]));
    assert!(records.is_empty());
    assert!(matches!(error, Some(FormatError::Decode { source: CodecError::Count(3), .. })), "{error:?}");
    // A tag that is no record (a Reset with flags 17: past the reservation records).
    let (_, error) = read_all(&with_frames(&[(KIND_BLOCK, vec![0, 1, 0x8A])]));
    assert!(matches!(error, Some(FormatError::Decode { source: CodecError::Tag(0x8A), .. })), "{error:?}");
}

#[test]
fn records_take_a_few_bytes_each() {
    let (bytes, bodies) = sample_log(3000);
    // A submit takes 3 bytes, a start 1, an accept 1; but the sample's deadline
    // matches its level's only on level 1, so every other accept spells out its job
    // and deadline (4 bytes).
    let per_record = bytes.len() as f64 / bodies.len() as f64;
    assert!(per_record < 2.3, "{per_record:.2} bytes per record");
}

#[test]
fn trailing_bytes_are_reported() {
    let (mut bytes, _) = sample_log(1);
    bytes.extend_from_slice(b"xyz");
    let (records, error) = read_all(&bytes);
    assert_eq!(records.len(), 3);
    assert!(matches!(error, Some(FormatError::TrailingBytes { bytes: 3, .. })), "{error:?}");
}

#[test]
fn a_second_header_frame_is_named() {
    let (bytes, _) = sample_log(3);
    let header_len = u32::from_le_bytes(bytes[11..15].try_into().unwrap()) as usize;
    let header_frame = &bytes[10..15 + header_len + 4];
    let mut doubled = bytes[..15 + header_len + 4].to_vec();
    doubled.extend_from_slice(header_frame);
    doubled.extend_from_slice(&bytes[15 + header_len + 4..]);
    let (records, error) = read_all(&doubled);
    assert!(records.is_empty());
    let message = error.unwrap().to_string();
    assert_eq!(
        message,
        format!(
            "damaged frame at byte {} (a second header frame; a log has one, first); 0 intact records before it",
            15 + header_len + 4
        )
    );
}

#[test]
fn a_version_4_log_is_read_with_its_own_header_layout() {
    let (bytes, bodies) = sample_log_v4(400);
    let reader = LogReader::new(&bytes[..]).unwrap();
    let mut expected = header();
    expected.format_version = 4;
    assert_eq!(reader.header(), &expected);
    let (records, error) = read_all(&bytes);
    assert!(error.is_none(), "{error:?}");
    assert_eq!(bodies_of(&records), bodies);
    // Written again, it is a version 6 log of the same records.
    let mut writer = LogWriter::new(Vec::new(), reader.header()).unwrap();
    for body in &bodies {
        writer.record(*body).unwrap();
    }
    let again = writer.finish().unwrap();
    assert_eq!(again, sample_log(400).0);
}

#[test]
fn every_policy_is_stamped_version_6() {
    for policy in Policy::ALL {
        let mut h = header();
        h.service_level_mut().unwrap().policy = policy;
        let bytes = LogWriter::new(Vec::new(), &h).unwrap().finish().unwrap();
        assert_eq!(bytes[8], 6, "{policy:?}");
        let reader = LogReader::new(&bytes[..]).unwrap();
        assert_eq!(reader.header().format_version, 6);
        assert_eq!(reader.header(), &h);
        assert_eq!(reader.header().check(), Ok(()));
    }
}

#[test]
fn a_version_4_header_naming_a_newer_policy_is_refused_by_name() {
    let mut h = header();
    h.service_level_mut().unwrap().policy = Policy::BestFit;
    h.format_version = 4;
    let error = h.check().unwrap_err();
    assert_eq!(error.field, "policy");
    assert_eq!(error.problem, "is best-fit, which format version 4 does not have (version 5 on)");
}
