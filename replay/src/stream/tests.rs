use std::io::Cursor;

use kernel::log::Body;
use kernel::service_level::{Config, Decision, Event, Level, Policy, ServiceLevelKernel};
use kernel::stream::{DeviceModel, RECORD_BUFFER_BYTES, StreamWriter};

use super::*;
use crate::format::LogReader;
use crate::import::{self, ImportError};

/// A service-level run on the firmware's size, as its stream: the frames' start
/// offsets (setup first, end last) and the bytes.
fn device_stream(jobs: u32) -> (Vec<u64>, Vec<u8>) {
    let levels = heapless::Vec::from_slice(&[Level::whole(1, 1), Level::whole(3, 2)]).unwrap();
    let config = Config { machines: 4, policy: Policy::FirstFit, levels };
    let setup: Setup<8> = Setup::new("stream test", DeviceModel::service_level::<4, 32, 8>(&config).unwrap());
    let mut kernel = ServiceLevelKernel::<4, 32, 8>::new(config).unwrap();
    let mut bodies = Vec::new();
    for job in 1..=jobs {
        let event = Event::Submit {
            t: u64::from(job) * 3,
            job,
            p: 5 + u64::from(job * 7919 % 40),
            level: (job % 2) as u8,
        };
        bodies.push(Body::Event(event));
        kernel.step(event, &mut |d: Decision| bodies.push(Body::Decision(d)));
    }
    let advance = Event::Advance { t: u64::MAX };
    bodies.push(Body::Event(advance));
    kernel.step(advance, &mut |d: Decision| bodies.push(Body::Decision(d)));

    let mut writer = StreamWriter::new();
    let (mut starts, mut bytes) = (Vec::new(), Vec::new());
    let mut big = [0u8; 1024];
    starts.push(0);
    bytes.extend_from_slice(writer.setup(&setup, &mut big).unwrap());
    let mut buf = [0u8; RECORD_BUFFER_BYTES];
    for body in bodies {
        starts.push(bytes.len() as u64);
        bytes.extend_from_slice(writer.record(body, &mut buf).unwrap());
    }
    starts.push(bytes.len() as u64);
    bytes.extend_from_slice(writer.end(&mut buf).unwrap());
    (starts, bytes)
}

/// The records of frames `1..len-1`, the record frames.
fn record_count(starts: &[u64]) -> usize {
    starts.len() - 2
}

#[test]
fn a_whole_stream_is_read_imported_and_verified() {
    let (starts, bytes) = device_stream(200);
    assert!(is_stream(&bytes));
    let read = read(&bytes);
    assert_eq!(read.losses, vec![]);
    assert_eq!(read.records.len(), record_count(&starts));
    assert_eq!(read.end.unwrap().records, record_count(&starts) as u64);
    let mut log = Vec::new();
    let written = import::write_log(&read, "run.stream", &bytes, &mut log).unwrap();
    assert_eq!(written, record_count(&starts) as u64);
    let reader = LogReader::new(Cursor::new(&log)).unwrap();
    assert_eq!(reader.header().service_level().unwrap().queue_capacity, 32);
    assert_eq!(reader.header().host_version, "stream test");
    assert_eq!(reader.header().inputs[0].name, "run.stream");
    let report = crate::verify::verify(reader).unwrap();
    assert_eq!(report.records, written);
    // The same stream, the same log bytes.
    let mut again = Vec::new();
    import::write_log(&read, "run.stream", &bytes, &mut again).unwrap();
    assert_eq!(again, log);
}

/// Every byte of a record frame, changed three ways or dropped: exactly one loss,
/// at the frame's first byte, that record lost and every other kept.
#[test]
fn a_damaged_or_dropped_byte_costs_its_one_frame_named_by_offset() {
    let (starts, bytes) = device_stream(40);
    let frame = 25;
    let (start, end) = (starts[frame], starts[frame + 1]);
    for at in start..end {
        let mut damaged: Vec<Vec<u8>> = [0x01u8, 0x80, 0xFF]
            .iter()
            .map(|flip| {
                let mut b = bytes.clone();
                b[at as usize] ^= flip;
                b
            })
            .collect();
        let mut dropped = bytes.clone();
        dropped.remove(at as usize);
        damaged.push(dropped);
        for (case, b) in damaged.iter().enumerate() {
            let read = read(b);
            let seq = frame as u64 - 1;
            if at == end - 1 {
                // The delimiter itself, changed or dropped: this frame and the next
                // are one stretch, and both records are lost.
                assert_eq!(read.losses.len(), 1, "byte {at} case {case}: {:?}", read.losses);
                assert_eq!(read.losses[0].missing, Some((seq, 2)));
                continue;
            }
            assert_eq!(read.losses.len(), 1, "byte {at} case {case}: {:?}", read.losses);
            let loss = &read.losses[0];
            assert_eq!(loss.offset, start, "byte {at} case {case}");
            assert_eq!(loss.missing, Some((seq, 1)), "byte {at} case {case}");
            assert_eq!(read.records.len(), record_count(&starts) - 1);
            assert!(read.records.iter().all(|r| r.seq != seq));
            assert!(read.end.is_some());
            let message = loss.to_string();
            assert!(message.starts_with(&format!("byte {start} (")), "{message}");
            assert!(message.ends_with(&format!("; record {seq} lost")), "{message}");
        }
    }
}

