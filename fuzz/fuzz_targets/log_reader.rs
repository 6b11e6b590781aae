//! Arbitrary bytes into `replay::format::LogReader`: whatever the input, reading ends in
//! `Ok(None)` or an error, never in a panic or a hang.
//!
//! Raw bytes almost never get past the magic and the CRC-32C of every frame, so inputs
//! whose first byte is odd are framed here instead: a valid magic, version and header,
//! then frames whose kinds, lengths and payloads come from the input but whose
//! checksums are computed, so that record decoding, the sequence check and the footer
//! checks behind them are reached as well.

#![no_main]

use crc::{CRC_32_ISCSI, Crc};
use kernel::{Level, Policy};
use libfuzzer_sys::fuzz_target;
use replay::format::{FORMAT_VERSION, Footer, Header, LogReader, MAGIC};

static CRC32C: Crc<u32> = Crc::<u32>::new(&CRC_32_ISCSI);

// Frame kinds, as `docs/log-format.md` and `replay::format` define them.
const KIND_HEADER: u8 = 1;
const KIND_BLOCK: u8 = 2;
const KIND_FOOTER: u8 = 3;

fuzz_target!(|data: &[u8]| {
    match data.split_first() {
        Some((mode, rest)) if mode & 1 == 1 => read_all(&framed(rest)),
        _ => read_all(data),
    }
});

fn read_all(bytes: &[u8]) {
    let Ok(mut reader) = LogReader::new(bytes) else { return };
    let mut records = 0usize;
    loop {
        match reader.next_record() {
            // Every record takes bytes of the input, so more records than bytes is a
            // reader that does not advance: a hang turned into a failure.
            Ok(Some(_)) => {
                records += 1;
                assert!(records <= bytes.len(), "{records} records out of {} bytes", bytes.len());
            }
            Ok(None) => {
                assert!(matches!(reader.next_record(), Ok(None)), "records after the end of the log");
                return;
            }
            Err(_) => break,
        }
    }
    // Asking again after an error may fail again, but must not panic.
    let _ = reader.next_record();
}

/// A log with a valid start and input-chosen frames with valid checksums. Each frame
/// is a control byte, a length byte and that many payload bytes; the control byte
/// picks the kind (mostly blocks), or a footer that agrees with the blocks before it.
fn framed(input: &[u8]) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    let header = Header::new(1, 16, Policy::FirstFit, vec![Level::whole(2, 1)]);
    frame(&mut out, KIND_HEADER, &postcard::to_stdvec(&header).expect("a header encodes"));
    let mut blocks: Vec<&[u8]> = Vec::new();
    let mut rest = input;
    while let Some((&control, tail)) = rest.split_first() {
        let (&len, tail) = tail.split_first().unwrap_or((&0, &[]));
        let (payload, tail) = tail.split_at(usize::from(len).min(tail.len()));
        rest = tail;
        match control % 8 {
            0..=4 => {
                frame(&mut out, KIND_BLOCK, payload);
                blocks.push(payload);
            }
            5 => frame(&mut out, KIND_FOOTER, &agreeing_footer(&blocks)),
            6 => frame(&mut out, KIND_FOOTER, payload),
            _ => frame(&mut out, control >> 3, payload),
        }
    }
    out
}

/// The footer a writer would have written after `blocks`, counting the records that
/// decode from the front of each block.
fn agreeing_footer(blocks: &[&[u8]]) -> Vec<u8> {
    let mut records = 0;
    let mut whole = CRC32C.digest();
    for block in blocks {
        whole.update(block);
        let mut rest: &[u8] = block;
        while let Ok((_, tail)) = kernel::log::decode(rest) {
            records += 1;
            rest = tail;
        }
    }
    let footer = Footer { records, blocks: blocks.len() as u64, checksum: whole.finalize() };
    postcard::to_stdvec(&footer).expect("a footer encodes")
}

/// Appends one frame: kind, payload length (u32 LE), payload, CRC-32C of all three.
fn frame(out: &mut Vec<u8>, kind: u8, payload: &[u8]) {
    let start = out.len();
    out.push(kind);
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(payload);
    let crc = CRC32C.checksum(&out[start..]);
    out.extend_from_slice(&crc.to_le_bytes());
}
