//! The decision log of a reservation run: written to `FILE.tmp` and renamed to `FILE`
//! once complete, so that a failed run never leaves a log that looks whole.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use kernel::log::Body;
use replay::format::{FormatError, Header, LogWriter};

use super::ReserveError;
use super::run::Recorder;

/// Runs `run` with a recorder that writes every record under `header` to `path`.
pub fn write<T>(
    path: &Path,
    header: &Header,
    run: impl FnOnce(Recorder<'_>) -> Result<T, ReserveError>,
) -> Result<T, ReserveError> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let io = |p: &Path| {
        let p = p.display().to_string();
        move |source| ReserveError::Io { path: p, source }
    };
    let format = |p: &Path| {
        let p = p.display().to_string();
        move |e: FormatError| ReserveError::Io { path: p, source: std::io::Error::other(e.to_string()) }
    };
    let result = (|| {
        let file = File::create(&tmp).map_err(io(&tmp))?;
        let mut writer = LogWriter::new(BufWriter::new(file), header).map_err(format(&tmp))?;
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
            return Err(format(&tmp)(e));
        }
        writer.finish().map_err(format(&tmp))?;
        Ok(value)
    })();
    match result {
        Ok(value) => {
            std::fs::rename(&tmp, path).map_err(io(path))?;
            Ok(value)
        }
        Err(error) => {
            // The partial log is useless; a failure to remove it changes nothing.
            let _ = std::fs::remove_file(&tmp);
            Err(error)
        }
    }
}
