//! Verify before trust (`replay::trust`): a header frame or footer with bytes after
//! its last field, and a footer that miscounts, are damage named by byte offset; a log
//! whose header was edited (checksums made right) is refused by `vouch`, and a log of
//! another kernel version is audited instead of re-made.

use kernel::log::Body;
use kernel::service_level::{Event, Level, Policy};
use replay::engine::service_level::ServiceLevelEngine;
use replay::format::{CRC32C, FormatError, Header, LogReader, LogWriter, ServiceLevelHeader};
use replay::trust::{TrustError, vouch, vouch_file};
use replay::verify::VerifyError;

/// A verifying log of `jobs` one-tick-apart jobs on `machines` machines, each longer
/// than the gap, so that fewer machines would decide otherwise.
fn log(machines: u16, jobs: u32) -> Vec<u8> {
    let levels = [Level::whole(1, 1)];
    let header = Header::new(ServiceLevelHeader::new(machines, 16, Policy::FirstFit, levels.to_vec()).into())
        .with_input("unit", 7);
    let mut engine = ServiceLevelEngine::new(machines, 16, Policy::FirstFit, &levels).unwrap();
    let mut writer = LogWriter::new(Vec::new(), &header).unwrap();
    let events = (0..jobs).map(|job| Event::Submit { t: u64::from(job), job, p: 3, level: 0 });
    let mut decisions = Vec::new();
    for event in events.chain([Event::Advance { t: u64::MAX }]) {
        writer.record(Body::Event(event)).unwrap();
        decisions.clear();
        engine.step(event, &mut decisions);
        decisions.iter().for_each(|&d| writer.record(Body::Decision(d)).unwrap());
    }
    writer.finish().unwrap()
}

/// Where the header's `machines` is: the first field of the service level's part,
/// which ends the header frame's payload (from byte 15 on).
fn machines_at(bytes: &[u8]) -> usize {
    let header = LogReader::new(bytes).unwrap().header().clone();
    let payload = u32::from_le_bytes(bytes[11..15].try_into().unwrap()) as usize;
    let part = postcard::to_stdvec(header.service_level().unwrap()).unwrap();
    15 + payload - part.len()
}

/// Each frame's start, from byte 10 on.
fn frames(bytes: &[u8]) -> Vec<usize> {
    let (mut at, mut starts) = (10, Vec::new());
    while at < bytes.len() {
        starts.push(at);
        at += 9 + u32::from_le_bytes(bytes[at + 1..at + 5].try_into().unwrap()) as usize;
    }
    starts
}

/// Every frame's checksum made right again, after an edit.
fn fix_checksums(bytes: &mut [u8]) {
    for at in frames(bytes) {
        let end = at + 5 + u32::from_le_bytes(bytes[at + 1..at + 5].try_into().unwrap()) as usize;
        let crc = CRC32C.checksum(&bytes[at..end]);
        bytes[end..end + 4].copy_from_slice(&crc.to_le_bytes());
    }
}

/// `extra` bytes put after the last field of the frame at `at`, its length and
/// checksums made right.
fn lengthen(bytes: &[u8], at: usize, extra: &[u8]) -> Vec<u8> {
    let len = u32::from_le_bytes(bytes[at + 1..at + 5].try_into().unwrap());
    let end = at + 5 + len as usize;
    let mut out = [&bytes[..end], extra, &bytes[end..]].concat();
    out[at + 1..at + 5].copy_from_slice(&(len + extra.len() as u32).to_le_bytes());
    fix_checksums(&mut out);
    out
}

fn read_all(bytes: &[u8]) -> Result<u64, FormatError> {
    let mut reader = LogReader::new(bytes)?;
    while reader.next_record()?.is_some() {}
    Ok(reader.records_read())
}

#[test]
fn a_header_frame_with_bytes_after_its_last_field_is_damage() {
    let bytes = log(2, 10);
    assert!(read_all(&bytes).is_ok());
    let error = LogReader::new(&lengthen(&bytes, 10, &[0, 0])[..]).unwrap_err();
    assert!(matches!(error, FormatError::FrameTrailing { offset: 10, what: "header", bytes: 2 }), "{error}");
    assert_eq!(
        error.to_string(),
        "damaged frame at byte 10: the header frame holds 2 bytes after its last field"
    );
}

#[test]
fn a_footer_with_bytes_after_its_last_field_is_damage() {
    let bytes = log(2, 10);
    let footer = *frames(&bytes).last().unwrap();
    let error = read_all(&lengthen(&bytes, footer, &[7])).unwrap_err();
    assert!(
        matches!(error, FormatError::FrameTrailing { offset, what: "footer", bytes: 1 } if offset == footer as u64),
        "{error}"
    );
}

#[test]
fn a_footer_that_miscounts_is_named_with_its_offset() {
    let mut bytes = log(2, 10);
    let records = read_all(&bytes).unwrap();
    let footer = *frames(&bytes).last().unwrap();
    // The footer's first field, the record count, is one varint byte here.
    assert_eq!(u64::from(bytes[footer + 5]), records);
    bytes[footer + 5] += 1;
    fix_checksums(&mut bytes);
    let error = read_all(&bytes).unwrap_err();
    let expected =
        format!("the footer at byte {footer} counts {} records, the log holds {records}", records + 1);
    assert_eq!(error.to_string(), expected);
}

#[test]
fn a_log_whose_machines_were_edited_is_not_vouched_for() {
    let mut bytes = log(3, 12);
    assert!(vouch(LogReader::new(&bytes[..]).unwrap()).is_ok());
    let at = machines_at(&bytes);
    assert_eq!(bytes[at], 3);
    bytes[at] = 2;
    fix_checksums(&mut bytes);
    let error = vouch(LogReader::new(&bytes[..]).unwrap()).unwrap_err();
    assert!(matches!(error, VerifyError::Diverged(_)), "{error}");
    let dir = std::env::temp_dir().join(format!("replay-trust-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("edited.log");
    std::fs::write(&path, &bytes).unwrap();
    let refused = vouch_file(&path).unwrap_err();
    assert!(matches!(refused, TrustError::Unverified { .. }));
    let message = refused.to_string();
    let name = path.display().to_string();
    assert!(message.starts_with(&format!("{name} does not verify, so it is not used: divergence at record")));
    assert!(message.ends_with(&format!("(`replay verify {name}` gives the details)")), "{message}");
    // A file that cannot be read is not one that does not verify.
    let missing = vouch_file(&dir.join("missing.log")).unwrap_err();
    assert!(matches!(missing, TrustError::Read { .. }), "{missing}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_log_of_another_kernel_version_is_audited_and_its_promises_still_held() {
    let bytes = log(3, 12);
    let header = LogReader::new(&bytes[..]).unwrap().header().clone();
    let version_at = 15 + 1 + 1;
    let machines_at = machines_at(&bytes);
    assert_eq!(bytes[machines_at], 3);
    let mut other = bytes.clone();
    // The kernel version's last character, made another version's.
    other[version_at + header.kernel_version.len() - 1] ^= 1;
    fix_checksums(&mut other);
    let audited = vouch(LogReader::new(&other[..]).unwrap()).unwrap();
    assert_eq!(audited, vouch(LogReader::new(&bytes[..]).unwrap()).unwrap());
    // With a machine fewer, the audit finds a job on a machine not in use.
    other[machines_at] = 2;
    fix_checksums(&mut other);
    let error = vouch(LogReader::new(&other[..]).unwrap()).unwrap_err();
    assert!(error.to_string().contains("machine 2 is not in use"), "{error}");
}
