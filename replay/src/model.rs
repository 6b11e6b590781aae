//! The independent reference of every model, and the checks that hold its kernel to
//! it: the oracle of the property tests, of the fuzz targets (`fuzz/`) and of
//! `replay verify`'s audits. One folder per model, named as in the kernel.
//!
//! Nothing here calls into the kernels' queues, machines, calendars or deadline
//! arithmetic; only the vocabulary types (events, decisions, configurations) are
//! shared, so that a mistake in a kernel cannot be copied into its own judge.
//! Everything is plain `std`, `Vec`-based and brute force where brute force is
//! obviously correct:
//!
//! - [`service_level`]: the rules restated over `Vec` queues
//!   ([`service_level::ServiceLevelReference`]), the trace audit
//!   ([`service_level::ServiceLevelAudit`]: promises kept, no admission model), brute-force
//!   feasibility, and the small-case decoder and harness.
//! - [`reservation`]: the reservation model's audit
//!   ([`reservation::ReservationAudit`]: windows and pool capacity, from the records
//!   alone) and the plain reference of its admissions and offers.
//! - [`tiers`]: the tiers model's audit ([`tiers::TiersAudit`]) and its plain
//!   reference of placements, starts, ends and losses under `no-qos` and `qos`.
//! - [`sla`]: the SLA model's audit ([`sla::SlaAudit`]: capacity, windows, first fit,
//!   order and reasons from the records alone, and each job set's accepted starts) and
//!   its plain sort-then-first-fit reference ([`sla::SlaReference`]).

mod bytes;
crate::for_each_model!(crate::model_modules!(pub));
