//! The comparison over real streams: a stream decided on the host, written as the
//! firmware writes it (`kernel::stream`), against the host's records of a changed copy.

use kernel::log::Body;
use kernel::service_level::{Event, Level};

use super::compare::{compare, stream_of};
use super::scenarios;
use super::streams::{self, ServiceConfig, decide_service, service_model};

/// A small stream that admits, preempts and rejects on 4 machines.
fn events() -> Vec<Body> {
    let mut events = Vec::new();
    for job in 1..=200u32 {
        let t = u64::from(job) * 3;
        let p = 5 + u64::from(job * 7919 % 40);
        events.push(Body::Event(Event::Submit { t, job, p, level: (job % 2) as u8 }));
    }
    events.push(Body::Event(Event::Advance { t: u64::MAX }));
    events
}

fn config() -> ServiceConfig {
    ServiceConfig { machines: 4, levels: vec![Level::whole(1, 1), Level::whole(3, 2)] }
}

/// The firmware ran the true stream; the host's copy has one processing time
/// changed: the comparison fails and names the first record that differs, which
/// is the changed submit itself (the events are recorded too).
#[test]
fn one_changed_processing_time_is_named_by_its_record() {
    let events = events();
    let model = || service_model(&config()).unwrap();
    let firmware = stream_of(model(), &decide_service(&config(), &events).unwrap()).unwrap();
    let mut tampered = events.clone();
    let Body::Event(Event::Submit { p, .. }) = &mut tampered[120] else { panic!() };
    *p += 1;
    let host = decide_service(&config(), &tampered).unwrap();
    let position = host
        .iter()
        .position(|r| r.body == tampered[120])
        .expect("the tampered submit is among the host's records");
    let err = compare("service-level", &firmware, model(), &host).unwrap_err();
    assert!(
        err.starts_with(&format!("service-level: the firmware's records differ from the host's: record {position} differs: firmware Record {{ seq: {position}, body: Event(Submit")),
        "{err}"
    );
    // And the untampered host side agrees byte for byte.
    let host = decide_service(&config(), &events).unwrap();
    assert_eq!(compare("service-level", &firmware, model(), &host), Ok(host.len()));
}

/// The same on the real stream (the first 5,000 NASA jobs), when the shared traces
/// are here: the 1000th submit's processing time, changed on the host side, is the
/// record named.
#[test]
fn a_changed_processing_time_in_the_nasa_stream_is_named() {
    let trace = crate::cmd::root().join("../shared/traces").join(streams::SERVICE_TRACE);
    if !trace.exists() {
        eprintln!("skipped: {} is absent", trace.display());
        return;
    }
    let stream = streams::service(&trace).unwrap();
    let model = || service_model(&stream.config).unwrap();
    let firmware = stream_of(model(), &stream.expected).unwrap();
    let mut events = stream.events.clone();
    let (position, submit) = events
        .iter_mut()
        .enumerate()
        .filter(|(_, b)| matches!(b, Body::Event(Event::Submit { .. })))
        .nth(999)
        .unwrap();
    let Body::Event(Event::Submit { p, .. }) = submit else { unreachable!() };
    *p += 1;
    let changed = events[position];
    let host = decide_service(&stream.config, &events).unwrap();
    let record = host.iter().position(|r| r.body == changed).unwrap();
    let err = compare("service-level", &firmware, model(), &host).unwrap_err();
    assert!(err.contains(&format!("record {record} differs: firmware Record {{ seq: {record}, ")), "{err}");
    assert!(err.contains(&format!("host Record {{ seq: {record}, body: {changed:?} }}")), "{err}");
}

#[test]
fn a_short_firmware_output_names_the_first_missing_record() {
    let host = decide_service(&config(), &events()).unwrap();
    let firmware = stream_of(service_model(&config()).unwrap(), &host[..10]).unwrap();
    let err = compare("service-level", &firmware, service_model(&config()).unwrap(), &host).unwrap_err();
    assert!(err.contains("the firmware stopped after 10 records; host record 10 is"), "{err}");
}

/// A stream damaged on the line (one byte changed inside a record frame) is refused
/// with the damaged frame's offset, not read as different records.
#[test]
fn a_damaged_firmware_stream_names_the_frame() {
    let host = decide_service(&config(), &events()).unwrap();
    let mut firmware = stream_of(service_model(&config()).unwrap(), &host).unwrap();
    let start = firmware.iter().position(|&b| b == 0).unwrap() + 1;
    firmware[start + 2] ^= 0x10;
    let err = compare("service-level", &firmware, service_model(&config()).unwrap(), &host).unwrap_err();
    assert!(
        err.starts_with(&format!("service-level: the firmware's stream is damaged at byte {start} (")),
        "{err}"
    );
    assert!(err.ends_with("; record 0 lost"), "{err}");
}

/// The tiers scenario as the firmware runs it: the stream of the host's records
/// compares equal with itself, and a host copy with one request's work changed is
/// refused, naming that request's record.
#[test]
fn a_changed_tiers_request_is_named_by_its_record() {
    use kernel::tiers::Event as TiersEvent;
    let stream = scenarios::tiers().unwrap();
    let model = || scenarios::tiers_model(&stream.config).unwrap();
    let firmware = stream_of(model(), &stream.expected).unwrap();
    assert_eq!(compare("tiers", &firmware, model(), &stream.expected), Ok(stream.expected.len()));
    let mut events = stream.events.clone();
    let (position, submit) = events
        .iter_mut()
        .enumerate()
        .filter(|(_, b)| matches!(b, Body::TiersEvent(TiersEvent::Submit(_))))
        .nth(20)
        .unwrap();
    let Body::TiersEvent(TiersEvent::Submit(request)) = submit else { unreachable!() };
    request.work += 1;
    let changed = events[position];
    let host = scenarios::decide_tiers(&stream.config, &events).unwrap();
    let record = host.iter().position(|r| r.body == changed).unwrap();
    let err = compare("tiers", &firmware, model(), &host).unwrap_err();
    assert!(
        err.starts_with(&format!(
            "tiers: the firmware's records differ from the host's: record {record} differs: "
        )),
        "{err}"
    );
    assert!(err.contains(&format!("host Record {{ seq: {record}, body: {changed:?} }}")), "{err}");
}

/// The SLA sets as the firmware runs them: equal with the host's records, and a host
/// copy with one request's node count changed is refused, naming its record.
#[test]
fn a_changed_sla_request_is_named_by_its_record() {
    use kernel::sla::Event as SlaEvent;
    let stream = scenarios::sla().unwrap();
    let model = || scenarios::sla_model(stream.config);
    let firmware = stream_of(model(), &stream.expected).unwrap();
    assert_eq!(compare("sla", &firmware, model(), &stream.expected), Ok(stream.expected.len()));
    let mut events = stream.events.clone();
    let (position, submit) = events
        .iter_mut()
        .enumerate()
        .filter(|(_, b)| matches!(b, Body::SlaEvent(SlaEvent::Submit { .. })))
        .nth(100)
        .unwrap();
    let Body::SlaEvent(SlaEvent::Submit { request, .. }) = submit else { unreachable!() };
    request.ncpu += 1;
    let changed = events[position];
    let host = scenarios::decide_sla(stream.config, &events).unwrap();
    let record = host.iter().position(|r| r.body == changed).unwrap();
    let err = compare("sla", &firmware, model(), &host).unwrap_err();
    assert!(
        err.starts_with(&format!(
            "sla: the firmware's records differ from the host's: record {record} differs: "
        )),
        "{err}"
    );
}
