extern crate std;

use super::*;
use crate::reservation;
use crate::service_level::{Config, Decision, Event, Level, Policy};

fn setup() -> Setup<8> {
    let mut levels = heapless::Vec::new();
    levels.push(Level::whole(1, 1)).unwrap();
    levels.push(Level::whole(1000, 2)).unwrap();
    let config = Config { machines: 4, policy: Policy::FirstFit, levels };
    Setup::new("kernel-firmware 0.1.0", DeviceModel::service_level::<4, 32, 8>(&config).unwrap())
}

fn bodies() -> [Body; 4] {
    [
        Body::Event(Event::Submit { t: 0, job: 1, p: 300, level: 1 }),
        Body::Decision(Decision::Accept { job: 1, machine: 0, deadline: 300_000, preempted: None }),
        Body::Event(Event::Advance { t: u64::MAX }),
        Body::Decision(Decision::Complete { job: 1, machine: 0, t: 300 }),
    ]
}

/// The frames of the setup, `bodies` and the end, back to back.
fn stream(bodies: &[Body]) -> std::vec::Vec<u8> {
    let mut writer = StreamWriter::new();
    let mut out = std::vec::Vec::new();
    let mut big = [0u8; 512];
    out.extend_from_slice(writer.setup(&setup(), &mut big).unwrap());
    let mut buf = [0u8; RECORD_BUFFER_BYTES];
    for body in bodies {
        out.extend_from_slice(writer.record(*body, &mut buf).unwrap());
    }
    out.extend_from_slice(writer.end(&mut buf).unwrap());
    out
}

fn decode_all(bytes: &[u8]) -> std::vec::Vec<Result<Frame<32>, FrameError>> {
    let mut scratch = [0u8; 512];
    let mut frames = std::vec::Vec::new();
    let mut rest = bytes;
    while let Some(at) = rest.iter().position(|&b| b == DELIMITER) {
        frames.push(decode_frame::<32>(&rest[..at], &mut scratch));
        rest = &rest[at + 1..];
    }
    assert!(rest.is_empty(), "the stream ends with a delimiter");
    frames
}

#[test]
fn frames_round_trip_and_hold_no_zero_but_their_delimiter() {
    let bytes = stream(&bodies());
    let frames = decode_all(&bytes);
    assert_eq!(frames.len(), 6);
    let Ok(Frame::Setup(read)) = &frames[0] else { panic!("{:?}", frames[0]) };
    assert_eq!(read.kernel_version.as_str(), crate::VERSION);
    assert_eq!(read.source.as_str(), "kernel-firmware 0.1.0");
    let DeviceModel::ServiceLevel {
        machine_capacity, queue_capacity, level_capacity, machines, levels, ..
    } = &read.model
    else {
        panic!("{:?}", read.model)
    };
    assert_eq!((*machine_capacity, *queue_capacity, *level_capacity, *machines), (4, 32, 8, 4));
    assert_eq!(levels.as_slice(), &[Level::whole(1, 1), Level::whole(1000, 2)]);
    for (seq, (frame, body)) in frames[1..5].iter().zip(bodies()).enumerate() {
        assert_eq!(frame, &Ok(Frame::Record(Record { seq: seq as u64, body })));
    }
    assert_eq!(frames[5], Ok(Frame::End(End { records: 4 })));
}

#[test]
fn a_record_frame_carries_the_log_encoding_unchanged() {
    let body = bodies()[1];
    let mut buf = [0u8; RECORD_BUFFER_BYTES];
    let frame = StreamWriter::new().record(body, &mut buf).unwrap().to_vec();
    let mut content = [0u8; RECORD_FRAME_MAX_BYTES];
    let len = cobs::decode(&frame[..frame.len() - 1], &mut content).unwrap();
    let mut encoded = [0u8; RECORD_MAX_BYTES];
    let record = crate::log::encode(&Record { seq: 0, body }, &mut encoded).unwrap();
    assert_eq!(content[0], KIND_RECORD);
    assert_eq!(&content[1..len - 4], &*record);
    assert_eq!(content[len - 4..len], crc32c(&content[..len - 4]).to_le_bytes());
}

#[test]
fn the_widest_record_fits_the_record_buffer() {
    let request = reservation::Request {
        t: u64::MAX,
        job: u32::MAX,
        nodes: u32::MAX,
        estimate: u64::MAX,
        ready: u64::MAX,
        deadline: u64::MAX,
        kind: reservation::RequestKind::Flexible,
        shuffle_key: u32::MAX,
    };
    let body = Body::ReservationEvent(reservation::Event::Request(request));
    let mut writer = StreamWriter::new();
    writer.records = u64::MAX - 1;
    let mut buf = [0u8; RECORD_BUFFER_BYTES];
    let frame = writer.record(body, &mut buf).unwrap();
    assert!(frame.len() <= RECORD_FRAME_MAX_BYTES, "{}", frame.len());
}

#[test]
fn a_small_buffer_is_refused_and_the_number_kept() {
    let mut writer = StreamWriter::new();
    let mut small = [0u8; 16];
    assert_eq!(writer.record(bodies()[1], &mut small), Err(WriteError::BufferFull));
    assert_eq!(writer.records(), 0);
    assert_eq!(writer.setup(&setup(), &mut small), Err(WriteError::BufferFull));
}

#[test]
fn every_changed_byte_of_a_frame_is_caught() {
    let mut buf = [0u8; RECORD_BUFFER_BYTES];
    let frame = StreamWriter::new().record(bodies()[1], &mut buf).unwrap().to_vec();
    let body = &frame[..frame.len() - 1];
    let mut scratch = [0u8; RECORD_FRAME_MAX_BYTES];
    for at in 0..body.len() {
        for flip in [0x01u8, 0x80, 0xFF] {
            let mut damaged = body.to_vec();
            damaged[at] ^= flip;
            let decoded = decode_frame::<8>(&damaged, &mut scratch);
            assert!(decoded.is_err(), "byte {at} ^ {flip:#x} decoded as {decoded:?}");
        }
    }
}

#[test]
fn cobs_round_trips_runs_around_254() {
    for len in [0usize, 1, 253, 254, 255, 508, 509, 700] {
        for zeros in [0usize, 1, 7] {
            let input: std::vec::Vec<u8> = (0..len)
                .map(|i| if zeros > 0 && i % (len / zeros + 1) == 3 { 0 } else { (i % 251 + 1) as u8 })
                .collect();
            let mut encoded = std::vec![0u8; len + 2 + len / 254];
            let n = cobs::encode(&input, &mut encoded).unwrap();
            assert!(!encoded[..n].contains(&0), "len {len}");
            let mut decoded = std::vec![0u8; n];
            let m = cobs::decode(&encoded[..n], &mut decoded).unwrap();
            assert_eq!(&decoded[..m], &input[..], "len {len}, zeros {zeros}");
        }
    }
}

#[test]
fn crc32c_is_the_log_files_checksum() {
    assert_eq!(crc32c(b"123456789"), 0xE306_9283);
    let bytes: std::vec::Vec<u8> = (0..1000u32).map(|i| (i * 31 % 256) as u8).collect();
    assert_eq!(crc32c(&bytes), replay::format::CRC32C.checksum(&bytes));
}
