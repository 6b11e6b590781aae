//! The headers of versions 2 to 5, decoded with their own layouts and made into
//! version 6's [`Header`]. Until version 5 the service level's fields (`machines`,
//! `queue_capacity`, `policy`, `levels`) sat near the header's top, and every other
//! model wrote them too, unused; version 6 moved them into the service level's part
//! ([`Model::ServiceLevel`]). A log of another model loses them here: nothing read
//! them (its records take none of the service level's context, and its kernel is
//! rebuilt from its own part), so only the listings that printed them change.
//!
//! Postcard is positional, so each version's header is decoded with its own struct.

use kernel::service_level::{Level, Policy};
use serde::Deserialize;

use super::{Header, Input, Model, ReservationHeader, ServiceLevelHeader, Setting, SlaHeader, TiersHeader};

/// The newest version whose header this module reads.
pub(super) const NEWEST: u16 = 5;

/// The service level's fields, where versions 2 to 5 had them: after the provenance.
#[derive(Deserialize)]
struct ServiceLevelFields {
    machines: u16,
    queue_capacity: u32,
    policy: Policy,
    levels: Vec<Level>,
}

impl ServiceLevelFields {
    fn into_part(self) -> ServiceLevelHeader {
        ServiceLevelHeader::new(self.machines, self.queue_capacity, self.policy, self.levels)
    }
}

/// The header of a version 2 log: version 3's without its last field.
#[derive(Deserialize)]
struct HeaderV2 {
    format_version: u16,
    kernel_version: String,
    service_level: ServiceLevelFields,
    seed: u64,
    input_name: String,
    input_hash: String,
    window_ticks: Option<u64>,
    /// The command line; version 4 left it out, so it is read and dropped.
    #[allow(dead_code)]
    command: String,
}

/// The header of a version 3 log: version 2's and the reservation configuration.
#[derive(Deserialize)]
struct HeaderV3 {
    v2: HeaderV2,
    reservation: Option<ReservationHeader>,
}

impl From<HeaderV3> for Header {
    fn from(old: HeaderV3) -> Self {
        let v2 = old.v2;
        let model = match old.reservation {
            Some(reservation) => Model::Reservation(reservation),
            None => Model::ServiceLevel(v2.service_level.into_part()),
        };
        Self {
            format_version: v2.format_version,
            kernel_version: v2.kernel_version,
            host_version: String::new(),
            seed: v2.seed,
            inputs: vec![Input { name: v2.input_name, hash: v2.input_hash }],
            window_ticks: v2.window_ticks,
            settings: Vec::new(),
            model,
        }
    }
}

/// Which model a version 4 or 5 log records: the service level's variant held
/// nothing, its fields being the header's own.
#[derive(Deserialize)]
enum ModelV4 {
    ServiceLevel,
    Reservation(ReservationHeader),
    Tiers(TiersHeader),
    Sla(SlaHeader),
}

/// The header of a version 4 or 5 log (version 5 only added `ModelV4::Sla`).
#[derive(Deserialize)]
struct HeaderV4 {
    format_version: u16,
    kernel_version: String,
    host_version: String,
    service_level: ServiceLevelFields,
    seed: u64,
    inputs: Vec<Input>,
    window_ticks: Option<u64>,
    settings: Vec<Setting>,
    model: ModelV4,
}

impl From<HeaderV4> for Header {
    fn from(old: HeaderV4) -> Self {
        let model = match old.model {
            ModelV4::ServiceLevel => Model::ServiceLevel(old.service_level.into_part()),
            ModelV4::Reservation(part) => Model::Reservation(part),
            ModelV4::Tiers(part) => Model::Tiers(part),
            ModelV4::Sla(part) => Model::Sla(part),
        };
        Self {
            format_version: old.format_version,
            kernel_version: old.kernel_version,
            host_version: old.host_version,
            seed: old.seed,
            inputs: old.inputs,
            window_ticks: old.window_ticks,
            settings: old.settings,
            model,
        }
    }
}

/// Decodes the header of a log of `version` (2 to 5) with that version's layout; the
/// header and what follows it in `payload`.
pub(super) fn decode(version: u16, payload: &[u8]) -> Result<(Header, &[u8]), postcard::Error> {
    Ok(match version {
        2 => {
            let (v2, rest) = postcard::take_from_bytes::<HeaderV2>(payload)?;
            (HeaderV3 { v2, reservation: None }.into(), rest)
        }
        3 => {
            let (v3, rest) = postcard::take_from_bytes::<HeaderV3>(payload)?;
            (v3.into(), rest)
        }
        _ => {
            let (v4, rest) = postcard::take_from_bytes::<HeaderV4>(payload)?;
            (v4.into(), rest)
        }
    })
}
