//! One reservation run's summary, as a readable table or one JSON object, and the
//! comparison with the paper's FIFO utilisation.

use std::collections::BTreeMap;
use std::io::{self, Write};

use serde::Serialize;

use super::Outcome;
use super::metrics::WindowStats;
use crate::units::format_milli;

/// The paper's FIFO utilisation on SDSC SP2 (section 4.2): load, mean and sd in percent.
pub const PAPER_FIFO: [(u64, f64, f64); 3] = [(1000, 46.8, 3.3), (1250, 50.9, 3.5), (1500, 54.7, 3.7)];

/// One window in the JSON output.
#[derive(Debug, Serialize)]
pub struct WindowRow<'a> {
    #[serde(flatten)]
    pub stats: &'a WindowStats,
    pub utilisation: f64,
    pub utilisation_span: f64,
    pub acceptance_rate: f64,
}

/// The summary of one run.
#[derive(Debug, Serialize)]
pub struct Summary<'a> {
    /// The input as named on the command line (the table's; the JSON has the core's
    /// `inputs`).
    #[serde(skip)]
    pub trace: &'a str,
    #[serde(skip)]
    pub input_hash: String,
    pub nodes: u32,
    pub slot_ticks: u64,
    pub window_ticks: u64,
    pub criterion: &'static str,
    #[serde(serialize_with = "crate::units::decimal_number")]
    pub load: String,
    pub flex: &'static str,
    pub fix_at: &'static str,
    pub estimates: &'static str,
    #[serde(serialize_with = "crate::units::optional_decimal")]
    pub offers_phi_max: Option<String>,
    pub seed: u64,
    pub jobs_kept: u64,
    pub excluded: BTreeMap<&'static str, u64>,
    pub p_raised: u64,
    pub windows_simulated: usize,
    pub windows_empty: u64,
    pub trailing_window_dropped: bool,
    pub requests: u64,
    pub requests_strict: u64,
    pub requests_flexible: u64,
    pub accepted: u64,
    pub accepted_by_offer: u64,
    pub rejected: &'a BTreeMap<&'static str, u64>,
    pub offers_made: u64,
    pub offers_accepted: u64,
    pub offers_failed: u64,
    pub offer_phi_mean: f64,
    pub early_finishes: u64,
    pub cut_overruns: u64,
    pub deepest_waiting: u64,
    pub waiting_capacity: usize,
    pub utilisation_mean: f64,
    pub utilisation_sd: f64,
    pub utilisation_span_mean: f64,
    pub utilisation_span_sd: f64,
    pub acceptance_rate: f64,
    pub windows: Vec<WindowRow<'a>>,
}

impl<'a> Summary<'a> {
    pub fn new(trace: &'a str, input_hash: String, outcome: &'a Outcome) -> Self {
        let e = &outcome.experiment;
        let t = &outcome.totals;
        let excluded = BTreeMap::from([
            ("run_time_under_60s", outcome.excluded_short),
            ("no_processor_count", outcome.excluded_no_procs),
        ]);
        Self {
            trace,
            input_hash,
            nodes: e.nodes,
            slot_ticks: e.slot_ticks,
            window_ticks: e.window_ticks,
            criterion: e.criterion.name(),
            load: format_milli(e.load_milli),
            flex: e.flex.name(),
            fix_at: e.fixing.name(),
            estimates: e.estimates.name(),
            offers_phi_max: e.offers_phi_milli.map(format_milli),
            seed: e.seed,
            jobs_kept: outcome.jobs_kept,
            excluded,
            p_raised: outcome.p_raised,
            windows_simulated: outcome.windows.len(),
            windows_empty: outcome.windows_empty,
            trailing_window_dropped: outcome.trailing_dropped,
            requests: t.requests,
            requests_strict: t.strict,
            requests_flexible: t.flexible,
            accepted: t.accepted,
            accepted_by_offer: t.offers_accepted,
            rejected: &t.rejected,
            offers_made: t.offers_made,
            offers_accepted: t.offers_accepted,
            offers_failed: t.offers_failed,
            offer_phi_mean: outcome.offer_phi_mean,
            early_finishes: t.early_finishes,
            cut_overruns: t.cut_overruns,
            deepest_waiting: t.deepest_waiting,
            waiting_capacity: super::run::WAITING,
            utilisation_mean: outcome.utilisation.0,
            utilisation_sd: outcome.utilisation.1,
            utilisation_span_mean: outcome.utilisation_span.0,
            utilisation_span_sd: outcome.utilisation_span.1,
            acceptance_rate: outcome.acceptance_rate,
            windows: outcome
                .windows
                .iter()
                .map(|w| WindowRow {
                    stats: w,
                    utilisation: w.utilisation(),
                    utilisation_span: w.utilisation_span(),
                    acceptance_rate: w.acceptance_rate(),
                })
                .collect(),
        }
    }
}

