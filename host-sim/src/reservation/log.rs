//! The decision log of a reservation run: its header. The log itself is written by
//! [`crate::record_log`], as every model's is.

use replay::format::{Header, Model};

use super::{Experiment, run};
use crate::units::format_milli;
use crate::workload::Workload;

/// The log header of a reservation run: the reservation kernel's configuration and
/// capacities, what identifies the input, and the mapping's options (load, flexible
/// windows, estimates, the offer user's `phi` limit) as settings.
pub fn header(experiment: &Experiment, workload: &Workload) -> Header {
    let mut header = Header::new(Model::Reservation(replay::engine::reservation::header(
        run::kernel_config(&experiment.run_options()),
    )));
    header.seed = experiment.seed;
    header.window_ticks = Some(experiment.window_ticks);
    workload.stamp(&mut header);
    header.set("load", format_milli(experiment.load_milli));
    header.set("flex", experiment.flex.name());
    header.set("estimates", experiment.estimates.name());
    header.set("offers", experiment.offers_phi_milli.map_or_else(|| "off".to_owned(), format_milli));
    header
}
