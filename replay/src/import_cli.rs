//! `replay import` and `replay verify` of a device's record stream: the reading and
//! the log are `replay::stream` and `replay::import`; here, the files and the words.

use std::fs;
use std::io::{self, Cursor, Read};
use std::path::Path;
use std::process::ExitCode;

use replay::format::{LogReader, MAGIC};
use replay::import::{self, ImportError};
use replay::staged::{self, StageError};
use replay::stream::{self, StreamRead};
use replay::verify::verify;

use crate::{fail, write_summary};

/// Whether `path` holds a stream rather than a log: it does not start with the log's
/// magic, and its first frame is an intact setup.
pub fn is_stream(path: &Path) -> io::Result<bool> {
    let mut start = [0u8; MAGIC.len()];
    let mut file = fs::File::open(path)?;
    let read = file.read(&mut start)?;
    if read == start.len() && start == MAGIC {
        return Ok(false);
    }
    Ok(stream::is_stream(&fs::read(path)?))
}

/// Reads the stream and reports each loss, and a missing end frame, on standard error.
fn read_reported(path: &Path) -> Result<(Vec<u8>, StreamRead), ExitCode> {
    let bytes = fs::read(path).map_err(|e| fail(path, &e))?;
    if bytes.starts_with(&MAGIC) {
        return Err(fail(path, &"a decision log already, not a device's record stream: it needs no import"));
    }
    if bytes.is_empty() {
        return Err(fail(path, &"empty: a device's record stream starts with its setup frame"));
    }
    let read = stream::read(&bytes);
    for loss in &read.losses {
        eprintln!("replay: {}: {loss}", path.display());
    }
    if read.losses.is_empty() && read.end.is_none() {
        let stop = match read.records.last() {
            Some(last) => format!("after record {}", last.seq),
            None => "before its first record".to_owned(),
        };
        eprintln!(
            "replay: {}: warning: no end frame: the stream stops {stop} (cut at a frame's end, \
             or the device was still writing)",
            path.display(),
        );
    }
    if !read.losses.is_empty() {
        let lost = read.records_lost();
        let lost = match (lost, read.count_unknown()) {
            (0, false) => "no record lost".to_owned(),
            (n, false) => format!("{n} {} lost", import::plural(n, "record", "records")),
            (0, true) => "how many records were lost is unknown".to_owned(),
            (n, true) => format!(
                "at least {n} {} lost; how many in all is unknown",
                import::plural(n, "record", "records")
            ),
        };
        eprintln!(
            "replay: {}: {} intact frames kept ({} records); {lost}",
            path.display(),
            read.frames,
            read.records.len(),
        );
    }
    Ok((bytes, read))
}

/// The stream file's name, for the log's header (no folders).
fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(|| "stream".to_owned(), |n| n.to_string_lossy().into_owned())
}

pub fn run_import(path: &Path, out: &Path) -> ExitCode {
    let (bytes, read) = match read_reported(path) {
        Ok(read) => read,
        Err(code) => return code,
    };
    let name = file_name(path);
    let written = staged::write(out, |file, tmp| {
        import::write_log(&read, &name, &bytes, io::BufWriter::new(file)).map_err(|e| match e {
            ImportError::Format(replay::format::FormatError::Io(source)) => {
                Staged::Out(StageError { path: tmp.to_owned(), source })
            }
            other => Staged::Stream(other),
        })
    });
    match written {
        Ok(records) => {
            let model = read.setup.as_ref().map_or("", |s| s.model.name());
            eprintln!(
                "replay: imported {records} {model} records from {} to {}",
                path.display(),
                out.display()
            );
            ExitCode::SUCCESS
        }
        Err(Staged::Stream(e)) => fail(path, &e),
        Err(Staged::Out(e)) => fail(Path::new(""), &e),
    }
}

/// Verifies a stream as the log `replay import` would write (made in memory).
pub fn verify_stream(path: &Path) -> ExitCode {
    let (bytes, read) = match read_reported(path) {
        Ok(read) => read,
        Err(code) => return code,
    };
    let mut log = Vec::new();
    if let Err(e) = import::write_log(&read, &file_name(path), &bytes, &mut log) {
        return fail(path, &e);
    }
    let reader = match LogReader::new(Cursor::new(log)) {
        Ok(reader) => reader,
        Err(e) => return fail(path, &e),
    };
    match verify(reader) {
        Ok(report) => write_summary(&report.summary(&path.display().to_string())),
        Err(e) => fail(path, &e),
    }
}

/// Why a staged import failed: the stream, or the output file.
enum Staged {
    Stream(ImportError),
    Out(StageError),
}

impl From<StageError> for Staged {
    fn from(e: StageError) -> Self {
        Self::Out(e)
    }
}
