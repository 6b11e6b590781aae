//! The files of `sla-sweep`: every point and each figure's points as CSV, Tables 1 and
//! 2, every pair family's best, and `sla.json` with all of it.
//!
//! The CSV goes through the `csv` crate with quoting turned off and the heuristic and
//! family columns quoted here, always: those files have always quoted them (they hold
//! spaces, `+` and `*`), while the crate would quote only a field that needs it, which
//! would change the bytes of every file.

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};

use super::super::generator::SLOT_TICKS;
use super::findings::{fig7, findings};
use super::tables::{table1, table2};
use super::{ASAP_CPU, ASAP_FAIR, ASAP_SLA, CPU, Kind, Point, SLA, Sweep, best, family};
use crate::path_error::PathError;

const POINT_HEADER: [&str; 15] = [
    "kind",
    "family",
    "heuristic",
    "w",
    "w2",
    "requests",
    "accepted",
    "sla_factor",
    "cpu_utilisation",
    "rigid_sla",
    "rigid_cpu",
    "rigid_fair",
    "asap_sla",
    "asap_cpu",
    "asap_fair",
];

const TABLE1_HEADER: [&str; 9] = [
    "heuristic",
    "sla_pct",
    "sla_w",
    "cpu_pct",
    "cpu_w",
    "paper_sla_pct",
    "paper_sla_w",
    "paper_cpu_pct",
    "paper_cpu_w",
];

const TABLE2_HEADER: [&str; 7] =
    ["heuristic", "asap_sla", "asap_fair", "asap_cpu", "paper_asap_sla", "paper_asap_fair", "paper_asap_cpu"];

const FAMILIES_HEADER: [&str; 11] = [
    "family",
    "sla_pct",
    "sla_w",
    "cpu_pct",
    "cpu_w",
    "asap_sla",
    "asap_sla_w",
    "asap_fair",
    "asap_fair_w",
    "asap_cpu",
    "asap_cpu_w",
];

/// A field quoted whether or not it needs it (see the module's note), with any inner
/// quote doubled as CSV wants.
fn quoted(text: &str) -> String {
    format!("\"{}\"", text.replace('"', "\"\""))
}

fn four(v: f64) -> String {
    format!("{v:.4}")
}

/// One file's text: `header`, then `rows`, each line ending in `\n`.
fn csv_text(header: &[&str], rows: impl IntoIterator<Item = Vec<String>>) -> io::Result<String> {
    // Rows of a family may lack a measure no point of it has, so rows are not forced to
    // the header's length (as the hand-written files never were).
    let mut writer =
        csv::WriterBuilder::new().quote_style(csv::QuoteStyle::Never).flexible(true).from_writer(Vec::new());
    writer.write_record(header).map_err(io::Error::other)?;
    for row in rows {
        writer.write_record(&row).map_err(io::Error::other)?;
    }
    let bytes = writer.into_inner().map_err(|e| io::Error::other(e.to_string()))?;
    String::from_utf8(bytes).map_err(io::Error::other)
}

fn point_row(p: &Point) -> Vec<String> {
    let s = &p.mean;
    let kind = match p.kind {
        Kind::Pair => "pair",
        Kind::Single => "single",
        Kind::Random => "random",
        Kind::ThreeTerm => "three_term",
    };
    let mut row = vec![kind.to_owned(), quoted(&p.family), quoted(&p.heuristic), p.w.clone(), p.w2.clone()];
    row.extend([s.requests, s.accepted].map(|n| n.to_string()));
    row.extend([s.sla_factor, s.cpu_utilisation].map(four));
    // The six incomes in the JSON's order, which is the header's.
    row.extend(s.income.entries().map(|(_, v)| four(v)));
    row
}

/// The files of one figure's points: `(file, points)`.
pub fn figure_points(sweep: &Sweep) -> BTreeMap<&'static str, Vec<&Point>> {
    let mut out = BTreeMap::new();
    out.insert(
        "sla_fig3.csv",
        sweep.points.iter().filter(|p| matches!(p.kind, Kind::Single | Kind::Random)).collect(),
    );
    out.insert("sla_fig4.csv", family(sweep, "min(TS + w*NCPU)").collect());
    out.insert("sla_fig8.csv", family(sweep, "min(TS + w*tD)").collect());
    out.insert("sla_fig7.csv", sweep.points.iter().filter(|p| p.kind == Kind::ThreeTerm).collect());
    out
}

