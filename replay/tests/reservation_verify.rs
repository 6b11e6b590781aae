//! `verify` on reservation logs: an honest run verifies with its counts, a changed
//! decision is the first divergence, a service-level record is refused by name; and
//! the audit, on its own, catches each broken promise.

use kernel::Tick;
use kernel::log::Body;
use kernel::reservation::{Config, Criterion, Decision, Event, Fixing, Request, RequestKind};
use kernel::service_level::{Level, Policy};
use replay::engine::reservation::{self, ReservationEngine};
use replay::format::{Header, LogReader, LogWriter, Model, ServiceLevelHeader};
use replay::model::reservation::{ReservationAudit, ReservationViolation};
use replay::verify::ReservationCounts;
use replay::verify::VerifyError;

mod common;
use common::{log_of, verify_bytes};

fn request(
    t: Tick,
    job: u32,
    nodes: u32,
    estimate: Tick,
    ready: Tick,
    deadline: Tick,
    kind: RequestKind,
) -> Request {
    Request { t, job, nodes, estimate, ready, deadline, kind, shuffle_key: job }
}

fn config() -> Config {
    Config { nodes: 4, slot_ticks: 10, criterion: Criterion::Edf, fixing: Fixing::Half, offer_trials: 8 }
}

/// A short run: two requests that fill the pool, one that moves, one rejected with
/// offers, an early finish, and the drain.
fn honest_run() -> (Header, Vec<Body>) {
    let header = Header::new(Model::Reservation(reservation::header(config()))).with_input("unit", 1);
    let mut engine = ReservationEngine::new(config()).unwrap();
    let events = [
        Event::Request(request(0, 1, 4, 20, 10, 100, RequestKind::Flexible)),
        Event::Request(request(0, 2, 2, 20, 10, 30, RequestKind::Strict)),
        Event::Request(request(5, 3, 4, 50, 0, 60, RequestKind::RelaxedStart)),
        Event::Finish { t: 25, job: 2 },
        Event::Advance { t: Tick::MAX },
    ];
    let mut bodies = Vec::new();
    for event in events {
        let mut decisions = Vec::new();
        engine.step(event, &mut decisions);
        bodies.push(Body::ReservationEvent(event));
        bodies.extend(decisions.into_iter().map(Body::ReservationDecision));
    }
    (header, bodies)
}

#[test]
fn an_honest_reservation_log_verifies_with_its_counts() {
    let (header, bodies) = honest_run();
    let report = verify_bytes(&log_of(&header, &bodies)).unwrap();
    assert_eq!(report.records, bodies.len() as u64);
    assert_eq!(report.events, 5);
    let Some(counts) = report.counts::<ReservationCounts>() else {
        panic!("not a reservation log: {report:?}")
    };
    assert!(report.accepted >= 2, "{report:?}");
    assert!(report.rejected >= 1 && counts.offers >= 1, "{report:?}");
    assert_eq!(counts.starts, report.accepted);
    assert_eq!(report.completed, report.accepted);
    assert_eq!(counts.early, 1);
}

#[test]
fn a_changed_reservation_decision_is_the_first_divergence() {
    let (header, mut bodies) = honest_run();
    let at =
        bodies.iter().position(|b| matches!(b, Body::ReservationDecision(Decision::Accept { .. }))).unwrap();
    let Body::ReservationDecision(Decision::Accept { job, start }) = bodies[at] else { unreachable!() };
    bodies[at] = Body::ReservationDecision(Decision::Accept { job, start: start + 1 });
    let error = verify_bytes(&log_of(&header, &bodies)).unwrap_err();
    let VerifyError::Diverged(divergence) = error else { panic!("{error}") };
    assert_eq!(divergence.seq, at as u64);
    assert_eq!(divergence.kernel, Some(Body::ReservationDecision(Decision::Accept { job, start })));
}

#[test]
fn records_of_the_other_kernel_are_refused_by_name() {
    let (header, mut bodies) = honest_run();
    bodies.insert(1, Body::Event(kernel::service_level::Event::Reset));
    let error = verify_bytes(&log_of(&header, &bodies)).unwrap_err();
    assert_eq!(
        error.to_string(),
        "record 1 is a service-level record in a log whose header is for the reservation kernel"
    );
    let mut service = header.clone();
    service.model =
        Model::ServiceLevel(ServiceLevelHeader::new(1, 16, Policy::FirstFit, vec![Level::whole(1, 1)]));
    let error = verify_bytes(&log_of(&service, &bodies[..1])).unwrap_err();
    assert_eq!(
        error.to_string(),
        "record 0 is a reservation record in a log whose header is for the service-level kernel"
    );
}

