//! `verify` on logs that were tampered with: the first divergence is reported with
//! its sequence number, time, and the logged and re-made records.

use kernel::log::Body;
use kernel::{Decision, Event, Level, Policy, Tick};
use replay::engine::Engine;
use replay::format::{Header, LogReader, LogWriter};
use replay::verify::{VerifyError, verify};

/// The records of a short two-machine run, as the kernel makes them.
fn honest_run() -> (Header, Vec<Body>) {
    let header = Header::new(2, 16, Policy::FirstFit, vec![Level::whole(1, 20)]);
    let mut engine = Engine::from_header(&header).unwrap();
    let events = [
        Event::Submit { t: 0, job: 1, p: 10, level: 0 },
        Event::Submit { t: 0, job: 2, p: 10, level: 0 },
        Event::Submit { t: 3, job: 3, p: 1, level: 0 },
        Event::Advance { t: Tick::MAX },
    ];
    let mut bodies = Vec::new();
    for event in events {
        let mut decisions = Vec::new();
        engine.step(event, &mut decisions);
        bodies.push(Body::Event(event));
        bodies.extend(decisions.into_iter().map(Body::Decision));
    }
    (header, bodies)
}

fn log_of(header: &Header, bodies: &[Body]) -> Vec<u8> {
    let mut writer = LogWriter::new(Vec::new(), header).unwrap();
    bodies.iter().for_each(|b| writer.record(*b).unwrap());
    writer.finish().unwrap()
}

fn verify_bytes(bytes: &[u8]) -> Result<replay::verify::Report, VerifyError> {
    verify(LogReader::new(bytes).unwrap())
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
    extra.insert(1, Body::Decision(Decision::Reject { job: 1, reason: kernel::RejectReason::QueueFull }));
    let error = verify_bytes(&log_of(&header, &extra)).unwrap_err();
    assert!(matches!(&error, VerifyError::Diverged(d) if d.seq == 1), "{error}");
}

#[test]
fn a_log_of_another_configuration_diverges() {
    let (mut header, bodies) = honest_run();
    header.machines = 1;
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
        assert_eq!(reader.header().reservation, None, "{name}");
        let report = verify(reader).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(report.records > 10 && report.accepted > 0, "{name}: {report:?}");
    }
}