/// Every pair family's best of each measure and its `w`, in the sweep's order.
fn families_rows(sweep: &Sweep) -> Vec<Vec<String>> {
    let mut names: Vec<&str> =
        sweep.points.iter().filter(|p| p.kind == Kind::Pair).map(|p| p.family.as_str()).collect();
    names.dedup();
    names
        .into_iter()
        .map(|name| {
            let mut row = vec![quoted(name)];
            for m in [SLA, CPU, ASAP_SLA, ASAP_FAIR, ASAP_CPU] {
                if let Some((v, p)) = best(family(sweep, name), m) {
                    row.extend([four(v), p.w.clone()]);
                }
            }
            row
        })
        .collect()
}

/// `(file name, text)` of every CSV file, in the order they are written.
fn csv_files(sweep: &Sweep) -> io::Result<Vec<(String, String)>> {
    let mut files =
        vec![("sla_points.csv".to_owned(), csv_text(&POINT_HEADER, sweep.points.iter().map(point_row))?)];
    for (name, points) in figure_points(sweep) {
        files.push((name.to_owned(), csv_text(&POINT_HEADER, points.into_iter().map(point_row))?));
    }
    let t1 = table1(sweep).into_iter().map(|r| {
        vec![
            quoted(&r.heuristic),
            four(r.sla_pct),
            r.sla_w,
            four(r.cpu_pct),
            r.cpu_w,
            r.paper_sla_pct.to_string(),
            r.paper_sla_w,
            r.paper_cpu_pct.to_string(),
            r.paper_cpu_w,
        ]
    });
    files.push(("sla_table1.csv".to_owned(), csv_text(&TABLE1_HEADER, t1)?));
    let t2 = table2(sweep).into_iter().map(|r| {
        let mut row = vec![quoted(&r.heuristic)];
        row.extend([r.asap_sla, r.asap_fair, r.asap_cpu].map(four));
        row.extend([r.paper_asap_sla, r.paper_asap_fair, r.paper_asap_cpu].map(|v| v.to_string()));
        row
    });
    files.push(("sla_table2.csv".to_owned(), csv_text(&TABLE2_HEADER, t2)?));
    files.push(("sla_families.csv".to_owned(), csv_text(&FAMILIES_HEADER, families_rows(sweep))?));
    Ok(files)
}

/// Writes `sla_points.csv` (every point), `sla_table1.csv`, `sla_table2.csv`,
/// `sla_families.csv` (every pair family's best of each measure and its `w`), the
/// figures' points (`sla_fig3.csv`, `sla_fig4.csv`, `sla_fig7.csv`, `sla_fig8.csv`)
/// and `sla.json` (all of it) into `dir`. An error names the folder or the file.
pub fn write(dir: &Path, sweep: &Sweep) -> Result<Vec<PathBuf>, PathError> {
    let in_dir = |source| PathError { path: dir.display().to_string(), source };
    std::fs::create_dir_all(dir).map_err(in_dir)?;
    let mut files = csv_files(sweep).map_err(in_dir)?;
    let json = serde_json::json!({
        "sets": sweep.sets,
        "seed": sweep.seed,
        "step_ticks": sweep.step_ticks,
        "slot_ticks": SLOT_TICKS,
        "set_stats": sweep.set_stats,
        "table1": table1(sweep),
        "table2": table2(sweep),
        "fig7": fig7(sweep),
        "findings": findings(sweep),
        "points": sweep.points,
    });
    files.push(("sla.json".to_owned(), format!("{json:#}\n")));
    let mut written = Vec::new();
    for (name, text) in files {
        let path = dir.join(name);
        replay::staged::write_all(&path, text.as_bytes())?;
        written.push(path);
    }
    Ok(written)
}
