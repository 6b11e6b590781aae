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

#[cfg(test)]
mod tests {
    use super::Kernel;
    use crate::sla::{self, Decision, Event, Outcome, Request, SlaKernel};
    use crate::{reservation, service_level, tiers};

    /// Every event of `events` through any model's kernel: the decisions counted.
    fn decisions<K: Kernel>(kernel: &mut K, events: &[K::Event]) -> usize {
        let mut count = 0;
        for &event in events {
            kernel.step(event, &mut |_| count += 1);
        }
        count
    }

    #[test]
    fn every_model_names_itself_and_its_capacities() {
        assert_eq!(service_level::ServiceLevelKernel::<4, 32, 8>::MODEL, "service_level");
        assert_eq!(
            service_level::ServiceLevelKernel::<4, 32, 8>::CAPACITIES,
            &[("machines (M)", 4), ("queue entries (Q)", 32), ("service levels (L)", 8)]
        );
        assert_eq!(reservation::ReservationKernel::<64, 16, 32, 4>::MODEL, "reservation");
        assert_eq!(
            reservation::ReservationKernel::<64, 16, 32, 4>::CAPACITIES,
            &[
                ("calendar slots (H)", 64),
                ("waiting reservations (W)", 16),
                ("running reservations (RUN)", 32),
                ("offers per rejection (OFFERS)", 4)
            ]
        );
        assert_eq!(tiers::TiersKernel::<4, 64, 16>::MODEL, "tiers");
        assert_eq!(
            tiers::TiersKernel::<4, 64, 16>::CAPACITIES,
            &[("resources (R)", 4), ("calendar slots (H)", 64), ("jobs (J)", 16)]
        );
        assert_eq!(SlaKernel::<64, 8>::MODEL, "sla");
        assert_eq!(SlaKernel::<64, 8>::CAPACITIES, &[("calendar slots (H)", 64), ("batch (B)", 8)]);
    }

    #[test]
    fn step_runs_the_model_and_hands_over_its_decisions() {
        let config = sla::Config::new(4, 60, sla::Order::Random { seed: 0 });
        let mut kernel = SlaKernel::<64, 8>::new(config).unwrap();
        let request = Request { job: 7, ts: 0, tf: 600, td: 120, ncpu: 2 };
        let events = [Event::Submit { t: 0, request }, Event::Plan { t: 0 }];
        assert_eq!(decisions(&mut kernel, &events), 1);
        let mut seen = None;
        let outcome = Kernel::step(&mut kernel, Event::Plan { t: 60 }, &mut |d: Decision| seen = Some(d));
        assert_eq!((outcome, seen), (Outcome::Planned { accepted: 0, rejected: 0 }, None));
        assert_eq!((kernel.now(), Kernel::config(&kernel).nodes), (60, 4));
    }
}
