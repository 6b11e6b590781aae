//! Records as bytes, both ways (`kernel::log::encode` back to back), and the firmware's
//! record bytes against the host's records: the first record that differs, by number,
//! with both sides.

use kernel::log::{RECORD_MAX_BYTES, Record};

/// The bytes `kernel::log::encode` writes for `records`, one after another.
pub fn encode_all(records: &[Record]) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(records.len() * 8);
    let mut buf = [0u8; RECORD_MAX_BYTES];
    for record in records {
        let bytes =
            kernel::log::encode(record, &mut buf).map_err(|e| format!("record {}: {e}", record.seq))?;
        out.extend_from_slice(bytes);
    }
    Ok(out)
}

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
    let expected = encode_all(host)?;
    if firmware_bytes == expected.as_slice() {
        return Ok(host.len());
    }
    let firmware = decode_all(firmware_bytes).map_err(|e| format!("{model}: the firmware's {e}"))?;
    let diff = first_difference(&firmware, host)
        .unwrap_or_else(|| "the records are equal but their bytes are not".to_owned());
    Err(format!("{model}: the firmware's records differ from the host's: {diff}"))
}
