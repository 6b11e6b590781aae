//! The tiers model's part of `host-sim whatif` ([`crate::whatif`]): a log's SLAs and
//! availability back into a [`Scenario`], re-run by the model's run loop.
//!
//! Every `Submit` is a request, as submitted. Run times are not taken from the log:
//! the run loop draws each start's run time from the seed, in start order, as the
//! run did, so the what-if draws what a run with the changed option would draw.
//! Availability: with seeded faults (the header's `up-mean` and `down-mean`) the
//! changes are drawn again from the seed, every one a run would have; with an
//! availability file the log holds only the changes its run reached, so its
//! requests can be re-run only under the recorded configuration, and a changed
//! option is refused ("not yet").

use kernel::log::Body;
use kernel::tiers::{Event, Policy};

use super::cli::print_summary;
use super::faults::{self, Change, ChangePlan, Faults, Seeded};
use super::{Requests, Scenario, TiersError};
use crate::error::CliError;
use crate::output::RunOutputArgs;
use crate::units::parse_milli;
use crate::whatif::{Changes, Recorded, Whatif};

/// The options a tiers what-if applies.
const KNOWN: [&str; 2] = ["--policy", "--laxity"];

impl Whatif for crate::model::Tiers {
    fn whatif(recorded: &Recorded, changes: &Changes, output: &RunOutputArgs) -> Result<(), CliError> {
        changes.refuse_except(&KNOWN, "a tiers")?;
        let scenario = scenario(recorded, changes)?;
        let mut header = super::log::header(&scenario);
        header.inputs = recorded.header.inputs.clone();
        for setting in &recorded.header.settings {
            if header.setting(&setting.key).is_none() {
                header.set(&setting.key, &setting.value);
            }
        }
        let (summary, ran) = match &output.log {
            Some(path) => super::log::run_logged(&scenario, &header, path)?,
            None => scenario.run()?,
        };
        let mix = recorded.header.setting("mix").unwrap_or("?");
        let named = (scenario.config.policy.name(), mix, scenario.seed);
        Ok(print_summary(&summary, &ran.out, named, None, output.json.then_some(&header))?)
    }
}

/// The log's scenario with `changes` applied.
fn scenario(recorded: &Recorded, changes: &Changes) -> Result<Scenario, CliError> {
    let header = &recorded.header;
    let tiers = header.tiers().ok_or_else(|| recorded.error("no tiers header"))?;
    let mut config = tiers.config;
    if let Some(name) = &changes.policy {
        config.policy = Policy::from_name(name)
            .ok_or_else(|| CliError::Usage(format!("--policy: `{name}` is not no-qos, qos or qos-res")))?;
    }
    if let Some(text) = &changes.laxity {
        // As `tiers --laxity` reads it, in the same words.
        config.laxity_threshold_milli =
            crate::units::parse_decimal(text).map_err(|e| CliError::Usage(format!("--laxity: {e}")))?;
    }
    let number = |key: &str| {
        let text = header
            .setting(key)
            .ok_or_else(|| recorded.error(format!("the header has no `{key}` setting")))?;
        text.parse::<u64>().map_err(|_| recorded.error(format!("the header's `{key}` is not a whole number")))
    };
    let load_max = header.setting("load-max").and_then(parse_milli);
    let load_pct =
        u32::try_from(number("load-pct")?).map_err(|_| recorded.error("`load-pct` is out of range"))?;
    let mut faults = Faults {
        up_mean_s: 1,
        down_mean_s: 0,
        load_pct,
        load_max_milli: load_max
            .ok_or_else(|| recorded.error("the header's `load-max` is missing or not a decimal"))?,
    };
    let mut requests = Vec::new();
    let mut logged_changes = Vec::new();
    for body in &recorded.records {
        match *body {
            Body::TiersEvent(Event::Submit(request)) => requests.push(request),
            Body::TiersEvent(Event::Leave { t, resource }) => {
                logged_changes.push(Change { t, resource, back: false })
            }
            Body::TiersEvent(Event::Return { t, resource }) => {
                logged_changes.push(Change { t, resource, back: true })
            }
            _ => {}
        }
    }
    let resources = tiers.resources.clone();
    let seeded = header.setting("up-mean").is_some();
    let changes_list = if seeded {
        faults.up_mean_s = number("up-mean")?;
        faults.down_mean_s = number("down-mean")?;
        let paper = header.inputs.first().is_some_and(|i| i.name.starts_with("tiers paper workload"));
        let until = if paper { faults::paper_until(&requests) } else { faults::trace_until(&requests) };
        let drawn = Seeded::new(&resources, faults, header.seed, Some(until));
        same_changes(recorded, drawn, &logged_changes)?;
        ChangePlan::Seeded { until: Some(until) }
    } else if config != tiers.config {
        return Err(CliError::from(TiersError::Usage(
            "whatif: not yet for a tiers log with an availability file and a changed option: the log holds \
             only the availability changes its own run reached"
                .into(),
        )));
    } else {
        ChangePlan::Listed(logged_changes)
    };
    let requests = Requests::Listed(requests);
    Ok(Scenario { config, resources, requests, changes: changes_list, faults, seed: header.seed })
}

/// The header against the records: the availability changes the log holds are the
/// first the header's seed and fault settings draw, or the header is not the run's
/// (edited, say), and a what-if of it would draw another run's.
fn same_changes(recorded: &Recorded, mut drawn: Seeded, logged: &[Change]) -> Result<(), CliError> {
    for (index, change) in logged.iter().enumerate() {
        let next = drawn.peek(None);
        drawn.pop();
        if next != Some(*change) {
            let what = if change.back { "return" } else { "leave" };
            return Err(recorded.error(format!(
                "the header's seed {} and availability settings do not draw the log's availability \
                 change {index} (resource {} {what}s at {}): the header is not the one its run wrote",
                recorded.header.seed, change.resource, change.t
            )));
        }
    }
    Ok(())
}
