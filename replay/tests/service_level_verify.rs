//! `verify` on logs that were tampered with: the first divergence is reported with
//! its sequence number, time, and the logged and re-made records.

use kernel::Tick;
use kernel::log::Body;
use kernel::service_level::{Decision, Event, Level, Policy};
use replay::engine::service_level::ServiceLevelEngine;
use replay::format::{Header, LogReader, Model, ServiceLevelHeader};
use replay::verify::{VerifyError, verify};

mod common;
use common::{log_of, verify_bytes};

/// The records of a short two-machine run, as the kernel makes them.
fn honest_run() -> (Header, Vec<Body>) {
    let header =
        Header::new(ServiceLevelHeader::new(2, 16, Policy::FirstFit, vec![Level::whole(1, 20)]).into())
            .with_input("unit", 1);
    let mut engine = ServiceLevelEngine::from_header(header.service_level().unwrap()).unwrap();
    let events = [
        Event::Submit { t: 0, job: 1, p: 10, level: 0 },
        Event::Submit { t: 0, job: 2, p: 10, level: 0 },
        Event::Submit { t: 3, job: 3, p: 1, level: 0 },
        Event::Advance { t: Tick::MAX },
    ];
    (header, records(&mut engine, events))
}

/// The records of `events` and the decisions `engine` makes for them.
fn records(engine: &mut ServiceLevelEngine, events: impl IntoIterator<Item = Event>) -> Vec<Body> {
    let mut bodies = Vec::new();
    for event in events {
        let mut decisions = Vec::new();
        engine.step(event, &mut decisions);
        bodies.push(Body::Event(event));
        bodies.extend(decisions.into_iter().map(Body::Decision));
    }
    bodies
}

#[test]
fn an_honest_log_verifies_with_its_counts() {
    let (header, bodies) = honest_run();
    let report = verify_bytes(&log_of(&header, &bodies)).unwrap();
    assert_eq!((report.events, report.accepted, report.rejected, report.completed), (4, 2, 1, 2));
    assert_eq!(report.records, bodies.len() as u64);
}

#[test]
fn a_changed_decision_is_the_first_divergence() {
    let (header, mut bodies) = honest_run();
    let at =
        bodies.iter().position(|b| matches!(b, Body::Decision(Decision::Accept { job: 2, .. }))).unwrap();
    bodies[at] = Body::Decision(Decision::Accept { job: 2, machine: 0, deadline: 10, preempted: None });
    let error = verify_bytes(&log_of(&header, &bodies)).unwrap_err();
    assert_eq!(
        error.to_string(),
        format!(
            "divergence at record {at} (t = 0):\n  expected (log):      accept job 2 on m0, deadline 10\n  \
             actual (kernel):     accept job 2 on m1, deadline 10"
        )
    );
}

#[test]
fn a_missing_decision_and_an_extra_one_diverge() {
    let (header, bodies) = honest_run();
    let last = bodies.len() - 1;
    let error = verify_bytes(&log_of(&header, &bodies[..last])).unwrap_err();
    assert!(
        matches!(&error, VerifyError::Diverged(d) if d.logged.is_none() && d.seq == last as u64),
        "{error}"
    );
    let mut extra = bodies.clone();
    extra.insert(
        1,
        Body::Decision(Decision::Reject { job: 1, reason: kernel::service_level::RejectReason::QueueFull }),
    );
    let error = verify_bytes(&log_of(&header, &extra)).unwrap_err();
    assert!(matches!(&error, VerifyError::Diverged(d) if d.seq == 1), "{error}");
}

#[test]
fn a_log_of_another_configuration_diverges() {
    let (mut header, bodies) = honest_run();
    header.service_level_mut().unwrap().machines = 1;
    let error = verify_bytes(&log_of(&header, &bodies)).unwrap_err();
    assert!(matches!(error, VerifyError::Diverged(_)), "{error}");
}

#[test]
fn version_2_logs_still_read_and_verify() {
    // Two logs that the build before format version 3 committed under
    // `snapshots/logs/`, kept byte for byte: version 2 after the magic and in the
    // header, and the header without its `reservation` field.
    for (name, bytes) in [
        ("v2_synthetic.log", &include_bytes!("data/v2_synthetic.log")[..]),
        ("v2_preemption.log", &include_bytes!("data/v2_preemption.log")[..]),
    ] {
        assert_eq!(bytes[8..10], [2, 0], "{name}");
        let reader = LogReader::new(bytes).unwrap();
        assert_eq!(reader.header().format_version, 2, "{name}");
        assert!(matches!(reader.header().model, Model::ServiceLevel(_)), "{name}");
        let report = verify(reader).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(report.records > 10 && report.accepted > 0, "{name}: {report:?}");
    }
}

#[test]
fn version_3_logs_still_read_and_verify() {
    // Two logs that the build before format version 4 committed under
    // `snapshots/logs/`, kept byte for byte: their headers hold a command line and
    // no settings, which this build reads and drops.
    for (name, bytes) in [
        ("v3_preemption.log", &include_bytes!("data/v3_preemption.log")[..]),
        ("v3_resv_offers.log", &include_bytes!("data/v3_resv_offers.log")[..]),
    ] {
        assert_eq!(bytes[8..10], [3, 0], "{name}");
        let reader = LogReader::new(bytes).unwrap();
        assert_eq!(reader.header().format_version, 3, "{name}");
        assert!(reader.header().settings.is_empty(), "{name}");
        let report = verify(reader).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(report.records > 10 && report.accepted > 0, "{name}: {report:?}");
    }
    let reservation = LogReader::new(&include_bytes!("data/v3_resv_offers.log")[..]).unwrap();
    assert!(reservation.header().reservation().is_some());
}

