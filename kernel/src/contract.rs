//! The contract every model's state machine keeps, in the manner of smoltcp's
//! `phy::Device`: a few associated types and methods, so that a host, a checker or a
//! firmware drives any model through one generic path.
//!
//! A kernel is built from its [`Kernel::Config`] (each model's `new`, which may also
//! take what only it needs), then driven by [`Kernel::step`]: one event in, every
//! decision it causes handed to a sink in order, and an outcome back. `step` is
//! written once, here: the model's [`Kernel::dispatch`], then, in debug builds only,
//! the model's [`Kernel::check_invariants`]. A model's compiled capacities (its const
//! generics) are readable without knowing them, through [`Kernel::CAPACITIES`].

use crate::types::Tick;

/// One model's state machine. See the [module documentation](self).
pub trait Kernel {
    /// The model's one name, as every layer spells it (`"service_level"`,
    /// `"reservation"`, `"tiers"`, `"sla"`).
    const MODEL: &'static str;
    /// The compiled capacities, the const generics in their order, each with its name
    /// as a log header's capacity error names it (for example `"calendar slots (H)"`).
    const CAPACITIES: &'static [(&'static str, usize)];

    /// Everything that shapes the decisions besides the capacities.
    type Config;
    /// What goes in.
    type Event: Copy;
    /// What comes out, zero or more per event.
    type Decision: Copy;
    /// The summary of one event.
    type Outcome: Copy;

    fn config(&self) -> &Self::Config;

    /// The time of the last event.
    fn now(&self) -> Tick;

    /// Handles one event without the checks of [`Self::step`]: what each model writes.
    /// Callers use `step`.
    fn dispatch<S: FnMut(Self::Decision) + ?Sized>(
        &mut self,
        event: Self::Event,
        sink: &mut S,
    ) -> Self::Outcome;

    /// Asserts (`debug_assert!`) what holds of the state after every event. Only debug
    /// builds call it; a model that checks nothing keeps this empty default.
    fn check_invariants(&self) {}

    /// Handles one event, hands every decision it causes to `sink` in order, and
    /// summarises the result.
    fn step<S: FnMut(Self::Decision) + ?Sized>(&mut self, event: Self::Event, sink: &mut S) -> Self::Outcome {
        let outcome = self.dispatch(event, sink);
        #[cfg(debug_assertions)]
        self.check_invariants();
        outcome
    }
}
