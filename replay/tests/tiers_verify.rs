//! `verify` of a tiers log, whose decisions are re-made on one thread while the log is
//! read and audited on another, in many batches: the error reported is the one a
//! single loop meets first, whichever side meets it.

use kernel::log::Body;
use kernel::tiers::{Config, Decision, Event, Group, Policy, Request, Resource, Tier};
use replay::engine::tiers::{TiersEngine, header};
use replay::format::{Header, LogReader, Model};
use replay::verify::{VerifyError, audit};

mod common;
use common::{log_of, verify_bytes};

fn resources() -> Vec<Resource> {
    let desktop = Resource { group: Group::Low, nodes: 1, speed_milli: 1000 };
    vec![Resource { group: Group::High, nodes: 2, speed_milli: 1000 }, desktop, desktop]
}

/// A seeded run of Silver and Bronze submits, with finishes of running jobs at
/// random (Gold, whose promise the audit holds to the finish times, is left out),
/// closed by an advance past every deadline.
fn long_run() -> (Header, Vec<Body>) {
    let config = Config { slot_ticks: 60, ..Config::new(Policy::QosRes) };
    let header_ = Header::new(Model::Tiers(header(config, &resources()))).with_input("unit", 4);
    let mut engine = TiersEngine::new(config, &resources()).unwrap();
    let (mut bodies, mut running, mut draw) = (Vec::new(), Vec::new(), 7u64);
    for job in 0..=6_000u32 {
        draw = draw.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        let t = u64::from(job) * 90;
        let event = match (draw >> 40) % 4 {
            // A day on, the jobs still running are late.
            _ if job == 6_000 => Event::Advance { t: t + 86_400 },
            0 if !running.is_empty() => Event::Finish { t, job: running.remove(0) },
            _ => {
                let (tier, work) = ([Tier::Silver, Tier::Bronze][job as usize % 2], 60 + (draw >> 50));
                Event::Submit(Request { t, job, tier, work, ready: t, deadline: t + 3 * work })
            }
        };
        let mut decisions = Vec::new();
        engine.step(event, &mut decisions);
        running.extend(decisions.iter().filter_map(|d| match d {
            Decision::Start { job, .. } => Some(*job),
            _ => None,
        }));
        bodies.push(Body::TiersEvent(event));
        bodies.extend(decisions.into_iter().map(Body::TiersDecision));
    }
    (header_, bodies)
}

#[test]
fn the_first_error_of_a_long_tiers_log_is_reported_whichever_side_meets_it() {
    let (header, mut bodies) = long_run();
    assert!(bodies.len() > 12_000, "{} records", bodies.len());
    let report = verify_bytes(&log_of(&header, &bodies)).unwrap();
    assert_eq!(report.records, bodies.len() as u64);
    assert_eq!(report, audit(LogReader::new(&log_of(&header, &bodies)[..]).unwrap()).unwrap());
    // An acceptance moved to a start an hour later, four fifths in: the re-making
    // side's divergence comes before the audit's complaint about it.
    let at = (bodies.len() * 4 / 5..bodies.len())
        .find(|&i| matches!(bodies[i], Body::TiersDecision(Decision::Accept { .. })))
        .unwrap();
    if let Body::TiersDecision(Decision::Accept { start, .. }) = &mut bodies[at] {
        *start += 3_600;
    }
    let log = log_of(&header, &bodies);
    let audited = audit(LogReader::new(&log[..]).unwrap()).unwrap_err();
    assert!(
        matches!(audited, VerifyError::Promise { seq, promise: "tiers promise", .. } if seq > at as u64),
        "{audited}"
    );
    assert!(audited.to_string().starts_with("broken tiers promise before record "), "{audited}");
    common::damage_after_and_before(&log, at);
    // The last decision, a job's lateness, missing: the kernel decided more than the
    // log holds, at its end, before the audit's last word (a late job never violated).
    let (_, honest) = long_run();
    let last = honest.len() - 1;
    assert!(matches!(honest[last], Body::TiersDecision(Decision::Violate { .. })), "{:?}", honest[last]);
    let cut = log_of(&header, &honest[..last]);
    let audited = audit(LogReader::new(&cut[..]).unwrap()).unwrap_err();
    assert!(
        matches!(audited, VerifyError::Promise { seq, promise: "tiers promise", .. } if seq == last as u64),
        "{audited}"
    );
    common::diverges_at_its_end(&cut, last);
}
