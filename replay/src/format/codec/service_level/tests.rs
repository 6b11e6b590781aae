//! Round trips of every kind of record, at the edges of every field, and the
//! prediction paths and their escapes.

use super::*;
use crate::format::codec::RECORD_MAX_BYTES;

fn levels() -> Vec<Level> {
    vec![Level::whole(2, 19), Level { slack_milli: 1500, price_per_tick: 1 }]
}

/// Encodes `bodies` as one block and decodes them back; returns the bytes.
fn round_trip(bodies: &[Body]) -> Vec<u8> {
    let mut writer = ServiceLevelCodec::new(&levels());
    let mut bytes = Vec::new();
    for body in bodies {
        let before = bytes.len();
        writer.encode(body, &mut bytes);
        assert!(bytes.len() - before <= RECORD_MAX_BYTES, "{body:?}: {} bytes", bytes.len() - before);
    }
    let mut reader = ServiceLevelCodec::new(&levels());
    let mut cursor = Cursor::new(&bytes, 0);
    for body in bodies {
        assert_eq!(reader.decode(&mut cursor).as_ref(), Ok(body));
    }
    assert_eq!(cursor.remaining(), 0);
    bytes
}

fn submit(t: Tick, job: JobId, p: Tick, level: LevelId) -> Body {
    Body::Event(Event::Submit { t, job, p, level })
}

fn accept(job: JobId, machine: MachineId, deadline: Tick, preempted: Option<JobId>) -> Body {
    Body::Decision(Decision::Accept { job, machine, deadline, preempted })
}

#[test]
fn a_typical_run_is_small() {
    let bodies = [
        submit(100, 1, 50, 0),
        accept(1, 0, 200, None),
        Body::Decision(Decision::Start { t: 100, job: 1, machine: 0 }),
        submit(120, 2, 10, 1),
        accept(2, 0, 135, Some(1)),
        Body::Decision(Decision::Preempt { t: 120, job: 1, machine: 0 }),
        Body::Decision(Decision::Start { t: 120, job: 2, machine: 0 }),
        submit(121, 3, 1000, 0),
        Body::Decision(Decision::Reject { job: 3, reason: RejectReason::NoFeasibleMachine }),
        Body::Event(Event::Advance { t: Tick::MAX }),
        Body::Decision(Decision::Complete { t: 130, job: 2, machine: 0 }),
        Body::Decision(Decision::Start { t: 130, job: 1, machine: 0 }),
        Body::Decision(Decision::Complete { t: 160, job: 1, machine: 0 }),
        Body::Event(Event::Reset),
    ];
    let bytes = round_trip(&bodies);
    assert!(bytes.len() <= 2 * bodies.len(), "{} bytes", bytes.len());
}

#[test]
fn every_field_round_trips_at_its_edges() {
    let mut bodies = Vec::new();
    for t in [0, 1, 127, 128, u64::MAX - 1, u64::MAX, 5] {
        for job in [0, 1, u32::MAX, 7] {
            for machine in [0, 6, 7, 63, 64, u16::MAX, 2] {
                bodies.push(submit(t, job, t ^ 3, (job % 256) as u8));
                bodies.push(accept(job, machine, t, Some(job ^ 1)));
                bodies.push(accept(job, machine, t / 2, None));
                bodies.push(Body::Decision(Decision::Start { t, job, machine }));
                bodies.push(Body::Decision(Decision::Preempt { t: t / 3, job: !job, machine }));
                bodies.push(Body::Decision(Decision::Complete { t, job, machine }));
                bodies.push(Body::Event(Event::Advance { t }));
            }
        }
        bodies.push(Body::Event(Event::Reset));
    }
    round_trip(&bodies);
}

#[test]
fn every_reason_and_level_round_trips() {
    let reasons = [
        RejectReason::NoFeasibleMachine,
        RejectReason::QueueFull,
        RejectReason::ZeroProcessingTime,
        RejectReason::UnknownLevel,
        RejectReason::TimeWentBackwards,
        RejectReason::Overflow,
    ];
    let mut bodies = Vec::new();
    for level in [0, 1, 2, 14, 15, 16, 255] {
        for (job, reason) in (0..).zip(reasons) {
            bodies.push(submit(job.into(), job, 3, level));
            bodies.push(Body::Decision(Decision::Reject { job, reason }));
            bodies.push(Body::Decision(Decision::Reject { job: job + 9, reason }));
            // An accept of a level the table lacks keeps its deadline explicitly.
            bodies.push(accept(job, 1, 99, None));
        }
    }
    round_trip(&bodies);
}

#[test]
fn predicted_fields_take_no_bytes() {
    // The job follows the last submit's, the deadline is its level's, machine 0.
    let bytes = round_trip(&[submit(10, 1, 4, 0), accept(1, 0, 18, None)]);
    assert_eq!(bytes.len(), 4);
    // A wrong deadline is kept, at the cost of the job and the deadline.
    assert_eq!(round_trip(&[submit(10, 1, 4, 0), accept(1, 0, 17, None)]).len(), 6);
}

