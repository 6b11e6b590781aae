//! Exact bytes of a few records in the kernel's postcard encoding (`kernel::log::encode`),
//! the one a controller sends: postcard is not self-describing, so these pin it. The
//! decision log file stores records in its own encoding, pinned by
//! `replay/tests/record_bytes.rs`; a change to either is a format change.

use kernel::log::{Body, RECORD_MAX_BYTES, Record, decode, encode};
use kernel::service_level::{Decision, Event, RejectReason};

fn bytes_of(record: Record) -> Vec<u8> {
    let mut buf = [0u8; RECORD_MAX_BYTES];
    let bytes = encode(&record, &mut buf).unwrap().to_vec();
    let (back, rest) = decode(&bytes).unwrap();
    assert_eq!(back, record);
    assert!(rest.is_empty());
    bytes
}

#[test]
fn submit_record() {
    let record = Record { seq: 0, body: Body::Event(Event::Submit { t: 1460, job: 2, p: 3726, level: 0 }) };
    assert_eq!(bytes_of(record), [0x00, 0x00, 0x00, 0xB4, 0x0B, 0x02, 0x8E, 0x1D, 0x00]);
}

#[test]
fn accept_record() {
    let accept = Decision::Accept { job: 2, machine: 0, deadline: 8912, preempted: None };
    let record = Record { seq: 1, body: Body::Decision(accept) };
    assert_eq!(bytes_of(record), [0x01, 0x01, 0x00, 0x02, 0x00, 0xD0, 0x45, 0x00]);
}

#[test]
fn reject_and_complete_records() {
    let reject = Record {
        seq: 300,
        body: Body::Decision(Decision::Reject { job: 7, reason: RejectReason::QueueFull }),
    };
    assert_eq!(bytes_of(reject), [0xAC, 0x02, 0x01, 0x01, 0x07, 0x01]);
    let complete = Record { seq: 2, body: Body::Decision(Decision::Complete { t: 5, job: 1, machine: 3 }) };
    assert_eq!(bytes_of(complete), [0x02, 0x01, 0x04, 0x05, 0x01, 0x03]);
}

#[test]
fn the_widest_record_fits_the_buffer() {
    let wide =
        Decision::Accept { job: u32::MAX, machine: u16::MAX, deadline: u64::MAX, preempted: Some(u32::MAX) };
    let bytes = bytes_of(Record { seq: u64::MAX, body: Body::Decision(wide) });
    assert!(bytes.len() <= RECORD_MAX_BYTES, "{} bytes", bytes.len());
    let submit = Event::Submit { t: u64::MAX, job: u32::MAX, p: u64::MAX, level: u8::MAX };
    assert!(bytes_of(Record { seq: u64::MAX, body: Body::Event(submit) }).len() <= RECORD_MAX_BYTES);
}

#[test]
fn reservation_records_come_after_the_service_level_ones() {
    use kernel::reservation;
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
    let widest = bytes_of(Record {
        seq: u64::MAX,
        body: Body::ReservationEvent(reservation::Event::Request(request)),
    });
    assert_eq!(widest.len(), 68);
    assert!(widest.len() <= RECORD_MAX_BYTES);
    let advance = Record { seq: 1, body: Body::ReservationEvent(reservation::Event::Advance { t: 5 }) };
    assert_eq!(bytes_of(advance), [0x01, 0x02, 0x01, 0x05]);
    let start =
        Record { seq: 2, body: Body::ReservationDecision(reservation::Decision::Start { t: 3, job: 7 }) };
    assert_eq!(bytes_of(start), [0x02, 0x03, 0x05, 0x03, 0x07]);
}

#[test]
fn tiers_records_come_after_the_reservation_ones() {
    use kernel::tiers::{Decision, Event, Request, Tier};
    let request = Request {
        t: u64::MAX,
        job: u32::MAX,
        tier: Tier::Bronze,
        work: u64::MAX,
        ready: u64::MAX,
        deadline: u64::MAX,
    };
    let widest = bytes_of(Record { seq: u64::MAX, body: Body::TiersEvent(Event::Submit(request)) });
    assert_eq!(widest.len(), 58);
    assert!(widest.len() <= RECORD_MAX_BYTES);
    let advance = Record { seq: 1, body: Body::TiersEvent(Event::Advance { t: 5 }) };
    assert_eq!(bytes_of(advance), [0x01, 0x04, 0x01, 0x05]);
    let moved = Decision::Move { job: 7, resource: 2, start: 9, for_job: 8 };
    assert_eq!(
        bytes_of(Record { seq: 3, body: Body::TiersDecision(moved) }),
        [0x03, 0x05, 0x02, 0x07, 0x02, 0x09, 0x08]
    );
}
