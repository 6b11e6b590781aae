//! `admission_kernel._native`: the Rust half of the Python package. It holds no model
//! of its own: [`command`] runs a `host-sim` command line in process
//! ([`host_sim::app::execute`], its standard output captured), and the log functions
//! are `replay`'s (verify before trust, the JSON lines export, the per-job, pieces and
//! Batsim tables, the diff). Every call releases the GIL while it works, so a pool of
//! Python threads runs models on every core. The pure Python half
//! (`admission_kernel/`) turns options into command lines and outputs into dicts and
//! data frames.

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};

use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use replay::format::LogReader;

pyo3::create_exception!(
    _native,
    AdmissionError,
    PyException,
    "A run or a log refused, with host-sim's or replay's own message."
);

/// A refusal as the Python exception: the message as the command line prints it, the
/// option it names (`option`, as `--machines`; `keyword`, as `machines`), the scenario
/// file's line that set it (`file`, `line`, `key`), and `usage` when clap refused the
/// command line.
fn refused(py: Python<'_>, failure: &host_sim::app::Failure) -> PyErr {
    let error = AdmissionError::new_err(failure.to_string());
    let value = error.value(py);
    let keyword = failure.option.as_deref().map(|o| o.trim_start_matches('-').replace('-', "_"));
    let origin = failure.origin.as_ref();
    let set = || -> PyResult<()> {
        value.setattr("option", failure.option.clone())?;
        value.setattr("keyword", keyword)?;
        value.setattr("file", origin.map(|o| o.file.clone()))?;
        value.setattr("line", origin.map(|o| o.line))?;
        value.setattr("key", origin.map(|o| o.key.clone()))?;
        value.setattr("usage", failure.usage)
    };
    match set() {
        Ok(()) => error,
        Err(e) => e,
    }
}

/// A log's refusal: `path: error`, as `replay` prints it.
fn log_error(path: &Path, error: &dyn std::fmt::Display) -> PyErr {
    AdmissionError::new_err(format!("{}: {error}", path.display()))
}

/// Runs `host-sim ARGS...` in this process and gives what it wrote to standard output.
#[pyfunction]
fn command(py: Python<'_>, args: Vec<OsString>) -> PyResult<String> {
    let argv: Vec<OsString> = std::iter::once(OsString::from("host-sim")).chain(args).collect();
    let (result, out) = py.detach(|| host_sim::output::capture(|| host_sim::app::execute(argv)));
    match result {
        Ok(()) => String::from_utf8(out).map_err(|e| AdmissionError::new_err(e.to_string())),
        Err(failure) => Err(refused(py, &failure)),
    }
}

/// The log at `path` once it verifies ([`replay::trust::vouch_file`]), open.
fn vouched(path: &Path) -> PyResult<LogReader<std::io::BufReader<std::fs::File>>> {
    replay::trust::vouch_file(path).map_err(|e| AdmissionError::new_err(e.to_string()))?;
    LogReader::open(path).map_err(|e| log_error(path, &e))
}

/// One of `replay export`'s tables of the log at `path` (`csv`, `segments`, `batsim`
/// or `jsonl`), once the log verifies.
#[pyfunction]
fn export(py: Python<'_>, path: PathBuf, format: &str) -> PyResult<Py<PyBytes>> {
    let bytes = py.detach(|| -> PyResult<Vec<u8>> {
        let reader = vouched(&path)?;
        let mut out = Vec::new();
        let written = match format {
            "csv" => replay::jobs::export_csv(reader, &mut out),
            "segments" => replay::jobs::segments_csv(reader, &mut out),
            "batsim" => replay::jobs::batsim::export(reader, &mut out),
            "jsonl" => replay::export::jsonl(reader, &mut out),
            other => return Err(AdmissionError::new_err(format!("no table named {other:?}"))),
        };
        written.map_err(|e| log_error(&path, &e))?;
        Ok(out)
    })?;
    Ok(PyBytes::new(py, &bytes).unbind())
}

/// The header of the log at `path` as JSON (as the export's first line), and its
/// events and its decisions as JSON lines, once the log verifies.
#[pyfunction]
fn records(py: Python<'_>, path: PathBuf) -> PyResult<(String, Py<PyBytes>, Py<PyBytes>)> {
    let (header, events, decisions) = py.detach(|| -> PyResult<_> {
        let reader = vouched(&path)?;
        let header = replay::export::header_json(reader.header()).map_err(|e| log_error(&path, &e))?;
        let (mut events, mut decisions) = (Vec::new(), Vec::new());
        replay::export::jsonl_split(reader, &mut events, &mut decisions).map_err(|e| log_error(&path, &e))?;
        Ok((header.to_string(), events, decisions))
    })?;
    Ok((header, PyBytes::new(py, &events).unbind(), PyBytes::new(py, &decisions).unbind()))
}

/// `replay verify`: what it prints, and every count it holds, named.
#[pyfunction]
fn verify(py: Python<'_>, path: PathBuf) -> PyResult<(String, Vec<(String, u128)>)> {
    py.detach(|| {
        if replay::trust::is_stream_file(&path) {
            let stream = replay::trust::TrustError::Stream { log: path.display().to_string() };
            return Err(AdmissionError::new_err(stream.to_string()));
        }
        let reader = LogReader::open(&path).map_err(|e| log_error(&path, &e))?;
        let report = replay::verify::verify(reader).map_err(|e| log_error(&path, &e))?;
        Ok((report.summary(&path.display().to_string()), report.measures()))
    })
}

/// `replay diff A B --format json`: the JSON, and whether the records are the same.
#[pyfunction]
fn diff(py: Python<'_>, a: PathBuf, b: PathBuf) -> PyResult<(String, bool)> {
    py.detach(|| {
        let (name_a, name_b) = (a.display().to_string(), b.display().to_string());
        let (open_a, open_b) = (|| LogReader::open(&a), || LogReader::open(&b));
        let logs = (
            replay::diff::Log { name: &name_a, open: &open_a },
            replay::diff::Log { name: &name_b, open: &open_b },
        );
        let found =
            replay::diff::diff(&logs.0, &logs.1).map_err(|e| AdmissionError::new_err(e.to_string()))?;
        let mut out = Vec::new();
        replay::diff::write_json(&found, &mut out)
            .and_then(|()| out.flush())
            .map_err(|e| AdmissionError::new_err(e.to_string()))?;
        let json = String::from_utf8(out).map_err(|e| AdmissionError::new_err(e.to_string()))?;
        Ok((json, found.same_records()))
    })
}

#[pymodule]
fn _native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add("AdmissionError", module.py().get_type::<AdmissionError>())?;
    module.add("HOST_SIM_VERSION", env!("CARGO_PKG_VERSION"))?;
    // The models host-sim knows (its registry), each with its run subcommand: the first
    // word of its sample command line.
    let models: Vec<(&str, &str)> =
        host_sim::model::SAMPLES.iter().filter_map(|(name, args)| Some((*name, *args.first()?))).collect();
    module.add("MODELS", models)?;
    module.add_function(wrap_pyfunction!(command, module)?)?;
    module.add_function(wrap_pyfunction!(export, module)?)?;
    module.add_function(wrap_pyfunction!(records, module)?)?;
    module.add_function(wrap_pyfunction!(verify, module)?)?;
    module.add_function(wrap_pyfunction!(diff, module)?)?;
    Ok(())
}