#[test]
fn a_byte_turned_into_a_delimiter_is_one_loss() {
    let (starts, bytes) = device_stream(40);
    let mut b = bytes.clone();
    b[starts[10] as usize + 2] = 0;
    let read = read(&b);
    assert_eq!(read.losses.len(), 1, "{:?}", read.losses);
    assert_eq!(read.losses[0].offset, starts[10]);
    assert_eq!(read.losses[0].len, starts[11] - starts[10]);
    assert_eq!(read.losses[0].missing, Some((9, 1)));
}

#[test]
fn a_cut_tail_is_reported_and_the_rest_kept() {
    let (starts, bytes) = device_stream(40);
    let cut = starts[30] as usize + 3;
    let read = read(&bytes[..cut]);
    assert_eq!(read.losses.len(), 1);
    assert_eq!(read.losses[0].offset, starts[30]);
    assert_eq!(read.losses[0].what, Problem::CutShort);
    assert_eq!(read.losses[0].missing, None);
    assert_eq!(read.records.len(), 29);
    assert!(read.end.is_none());
    assert!(matches!(import::whole(&read), Err(ImportError::Damaged { losses: 1 })));
}

#[test]
fn a_whole_frame_dropped_is_named_by_the_gap() {
    let (starts, bytes) = device_stream(40);
    let mut b = bytes[..starts[12] as usize].to_vec();
    b.extend_from_slice(&bytes[starts[13] as usize..]);
    let read = read(&b);
    assert_eq!(
        read.losses,
        vec![Loss { offset: starts[12], len: 0, what: Problem::Dropped, missing: Some((11, 1)) }]
    );
    let err = import::whole(&read).unwrap_err();
    assert_eq!(
        err.to_string(),
        "1 record lost in 1 damaged or missing stretch (listed above); a log cannot hold a hole"
    );
}

#[test]
fn a_log_is_not_a_stream() {
    let (_, bytes) = device_stream(5);
    let read = read(&bytes);
    let mut log = Vec::new();
    import::write_log(&read, "s", &bytes, &mut log).unwrap();
    assert!(!is_stream(&log));
    assert!(!is_stream(b""));
}

#[test]
fn an_end_frame_that_counts_fewer_records_than_the_stream_holds_is_damage() {
    let (starts, bytes) = device_stream(5);
    let end_at = *starts.last().unwrap();
    let mut forged = bytes[..end_at as usize].to_vec();
    let mut buf = [0u8; RECORD_BUFFER_BYTES];
    // A fresh writer's end frame counts 0 records.
    forged.extend_from_slice(StreamWriter::new().end(&mut buf).unwrap());
    let read = read(&forged);
    let held = record_count(&starts) as u64;
    let len = forged.len() as u64 - end_at;
    let what = Problem::EndCount { counted: 0, held };
    assert_eq!(read.losses, vec![Loss { offset: end_at, len, what, missing: None }]);
    assert_eq!(
        read.losses[0].to_string(),
        format!(
            "byte {end_at} ({len} bytes): an end frame that counts 0 records where the stream holds {held}"
        )
    );
    assert!(!read.count_unknown());
    let refused = import::write_log(&read, "s", &forged, Vec::new());
    assert!(matches!(refused, Err(ImportError::Damaged { losses: 1 })), "{refused:?}");
}

#[test]
fn a_stream_whose_setup_is_damaged_is_read_as_a_stream_and_its_checksum_named() {
    let (_, mut bytes) = device_stream(5);
    // A letter of the setup's magic, `ADMSTRM1`, after the code and kind bytes.
    assert_eq!(bytes[3], b'D');
    bytes[3] = b'E';
    assert!(is_stream(&bytes));
    let read = read(&bytes);
    assert_eq!(read.losses.len(), 1, "{:?}", read.losses);
    assert_eq!(read.losses[0].offset, 0);
    assert!(matches!(read.losses[0].what, Problem::Damaged(FrameError::Checksum { .. })));
    assert!(read.losses[0].to_string().contains("a damaged frame (checksum 0x"), "{}", read.losses[0]);
    assert!(matches!(import::write_log(&read, "s", &bytes, Vec::new()), Err(ImportError::Damaged { .. })));
}
