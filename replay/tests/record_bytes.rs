//! Exact bytes of a few records (v2, and the reservation records of v3) and of one whole block frame: the encoding is not
//! self-describing, so these pin the log format (`docs/log-format.md`). A change here
//! is a format change and needs a version bump.

use kernel::Tick;
use kernel::log::Body;
use kernel::service_level::{Decision, Event, Level, Policy, RejectReason};
use replay::format::codec::RecordCodec;
use replay::format::varint::Cursor;
use replay::format::{Header, LogReader, LogWriter, ServiceLevelHeader};

/// Service level 0 has slack factor 2, level 1 slack factor 1.5.
fn levels() -> Vec<Level> {
    vec![Level::whole(2, 19), Level { slack_milli: 1500, price_per_tick: 1 }]
}

/// Each body's bytes, encoded one after another from the start of a block, and
/// checked to decode back.
fn bytes_of(bodies: &[Body]) -> Vec<Vec<u8>> {
    let mut writer = RecordCodec::new(&levels());
    let encoded: Vec<Vec<u8>> = bodies
        .iter()
        .map(|body| {
            let mut out = Vec::new();
            writer.encode(body, &mut out);
            out
        })
        .collect();
    let all = encoded.concat();
    let mut reader = RecordCodec::new(&levels());
    let mut cursor = Cursor::new(&all, 0);
    for body in bodies {
        assert_eq!(reader.decode(&mut cursor).unwrap(), *body);
    }
    encoded
}

fn submit(t: Tick, job: u32, p: Tick, level: u8) -> Body {
    Body::Event(Event::Submit { t, job, p, level })
}

#[test]
fn a_job_from_submit_to_complete() {
    let bodies = [
        submit(1460, 2, 3726, 0),
        Body::Decision(Decision::Accept { job: 2, machine: 0, deadline: 8912, preempted: None }),
        Body::Decision(Decision::Start { t: 1460, job: 2, machine: 0 }),
        Body::Event(Event::Advance { t: 6000 }),
        Body::Decision(Decision::Complete { t: 5186, job: 2, machine: 0 }),
    ];
    let expected: [&[u8]; 5] = [
        // Submit, job explicit (not 0 + 1), level 0 | dt zigzag(1460) | job step +1 | p 3726
        &[0x80, 0xE8, 0x16, 0x02, 0x8E, 0x1D],
        // Accept on machine 0: the job and the deadline 1460 + 2 * 3726 are implicit
        &[0x03],
        // Start at the event's time, of the submitted job, on the accept's machine
        &[0x0D],
        // Advance | dt zigzag(4540)
        &[0x01, 0xF8, 0x46],
        // Complete at the machine's last time + 3726, of the job it started
        &[0x17, 0x8E, 0x1D],
    ];
    assert_eq!(bytes_of(&bodies), expected);
}

#[test]
fn rejects_preemptions_and_escapes() {
    let bodies = [
        submit(10, 1, 4, 1),
        Body::Decision(Decision::Reject { job: 1, reason: RejectReason::QueueFull }),
        submit(10, 2, 4, 20),
        Body::Decision(Decision::Reject { job: 7, reason: RejectReason::UnknownLevel }),
        Body::Decision(Decision::Accept { job: 2, machine: 9, deadline: 30, preempted: Some(1) }),
        Body::Decision(Decision::Preempt { t: 10, job: 1, machine: 9 }),
        Body::Event(Event::Advance { t: Tick::MAX }),
        Body::Event(Event::Reset),
    ];
    let expected: [&[u8]; 8] = [
        // Submit, job 0 + 1 implicit, level 1 | dt 10 | p 4
        &[0x08, 0x14, 0x04],
        // Reject of the submitted job, reason 1
        &[0x0C],
        // Submit, job implicit, level escaped | dt 0 | p 4 | level 20
        &[0x78, 0x00, 0x04, 0x14],
        // Reject of job 7 (explicit: +5 from job 2), reason 3
        &[0x9C, 0x0A],
        // Accept, machine escaped, explicit job and deadline, preempted | machine 9 |
        // job step 0 | deadline 30 | preempted step -1
        &[0xFB, 0x09, 0x00, 0x1E, 0x01],
        // Preempt at the event's time on the accept's machine, job explicit (machine 9
        // started nothing in this block) | job step +1 from 0
        &[0x8E, 0x02],
        // Advance to the end
        &[0x09],
        // Reset
        &[0x02],
    ];
    assert_eq!(bytes_of(&bodies), expected);
}

