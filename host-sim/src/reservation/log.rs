//! The decision log of a reservation run: its header. The log itself is written by
//! [`crate::record_log`], as every model's is.

use kernel::service_level::Policy;
use replay::engine::service_level::DEFAULT_QUEUE_CAPACITY;
use replay::format::{Header, Model};

use super::{Experiment, run};
use crate::units::format_milli;
use crate::workload::Workload;

/// The log header of a reservation run: the reservation kernel's configuration and
/// capacities, what identifies the input, and the mapping's options (load, flexible
/// windows, estimates, the offer user's `phi` limit) as settings. The service-level
/// fields are unused: one machine, the default queue capacity and policy, no levels.
pub fn header(experiment: &Experiment, workload: &Workload) -> Header {
    let mut header = Header {
        seed: experiment.seed,
        window_ticks: Some(experiment.window_ticks),
        model: Model::Reservation(replay::engine::reservation::header(run::kernel_config(
            &experiment.run_options(),
        ))),
        ..Header::new(1, DEFAULT_QUEUE_CAPACITY, Policy::default(), Vec::new())
    };
    workload.stamp(&mut header);
    header.set("load", format_milli(experiment.load_milli));
    header.set("flex", experiment.flex.name());
    header.set("estimates", experiment.estimates.name());
    header.set("offers", experiment.offers_phi_milli.map_or_else(|| "off".to_owned(), format_milli));
    header
}
