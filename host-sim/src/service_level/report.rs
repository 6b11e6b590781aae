//! Printing results: the `run` summary as a readable table or as one JSON object,
//! and the sweep rows as a table.

use std::io::{self, Write};

use serde::Serialize;

use kernel::service_level::Level;

use crate::service_level::metrics::{METRIC_KEYS, Metrics};
use crate::service_level::sim::{RunConfig, RunReport};
use crate::service_level::sweep::Row;
use crate::units::format_milli;
use crate::workload::{Excluded, Workload};

/// One level as the summary shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LevelSummary {
    #[serde(serialize_with = "crate::units::decimal_number")]
    pub sf: String,
    pub slack_milli: u32,
    pub price_per_tick: u32,
}

/// Everything `run` reports: the input, the configuration, and the report.
#[derive(Clone, Debug, Serialize)]
pub struct RunSummary<'a> {
    /// The input as named on the command line (the table's; the JSON has the core's
    /// `inputs`).
    #[serde(skip)]
    pub input_name: &'a str,
    #[serde(skip)]
    pub input_hash: String,
    pub jobs: u64,
    pub excluded: Excluded,
    pub machines: u16,
    pub queue_capacity: u32,
    /// The machine-choice policy's name (`first-fit`, ...).
    pub policy: &'static str,
    pub levels: Vec<LevelSummary>,
    pub seed: u64,
    pub window_ticks: Option<u64>,
    pub alpha: f64,
    #[serde(flatten)]
    pub report: &'a RunReport,
    pub queue_full_rejections: u64,
    pub log: Option<&'a str>,
}

impl<'a> RunSummary<'a> {
    pub fn new(
        workload: &'a Workload,
        config: &RunConfig,
        report: &'a RunReport,
        log: Option<&'a str>,
    ) -> Self {
        Self {
            input_name: &workload.name,
            input_hash: workload.hash_hex(),
            jobs: report.jobs,
            excluded: workload.excluded,
            machines: config.machines,
            queue_capacity: config.queue_capacity,
            policy: config.policy.name(),
            levels: config.levels.iter().map(level_summary).collect(),
            seed: config.seed,
            window_ticks: config.window_ticks,
            alpha: config.alpha_milli as f64 / 1000.0,
            report,
            queue_full_rejections: report.rejections.queue_full,
            log,
        }
    }
}

fn level_summary(level: &Level) -> LevelSummary {
    LevelSummary {
        sf: format_milli(u64::from(level.slack_milli)),
        slack_milli: level.slack_milli,
        price_per_tick: level.price_per_tick,
    }
}

/// Writes the summary as one JSON object on one line, the core first
/// ([`crate::summary`]), and a newline.
pub fn write_json<W: Write>(header: &replay::format::Header, summary: &RunSummary<'_>, out: W) -> io::Result<()> {
    let r = summary.report;
    let submitted = r.per_level.iter().map(|l| l.jobs_submitted).sum();
    let accepted = r.per_level.iter().map(|l| l.jobs_accepted).sum();
    let rejected = r.rejections.no_feasible_machine + r.rejections.queue_full + r.rejections.invalid;
    let counts = crate::summary::Counts { submitted, accepted, rejected };
    let core = crate::summary::Core::new("service_level", header, Some(counts));
    crate::summary::write_json(&core, summary, out)
}

/// A number for a table: whole numbers without decimals, others with four.
pub fn num(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 { format!("{value:.0}") } else { format!("{value:.4}") }
}

/// Writes the summary as readable text.
pub fn write_table<W: Write>(s: &RunSummary<'_>, mut out: W) -> io::Result<()> {
    let r = s.report;
    let levels: Vec<String> =
        s.levels.iter().map(|l| format!("sf {} @ {}/tick", l.sf, l.price_per_tick)).collect();
    let window = s.window_ticks.map_or_else(|| "whole input".to_owned(), |w| format!("{w} s each"));
    let e = &s.excluded;
    writeln!(out, "host-sim run")?;
    writeln!(out, "  input      {}  (crc-64 {})", s.input_name, s.input_hash)?;
    writeln!(
        out,
        "  jobs       {} submitted; excluded: {} run time <= 0, {} negative submit, {} bad lines",
        s.jobs, e.run_time_nonpositive, e.negative_submit, e.bad_lines
    )?;
    writeln!(
        out,
        "  machines   {}, queue capacity {}, policy {}, alpha {}",
        s.machines, s.queue_capacity, s.policy, s.alpha
    )?;
    writeln!(out, "  levels     {} (seed {})", levels.join(", "), s.seed)?;
    writeln!(
        out,
        "  windows    {} simulated, {} empty skipped ({window})",
        r.windows_simulated, r.windows_empty
    )?;
    writeln!(
        out,
        "  kernel     deepest queue {} of {}; rejections: {} no feasible machine, {} queue full, {} invalid",
        r.deepest_queue,
        s.queue_capacity,
        r.rejections.no_feasible_machine,
        r.rejections.queue_full,
        r.rejections.invalid
    )?;
    writeln!(out, "  records    {} events, {} decisions", r.events, r.decisions)?;
    writeln!(out, "  log        {}", s.log.unwrap_or("(none)"))?;
    if r.windows.len() > 1 {
        writeln!(out)?;
        write_window_table(r, &mut out)?;
    }
    writeln!(out)?;
    write_metric_table(&r.mean, &r.sd, r.windows.len() > 1, &mut out)?;
    if r.per_level.len() > 1 {
        writeln!(out)?;
        write_level_table(r, &mut out)?;
    }
    Ok(())
}

