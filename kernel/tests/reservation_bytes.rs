//! Exact bytes of a few reservation events and decisions under postcard, and the widest
//! ones. Postcard is not self-describing: these pin the discriminants (variants are only
//! ever added at the end) and the field order for the log that will carry them.

use kernel::reservation::{Decision, Event, RejectReason, Request, RequestKind};

fn bytes<T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + core::fmt::Debug>(
    value: &T,
) -> Vec<u8> {
    let mut buf = [0u8; 128];
    let bytes = postcard::to_slice(value, &mut buf).unwrap().to_vec();
    let back: T = postcard::from_bytes(&bytes).unwrap();
    assert_eq!(&back, value);
    bytes
}

#[test]
fn request_event() {
    let request = Request {
        t: 300,
        job: 7,
        nodes: 4,
        estimate: 30,
        ready: 310,
        deadline: 400,
        kind: RequestKind::Flexible,
        shuffle_key: 1,
    };
    assert_eq!(
        bytes(&Event::Request(request)),
        [0x00, 0xAC, 0x02, 0x07, 0x04, 0x1E, 0xB6, 0x02, 0x90, 0x03, 0x02, 0x01]
    );
    assert_eq!(bytes(&Event::Advance { t: 5 }), [0x01, 0x05]);
    assert_eq!(bytes(&Event::Finish { t: 5, job: 7 }), [0x02, 0x05, 0x07]);
    assert_eq!(bytes(&Event::Reset), [0x03]);
}

#[test]
fn decisions() {
    assert_eq!(bytes(&Decision::Accept { job: 7, start: 310 }), [0x00, 0x07, 0xB6, 0x02]);
    assert_eq!(bytes(&Decision::Reject { job: 7, reason: RejectReason::NoRoom }), [0x01, 0x07, 0x0A]);
    assert_eq!(
        bytes(&Decision::Offer { job: 7, ready: 1, deadline: 2, start: 1 }),
        [0x02, 0x07, 0x01, 0x02, 0x01]
    );
    assert_eq!(bytes(&Decision::Replan { job: 7, start: 3 }), [0x03, 0x07, 0x03]);
    assert_eq!(bytes(&Decision::Fix { t: 3, job: 7 }), [0x04, 0x03, 0x07]);
    assert_eq!(bytes(&Decision::Start { t: 3, job: 7 }), [0x05, 0x03, 0x07]);
    assert_eq!(
        bytes(&Decision::End { t: 3, job: 7, early: true, cut: false }),
        [0x06, 0x03, 0x07, 0x01, 0x00]
    );
}

#[test]
fn widest_records() {
    let request = Request {
        t: u64::MAX,
        job: u32::MAX,
        nodes: u32::MAX,
        estimate: u64::MAX,
        ready: u64::MAX,
        deadline: u64::MAX,
        kind: RequestKind::Flexible,
        shuffle_key: u32::MAX,
    };
    // 1 tag + 4 * 10 (u64 varints) + 3 * 5 (u32 varints) + 1 kind.
    assert_eq!(bytes(&Event::Request(request)).len(), 57);
    let offer = Decision::Offer { job: u32::MAX, ready: u64::MAX, deadline: u64::MAX, start: u64::MAX };
    assert_eq!(bytes(&offer).len(), 36);
    let end = Decision::End { t: u64::MAX, job: u32::MAX, early: true, cut: true };
    assert_eq!(bytes(&end).len(), 18);
}
