//! The thesis' experiment grid, run in parallel: one level with `sf` in `1..=20`
//! (`single`) and the level sets `1..k` for `k` in `1..=20` (`multi`), each on
//! 1, 2, 4, ..., 64 machines, under each asked-for machine-choice policy (first fit
//! by default), every run windowed (7 days by default). One row per (mode, sf or k,
//! machines, policy) with the mean and population standard deviation of every metric
//! across windows, written as CSV and JSON.
//!
//! Rows come out in grid order (modes, then sf or k, then machines, then policies),
//! whatever order the runs finish in, so the files are the same on every machine.

use std::io::{BufWriter, Write};
use std::path::Path;

use indicatif::ProgressBar;
use rayon::prelude::*;
use replay::staged::{self, StageError};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use kernel::service_level::{Policy, SLACK_ONE_MILLI};

use crate::path_error::PathError;
use crate::service_level::levels::{single, thesis_set};
use crate::service_level::metrics::{METRIC_KEYS, Metrics};
use crate::service_level::sim::SimError;
use crate::service_level::sim::{self, RunConfig};
use crate::units::format_milli;
use crate::workload::{Job, Workload};

pub mod figures;

/// Writing sweep results.
#[derive(Debug, Error)]
pub enum SweepError {
    #[error(transparent)]
    Sim(#[from] SimError),
    #[error(transparent)]
    Io(#[from] PathError),
    #[error("{path}: cannot write CSV: {source}")]
    Csv {
        path: String,
        #[source]
        source: csv::Error,
    },
    #[error("{path}: cannot write JSON: {source}")]
    Json {
        path: String,
        #[source]
        source: serde_json::Error,
    },
    #[error(transparent)]
    Output(#[from] StageError),
    #[error("multi-level sweeps need whole level counts k; \"{0}\" is not one")]
    FractionalK(String),
    #[error("the sweep grid is empty: give at least one mode, slack and machine count")]
    EmptyGrid,
    #[error(transparent)]
    Shard(#[from] crate::shard::ShardError),
}

/// One service level with slack `sf`, or the thesis' set `1..k`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    Single,
    Multi,
}

impl Mode {
    pub fn name(self) -> &'static str {
        match self {
            Self::Single => "single",
            Self::Multi => "multi",
        }
    }
}

/// The grid and what every run shares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SweepConfig {
    pub modes: Vec<Mode>,
    /// `sf` for single runs and `k` for multi runs, in thousandths.
    pub slacks_milli: Vec<u32>,
    pub machine_counts: Vec<u16>,
    /// The policies compared, in output order (`[FirstFit]` by default).
    pub policies: Vec<Policy>,
    pub queue_capacity: u32,
    pub seed: u64,
    pub window_ticks: Option<u64>,
    pub alpha_milli: u64,
}

/// The default `sf` and `k` values: 1 to 20.
pub fn default_slacks_milli() -> Vec<u32> {
    (1..=20).map(|sf| sf * SLACK_ONE_MILLI).collect()
}

/// The default machine counts: 1, 2, 4, ..., 64.
pub fn default_machine_counts() -> Vec<u16> {
    (0..=6).map(|e| 1 << e).collect()
}

/// One run of the grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Point {
    pub mode: Mode,
    pub slack_milli: u32,
    pub machines: u16,
    pub policy: Policy,
}

/// One row of the results.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    pub mode: Mode,
    /// `sf` (single) or `k` (multi), as a decimal.
    pub sf_or_k: String,
    pub machines: u16,
    /// The policy's name (`first-fit`, ...).
    pub policy: &'static str,
    pub windows: u64,
    pub windows_empty: u64,
    pub deepest_queue: u64,
    pub queue_full_rejections: u64,
    pub mean: Metrics,
    pub sd: Metrics,
}

