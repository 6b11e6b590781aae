//! A kernel's record stream to the host: the setup, then each record numbered and
//! framed by the kernel's stream writer, then the end; and the event records the
//! streams file holds, read one at a time.

use kernel::log::{Body, Record};
use kernel::stream::{DeviceModel, RECORD_BUFFER_BYTES, Setup, StreamWriter};

use crate::host::{Buffered, HostFile};

/// What the streams' setup frames name as their writer.
const SOURCE: &str = "kernel-firmware";
/// The most service levels or tiers resources a setup here holds.
pub const SETUP_LIST: usize = 16;

/// Writes a record stream into a host file through a caller's buffer.
pub struct Recorder {
    out: Buffered<4096>,
    writer: StreamWriter,
    failed: bool,
}

impl Recorder {
    pub fn create(name: &[u8]) -> Result<Self, &'static str> {
        let file = HostFile::create(name).ok_or("the host refused to create a stream file")?;
        Ok(Self { out: Buffered::new(file), writer: StreamWriter::new(), failed: false })
    }

    /// The setup frame, first: the kernel, its configuration and its capacities.
    pub fn setup(&mut self, model: DeviceModel<SETUP_LIST>) {
        let mut buf = [0u8; 2 * RECORD_BUFFER_BYTES];
        match self.writer.setup(&Setup::new(SOURCE, model), &mut buf) {
            Ok(bytes) => self.failed |= self.out.write(bytes).is_err(),
            Err(_) => self.failed = true,
        }
    }

    pub fn record(&mut self, body: Body) {
        let mut buf = [0u8; RECORD_BUFFER_BYTES];
        match self.writer.record(body, &mut buf) {
            Ok(bytes) => self.failed |= self.out.write(bytes).is_err(),
            Err(_) => self.failed = true,
        }
    }

    /// The end frame, last: the records written.
    fn end(&mut self) {
        let mut buf = [0u8; RECORD_BUFFER_BYTES];
        match self.writer.end(&mut buf) {
            Ok(bytes) => self.failed |= self.out.write(bytes).is_err(),
            Err(_) => self.failed = true,
        }
    }

    /// Ends the stream and closes the file: the records and bytes written.
    pub fn close(mut self) -> Result<(u64, u64), &'static str> {
        self.end();
        let (records, bytes) = (self.writer.records(), self.out.bytes);
        let closed = self.out.close();
        if self.failed || closed.is_err() {
            return Err("a stream frame could not be encoded or written");
        }
        Ok((records, bytes))
    }
}

/// The next event record of a stream, or `None` at its end.
pub fn next_record(bytes: &mut &[u8]) -> Result<Option<Record>, &'static str> {
    if bytes.is_empty() {
        return Ok(None);
    }
    let (record, rest) = kernel::log::decode(bytes).map_err(|_| "an event record does not decode")?;
    *bytes = rest;
    Ok(Some(record))
}