/// Each level's figures over the whole run (every window pooled).
fn write_level_table<W: Write>(r: &RunReport, out: &mut W) -> io::Result<()> {
    writeln!(out, "per level (every window pooled)")?;
    writeln!(
        out,
        "{:>5} {:>7} {:>6} {:>10} {:>10} {:>9} {:>12} {:>10} {:>14} {:>16}",
        "level",
        "sf",
        "price",
        "submitted",
        "accepted",
        "PRJ %",
        "MWT (ticks)",
        "MBSD",
        "TPT (ticks)",
        "income"
    )?;
    for l in &r.per_level {
        writeln!(
            out,
            "{:>5} {:>7} {:>6} {:>10} {:>10} {:>9} {:>12} {:>10} {:>14} {:>16}",
            l.level,
            l.sf,
            l.price_per_tick,
            l.jobs_submitted,
            l.jobs_accepted,
            num(l.prj),
            num(l.mwt),
            num(l.mbsd),
            num(l.tpt),
            num(l.income)
        )?;
    }
    Ok(())
}

fn write_window_table<W: Write>(r: &RunReport, out: &mut W) -> io::Result<()> {
    let keys = [
        "jobs_submitted",
        "jobs_accepted",
        "prj",
        "mbsd",
        "mwt",
        "tpt_fraction",
        "mni",
        "me",
        "cv_u",
        "cv_l",
    ];
    write!(out, "{:>6} {:>10}", "window", "start")?;
    for key in keys {
        write!(out, " {key:>14}")?;
    }
    writeln!(out)?;
    for w in &r.windows {
        let values = w.metrics.to_array();
        write!(out, "{:>6} {:>10}", w.index, w.start_ticks)?;
        for key in keys {
            let value = METRIC_KEYS.iter().position(|k| *k == key).map_or(0.0, |i| values[i]);
            write!(out, " {:>14}", num(value))?;
        }
        writeln!(out)?;
    }
    Ok(())
}

/// The readable name of each metric, in [`METRIC_KEYS`] order.
const METRIC_LABELS: [&str; 13] = [
    "PRJ, % rejected",
    "MBSD, bounded slowdown",
    "MWT, waiting time (ticks)",
    "TPT, accepted work (ticks)",
    "TPT / submitted work",
    "MNI, interruptions per job",
    "ME, machine efficiency",
    "G, provider benefit",
    "c_V^u (eq. 6)",
    "c_V^l (eq. 7)",
    "greedy guarantee",
    "jobs submitted (n_r)",
    "jobs accepted (n)",
];

fn write_metric_table<W: Write>(mean: &Metrics, sd: &Metrics, spread: bool, out: &mut W) -> io::Result<()> {
    if spread {
        writeln!(out, "{:<30} {:>14} {:>18} {:>18}", "metric", "key", "mean", "sd (population)")?;
    } else {
        writeln!(out, "{:<30} {:>14} {:>18}", "metric", "key", "value")?;
    }
    for ((label, key), (m, d)) in
        METRIC_LABELS.iter().zip(METRIC_KEYS).zip(mean.to_array().into_iter().zip(sd.to_array()))
    {
        if spread {
            writeln!(out, "{label:<30} {key:>14} {:>18} {:>18}", num(m), num(d))?;
        } else {
            writeln!(out, "{label:<30} {key:>14} {:>18}", num(m))?;
        }
    }
    Ok(())
}

/// Writes sweep rows as a compact table: the main metrics' means.
pub fn write_sweep_table<W: Write>(rows: &[Row], mut out: W) -> io::Result<()> {
    writeln!(
        out,
        "{:<6} {:>7} {:>8} {:>12} {:>7} {:>10} {:>10} {:>10} {:>8} {:>8} {:>8} {:>8} {:>8}",
        "mode",
        "sf_or_k",
        "machines",
        "policy",
        "windows",
        "prj",
        "mbsd",
        "mwt",
        "me",
        "cv_u",
        "cv_l",
        "greedy",
        "queue"
    )?;
    for row in rows {
        let m = &row.mean;
        writeln!(
            out,
            "{:<6} {:>7} {:>8} {:>12} {:>7} {:>10.4} {:>10.4} {:>10.1} {:>8.4} {:>8.4} {:>8.4} {:>8.4} {:>8}",
            row.mode.name(),
            row.sf_or_k,
            row.machines,
            row.policy,
            row.windows,
            m.prj,
            m.mbsd,
            m.mwt,
            m.me,
            m.cv_u,
            m.cv_l,
            m.greedy_bound,
            row.deepest_queue
        )?;
    }
    Ok(())
}