/// A row as a shard's part holds it: its policy by name, read back as the policy's own.
#[derive(Deserialize)]
struct PartRow {
    mode: Mode,
    sf_or_k: String,
    machines: u16,
    policy: String,
    windows: u64,
    windows_empty: u64,
    deepest_queue: u64,
    queue_full_rejections: u64,
    mean: Metrics,
    sd: Metrics,
}

impl<'de> Deserialize<'de> for Row {
    fn deserialize<D: serde::Deserializer<'de>>(from: D) -> Result<Self, D::Error> {
        Self::try_from(PartRow::deserialize(from)?).map_err(serde::de::Error::custom)
    }
}

impl TryFrom<PartRow> for Row {
    type Error = String;

    fn try_from(r: PartRow) -> Result<Self, String> {
        let policy = Policy::ALL.iter().map(|p| p.name()).find(|known| *known == r.policy);
        let policy = policy.ok_or_else(|| format!("no policy named {:?}", r.policy))?;
        let (mode, sf_or_k, machines, windows, windows_empty) = (r.mode, r.sf_or_k, r.machines, r.windows, r.windows_empty);
        let (deepest_queue, queue_full_rejections, mean, sd) = (r.deepest_queue, r.queue_full_rejections, r.mean, r.sd);
        Ok(Self { mode, sf_or_k, machines, policy, windows, windows_empty, deepest_queue, queue_full_rejections, mean, sd })
    }
}

/// The grid in output order; multi mode needs whole `k`.
pub fn grid(config: &SweepConfig) -> Result<Vec<Point>, SweepError> {
    let mut points = Vec::new();
    for &mode in &config.modes {
        for &slack_milli in &config.slacks_milli {
            if mode == Mode::Multi && slack_milli % SLACK_ONE_MILLI != 0 {
                return Err(SweepError::FractionalK(format_milli(u64::from(slack_milli))));
            }
            for &machines in &config.machine_counts {
                for &policy in &config.policies {
                    points.push(Point { mode, slack_milli, machines, policy });
                }
            }
        }
    }
    if points.is_empty() {
        return Err(SweepError::EmptyGrid);
    }
    Ok(points)
}

/// Runs every point of the grid over `jobs`, in parallel; `progress` counts runs.
pub fn run(config: &SweepConfig, jobs: &[Job], progress: &ProgressBar) -> Result<Vec<Row>, SweepError> {
    let points = grid(config)?;
    run_points(config, jobs, &points.iter().collect::<Vec<_>>(), progress)
}

/// Runs `points` over `jobs`, in parallel; the rows in the order of `points`.
pub fn run_points(
    config: &SweepConfig,
    jobs: &[Job],
    points: &[&Point],
    progress: &ProgressBar,
) -> Result<Vec<Row>, SweepError> {
    progress.set_length(points.len() as u64);
    let rows = points
        .par_iter()
        .map(|point| {
            let row = run_point(config, jobs, point);
            progress.inc(1);
            row
        })
        .collect::<Result<Vec<_>, SimError>>()?;
    Ok(rows)
}

/// A point's expected cost, for splitting the grid into shards: a run's time grows
/// with its machines (each event visits every machine's queue under most policies)
/// and with its levels (multi mode `k`).
pub fn cost(point: &Point) -> u64 {
    let levels = match point.mode {
        Mode::Single => 1,
        Mode::Multi => u64::from(point.slack_milli / SLACK_ONE_MILLI),
    };
    u64::from(point.machines) + levels
}

