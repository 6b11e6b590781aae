//! The firmware's record streams against the host's records: the stream the host's
//! records make with the kernel's own stream writer, byte for byte; on a difference,
//! the first record that differs, by number, with both sides.

use kernel::log::{RECORD_MAX_BYTES, Record};
use kernel::stream::{DeviceModel, RECORD_BUFFER_BYTES, Setup, StreamWriter};

/// What the firmware's setup frames name as their writer (`SOURCE` in
/// `embedded/firmware/src/main.rs`).
pub const FIRMWARE_SOURCE: &str = "kernel-firmware";
/// The list bound of the firmware's setups (`SETUP_LIST` there); not in the bytes.
pub const SETUP_LIST: usize = 16;

/// The bytes `kernel::log::encode` writes for `records`, one after another (the
/// firmware's input streams).
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

/// The record stream the firmware writes for `records` (numbered from 0) under
/// `model`: its setup, a frame per record, its end.
pub fn stream_of(model: DeviceModel<SETUP_LIST>, records: &[Record]) -> Result<Vec<u8>, String> {
    let mut writer = StreamWriter::new();
    let mut big = [0u8; 2 * RECORD_BUFFER_BYTES];
    let setup = Setup::new(FIRMWARE_SOURCE, model);
    let mut out = writer.setup(&setup, &mut big).map_err(|e| format!("the setup frame: {e:?}"))?.to_vec();
    let mut buf = [0u8; RECORD_BUFFER_BYTES];
    for record in records {
        if record.seq != writer.records() {
            return Err(format!("record {} is numbered {}", writer.records(), record.seq));
        }
        let frame =
            writer.record(record.body, &mut buf).map_err(|e| format!("record {}: {e:?}", record.seq))?;
        out.extend_from_slice(frame);
    }
    out.extend_from_slice(writer.end(&mut buf).map_err(|e| format!("the end frame: {e:?}"))?);
    Ok(out)
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

/// `name`'s firmware stream against the host's records under `model`: equal bytes,
/// or an error naming the first damaged stretch or the first differing record.
pub fn compare(
    name: &str,
    firmware: &[u8],
    model: DeviceModel<SETUP_LIST>,
    host: &[Record],
) -> Result<usize, String> {
    let expected = stream_of(model, host)?;
    if firmware == expected.as_slice() {
        return Ok(host.len());
    }
    let read = replay::stream::read(firmware);
    if let Some(loss) = read.losses.first() {
        return Err(format!("{name}: the firmware's stream is damaged at {loss}"));
    }
    let diff = first_difference(&read.records, host).unwrap_or_else(|| {
        "the records are equal but the streams' bytes are not (the setup or the end frame differs)".to_owned()
    });
    Err(format!("{name}: the firmware's records differ from the host's: {diff}"))
}
