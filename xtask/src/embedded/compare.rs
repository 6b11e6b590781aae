//! The firmware's record bytes against the host's records: the first record that
//! differs, by number, with both sides.

use kernel::log::Record;

/// Decodes `bytes` (records as `kernel::log::encode` writes them, back to back).
/// A tail that does not decode is reported with the number of records before it.
pub fn decode_all(bytes: &[u8]) -> Result<Vec<Record>, String> {
    let mut records = Vec::new();
    let mut rest = bytes;
    while !rest.is_empty() {
        let offset = bytes.len() - rest.len();
        let (record, tail) = kernel::log::decode(rest)
            .map_err(|e| format!("record {} (byte {offset}) does not decode: {e}", records.len()))?;
        records.push(record);
        rest = tail;
    }
    Ok(records)
}

/// The first place where `firmware` and `host` differ, described; `None` if equal.
pub fn first_difference(firmware: &[Record], host: &[Record]) -> Option<String> {
    if let Some((n, (f, h))) = firmware.iter().zip(host).enumerate().find(|(_, (f, h))| f != h) {
        return Some(format!("record {n} differs: firmware {f:?}, host {h:?}"));
    }
    match firmware.len().cmp(&host.len()) {
        std::cmp::Ordering::Equal => None,
        std::cmp::Ordering::Less => Some(format!(
            "the firmware stopped after {} records; host record {} is {:?}",
            firmware.len(),
            firmware.len(),
            host[firmware.len()]
        )),
        std::cmp::Ordering::Greater => Some(format!(
            "the firmware wrote {} records, the host {}; firmware record {} is {:?}",
            firmware.len(),
            host.len(),
            host.len(),
            firmware[host.len()]
        )),
    }
}

/// `model`'s firmware bytes against the host's records: equal bytes, or an error
/// naming the first differing record.
pub fn compare(model: &str, firmware_bytes: &[u8], host: &[Record]) -> Result<usize, String> {
    let expected = super::streams::encode_all(host)?;
    if firmware_bytes == expected.as_slice() {
        return Ok(host.len());
    }
    let firmware = decode_all(firmware_bytes).map_err(|e| format!("{model}: the firmware's {e}"))?;
    let diff = first_difference(&firmware, host)
        .unwrap_or_else(|| "the records are equal but their bytes are not".to_owned());
    Err(format!("{model}: the firmware's records differ from the host's: {diff}"))
}

#[cfg(test)]
mod tests {
    use kernel::log::Body;
    use kernel::service_level::{Event, Level};

    use super::*;
    use crate::embedded::streams::{ServiceConfig, decide_service, encode_all};

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
        let firmware = encode_all(&decide_service(&config(), &events).unwrap()).unwrap();
        let mut tampered = events.clone();
        let Body::Event(Event::Submit { p, .. }) = &mut tampered[120] else { panic!() };
        *p += 1;
        let host = decide_service(&config(), &tampered).unwrap();
        let position = host
            .iter()
            .position(|r| r.body == tampered[120])
            .expect("the tampered submit is among the host's records");
        let err = compare("service-level", &firmware, &host).unwrap_err();
        assert!(
            err.starts_with(&format!("service-level: the firmware's records differ from the host's: record {position} differs: firmware Record {{ seq: {position}, body: Event(Submit")),
            "{err}"
        );
        // And the untampered host side agrees byte for byte.
        let host = decide_service(&config(), &events).unwrap();
        assert_eq!(compare("service-level", &firmware, &host), Ok(host.len()));
    }

    /// The same on the real stream (the first 5,000 NASA jobs), when the shared traces
    /// are here: the 1000th submit's processing time, changed on the host side, is the
    /// record named.
    #[test]
    fn a_changed_processing_time_in_the_nasa_stream_is_named() {
        let trace =
            crate::steps::root().join("../shared/traces").join(crate::embedded::streams::SERVICE_TRACE);
        if !trace.exists() {
            eprintln!("skipped: {} is absent", trace.display());
            return;
        }
        let stream = crate::embedded::streams::service(&trace).unwrap();
        let firmware = encode_all(&stream.expected).unwrap();
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
        let err = compare("service-level", &firmware, &host).unwrap_err();
        assert!(
            err.contains(&format!("record {record} differs: firmware Record {{ seq: {record}, ")),
            "{err}"
        );
        assert!(err.contains(&format!("host Record {{ seq: {record}, body: {changed:?} }}")), "{err}");
    }

    #[test]
    fn a_short_firmware_output_names_the_first_missing_record() {
        let host = decide_service(&config(), &events()).unwrap();
        let firmware = encode_all(&host[..10]).unwrap();
        let err = compare("service-level", &firmware, &host).unwrap_err();
        assert!(err.contains("the firmware stopped after 10 records; host record 10 is"), "{err}");
    }
}
