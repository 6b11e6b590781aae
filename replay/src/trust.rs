//! Verify before trust: `replay export`, `gantt` and `diff`, and `host-sim whatif`,
//! use a log only once it verifies, so that an edited header, a frame with bytes after
//! its last field or a damaged block is refused by name rather than read as if whole.
//!
//! A log written by this build's kernel is verified as `replay verify` does it (every
//! decision re-made); a log of another kernel version cannot be re-made by this one,
//! and is held to its header's ranges, its framing to the footer and its model's
//! audit ([`crate::verify::audit`]).

use std::io::Read;
use std::path::Path;

use crate::format::{FormatError, LogReader, MAGIC};
use crate::verify::{Report, VerifyError, audit, verify};

/// Why a log is not used: it cannot be read at all, or it does not verify.
#[derive(Debug, thiserror::Error)]
pub enum TrustError {
    #[error("{log}: {error}")]
    Read { log: String, error: FormatError },
    #[error("{log} does not verify, so it is not used: {error}\n(`replay verify {log}` gives the details)")]
    Unverified { log: String, error: Box<VerifyError> },
    #[error(
        "{log} is a device's record stream, not a decision log: `replay import {log} --out LOG` \
         makes it one (`replay verify` reads a stream as it is)"
    )]
    Stream { log: String },
}

impl TrustError {
    /// The error `error` about the log named `log`: only a file that cannot be read
    /// is not a verification's.
    pub fn new(log: &str, error: VerifyError) -> Self {
        match error {
            VerifyError::Format(FormatError::Io(e)) => {
                Self::Read { log: log.to_owned(), error: FormatError::Io(e) }
            }
            error => Self::Unverified { log: log.to_owned(), error: Box::new(error) },
        }
    }
}

/// The log read by `reader` verified (or, made by another kernel version, audited);
/// its counts, which are [`verify`]'s.
pub fn vouch<R: Read + Send>(reader: LogReader<R>) -> Result<Report, VerifyError> {
    if reader.header().kernel_version == kernel::VERSION { verify(reader) } else { audit(reader) }
}

/// [`vouch`] of the log at `path`, named in any error as it was given.
pub fn vouch_file(path: &Path) -> Result<Report, TrustError> {
    let log = path.display().to_string();
    let reader = LogReader::open(path).map_err(|e| match e {
        FormatError::BadMagic if is_stream_file(path) => TrustError::Stream { log: log.clone() },
        e => TrustError::new(&log, e.into()),
    })?;
    vouch(reader).map_err(|e| TrustError::new(&log, e))
}

/// Whether the file at `path` is a device's record stream rather than a log; a log
/// is told by its first bytes alone.
pub fn is_stream_file(path: &Path) -> bool {
    let mut start = [0u8; MAGIC.len()];
    let read = std::fs::File::open(path).and_then(|mut file| file.read(&mut start));
    match read {
        Ok(n) if n == start.len() && start == MAGIC => false,
        Ok(_) => std::fs::read(path).is_ok_and(|bytes| crate::stream::is_stream(&bytes)),
        Err(_) => false,
    }
}
