//! What a model is, for the log and the tools that read it: one trait, implemented
//! once per model, and the one place where the models are registered.
//!
//! A log records one model's events and decisions (the header's [`Model`](crate::format::Model) says
//! which). [`LogModel`] says how that model's records sit in [`Body`], and
//! [`crate::verify::Verified`] adds what re-makes and audits them. `verify` is written
//! once over these traits; a model only implements them (in `verify/NAME.rs`) and
//! adds its row to [`for_each_model!`](crate::for_each_model).

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

/// The one list of the models replay knows, one row each: `name: Marker [Event
/// Decision] "doc"`, with `name` the model's folder in every layer, `Marker` its
/// [`LogModel`] (and its [`Model`](crate::format::Model) variant), and its records'
/// [`Body`] variants. `for_each_model!(m!(args))` calls `m!` with `(args)` and the rows:
/// the markers below, [`with_model!`](crate::with_model),
/// [`with_body_model!`](crate::with_body_model) and each layer's modules come from it.
#[macro_export]
macro_rules! for_each_model {
    ($($then:ident)::+ ! $args:tt) => {
        $($then)::+! { $args
            service_level: ServiceLevel [Event Decision]
                "The service-level model (Lezama 2012): EDD queues, greedy acceptance.",
            reservation: Reservation [ReservationEvent ReservationDecision]
                "Flexible advance reservations (Netto, Bubendorfer and Buyya).",
            tiers: Tiers [TiersEvent TiersDecision]
                "Gold, Silver and Bronze over reliable and volunteer resources (Tomás et al.).",
            sla: Sla [SlaEvent SlaDecision]
                "SLA priority heuristics on a parallel machine (Yarmolenko and Sakellariou).",
        }
    };
}

/// Declares one module per model, `mod name;` (or `pub mod name;`), in the layer that calls it
/// (`crate::for_each_model!(crate::model_modules!(pub))`): a layer's file `NAME.rs` is found
/// by its model's row alone.
#[doc(hidden)]
#[macro_export]
macro_rules! model_modules {
    (() $($name:ident: $marker:ident $records:tt $doc:literal,)*) => {
        $(mod $name;)*
    };
    ((pub) $($name:ident: $marker:ident $records:tt $doc:literal,)*) => {
        $(pub mod $name;)*
    };
}

macro_rules! markers {
    (() $($name:ident: $marker:ident $records:tt $doc:literal,)*) => {
        $(
            #[doc = $doc]
            #[derive(Debug)]
            pub struct $marker;
        )*
    };
}

for_each_model!(markers!());

/// The model a record belongs to, by its [`LogModel::LABEL`].
pub fn body_label(body: &Body) -> &'static str {
    crate::with_body_model!(body, label())
}

fn label<M: LogModel>() -> &'static str {
    M::LABEL
}

/// Runs `$run::<M>($args)` with `M` the [`LogModel`] of `$model` (a
/// [`Model`](crate::format::Model)), for every model of [`for_each_model!`].
#[macro_export]
macro_rules! with_model {
    ($model:expr, $run:ident $args:tt) => {
        $crate::for_each_model!($crate::with_model_arms!(($model, $run $args)))
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! with_model_arms {
    ((($model:expr, $run:ident $args:tt)) $($name:ident: $marker:ident $records:tt $doc:literal,)*) => {
        match $model {
            $($crate::format::Model::$marker(_) => $run::<$crate::contract::$marker> $args,)*
        }
    };
}

/// Runs `$run::<M>($args)` with `M` the [`LogModel`] whose record `$body` (a
/// [`Body`]) is: every `Body` variant is some model's event or decision.
#[macro_export]
macro_rules! with_body_model {
    ($body:expr, $run:ident $args:tt) => {
        $crate::for_each_model!($crate::with_body_model_arms!(($body, $run $args)))
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! with_body_model_arms {
    ((($body:expr, $run:ident $args:tt))
     $($name:ident: $marker:ident [$event:ident $decision:ident] $doc:literal,)*) => {
        match $body {
            $(kernel::log::Body::$event(_) | kernel::log::Body::$decision(_) => {
                $run::<$crate::contract::$marker> $args
            })*
        }
    };
}