#[test]
fn a_whole_block_frame() {
    let header = Header::new(ServiceLevelHeader::new(1, 16, Policy::FirstFit, levels()).into());
    let mut writer = LogWriter::new(Vec::new(), &header).unwrap();
    writer.record(submit(1460, 2, 3726, 0)).unwrap();
    writer
        .record(Body::Decision(Decision::Accept { job: 2, machine: 0, deadline: 8912, preempted: None }))
        .unwrap();
    let bytes = writer.finish().unwrap();
    let header_len = u32::from_le_bytes(bytes[11..15].try_into().unwrap()) as usize;
    let block = &bytes[10 + 5 + header_len + 4..];
    let expected_block = [
        0x02, 0x09, 0x00, 0x00, 0x00, // kind BLOCK, payload length 9
        0x00, 0x02, // first seq 0, 2 records
        0x80, 0xE8, 0x16, 0x02, 0x8E, 0x1D, // the submit
        0x03, // the accept
        0x99, 0xA2, 0x6E, 0xD3, // CRC-32C of kind, length and payload
    ];
    assert_eq!(&block[..expected_block.len()], expected_block);
    // Footer (postcard): 2 records, 1 block, CRC-32C of the block payload 0x0541_DAFB.
    let footer = &block[expected_block.len()..];
    assert_eq!(&footer[..11], [0x03, 0x06, 0x00, 0x00, 0x00, 0x02, 0x01, 0xFB, 0xB5, 0x87, 0x2A]);
    let mut reader = LogReader::new(&bytes[..]).unwrap();
    assert_eq!(reader.next_record().unwrap().map(|r| r.seq), Some(0));
    assert_eq!(reader.next_record().unwrap().map(|r| r.seq), Some(1));
    assert!(reader.next_record().unwrap().is_none());
}

#[test]
fn reservation_records() {
    use kernel::reservation::{Decision as D, Event as E, RejectReason as R, Request, RequestKind};
    let request = |t, job, nodes, estimate, ready, deadline, kind, shuffle_key| {
        Body::ReservationEvent(E::Request(Request {
            t,
            job,
            nodes,
            estimate,
            ready,
            deadline,
            kind,
            shuffle_key,
        }))
    };
    let bodies = [
        request(300, 7, 4, 30, 310, 400, RequestKind::Flexible, 1),
        Body::ReservationDecision(D::Accept { job: 7, start: 310 }),
        Body::ReservationDecision(D::Replan { job: 5, start: 350 }),
        Body::ReservationEvent(E::Advance { t: 310 }),
        Body::ReservationDecision(D::Start { t: 310, job: 7 }),
        request(320, 8, 8, 10, 320, 330, RequestKind::Strict, 0),
        Body::ReservationDecision(D::Reject { job: 8, reason: R::NoRoom }),
        Body::ReservationDecision(D::Offer { job: 8, ready: 340, deadline: 350, start: 340 }),
        Body::ReservationEvent(E::Finish { t: 330, job: 7 }),
        Body::ReservationDecision(D::Fix { t: 325, job: 5 }),
        Body::ReservationDecision(D::End { t: 330, job: 7, early: true, cut: false }),
        Body::ReservationEvent(E::Advance { t: Tick::MAX }),
        Body::ReservationDecision(D::End { t: 380, job: 5, early: false, cut: true }),
        Body::ReservationEvent(E::Reset),
        request(0, 1, 1, 5, 0, 9, RequestKind::RelaxedStart, 3),
        Body::ReservationDecision(D::End { t: 5, job: 1, early: false, cut: false }),
    ];
    let expected: [&[u8]; 16] = [
        // Request, flexible (3) | dt zigzag(300) | job step +6 from 0 + 1 | 4 nodes |
        // estimate 30 | ready step +10 from t | deadline step +60 from ready + estimate |
        // shuffle key 1
        &[0x1A, 0xD8, 0x04, 0x0C, 0x04, 0x1E, 0x14, 0x78, 0x01],
        // Accept (7) | job step 0 from the request's | start step +10 from now
        &[0x3A, 0x00, 0x14],
        // Replan (10) | job step -2 | start step +50
        &[0x52, 0x03, 0x64],
        // Advance (4) | dt +10
        &[0x22, 0x14],
        // Start (12) | t step 0 from now | job step 0
        &[0x62, 0x00, 0x00],
        // Request, strict (1) | dt +10 | job 7 + 1 | 8 nodes | estimate 10 | ready step 0
        // | deadline step 0 (strict: ready + estimate) | key 0
        &[0x0A, 0x14, 0x00, 0x08, 0x0A, 0x00, 0x00, 0x00],
        // Reject (8) | job step 0 | reason byte 10 (no_room)
        &[0x42, 0x00, 0x0A],
        // Offer (9) | job step 0 | ready step +20 from now | deadline step 0 from ready +
        // the request's estimate | start step 0 from ready
        &[0x4A, 0x00, 0x28, 0x00, 0x00],
        // Finish (5) | dt +10 | job step -1 from the request's
        &[0x2A, 0x14, 0x01],
        // Fix (11) | t step -5 from now | job step -3
        &[0x5A, 0x09, 0x05],
        // End, early (13 + 1) | t step 0 | job step -1
        &[0x72, 0x00, 0x01],
        // Advance (4) to u64::MAX | dt -331 modulo 2^64
        &[0x22, 0x95, 0x05],
        // End, cut (13 + 2) | t step +381 from u64::MAX, modulo 2^64 | job step -3
        &[0x7A, 0xFA, 0x05, 0x05],
        // Reset (6)
        &[0x32],
        // Request, relaxed (2), after the Reset: now 0, the last job 0 | dt 0 | job 0 + 1 |
        // 1 node | estimate 5 | ready step 0 | deadline step +4 from 0 + 5 | key 3
        &[0x12, 0x00, 0x00, 0x01, 0x05, 0x00, 0x08, 0x03],
        // End, on time (13) | t step +5 | job step 0
        &[0x6A, 0x0A, 0x00],
    ];
    assert_eq!(bytes_of(&bodies), expected);
}
