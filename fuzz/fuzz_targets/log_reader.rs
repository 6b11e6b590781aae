//! Arbitrary bytes into `replay::format::LogReader`: whatever the input, reading ends in
//! `Ok(None)` or an error, never in a panic or a hang.
//!
//! Raw bytes almost never get past the magic and the CRC-32C of every frame, so inputs
//! whose first byte is odd are framed here instead: a valid magic, version and header,
//! then frames whose kinds, lengths and payloads come from the input but whose
//! checksums are computed, and whose blocks mostly start with a block header that
//! continues the sequence, so that record decoding (every tag, varint and context
//! path of `replay::format::codec`), the sequence check and the footer checks behind
//! them are reached as well. Bit 1 of that first byte writes the header as version 2
//! did (its own version and header layout), bit 2 gives the header a reservation
//! configuration, so that both header layouts are read; record decoding is the same for
//! both versions (version 2 blocks simply hold no reservation records).

#![no_main]

use kernel::reservation::{Config, Criterion, Fixing};
use kernel::service_level::{Level, Policy};
use libfuzzer_sys::fuzz_target;
use replay::format::codec::BlockHeader;
use replay::format::{
    CRC32C, Footer, Header, KIND_BLOCK, KIND_FOOTER, KIND_HEADER, LogReader, MAGIC, Model, ReservationHeader,
    ServiceLevelHeader,
};

fuzz_target!(|data: &[u8]| {
    match data.split_first() {
        Some((mode, rest)) if mode & 1 == 1 => read_all(&framed(rest, *mode)),
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
/// picks the kind (mostly blocks, whose header claims `control >> 3` records and
/// continues the sequence), or a footer that agrees with the blocks before it.
fn framed(input: &[u8], mode: u8) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    // Two levels, so that accepts with implicit deadlines decode.
    let levels = vec![Level::whole(2, 1), Level::whole(1, 2)];
    let mut header = Header::new(ServiceLevelHeader::new(2, 16, Policy::FirstFit, levels).into());
    let payload = if mode & 2 != 0 {
        // Version 2: its header is version 3's without the last field (`None`, one
        // zero byte).
        header.format_version = 2;
        let mut payload = postcard::to_stdvec(&header).expect("a header encodes");
        payload.pop();
        payload
    } else {
        if mode & 4 != 0 {
            let config = Config {
                nodes: 4,
                slot_ticks: 10,
                criterion: Criterion::Edf,
                fixing: Fixing::Half,
                offer_trials: 4,
            };
            header.model = Model::Reservation(ReservationHeader {
                config,
                slots: 64,
                waiting: 16,
                running: 16,
                offers: 4,
            });
        }
        postcard::to_stdvec(&header).expect("a header encodes")
    };
    out.extend_from_slice(&header.format_version.to_le_bytes());
    frame(&mut out, KIND_HEADER, &payload);
    let mut blocks: Vec<Vec<u8>> = Vec::new();
    let mut records = 0u64;
    let mut rest = input;
    while let Some((&control, tail)) = rest.split_first() {
        let (&len, tail) = tail.split_first().unwrap_or((&0, &[]));
        let (payload, tail) = tail.split_at(usize::from(len).min(tail.len()));
        rest = tail;
        match control % 8 {
            0..=3 => {
                let count = u32::from(control >> 3);
                let mut block = Vec::new();
                BlockHeader { first_seq: records, records: count }.put(&mut block);
                block.extend_from_slice(payload);
                frame(&mut out, KIND_BLOCK, &block);
                records += u64::from(count);
                blocks.push(block);
            }
            4 => {
                frame(&mut out, KIND_BLOCK, payload);
                blocks.push(payload.to_vec());
            }
            5 => frame(&mut out, KIND_FOOTER, &agreeing_footer(&blocks, records)),
            6 => frame(&mut out, KIND_FOOTER, payload),
            _ => frame(&mut out, control >> 3, payload),
        }
    }
    out
}

/// The footer a writer would have written after `blocks` holding `records`.
fn agreeing_footer(blocks: &[Vec<u8>], records: u64) -> Vec<u8> {
    let mut whole = CRC32C.digest();
    for block in blocks {
        whole.update(block);
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
