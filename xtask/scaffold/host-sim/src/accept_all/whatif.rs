//! The accept-all model's part of `host-sim whatif` ([`crate::whatif`]): a log's
//! requests decided again. The model has no option to change.

use kernel::accept_all::Event;
use kernel::log::Body;

use crate::error::CliError;
use crate::output::RunOutputArgs;
use crate::whatif::{Changes, Recorded, Whatif};

impl Whatif for crate::model::AcceptAll {
    fn whatif(recorded: &Recorded, changes: &Changes, output: &RunOutputArgs) -> Result<(), CliError> {
        changes.refuse_except(&[], "an accept-all")?;
        let mut header = super::header();
        header.inputs = recorded.header.inputs.clone();
        header.settings = recorded.header.settings.clone();
        header.host_version = crate::workload::HOST_VERSION.to_owned();
        let events = recorded.records.iter().filter_map(|body| match body {
            Body::AcceptAllEvent(event @ Event::Submit { .. }) => Some(*event),
            _ => None,
        });
        super::run_and_print(&header, events, output)
    }
}
