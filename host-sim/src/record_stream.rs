//! A run's records as a controller that embeds the kernel would send them
//! (`--stream-out`): the device record stream of `docs/stream-format.md`, every frame
//! made by the kernel's own [`StreamWriter`], the setup taken from the run's log
//! header. Written like the log, through `PATH.tmp` renamed once whole
//! ([`replay::staged`]), so a failed run leaves no stream that looks closed.
//!
//! The records are the ones `--log` holds, in the same order, so `replay import`
//! makes the stream into a log whose blocks and footer are the `--log`'s byte for
//! byte; only the header differs, as the import's header is the setup's (the stream
//! as its one input, seed 0, no window, no settings). `replay verify` verifies the
//! stream as it is.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use kernel::log::Body;
use kernel::stream::{DeviceModel, RECORD_BUFFER_BYTES, Setup, StreamWriter, WriteError};
use replay::engine::service_level::MAX_LEVELS;
use replay::format::{FormatError, Header, Model};
use replay::staged::{self, StageError};
use replay::stream::HostSetup;

/// Room for the setup frame: half for its content, half for the frame. The widest
/// setup (64 resources or levels of at most 11 bytes each, the two strings, a
/// configuration) takes under 1 KiB.
const SETUP_BUFFER_BYTES: usize = 4096;

/// The setup of the kernel that `header` rebuilds, naming `source` as its writer;
/// `None` if the header holds more levels or resources than a setup does, or its
/// model has no device stream.
pub fn setup(header: &Header, source: &str) -> Option<HostSetup> {
    let model = match &header.model {
        Model::ServiceLevel(s) => DeviceModel::ServiceLevel {
            machine_capacity: u32::from(machine_capacity(s.machines)),
            queue_capacity: s.queue_capacity,
            level_capacity: MAX_LEVELS as u32,
            machines: s.machines,
            policy: s.policy,
            levels: s.levels.as_slice().try_into().ok()?,
        },
        Model::Reservation(r) => DeviceModel::Reservation {
            slots: r.slots,
            waiting: r.waiting,
            running: r.running,
            offers: u32::from(r.offers),
            config: r.config,
        },
        Model::Tiers(t) => DeviceModel::Tiers {
            resource_capacity: t.resource_capacity,
            slots: t.slots,
            jobs: t.jobs,
            config: t.config,
            resources: t.resources.as_slice().try_into().ok()?,
        },
        Model::Sla(s) => DeviceModel::Sla { slots: s.slots, batch: s.batch, config: s.config },
        // A model without a device stream (`kernel::stream::DeviceModel`) has no setup;
        // each of today's models has one.
        #[allow(unreachable_patterns)]
        _ => return None,
    };
    Some(Setup::new(source, model))
}

/// The machine capacity `M` of the service-level kernel the host builds for
/// `machines`: the smallest compiled one that holds them, as
/// `replay::engine::service_level::ServiceLevelEngine` picks it. It decides nothing (only the
/// machines in use are looked at), so the import leaves it out of the log.
fn machine_capacity(machines: u16) -> u16 {
    [1, 4, 16, 64].into_iter().find(|&m| m >= machines).unwrap_or(machines)
}

/// A stream being written: the setup frame is out, each record follows as it is
/// handed over, and [`StreamOut::finish`] writes the end frame.
#[derive(Debug)]
pub struct StreamOut<W: Write> {
    writer: StreamWriter,
    out: W,
    /// The write that failed, kept so that the error names the stream, not the log.
    failed: Option<io::Error>,
}

impl<W: Write> StreamOut<W> {
    /// Writes the setup frame of `setup` to `out`.
    pub fn new(setup: &HostSetup, mut out: W) -> io::Result<Self> {
        let mut writer = StreamWriter::new();
        let mut buf = vec![0; SETUP_BUFFER_BYTES];
        out.write_all(writer.setup(setup, &mut buf).map_err(too_long)?)?;
        Ok(Self { writer, out, failed: None })
    }

    /// Writes the next record's frame. After a failed write nothing more is written,
    /// and each record returns an error that stops the run.
    pub fn record(&mut self, body: Body) -> Result<(), FormatError> {
        if self.failed.is_none() {
            let mut buf = [0; RECORD_BUFFER_BYTES];
            let written = match self.writer.record(body, &mut buf) {
                Ok(frame) => self.out.write_all(frame),
                Err(e) => Err(too_long(e)),
            };
            if let Err(e) = written {
                self.failed = Some(e);
            }
        }
        match self.failed {
            None => Ok(()),
            Some(ref e) => {
                Err(FormatError::Io(io::Error::new(e.kind(), "the record stream could not be written")))
            }
        }
    }

    /// The write error that stopped the run, if one did.
    pub fn take_error(&mut self) -> Option<io::Error> {
        self.failed.take()
    }

    /// Writes the end frame (the records written) and flushes.
    pub fn finish(mut self) -> io::Result<W> {
        let mut buf = [0; RECORD_BUFFER_BYTES];
        self.out.write_all(self.writer.end(&mut buf).map_err(too_long)?)?;
        self.out.flush()?;
        Ok(self.out)
    }
}

fn too_long(error: WriteError) -> io::Error {
    let WriteError::BufferFull = error;
    io::Error::other(format!("a frame does not fit its buffer of {RECORD_BUFFER_BYTES} bytes"))
}

/// Runs `run` with a stream of `setup` open at `path` (through `PATH.tmp`), then
/// closes the stream. A write that fails stops the run and is the error returned,
/// naming `PATH.tmp`; otherwise the run's own error is.
pub fn write<T, E: From<StageError>>(
    path: &Path,
    setup: &HostSetup,
    run: impl FnOnce(&mut StreamOut<BufWriter<File>>) -> Result<T, E>,
) -> Result<T, E> {
    staged::write(path, |file, tmp| {
        let failed = |source| StageError { path: tmp.to_owned(), source };
        let mut stream = StreamOut::new(setup, BufWriter::new(file)).map_err(failed)?;
        let value = run(&mut stream);
        if let Some(e) = stream.take_error() {
            return Err(failed(e).into());
        }
        let value = value?;
        stream.finish().map_err(failed)?;
        Ok(value)
    })
}