#[test]
fn the_audit_catches_each_broken_promise() {
    let r = |job, nodes, kind| request(0, job, nodes, 10, 10, 40, kind);
    let req = |q: Request| Event::Request(q);
    let advance = Event::Advance { t: 100 };
    // Two reservations of 3 of 4 nodes that overlap in time.
    let mut audit = ReservationAudit::new(4);
    audit.step(&req(r(1, 3, RequestKind::Flexible)), &[Decision::Accept { job: 1, start: 10 }]).unwrap();
    audit.step(&req(r(2, 3, RequestKind::Flexible)), &[Decision::Accept { job: 2, start: 15 }]).unwrap();
    audit
        .step(
            &advance,
            &[
                Decision::Start { t: 10, job: 1 },
                Decision::Start { t: 15, job: 2 },
                Decision::End { t: 20, job: 1, early: false, cut: true },
                Decision::End { t: 25, job: 2, early: false, cut: true },
            ],
        )
        .unwrap();
    assert_eq!(audit.finish(), Err(ReservationViolation::Overcommit { t: 15, used: 6, nodes: 4 }));
    // Back to back is no overlap: intervals are half open.
    let mut audit = ReservationAudit::new(4);
    audit.step(&req(r(1, 3, RequestKind::Flexible)), &[Decision::Accept { job: 1, start: 10 }]).unwrap();
    audit.step(&req(r(2, 3, RequestKind::Flexible)), &[Decision::Accept { job: 2, start: 20 }]).unwrap();
    audit
        .step(
            &advance,
            &[
                Decision::Start { t: 10, job: 1 },
                Decision::Start { t: 20, job: 2 },
                Decision::End { t: 20, job: 1, early: false, cut: true },
                Decision::End { t: 30, job: 2, early: false, cut: true },
            ],
        )
        .unwrap();
    assert_eq!(audit.finish(), Ok(()));
    // A start before the window opens.
    let mut audit = ReservationAudit::new(4);
    let error = audit.step(&req(r(1, 1, RequestKind::Flexible)), &[Decision::Accept { job: 1, start: 5 }]);
    assert!(matches!(error, Err(ReservationViolation::OutsideWindow { job: 1, start: 5, .. })), "{error:?}");
    // A relaxed request's window opens at its time, whatever its `ready` says.
    let mut audit = ReservationAudit::new(4);
    audit.step(&req(r(1, 1, RequestKind::RelaxedStart)), &[Decision::Accept { job: 1, start: 0 }]).unwrap();
    // A start that is not the planned one; a re-plan after a fix.
    let error = audit.step(&advance, &[Decision::Start { t: 1, job: 1 }]);
    assert_eq!(error, Err(ReservationViolation::NotAtPlannedStart { job: 1, t: 1, planned: 0 }));
    let mut audit = ReservationAudit::new(4);
    audit.step(&req(r(1, 1, RequestKind::Flexible)), &[Decision::Accept { job: 1, start: 20 }]).unwrap();
    let error =
        audit.step(&advance, &[Decision::Fix { t: 15, job: 1 }, Decision::Replan { job: 1, start: 10 }]);
    assert_eq!(error, Err(ReservationViolation::FixedMoved { job: 1 }));
    // A run longer than the estimate; an accept of a job that was not requested.
    let mut audit = ReservationAudit::new(4);
    audit.step(&req(r(1, 1, RequestKind::Flexible)), &[Decision::Accept { job: 1, start: 10 }]).unwrap();
    let error = audit.step(
        &advance,
        &[Decision::Start { t: 10, job: 1 }, Decision::End { t: 21, job: 1, early: false, cut: true }],
    );
    assert!(matches!(error, Err(ReservationViolation::Overran { job: 1, end: 21, .. })), "{error:?}");
    let error = audit.step(&req(r(2, 1, RequestKind::Flexible)), &[Decision::Accept { job: 3, start: 10 }]);
    assert!(matches!(error, Err(ReservationViolation::Unexpected { job: 3, .. })), "{error:?}");
    // A reservation that never started is reported at the end; a Reset forgives it.
    let mut audit = ReservationAudit::new(4);
    audit.step(&req(r(1, 1, RequestKind::Flexible)), &[Decision::Accept { job: 1, start: 10 }]).unwrap();
    assert_eq!(audit.clone().finish(), Err(ReservationViolation::Unfinished(vec![1])));
    audit.step(&Event::Reset, &[]).unwrap();
    assert_eq!(audit.finish(), Ok(()));
}

/// A small seeded generator (SplitMix64), so the runs are the same on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