/// A change to a header.
type Damage = fn(&mut Header);

/// The service level's part of `header`, to damage.
fn sl(header: &mut Header) -> &mut ServiceLevelHeader {
    header.service_level_mut().unwrap()
}

/// Verify holds the header's text fields and configuration to their ranges, and
/// names the field that is out of range.
#[test]
fn a_header_out_of_range_is_refused_by_field() {
    let (header, bodies) = honest_run();
    let cases: Vec<(Damage, &str)> = vec![
        (
            |h| h.inputs[0].hash = "12345".into(),
            "header field `inputs[0].hash`: `12345` is not 16 lower-case hex digits",
        ),
        (|h| h.inputs[0].hash = "0123456789ABCDEF".into(), "header field `inputs[0].hash`"),
        (
            |h| h.inputs[0].name = "traces/kth.swf".into(),
            "header field `inputs[0].name`: `traces/kth.swf` names a folder",
        ),
        (
            |h| h.inputs[0].name = "a\u{7}b".into(),
            "header field `inputs[0].name`: holds the control character",
        ),
        (|h| h.inputs[0].name.clear(), "header field `inputs[0].name`: is empty"),
        (|h| h.inputs.clear(), "header field `inputs`: is empty"),
        (|h| h.kernel_version = "0.1\n".into(), "header field `kernel_version`: holds the control character"),
        (|h| sl(h).machines = 65, "header field `machines`: 65 is not from 1 to 64"),
        (
            |h| sl(h).queue_capacity = 100,
            "header field `queue_capacity`: 100 is not one of the compiled sizes",
        ),
        (
            |h| sl(h).levels[0].slack_milli = 999,
            "header field `levels[0].slack_milli`: slack factor 999/1000 is below 1",
        ),
        (|h| sl(h).levels.clear(), "header field `levels`: 0 levels"),
        (|h| h.window_ticks = Some(0), "header field `window_ticks`: is 0"),
        (|h| h.set("alpha", "1.50"), "header field `settings.alpha`: `1.50` is not a decimal"),
        (|h| h.set("flex", "huge"), "header field `settings.flex`: `huge` is not none, short, medium, long"),
        (|h| h.set("colour", "blue"), "header field `settings.colour`: is not a setting of this format"),
        (|h| h.set("Alpha", "1"), "header field `settings[0].key`: `Alpha` is not a kebab-case key"),
        (
            |h| {
                h.set("load", "1");
                h.settings.reverse();
                h.settings.insert(0, replay::format::Setting::new("skip-bad-lines", "true"));
            },
            "header field `settings.load`: comes after `skip-bad-lines`; keys are sorted and unique",
        ),
    ];
    for (damage, expected) in cases {
        let mut bad = header.clone();
        damage(&mut bad);
        let error = verify_bytes(&log_of(&bad, &bodies)).unwrap_err().to_string();
        assert!(error.starts_with(expected), "expected {expected:?}, got {error:?}");
    }
    let mut good = header;
    good.set("alpha", "0.5");
    good.set("skip-bad-lines", "false");
    assert!(verify_bytes(&log_of(&good, &bodies)).is_ok());
}

/// A run long enough that its log is read on one thread and re-made on the other in
/// many batches: 12,000 submits on two machines, most of them rejected.
fn long_run() -> (Header, Vec<Body>) {
    let header =
        Header::new(ServiceLevelHeader::new(2, 16, Policy::FirstFit, vec![Level::whole(1, 20)]).into())
            .with_input("unit", 2);
    let mut engine = ServiceLevelEngine::from_header(header.service_level().unwrap()).unwrap();
    let submits = (0..12_000u64).map(|i| Event::Submit { t: i, job: i as u32, p: 1 + i % 7, level: 0 });
    (header, records(&mut engine, submits.chain([Event::Advance { t: Tick::MAX }])))
}

#[test]
fn the_first_error_of_a_long_log_is_reported_whichever_side_meets_it() {
    let (header, mut bodies) = long_run();
    assert_eq!(verify_bytes(&log_of(&header, &bodies)).unwrap().records, bodies.len() as u64);
    // An acceptance moved to the other machine, four fifths in: the re-making side's
    // divergence comes before the audit's complaint about the schedule it makes.
    let at = (bodies.len() * 4 / 5..bodies.len())
        .find(|&i| matches!(bodies[i], Body::Decision(Decision::Accept { .. })))
        .unwrap();
    if let Body::Decision(Decision::Accept { machine, .. }) = &mut bodies[at] {
        *machine = 1 - *machine;
    }
    let log = log_of(&header, &bodies);
    let audited = replay::verify::audit(LogReader::new(&log[..]).unwrap()).unwrap_err();
    assert!(matches!(audited, VerifyError::Promise { seq, .. } if seq > at as u64), "{audited}");
    // The service level's promise is worded as it always was: no model's name before it.
    assert!(audited.to_string().starts_with("broken promise before record "), "{audited}");
    common::damage_after_and_before(&log, at);
    let (_, honest) = long_run();
    let last = honest.len() - 1;
    common::diverges_at_its_end(&log_of(&header, &honest[..last]), last);
}
