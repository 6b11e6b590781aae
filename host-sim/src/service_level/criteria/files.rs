//! The files of the criteria analysis: `sweep.csv` read back (first-fit rows only)
//! and the analysis written as `criteria.csv`.

use std::path::Path;

use kernel::service_level::Policy;
use replay::echo::echo;
use replay::engine::service_level::{MAX_LEVELS, MAX_MACHINES};

use super::{ALL_METRICS, Config, Group, ModeAnalysis, ranking};
use crate::path_error::PathError;
use crate::service_level::sweep::Mode;

/// A sweep's output could not be read.
#[derive(Debug, thiserror::Error)]
pub enum CriteriaError {
    #[error("{path}: {source}")]
    Csv { path: String, source: csv::Error },
    #[error("{path}: the header has no column \"{column}\" (is this a `host-sim sweep` output?)")]
    Column { path: String, column: &'static str },
    #[error("{path}, line {line}, field {field}: {} is not {expected}", echo(text))]
    Field { path: String, line: u64, field: String, text: String, expected: &'static str },
    #[error(
        "{path}, line {line}: {mode} sf_or_k {sf_or_k} on {machines} machines again (first on line {first}); a sweep has each configuration once"
    )]
    Duplicate { path: String, line: u64, first: u64, mode: &'static str, sf_or_k: String, machines: u16 },
    #[error("{path}: no first-fit configuration to analyse (the analysis reads a sweep's first-fit rows)")]
    Empty { path: String },
    #[error(transparent)]
    Plot(#[from] crate::plot::PlotError),
    #[error(transparent)]
    Io(#[from] PathError),
}

const COLUMNS: [&str; 8] =
    ["mode", "sf_or_k", "machines", "g_mean", "prj_mean", "mwt_mean", "mbsd_mean", "cv_l_mean"];

/// The columns a sweep may have besides [`COLUMNS`] that are checked though not
/// analysed: the policy, the window count and every standard deviation.
struct Extra {
    policy: Option<usize>,
    windows: Option<usize>,
    deviations: Vec<usize>,
}

/// Reads `DIR/sweep.csv`, the file `host-sim sweep --out DIR` writes. The thesis'
/// analysis compares parameters under its own rule, so of a sweep over several
/// policies only the first-fit rows are analysed (a file without a `policy` column
/// is all first fit); every row is checked.
pub fn read_sweep(dir: &Path) -> Result<Vec<Config>, CriteriaError> {
    let path = dir.join("sweep.csv");
    let name = path.display().to_string();
    let csv_error = |source| CriteriaError::Csv { path: name.clone(), source };
    let mut reader = csv::Reader::from_path(&path).map_err(csv_error)?;
    let header = reader.headers().map_err(csv_error)?.clone();
    let mut index = [0; 8];
    for (slot, column) in index.iter_mut().zip(COLUMNS) {
        *slot = header
            .iter()
            .position(|h| h == column)
            .ok_or(CriteriaError::Column { path: name.clone(), column })?;
    }
    let extra = Extra {
        policy: header.iter().position(|h| h == "policy"),
        windows: header.iter().position(|h| h == "windows"),
        deviations: header.iter().enumerate().filter(|(_, h)| h.ends_with("_sd")).map(|(i, _)| i).collect(),
    };
    let mut configs: Vec<Config> = Vec::new();
    let mut lines = Vec::new();
    for record in reader.records() {
        let record = record.map_err(csv_error)?;
        let row = Row { record: &record, header: &header, path: &name };
        let config = config_of(&row, &index)?;
        if row.check_extra(&extra)? != Policy::FirstFit {
            continue;
        }
        let line = row.line();
        let same = |c: &Config| {
            c.mode == config.mode && c.machines == config.machines && c.sf_or_k == config.sf_or_k
        };
        if let Some(at) = configs.iter().position(same) {
            let (mode, sf_or_k, machines) = (config.mode.name(), config.sf_or_k_text, config.machines);
            return Err(CriteriaError::Duplicate {
                path: name,
                line,
                first: lines[at],
                mode,
                sf_or_k,
                machines,
            });
        }
        configs.push(config);
        lines.push(line);
    }
    if configs.is_empty() {
        return Err(CriteriaError::Empty { path: name });
    }
    Ok(configs)
}

/// One row of `sweep.csv`, with what its errors name.
struct Row<'a> {
    record: &'a csv::StringRecord,
    header: &'a csv::StringRecord,
    path: &'a str,
}

impl Row<'_> {
    fn line(&self) -> u64 {
        self.record.position().map_or(0, |p| p.line())
    }

    fn text(&self, column: usize) -> &str {
        self.record.get(column).unwrap_or("")
    }

    fn error(&self, column: usize, expected: &'static str) -> CriteriaError {
        CriteriaError::Field {
            path: self.path.to_owned(),
            line: self.line(),
            field: self.header.get(column).unwrap_or("").to_owned(),
            text: self.text(column).to_owned(),
            expected,
        }
    }

    /// The number in `column`, finite and from `min` to `max`.
    fn number(
        &self,
        column: usize,
        min: f64,
        max: f64,
        expected: &'static str,
    ) -> Result<f64, CriteriaError> {
        match self.text(column).parse::<f64>() {
            Ok(value) if value.is_finite() && (min..=max).contains(&value) => Ok(value),
            _ => Err(self.error(column, expected)),
        }
    }

    /// The whole number in `column`, from `min` to `max`.
    fn whole(&self, column: usize, min: u64, max: u64, expected: &'static str) -> Result<u64, CriteriaError> {
        match self.text(column).parse::<u64>() {
            Ok(value) if (min..=max).contains(&value) => Ok(value),
            _ => Err(self.error(column, expected)),
        }
    }

    /// Checks the columns of `extra`; the row's policy (first fit without a column).
    fn check_extra(&self, extra: &Extra) -> Result<Policy, CriteriaError> {
        if let Some(column) = extra.windows {
            self.whole(column, 1, u64::MAX, "a whole number of windows of at least 1")?;
        }
        for &column in &extra.deviations {
            self.number(column, 0.0, f64::MAX, "a finite standard deviation of at least 0")?;
        }
        match extra.policy {
            None => Ok(Policy::FirstFit),
            Some(column) => Policy::from_name(self.text(column)).ok_or_else(|| {
                self.error(column, "a policy (first-fit, best-fit, worst-fit, least-loaded or round-robin)")
            }),
        }
    }
}

/// One row of `sweep.csv` as a configuration; `index` holds the columns of [`COLUMNS`].
fn config_of(row: &Row, index: &[usize; 8]) -> Result<Config, CriteriaError> {
    let mode = match row.text(index[0]) {
        "single" => Mode::Single,
        "multi" => Mode::Multi,
        _ => return Err(row.error(index[0], "single or multi")),
    };
    let sf_or_k = match mode {
        Mode::Single => row.number(index[1], 1.0, f64::MAX, "a finite number of at least 1")?,
        Mode::Multi => row.whole(index[1], 1, MAX_LEVELS as u64, "a level count k from 1 to 32")? as f64,
    };
    let machines = row.whole(index[2], 1, u64::from(MAX_MACHINES), "a machine count from 1 to 64")?;
    // G may be negative (the costs outweigh the prices); PRJ is a percentage; every
    // other measure has a floor of 0. NaN and infinities are never a measure.
    let at_least_0 = |i: usize| row.number(index[i], 0.0, f64::MAX, "a finite number of at least 0");
    Ok(Config {
        mode,
        sf_or_k,
        sf_or_k_text: row.text(index[1]).to_owned(),
        machines: u16::try_from(machines).unwrap_or(MAX_MACHINES),
        g: row.number(index[3], f64::MIN, f64::MAX, "a finite number")?,
        prj: row.number(index[4], 0.0, 100.0, "a percentage from 0 to 100")?,
        mwt: at_least_0(5)?,
        mbsd: at_least_0(6)?,
        cv_l: at_least_0(7)?,
    })
}

/// Writes every configuration's degradations, group means and ranks as CSV.
pub fn write_csv(path: &Path, analyses: &[ModeAnalysis]) -> Result<(), CriteriaError> {
    let name = path.display().to_string();
    let csv_error = |source| CriteriaError::Csv { path: name.clone(), source };
    let mut writer = csv::Writer::from_writer(Vec::new());
    let mut header = vec!["mode".to_owned(), "sf_or_k".to_owned(), "machines".to_owned()];
    header.extend(ALL_METRICS.iter().map(|m| format!("{}_degradation", m.key)));
    header.extend(Group::ALL.iter().map(|g| format!("{}_mean", g.name())));
    header.extend(Group::ALL.iter().map(|g| format!("{}_rank", g.name())));
    writer.write_record(&header).map_err(csv_error)?;
    for analysis in analyses {
        for d in &analysis.degraded {
            let mut record = vec![
                analysis.mode.name().to_owned(),
                d.config.sf_or_k_text.clone(),
                d.config.machines.to_string(),
            ];
            record.extend(d.metrics.iter().chain(&d.groups).map(|x| format!("{x:.4}")));
            for group in Group::ALL {
                let ranked = ranking(&analysis.degraded, d.config.machines, group);
                let rank = ranked.iter().position(|r| std::ptr::eq(*r, d)).map_or(0, |i| i + 1);
                record.push(rank.to_string());
            }
            writer.write_record(&record).map_err(csv_error)?;
        }
    }
    let bytes = writer
        .into_inner()
        .map_err(|e| CriteriaError::Io(PathError { path: name.clone(), source: e.into_error() }))?;
    replay::staged::write_all(path, &bytes).map_err(|e| CriteriaError::Io(e.into()))
}
