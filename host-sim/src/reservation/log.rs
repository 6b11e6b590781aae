//! The decision log of a reservation run: written to `FILE.tmp` and renamed to `FILE`
//! once complete, so that a failed run never leaves a log that looks whole.

use std::io::BufWriter;
use std::path::Path;

use kernel::log::Body;
use replay::format::{FormatError, Header, LogWriter};
use replay::staged;

use super::ReserveError;
use super::run::Recorder;

/// Runs `run` with a recorder that writes every record under `header` to `path`.
pub fn write<T>(
    path: &Path,
    header: &Header,
    run: impl FnOnce(Recorder<'_>) -> Result<T, ReserveError>,
) -> Result<T, ReserveError> {
    staged::write(path, |file, tmp| {
        let format = |e: FormatError| ReserveError::Io {
            path: tmp.display().to_string(),
            source: std::io::Error::other(e.to_string()),
        };
        let mut writer = LogWriter::new(BufWriter::new(file), header).map_err(format)?;
        let mut failed: Option<FormatError> = None;
        let mut record = |body: Body| {
            if failed.is_none()
                && let Err(e) = writer.record(body)
            {
                failed = Some(e);
            }
        };
        let value = run(&mut record)?;
        if let Some(e) = failed {
            return Err(format(e));
        }
        writer.finish().map_err(format)?;
        Ok(value)
    })
}
