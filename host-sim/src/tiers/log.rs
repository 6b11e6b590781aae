//! The decision log of a `tiers` run (tiers records; the header's `tiers` field names
//! the kernel's configuration, resources and capacities): written to `FILE.tmp` and
//! renamed to `FILE` once complete, so that a failed run never leaves a log that looks
//! whole.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use kernel::log::Body;
use replay::format::{FormatError, Header, LogWriter};

use super::metrics::Summary;
use super::run::RunOutput;
use super::{Scenario, TiersError};

/// The header of a tiers log for `scenario`; `input` names the workload.
pub fn header(scenario: &Scenario, input: &str) -> Header {
    let mut header = Header::new(0, 0, kernel::Policy::FirstFit, Vec::new());
    header.seed = scenario.seed;
    header.input_name = input.to_owned();
    header.tiers = Some(replay::engine::tiers::header(scenario.config, &scenario.resources));
    header
}

/// Runs `scenario` and writes every event and decision to `path`.
pub fn run_logged(scenario: &Scenario, input: &str, path: &Path) -> Result<(Summary, RunOutput), TiersError> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let io = |p: &Path| {
        let p = p.display().to_string();
        move |source| TiersError::Io { path: p, source }
    };
    let format = |p: &Path| {
        let p = p.display().to_string();
        move |e: FormatError| TiersError::Io { path: p, source: std::io::Error::other(e.to_string()) }
    };
    let result = (|| {
        let file = File::create(&tmp).map_err(io(&tmp))?;
        let mut writer =
            LogWriter::new(BufWriter::new(file), &header(scenario, input)).map_err(format(&tmp))?;
        let mut failed: Option<FormatError> = None;
        let value = scenario.run_observed(&mut |event, decisions| {
            let bodies = std::iter::once(Body::TiersEvent(*event))
                .chain(decisions.iter().map(|d| Body::TiersDecision(*d)));
            for body in bodies {
                if failed.is_none()
                    && let Err(e) = writer.record(body)
                {
                    failed = Some(e);
                }
            }
        })?;
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
