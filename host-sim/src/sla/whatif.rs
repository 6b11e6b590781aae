//! The SLA model's part of `host-sim whatif` ([`crate::whatif`]): a log's sets of
//! requests back into a [`Plan`], re-run by the model's run loop.
//!
//! Each `Reset` starts a set; each `Submit` is a request (its terms as submitted, and
//! its submit time, which is 0 for every request of a whole-set batch). The batch mode
//! is the header's `batch` setting. A request's place among its set is its place in
//! the log, which is the order the run loop submitted it in, so the loop submits and
//! plans them again in the same order. CPU utilisation divides by the generated sets'
//! frame, or by a trace's span, as `sla` computes it.

use kernel::log::Body;
use kernel::sla::Event;

use super::cli::{print_outcome, trace_capacity};
use super::generator::FRAME_TICKS;
use super::mapping::Sla;
use super::metrics::Terms;
use super::plan::{Plan, Sets};
use super::run::{Batch, Input};
use crate::error::CliError;
use crate::output::RunOutputArgs;
use crate::whatif::{Changes, Recorded, Whatif};

/// The options an SLA what-if applies.
const KNOWN: [&str; 2] = ["--heuristic", "--nodes"];

impl Whatif for crate::model::Sla {
    fn whatif(recorded: &Recorded, changes: &Changes, output: &RunOutputArgs) -> Result<(), CliError> {
        changes.refuse_except(&KNOWN, "an SLA")?;
        let plan = plan(recorded, changes)?;
        let bar = crate::progress::bar(plan.sets.len() as u64, "sets");
        let outcome = match &output.log {
            Some(path) => super::log::run_logged(&plan, path, &bar, &mut |_, _, _| {}),
            None => super::log::run_plain(&plan, &bar, &mut |_, _, _| {}),
        };
        bar.finish_and_clear();
        Ok(print_outcome(&plan, &outcome?, output.json)?)
    }
}

/// The log's sets under the header's configuration with `changes` applied, and the
/// header a run of that configuration writes.
fn plan(recorded: &Recorded, changes: &Changes) -> Result<Plan, CliError> {
    let header = &recorded.header;
    let sla = header.sla().ok_or_else(|| recorded.error("no SLA header"))?;
    // The batch capacity follows the input's batches, which no option here changes.
    let (mut config, batch_capacity) = (sla.config, sla.batch);
    if let Some(text) = &changes.heuristic {
        let spec = super::heuristic::parse(text).map_err(|e| CliError::Usage(format!("--heuristic: {e}")))?;
        config.order = spec.order(header.seed);
    }
    // Generated sets (the header counts them) are the paper's 64 nodes, as `sla` says.
    if changes.nodes.is_some() && header.setting("sets").is_some() {
        return Err(recorded.error(
            "--nodes: --slot, --nodes and --limit apply to traces; generated sets are whole six-minute \
             slots on 64 nodes (the log's header has the setting `sets`)",
        ));
    }
    config.nodes = changes.nodes.unwrap_or(config.nodes);
    let batch_setting =
        header.setting("batch").ok_or_else(|| recorded.error("the header has no `batch` setting"))?;
    let batch =
        Batch::parse(batch_setting).map_err(|e| recorded.error(format!("the header's `batch`: {e}")))?;
    let mut sets: Vec<Vec<Sla>> = Vec::new();
    for body in &recorded.records {
        match *body {
            Body::SlaEvent(Event::Reset { .. }) => sets.push(Vec::new()),
            Body::SlaEvent(Event::Submit { t, request: r }) => {
                let set = sets.last_mut().ok_or_else(|| recorded.error("a submit before the first Reset"))?;
                let terms = Terms { ts: r.ts, tf: r.tf, td: r.td, ncpu: r.ncpu };
                set.push(Sla { job: r.job, submit: t, terms });
            }
            _ => {}
        }
    }
    // Generated sets (the header counts them) share the paper's frame; a trace is
    // one set over its own span.
    let generated = header.setting("sets").is_some();
    let nodes = config.nodes;
    let inputs = sets
        .into_iter()
        .map(|requests| {
            let capacity = if generated {
                u128::from(nodes) * u128::from(FRAME_TICKS)
            } else {
                trace_capacity(&requests, nodes)
            };
            Input { requests, capacity }
        })
        .collect();
    let mut new_header = super::log::header(config, batch_capacity, header.seed);
    new_header.inputs = header.inputs.clone();
    new_header.host_version = crate::workload::HOST_VERSION.to_owned();
    new_header.settings = header.settings.clone();
    let source = header.input_names();
    Ok(Plan {
        sets: Sets::Held(inputs),
        config,
        batch,
        batch_capacity,
        header: new_header,
        source,
        left_out: 0,
    })
}
