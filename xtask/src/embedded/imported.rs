//! The firmware's record streams on the host: each imported into a decision log (as
//! `replay import` does), the log verified (as `replay verify` does), then one byte of
//! a copy flipped: exactly one frame must be reported, at its byte offset, with the
//! one record it held lost and every other kept.

use std::io::BufWriter;
use std::path::Path;

use replay::format::LogReader;
use replay::staged::{self, StageError};

use crate::cmd::Result;

/// Imports `bytes` (the firmware's `name`) into `run_dir/LOG`, verifies the log, and
/// checks the damaged copy; returns the verified record count.
pub fn check(run_dir: &Path, name: &str, bytes: &[u8]) -> Result<u64> {
    let read = replay::stream::read(bytes);
    let log = run_dir.join(name.replace(".stream", ".log"));
    let written = staged::write(&log, |file, tmp| {
        replay::import::write_log(&read, name, bytes, BufWriter::new(file)).map_err(|e| match e {
            replay::import::ImportError::Format(replay::format::FormatError::Io(source)) => {
                Failed(StageError { path: tmp.to_owned(), source }.to_string())
            }
            other => Failed(other.to_string()),
        })
    })
    .map_err(|Failed(e)| format!("embedded: replay import {name}: {e}"))?;
    let reader = LogReader::open(&log).map_err(|e| format!("embedded: {}: {e}", log.display()))?;
    let report = replay::verify::verify(reader)
        .map_err(|e| format!("embedded: replay verify {}: {e}", log.display()))?;
    if report.records != written {
        return Err(format!(
            "embedded: {} verified {} records of the {written} imported",
            log.display(),
            report.records
        ));
    }
    println!("==> embedded: {name}: imported into {} and verified: {written} records", log.display());
    damaged(name, bytes, read.records.len())?;
    Ok(written)
}

/// Flips one byte in the middle of the record frame halfway through the stream: the
/// reader must report exactly that frame, by its offset, and keep every other record.
fn damaged(name: &str, bytes: &[u8], records: usize) -> Result {
    let starts: Vec<usize> = std::iter::once(0)
        .chain(
            bytes.iter().enumerate().filter(|&(_, &b)| b == kernel::stream::DELIMITER).map(|(at, _)| at + 1),
        )
        .filter(|&at| at < bytes.len())
        .collect();
    // Frame 0 is the setup, so frame k holds record k - 1.
    let frame = starts.len() / 2;
    let (start, end) = (starts[frame], starts[frame + 1]);
    let at = start + (end - 1 - start) / 2;
    let mut copy = bytes.to_vec();
    copy[at] ^= 0x10;
    let read = replay::stream::read(&copy);
    let seq = frame as u64 - 1;
    let [loss] = read.losses.as_slice() else {
        return Err(format!(
            "embedded: {name} with byte {at} flipped: {} losses reported, not 1: {:?}",
            read.losses.len(),
            read.losses
        ));
    };
    if loss.offset != start as u64 || loss.missing != Some((seq, 1)) || read.records.len() != records - 1 {
        return Err(format!(
            "embedded: {name} with byte {at} flipped: reported {loss}, {} records kept; expected the frame at byte \
             {start} (record {seq}) and {} kept",
            read.records.len(),
            records - 1
        ));
    }
    println!(
        "==> embedded: {name} with byte {at} flipped: one loss reported, \"{loss}\"; {} of {records} records kept",
        read.records.len()
    );
    Ok(())
}

/// A failed import or write, in words.
struct Failed(String);

impl From<StageError> for Failed {
    fn from(e: StageError) -> Self {
        Self(e.to_string())
    }
}
