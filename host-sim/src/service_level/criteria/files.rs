//! The files of the criteria analysis: `sweep.csv` read back (first-fit rows only)
//! and the analysis written as `criteria.csv`.

use std::path::Path;

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
    #[error("{path}, line {line}, field {field}: \"{text}\" is not {expected}")]
    Field { path: String, line: u64, field: &'static str, text: String, expected: &'static str },
    #[error(
        "{path}, line {line}: {mode} sf_or_k {sf_or_k} on {machines} machines again (first on line {first}); a sweep has each configuration once"
    )]
    Duplicate { path: String, line: u64, first: u64, mode: &'static str, sf_or_k: String, machines: u16 },
    #[error("{path}: no configuration to analyse")]
    Empty { path: String },
    #[error(transparent)]
    Plot(#[from] crate::plot::PlotError),
    #[error(transparent)]
    Io(#[from] PathError),
}

const COLUMNS: [&str; 8] =
    ["mode", "sf_or_k", "machines", "g_mean", "prj_mean", "mwt_mean", "mbsd_mean", "cv_l_mean"];

/// Reads `DIR/sweep.csv`, the file `host-sim sweep --out DIR` writes. The thesis'
/// analysis compares parameters under its own rule, so of a sweep over several
/// policies only the first-fit rows are read (a file without a `policy` column is
/// all first fit).
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
    let policy = header.iter().position(|h| h == "policy");
    let mut configs: Vec<Config> = Vec::new();
    let mut lines = Vec::new();
    for record in reader.records() {
        let record = record.map_err(csv_error)?;
        if policy
            .and_then(|i| record.get(i))
            .is_some_and(|p| p != kernel::service_level::Policy::FirstFit.name())
        {
            continue;
        }
        let config = config_of(&record, &index, &name)?;
        let line = record.position().map_or(0, |p| p.line());
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

/// One row of `sweep.csv` as a configuration; `index` holds the columns of [`COLUMNS`].
fn config_of(record: &csv::StringRecord, index: &[usize; 8], name: &str) -> Result<Config, CriteriaError> {
    let line = record.position().map_or(0, |p| p.line());
    let field = |i: usize| record.get(index[i]).unwrap_or("");
    // G may be negative (the costs outweigh the prices); every other measure, and
    // sf or k, has a floor. NaN and infinities are never a measure.
    let number = |i: usize| {
        let (floor, expected) = match COLUMNS[i] {
            "g_mean" => (f64::NEG_INFINITY, "a finite number"),
            "sf_or_k" => (1.0, "a finite number of at least 1"),
            _ => (0.0, "a finite number of at least 0"),
        };
        let error = || CriteriaError::Field {
            path: name.to_owned(),
            line,
            field: COLUMNS[i],
            text: field(i).to_owned(),
            expected,
        };
        let value = field(i).parse::<f64>().map_err(|_| error())?;
        if value.is_finite() && value >= floor { Ok(value) } else { Err(error()) }
    };
    let mode = match field(0) {
        "single" => Mode::Single,
        "multi" => Mode::Multi,
        text => {
            return Err(CriteriaError::Field {
                path: name.to_owned(),
                line,
                field: "mode",
                text: text.to_owned(),
                expected: "single or multi",
            });
        }
    };
    let machines = field(2).parse::<u16>().map_err(|_| CriteriaError::Field {
        path: name.to_owned(),
        line,
        field: "machines",
        text: field(2).to_owned(),
        expected: "a machine count",
    })?;
    Ok(Config {
        mode,
        sf_or_k: number(1)?,
        sf_or_k_text: field(1).to_owned(),
        machines,
        g: number(3)?,
        prj: number(4)?,
        mwt: number(5)?,
        mbsd: number(6)?,
        cv_l: number(7)?,
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
