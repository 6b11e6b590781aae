//! What the verification tests share: a log written in memory from its records, and
//! its verification.

use kernel::log::Body;
use replay::format::{Header, LogReader, LogWriter};
use replay::verify::{Report, VerifyError, verify};

/// The log of `bodies` under `header`.
pub fn log_of(header: &Header, bodies: &[Body]) -> Vec<u8> {
    let mut writer = LogWriter::new(Vec::new(), header).unwrap();
    bodies.iter().for_each(|b| writer.record(*b).unwrap());
    writer.finish().unwrap()
}

/// `verify` of the log `bytes`.
pub fn verify_bytes(bytes: &[u8]) -> Result<Report, VerifyError> {
    verify(LogReader::new(bytes).unwrap())
}
