//! Log records: every event and every decision, numbered, in the order they happened.
//!
//! This module owns the record types and a simple, self-contained postcard encoding of
//! one record into a buffer the caller supplies: what a controller uses to send records
//! one at a time. The decision log *file* (format version 5, `docs/log-format.md`) is
//! the host's framing of these same records: `replay::format` stores them in blocks,
//! with sequence numbers implicit and each record encoded against the ones before it,
//! which takes a fraction of the bytes but needs state across records. A reader of
//! either hands out [`Record`] values.

use serde::{Deserialize, Serialize};

use crate::reservation;
use crate::service_level::{Decision, Event};
use crate::sla;
use crate::tiers;

/// An event that went in, or a decision that came out.
///
/// Variants are only ever added at the end: the discriminant is part of the format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Body {
    Event(Event),
    Decision(Decision),
    /// An event that went into the reservation kernel.
    ReservationEvent(reservation::Event),
    /// A decision that came out of the reservation kernel.
    ReservationDecision(reservation::Decision),
    /// An event that went into the tiers kernel.
    TiersEvent(tiers::Event),
    /// A decision that came out of the tiers kernel.
    TiersDecision(tiers::Decision),
    /// An event that went into the SLA kernel.
    SlaEvent(sla::Event),
    /// A decision that came out of the SLA kernel.
    SlaDecision(sla::Decision),
}

/// One numbered log record. Sequence numbers start at 0 and go up by one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Record {
    pub seq: u64,
    pub body: Body,
}

/// No record encodes to more bytes than this with [`encode`] (varints of the widest
/// values plus tags). The widest is a reservation `Request` with every field at its
/// maximum: 10 (seq) + 1 (body) + 1 (event) + 4 * 10 (u64s) + 3 * 5 (u32s) + 1 (kind)
/// = 68 bytes, past the 64 that the service-level records needed; rounded up to a
/// multiple of 8.
pub const RECORD_MAX_BYTES: usize = 72;

/// Encodes `record` at the start of `buf`, as postcard, and returns the bytes written.
pub fn encode<'b>(record: &Record, buf: &'b mut [u8]) -> Result<&'b mut [u8], postcard::Error> {
    postcard::to_slice(record, buf)
}

/// Decodes one record from the front of `bytes` and returns it with the rest.
pub fn decode(bytes: &[u8]) -> Result<(Record, &[u8]), postcard::Error> {
    postcard::take_from_bytes(bytes)
}