#[test]
fn bad_tags_and_short_records_are_refused() {
    let decode = |bytes: &[u8]| ServiceLevelCodec::new(&levels()).decode(&mut Cursor::new(bytes, 0));
    // A Reset with flags 1 to 16 is a reservation record (v3); 17 and up are not.
    assert_eq!(decode(&[tag(RESET, 1)]), Err(CodecError::End));
    assert_eq!(decode(&[tag(RESET, 17)]), Err(CodecError::Tag(tag(RESET, 17))));
    assert_eq!(decode(&[tag(ADVANCE, 2)]), Err(CodecError::Tag(tag(ADVANCE, 2))));
    assert_eq!(decode(&[tag(REJECT, 6)]), Err(CodecError::Tag(tag(REJECT, 6))));
    assert_eq!(decode(&[tag(START, RESERVED)]), Err(CodecError::Tag(tag(START, RESERVED))));
    assert_eq!(decode(&[tag(SUBMIT, 0), 2]), Err(CodecError::End));
    assert_eq!(decode(&[]), Err(CodecError::End));
    // The context's submit is job 0 at t = 0 with p = 0 on level 0: deadline 0.
    assert_eq!(decode(&[tag(ACCEPT, 0)]), Ok(accept(0, 0, 0, None)));
    let mut no_levels = ServiceLevelCodec::new(&[]);
    assert_eq!(no_levels.decode(&mut Cursor::new(&[tag(ACCEPT, 0)], 0)), Err(CodecError::Deadline));
    let overflow =
        [tag(COMPLETE, AFTER_MACHINE_TIME), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 1];
    let mut codec = ServiceLevelCodec::new(&levels());
    codec.context.machines[0].time = 1;
    assert_eq!(codec.decode(&mut Cursor::new(&overflow, 0)), Err(CodecError::Range));
}

#[test]
fn time_modes_prefer_the_shortest_and_then_the_earliest() {
    assert_eq!(time_mode(5, 5, 5), (AT_MACHINE_TIME, None));
    assert_eq!(time_mode(9, 5, 9), (AT_EVENT_TIME, None));
    assert_eq!(time_mode(9, 5, 100), (AFTER_MACHINE_TIME, Some(4)));
    assert_eq!(time_mode(99, 5, 100), (AFTER_MACHINE_TIME, Some(94)));
    assert_eq!(time_mode(999, 5, 1000), (AROUND_EVENT_TIME, Some(1)));
    assert_eq!(time_mode(4, 5, u64::MAX), (AROUND_EVENT_TIME, Some(varint::step(u64::MAX, 4))));
}

#[test]
fn reservation_records_round_trip_at_their_edges() {
    use kernel::reservation::{Decision as D, Event as E, RejectReason as R, Request, RequestKind};
    let reasons = [
        R::TimeWentBackwards,
        R::ZeroNodes,
        R::TooManyNodes,
        R::ZeroEstimate,
        R::WindowTooShort,
        R::KindMismatch,
        R::WindowPassed,
        R::DuplicateJob,
        R::QueueFull,
        R::BeyondHorizon,
        R::NoRoom,
        R::NotRunning,
    ];
    let kinds = [RequestKind::Strict, RequestKind::RelaxedStart, RequestKind::Flexible];
    let mut bodies = vec![submit(5, 1, 2, 0)];
    for (i, t) in [0, 1, 127, 128, u64::MAX - 1, u64::MAX, 5].into_iter().enumerate() {
        for job in [0, 1, u32::MAX, 7] {
            let kind = kinds[(i + job as usize) % kinds.len()];
            let request = Request {
                t,
                job,
                nodes: job ^ 5,
                estimate: t ^ 9,
                ready: t / 3,
                deadline: !t,
                kind,
                shuffle_key: !job,
            };
            bodies.push(Body::ReservationEvent(E::Request(request)));
            bodies.push(Body::ReservationDecision(D::Accept { job, start: t / 2 }));
            bodies.push(Body::ReservationDecision(D::Replan { job: !job, start: !t }));
            bodies.push(Body::ReservationDecision(D::Offer { job, ready: t, deadline: t / 7, start: !t }));
            bodies.push(Body::ReservationDecision(D::Reject { job, reason: reasons[i % reasons.len()] }));
            bodies.push(Body::ReservationDecision(D::Fix { t, job: !job }));
            bodies.push(Body::ReservationDecision(D::Start { t: !t, job }));
            for (early, cut) in [(false, false), (true, false), (false, true), (true, true)] {
                bodies.push(Body::ReservationDecision(D::End { t, job, early, cut }));
            }
            bodies.push(Body::ReservationEvent(E::Finish { t: !t, job: !job }));
            bodies.push(Body::ReservationEvent(E::Advance { t }));
            // A service-level record between reservation ones keeps both contexts.
            bodies.push(Body::Decision(Decision::Start { t, job, machine: 3 }));
        }
        bodies.push(Body::ReservationEvent(E::Reset));
    }
    for reason in reasons {
        bodies.push(Body::ReservationDecision(D::Reject { job: 3, reason }));
    }
    round_trip(&bodies);
}

#[test]
fn unused_reservation_tags_and_reasons_are_malformed() {
    for number in 17..32u8 {
        let byte = tag(RESET, number);
        let mut reader = ServiceLevelCodec::new(&levels());
        assert_eq!(reader.decode(&mut Cursor::new(&[byte, 0, 0, 0], 0)), Err(CodecError::Tag(byte)));
    }
    let mut reader = ServiceLevelCodec::new(&levels());
    assert_eq!(reader.decode(&mut Cursor::new(&[tag(RESET, 8), 0, 12], 0)), Err(CodecError::Reason(12)));
}

#[test]
fn the_widest_record_is_a_request_of_record_max_bytes() {
    use kernel::reservation::{Event as E, Request, RequestKind};
    // Every step as far from its base as it gets: i64::MIN zigzags to u64::MAX.
    let t = 1u64 << 63;
    let request = Request {
        t,
        job: u32::MAX / 2 + 2,
        nodes: u32::MAX,
        estimate: u64::MAX,
        ready: 0,
        deadline: t - 1,
        kind: RequestKind::Flexible,
        shuffle_key: u32::MAX,
    };
    let bytes = round_trip(&[Body::ReservationEvent(E::Request(request))]);
    assert_eq!(bytes.len(), RECORD_MAX_BYTES);
}