/// Writes the summary as one JSON object on one line, the core first
/// ([`crate::summary`]) from the run's log `header`, and a newline.
pub fn write_json(header: &replay::format::Header, summary: &Summary<'_>, out: impl Write) -> io::Result<()> {
    let rejected = summary.rejected.values().sum();
    let counts = crate::summary::Counts { submitted: summary.requests, accepted: summary.accepted, rejected };
    let core = crate::summary::Core::new("reservation", header, Some(counts));
    crate::summary::write_json(&core, summary, out)
}

pub fn write_table(s: &Summary<'_>, mut out: impl Write) -> io::Result<()> {
    writeln!(out, "trace              {} (crc64 {})", s.trace, s.input_hash)?;
    writeln!(
        out,
        "configuration      {} nodes, {} s slots, {} s windows, criterion {}, load {}, flex {}, fix {}, estimates {}, offers {}, seed {}",
        s.nodes,
        s.slot_ticks,
        s.window_ticks,
        s.criterion,
        s.load,
        s.flex,
        s.fix_at,
        s.estimates,
        s.offers_phi_max.as_deref().unwrap_or("off"),
        s.seed
    )?;
    writeln!(
        out,
        "jobs               {} kept, excluded {:?}, p raised to 1: {}",
        s.jobs_kept, s.excluded, s.p_raised
    )?;
    writeln!(
        out,
        "windows            {} simulated, {} empty, trailing dropped: {}",
        s.windows_simulated, s.windows_empty, s.trailing_window_dropped
    )?;
    writeln!(
        out,
        "requests           {} ({} strict, {} flexible); accepted {} + {} by offer",
        s.requests, s.requests_strict, s.requests_flexible, s.accepted, s.accepted_by_offer
    )?;
    writeln!(out, "rejected           {:?}", s.rejected)?;
    writeln!(
        out,
        "offers             {} made, {} accepted (mean phi {:.3}), {} failed",
        s.offers_made, s.offers_accepted, s.offer_phi_mean, s.offers_failed
    )?;
    writeln!(out, "estimates          {} early finishes, {} overruns cut", s.early_finishes, s.cut_overruns)?;
    writeln!(out, "deepest waiting    {} of {}", s.deepest_waiting, s.waiting_capacity)?;
    writeln!(
        out,
        "utilisation        {:.2} % +- {:.2} (span: {:.2} % +- {:.2})",
        s.utilisation_mean, s.utilisation_sd, s.utilisation_span_mean, s.utilisation_span_sd
    )?;
    writeln!(out, "acceptance rate    {:.4}", s.acceptance_rate)?;
    writeln!(out)?;
    writeln!(
        out,
        "{:>6} {:>10} {:>9} {:>9} {:>12} {:>10}",
        "window", "start_s", "requests", "accepted", "utilisation", "acceptance"
    )?;
    for w in &s.windows {
        writeln!(
            out,
            "{:>6} {:>10} {:>9} {:>9} {:>11.2}% {:>10.4}",
            w.stats.index,
            w.stats.start,
            w.stats.requests,
            w.stats.accepted + w.stats.offers_accepted,
            w.utilisation,
            w.acceptance_rate
        )?;
    }
    Ok(())
}

/// FIFO utilisation at the paper's three loads beside its figures.
pub fn write_paper_comparison(rows: &[Outcome], mut out: impl Write) -> io::Result<()> {
    writeln!(out, "FIFO utilisation, ours beside the paper's (SDSC SP2, section 4.2)")?;
    writeln!(out, "{:>6} {:>18} {:>18} {:>10}", "load", "ours %", "paper %", "acceptance")?;
    for (outcome, (load, mean, sd)) in rows.iter().zip(PAPER_FIFO) {
        writeln!(
            out,
            "{:>6} {:>11.1} +- {:>3.1} {:>11.1} +- {:>3.1} {:>10.4}",
            format_milli(load),
            outcome.utilisation.0,
            outcome.utilisation.1,
            mean,
            sd,
            outcome.acceptance_rate
        )?;
    }
    Ok(())
}