#[test]
fn seeded_runs_of_every_criterion_and_fixing_verify() {
    let criteria = [
        Criterion::Fifo,
        Criterion::Edf,
        Criterion::LeastFlexibleFirst,
        Criterion::BiggestJobFirst,
        Criterion::Shuffle,
    ];
    let fixings = [Fixing::Never, Fixing::AtAcceptance, Fixing::Quarter, Fixing::Half, Fixing::ThreeQuarters];
    let kinds = [RequestKind::Strict, RequestKind::RelaxedStart, RequestKind::Flexible];
    let mut rng = Rng(7);
    for run in 0..50 {
        let config = Config {
            nodes: 1 + rng.below(8) as u32,
            slot_ticks: 1 + rng.below(10),
            criterion: criteria[run % criteria.len()],
            fixing: fixings[(run / criteria.len()) % fixings.len()],
            offer_trials: rng.below(12) as u16,
        };
        let header = Header::new(Model::Reservation(reservation::header(config))).with_input("unit", 1);
        let mut engine = ReservationEngine::new(config).unwrap();
        let mut writer = LogWriter::new(Vec::new(), &header).unwrap();
        let mut t = 0;
        for job in 0..60u32 {
            t += rng.below(15);
            let event = match rng.below(10) {
                0..=5 => {
                    let estimate = 1 + rng.below(40);
                    let ready = t + rng.below(30);
                    let kind = kinds[rng.below(3) as usize];
                    let slack = match kind {
                        RequestKind::Strict => 0,
                        _ => 1 + rng.below(60),
                    };
                    let nodes = 1 + rng.below(u64::from(config.nodes) + 1) as u32;
                    Event::Request(Request {
                        t,
                        job,
                        nodes,
                        estimate,
                        ready,
                        deadline: ready + estimate + slack,
                        kind,
                        shuffle_key: rng.next() as u32,
                    })
                }
                6..=7 => Event::Finish { t, job: rng.below(u64::from(job) + 1) as u32 },
                8 => Event::Advance { t },
                _ if rng.below(4) == 0 => {
                    t = 0;
                    Event::Reset
                }
                _ => Event::Advance { t },
            };
            let mut decisions = Vec::new();
            engine.step(event, &mut decisions);
            writer.record(Body::ReservationEvent(event)).unwrap();
            decisions.into_iter().for_each(|d| writer.record(Body::ReservationDecision(d)).unwrap());
        }
        let mut decisions = Vec::new();
        let end = Event::Advance { t: Tick::MAX };
        engine.step(end, &mut decisions);
        writer.record(Body::ReservationEvent(end)).unwrap();
        decisions.into_iter().for_each(|d| writer.record(Body::ReservationDecision(d)).unwrap());
        let bytes = writer.finish().unwrap();
        verify_bytes(&bytes).unwrap_or_else(|e| panic!("run {run} ({config:?}): {e}"));
    }
}

#[test]
fn export_and_show_print_reservation_records() {
    let (header, bodies) = honest_run();
    let bytes = log_of(&header, &bodies);
    let mut out = Vec::new();
    replay::export::jsonl(LogReader::new(&bytes[..]).unwrap(), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), bodies.len() + 1);
    assert!(
        lines[0].contains(r#""model":{"Reservation":{"config":{"criterion":"Edf","fixing":"Half","nodes":4,"offer_trials":8,"slot_ticks":10},"offers":8,"running":2048,"slots":65536,"waiting":2048}}"#),
        "{}",
        lines[0]
    );
    assert_eq!(
        lines[1],
        r#"{"kind":"request","seq":0,"t":0,"job":1,"nodes":4,"estimate":20,"ready":10,"deadline":100,"request":"flexible","shuffle_key":1}"#
    );
    assert_eq!(lines[2], r#"{"kind":"resv_accept","seq":1,"t":0,"job":1,"start":10}"#);
    for kind in ["resv_reject", "offer", "finish", "resv_start", "end", "resv_advance"] {
        assert!(text.contains(&format!(r#"{{"kind":"{kind}","#)), "no {kind} in\n{text}");
    }
    let mut out = Vec::new();
    replay::export::show(LogReader::new(&bytes[..]).unwrap(), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.contains("reservations: 4 nodes, 10-tick slots, criterion edf, fixing half, 8 offer trials"),
        "{text}"
    );
    assert!(
        text.contains("       0  t=0 request job 1: 4 nodes x 20 ticks, flexible window [10, 100], key 1\n"),
        "{text}"
    );
    assert!(text.contains("       1    accept job 1, start 10\n"), "{text}");
}
