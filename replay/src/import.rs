//! A device's record stream made into a decision log (`replay import`), or verified
//! as one (`replay verify STREAM`): the setup frame becomes the log's header, the
//! records its records, through the same [`LogWriter`] as every log.
//!
//! A log cannot hold a hole, so a stream with any loss is reported (every loss by its
//! byte offset, [`crate::stream`]) and not imported.

use std::io::Write;

use kernel::log::Body;
use kernel::stream::DeviceModel;

use crate::contract::body_label;
use crate::format::{
    FormatError, Header, HeaderError, LogWriter, Model, ReservationHeader, ServiceLevelHeader, SlaHeader,
    TiersHeader,
};
use crate::stream::{HostSetup, StreamRead};

/// The log's input entry for a stream: CRC-64/XZ of its bytes, as host-sim hashes a
/// trace.
static STREAM_CRC: crc::Crc<u64> = crc::Crc::<u64>::new(&crc::CRC_64_XZ);

/// Why a stream was not made into a log.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("no intact setup frame: the stream's kernel is unknown")]
    NoSetup,
    #[error(
        "{lost} {} lost in {losses} damaged or missing {} (listed above); a log cannot hold a hole",
        plural(*lost, "record", "records"),
        plural(*losses as u64, "stretch", "stretches")
    )]
    Lost { lost: u64, losses: usize },
    #[error("{losses} damaged or misplaced {} (listed above)", plural(*losses as u64, "stretch", "stretches"))]
    Damaged { losses: usize },
    #[error("record {seq} is a {found} record; the setup names the {model} kernel")]
    WrongModel { seq: u64, found: &'static str, model: &'static str },
    #[error("the setup's {what} is {value}, past what a log header holds")]
    Capacity { what: &'static str, value: u32 },
    #[error("the setup makes an invalid header: {0}")]
    Header(#[from] HeaderError),
    #[error("{0}")]
    Format(#[from] FormatError),
}

/// `one` for 1, else `many`.
pub fn plural(n: u64, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 { one } else { many }
}

/// The log header of a stream whose setup is `setup`, whose file is named `name`
/// (no folders) and whose bytes are `bytes`.
pub fn header(setup: &HostSetup, name: &str, bytes: &[u8]) -> Result<Header, ImportError> {
    let mut header = Header::new(model(&setup.model)?);
    header.kernel_version = setup.kernel_version.to_string();
    header.host_version = setup.source.to_string();
    let header = header.with_input(name, STREAM_CRC.checksum(bytes));
    header.check()?;
    Ok(header)
}

/// The header's [`Model`], with its part, for the kernel a setup names.
fn model(setup: &DeviceModel<{ crate::stream::SETUP_LIST_MAX }>) -> Result<Model, ImportError> {
    Ok(match setup {
        DeviceModel::ServiceLevel { queue_capacity, machines, policy, levels, .. } => {
            Model::ServiceLevel(ServiceLevelHeader::new(*machines, *queue_capacity, *policy, levels.to_vec()))
        }
        DeviceModel::Reservation { slots, waiting, running, offers, config } => {
            let offers = u16::try_from(*offers)
                .map_err(|_| ImportError::Capacity { what: "offers", value: *offers })?;
            Model::Reservation(ReservationHeader {
                config: *config,
                slots: *slots,
                waiting: *waiting,
                running: *running,
                offers,
            })
        }
        DeviceModel::Tiers { resource_capacity, slots, jobs, config, resources } => {
            Model::Tiers(TiersHeader {
                config: *config,
                resources: resources.to_vec(),
                resource_capacity: *resource_capacity,
                slots: *slots,
                jobs: *jobs,
            })
        }
        DeviceModel::Sla { slots, batch, config } => {
            Model::Sla(SlaHeader { config: *config, slots: *slots, batch: *batch })
        }
    })
}

/// Writes the log of a stream read whole (no loss) to `out`, and returns the records
/// written. `name` and `bytes` are the stream file's name and content, for the header.
pub fn write_log<W: Write>(read: &StreamRead, name: &str, bytes: &[u8], out: W) -> Result<u64, ImportError> {
    let setup = whole(read)?;
    let header = header(setup, name, bytes)?;
    let label = crate::with_model!(&header.model, model_label());
    let mut writer = LogWriter::new(out, &header)?;
    for record in &read.records {
        check_model(&record.body, record.seq, label, setup)?;
        writer.record(record.body)?;
    }
    writer.finish()?;
    Ok(read.records.len() as u64)
}

/// The setup of a stream with nothing lost, or why it cannot be imported.
pub fn whole(read: &StreamRead) -> Result<&HostSetup, ImportError> {
    let lost = read.records_lost();
    if lost > 0 {
        return Err(ImportError::Lost { lost, losses: read.losses.len() });
    }
    if !read.losses.is_empty() {
        return Err(ImportError::Damaged { losses: read.losses.len() });
    }
    read.setup.as_ref().ok_or(ImportError::NoSetup)
}

fn model_label<M: crate::contract::LogModel>() -> &'static str {
    M::LABEL
}

/// Every record is the setup's model's.
fn check_model(body: &Body, seq: u64, label: &'static str, setup: &HostSetup) -> Result<(), ImportError> {
    let found = body_label(body);
    if found == label {
        return Ok(());
    }
    Err(ImportError::WrongModel { seq, found, model: setup.model.name() })
}