fn run_point(config: &SweepConfig, jobs: &[Job], point: &Point) -> Result<Row, SimError> {
    let levels = match point.mode {
        Mode::Single => single(point.slack_milli),
        Mode::Multi => thesis_set(point.slack_milli / SLACK_ONE_MILLI),
    };
    let run_config = RunConfig {
        queue_capacity: config.queue_capacity,
        seed: config.seed,
        window_ticks: config.window_ticks,
        alpha_milli: config.alpha_milli,
        policy: point.policy,
        ..RunConfig::new(point.machines, levels)
    };
    let report = sim::run(&run_config, jobs, None)?;
    Ok(Row {
        mode: point.mode,
        sf_or_k: format_milli(u64::from(point.slack_milli)),
        machines: point.machines,
        policy: point.policy.name(),
        windows: report.windows_simulated,
        windows_empty: report.windows_empty,
        deepest_queue: report.deepest_queue,
        queue_full_rejections: report.rejections.queue_full,
        mean: report.mean,
        sd: report.sd,
    })
}

/// The CSV header: the row keys, then `<metric>_mean` and `<metric>_sd` per metric.
pub fn csv_header() -> Vec<String> {
    let fixed = [
        "mode",
        "sf_or_k",
        "machines",
        "policy",
        "windows",
        "windows_empty",
        "deepest_queue",
        "queue_full_rejections",
    ];
    let mut header: Vec<String> = fixed.iter().map(|s| (*s).to_owned()).collect();
    for key in METRIC_KEYS {
        header.push(format!("{key}_mean"));
        header.push(format!("{key}_sd"));
    }
    header
}

/// Writes the rows as CSV to `out`.
pub fn write_csv<W: Write>(rows: &[Row], out: W) -> Result<(), csv::Error> {
    let mut writer = csv::Writer::from_writer(out);
    writer.write_record(csv_header())?;
    for row in rows {
        let mut record = vec![
            row.mode.name().to_owned(),
            row.sf_or_k.clone(),
            row.machines.to_string(),
            row.policy.to_owned(),
            row.windows.to_string(),
            row.windows_empty.to_string(),
            row.deepest_queue.to_string(),
            row.queue_full_rejections.to_string(),
        ];
        for (mean, sd) in row.mean.to_array().into_iter().zip(row.sd.to_array()) {
            record.push(mean.to_string());
            record.push(sd.to_string());
        }
        writer.write_record(&record)?;
    }
    writer.flush()?;
    Ok(())
}

/// The JSON document: the input, the shared settings and the rows.
#[derive(Debug, Serialize)]
pub struct SweepDocument<'a> {
    pub input_name: &'a str,
    pub input_hash: String,
    pub seed: u64,
    pub window_ticks: Option<u64>,
    pub queue_capacity: u32,
    pub alpha: f64,
    pub rows: &'a [Row],
}

impl<'a> SweepDocument<'a> {
    pub fn new(workload: &'a Workload, config: &SweepConfig, rows: &'a [Row]) -> Self {
        Self {
            input_name: &workload.name,
            input_hash: workload.hash_hex(),
            seed: config.seed,
            window_ticks: config.window_ticks,
            queue_capacity: config.queue_capacity,
            alpha: config.alpha_milli as f64 / 1000.0,
            rows,
        }
    }
}

/// Writes `DIR/sweep.csv` and `DIR/sweep.json`, creating `DIR` if needed.
pub fn write_files(dir: &Path, document: &SweepDocument<'_>) -> Result<(), SweepError> {
    let io_error = |path: &Path| {
        let path = path.display().to_string();
        move |source| SweepError::Io(PathError { path, source })
    };
    std::fs::create_dir_all(dir).map_err(io_error(dir))?;
    let csv_path = dir.join("sweep.csv");
    staged::write(&csv_path, |file, _| {
        write_csv(document.rows, BufWriter::new(file))
            .map_err(|source| SweepError::Csv { path: csv_path.display().to_string(), source })
    })?;
    let json_path = dir.join("sweep.json");
    staged::write(&json_path, |file, _| {
        let mut out = BufWriter::new(file);
        serde_json::to_writer_pretty(&mut out, document)
            .map_err(|source| SweepError::Json { path: json_path.display().to_string(), source })?;
        out.write_all(b"\n").and_then(|()| out.flush()).map_err(io_error(&json_path))
    })
}
