//! What a model is, for the log and the tools that read it: one trait, implemented
//! once per model, and the one place where the models are registered.
//!
//! A log records one model's events and decisions (the header's [`Model`](crate::format::Model) says
//! which). [`LogModel`] says how that model's records sit in [`Body`], and
//! [`crate::verify::Verified`] adds what re-makes and audits them. `verify` is written
//! once over these traits; a model only implements them (in `verify/NAME.rs`) and
//! adds one arm to [`with_model!`](crate::with_model) and one to
//! [`with_body_model!`](crate::with_body_model).

use std::fmt::Debug;

use kernel::Tick;
use kernel::log::Body;

/// How one model's records sit in the log.
pub trait LogModel {
    /// The model's one name, as its folder is called in every layer.
    const NAME: &'static str;
    /// The model's name in sentences (`service-level`, `reservation`, ...).
    const LABEL: &'static str;
    /// What went into the model's kernel.
    type Event: Copy + Debug;
    /// What came out of it.
    type Decision: Copy + PartialEq + Debug;

    /// The record as one of this model's events, if it is one.
    fn event(body: &Body) -> Option<Self::Event>;
    /// The record as one of this model's decisions, if it is one.
    fn decision(body: &Body) -> Option<Self::Decision>;
    /// A decision as the log writes it.
    fn wrap_decision(decision: Self::Decision) -> Body;
    /// The time of an event, where it carries one: the time its decisions are made at.
    fn time(event: &Self::Event) -> Option<Tick>;
}

/// The service-level model (Lezama 2012): EDD queues, greedy acceptance.
#[derive(Debug)]
pub struct ServiceLevel;

/// Flexible advance reservations (Netto, Bubendorfer and Buyya).
#[derive(Debug)]
pub struct Reservation;

/// Gold, Silver and Bronze over reliable and volunteer resources (Tomás et al.).
#[derive(Debug)]
pub struct Tiers;

/// SLA priority heuristics on a parallel machine (Yarmolenko and Sakellariou).
#[derive(Debug)]
pub struct Sla;

/// The model a record belongs to, by its [`LogModel::LABEL`].
pub fn body_label(body: &Body) -> &'static str {
    crate::with_body_model!(body, label())
}

fn label<M: LogModel>() -> &'static str {
    M::LABEL
}

/// Runs `$run::<M>($args)` with `M` the [`LogModel`] of `$model` (a
/// [`Model`](crate::format::Model)): the one list of the models a binary knows.
#[macro_export]
macro_rules! with_model {
    ($model:expr, $run:ident ( $($arg:expr),* $(,)? )) => {
        match $model {
            $crate::format::Model::ServiceLevel(_) => $run::<$crate::contract::ServiceLevel>($($arg),*),
            $crate::format::Model::Reservation(_) => $run::<$crate::contract::Reservation>($($arg),*),
            $crate::format::Model::Tiers(_) => $run::<$crate::contract::Tiers>($($arg),*),
            $crate::format::Model::Sla(_) => $run::<$crate::contract::Sla>($($arg),*),
        }
    };
}

/// Runs `$run::<M>($args)` with `M` the [`LogModel`] whose record `$body` (a
/// [`Body`]) is: every `Body` variant is some model's event or decision.
#[macro_export]
macro_rules! with_body_model {
    ($body:expr, $run:ident ( $($arg:expr),* $(,)? )) => {
        match $body {
            kernel::log::Body::Event(_) | kernel::log::Body::Decision(_) => {
                $run::<$crate::contract::ServiceLevel>($($arg),*)
            }
            kernel::log::Body::ReservationEvent(_) | kernel::log::Body::ReservationDecision(_) => {
                $run::<$crate::contract::Reservation>($($arg),*)
            }
            kernel::log::Body::TiersEvent(_) | kernel::log::Body::TiersDecision(_) => {
                $run::<$crate::contract::Tiers>($($arg),*)
            }
            kernel::log::Body::SlaEvent(_) | kernel::log::Body::SlaDecision(_) => {
                $run::<$crate::contract::Sla>($($arg),*)
            }
        }
    };
}
