//! Tables 1 and 2 of the sweep: each paper row's best over its family, beside the
//! paper's, as rows (for the CSV and JSON) and as the text the subcommand prints.

use std::fmt::Write as _;

use serde::Serialize;

use super::super::generator;
use super::super::paper;
use super::{ASAP_CPU, ASAP_FAIR, ASAP_SLA, CPU, Measure, SLA, Sweep, best, family};

/// One row of our Table 1 beside the paper's.
#[derive(Clone, Debug, Serialize)]
pub struct Table1 {
    pub heuristic: String,
    pub sla_pct: f64,
    pub sla_w: String,
    pub cpu_pct: f64,
    pub cpu_w: String,
    pub paper_sla_pct: f64,
    pub paper_sla_w: String,
    pub paper_cpu_pct: f64,
    pub paper_cpu_w: String,
}

/// One row of our Table 2 beside the paper's.
#[derive(Clone, Debug, Serialize)]
pub struct Table2 {
    pub heuristic: String,
    pub asap_sla: f64,
    pub asap_fair: f64,
    pub asap_cpu: f64,
    pub paper_asap_sla: f64,
    pub paper_asap_fair: f64,
    pub paper_asap_cpu: f64,
}

fn paper_w(w: paper::PaperWeight) -> String {
    w.map_or_else(|| "-inf".to_owned(), |v| format!("{v}"))
}

/// Table 1: each of the paper's rows, our best SLA factor and CPU utilisation over its
/// family and the weights they were reached at, beside the paper's.
pub fn table1(sweep: &Sweep) -> Vec<Table1> {
    paper::TABLE1
        .iter()
        .map(|row| {
            let (sla, sla_at) = best(family(sweep, row.heuristic), SLA)
                .map_or((f64::NAN, String::new()), |(v, p)| (v, p.w.clone()));
            let (cpu, cpu_at) = best(family(sweep, row.heuristic), CPU)
                .map_or((f64::NAN, String::new()), |(v, p)| (v, p.w.clone()));
            Table1 {
                heuristic: row.heuristic.to_owned(),
                sla_pct: sla,
                sla_w: sla_at,
                cpu_pct: cpu,
                cpu_w: cpu_at,
                paper_sla_pct: row.sla_pct,
                paper_sla_w: paper_w(row.sla_w),
                paper_cpu_pct: row.cpu_pct,
                paper_cpu_w: paper_w(row.cpu_w),
            }
        })
        .collect()
}

/// Table 2: each of the paper's rows, our best ASAP incomes over its family, beside
/// the paper's.
pub fn table2(sweep: &Sweep) -> Vec<Table2> {
    paper::TABLE2
        .iter()
        .map(|row| {
            let top = |m: Measure| best(family(sweep, row.heuristic), m).map_or(f64::NAN, |(v, _)| v);
            Table2 {
                heuristic: row.heuristic.to_owned(),
                asap_sla: top(ASAP_SLA),
                asap_fair: top(ASAP_FAIR),
                asap_cpu: top(ASAP_CPU),
                paper_asap_sla: row.sla,
                paper_asap_fair: row.fair,
                paper_asap_cpu: row.cpu,
            }
        })
        .collect()
}

fn cell(v: f64) -> String {
    if v.is_nan() { "-".to_owned() } else { format!("{v:.1}") }
}

/// Our Table 1 beside the paper's, and where we differ by more than 3 points.
pub fn table1_text(rows: &[Table1]) -> String {
    let mut out =
        String::from("Table 1: best utilisation (mean over the sets) and its w; the paper's beside ours\n");
    let _ = writeln!(
        out,
        "{:<18} {:>6} {:>7} | {:>6} {:>7} || {:>6} {:>7} | {:>6} {:>7}",
        "heuristic", "SLA%", "w", "paper", "w", "CPU%", "w", "paper", "w"
    );
    for r in rows {
        let mark = |ours: f64, paper: f64| if (ours - paper).abs() > 3.0 { "*" } else { " " };
        let _ = writeln!(
            out,
            "{:<18} {:>5}{} {:>7} | {:>6} {:>7} || {:>5}{} {:>7} | {:>6} {:>7}",
            r.heuristic,
            cell(r.sla_pct),
            mark(r.sla_pct, r.paper_sla_pct),
            r.sla_w,
            cell(r.paper_sla_pct),
            r.paper_sla_w,
            cell(r.cpu_pct),
            mark(r.cpu_pct, r.paper_cpu_pct),
            r.cpu_w,
            cell(r.paper_cpu_pct),
            r.paper_cpu_w
        );
    }
    out.push_str("(* : more than 3 points from the paper)\n");
    out
}

/// Our Table 2 beside the paper's.
pub fn table2_text(rows: &[Table2], sets: &generator::Stats) -> String {
    let mut out = format!(
        "Table 2: best ASAP income (mean over the sets; ceiling = jobs per set, ours {:.1}, the paper's about {})\n",
        sets.jobs,
        paper::JOBS_PER_SET
    );
    let _ = writeln!(
        out,
        "{:<18} {:>6} {:>6} | {:>6} {:>6} | {:>6} {:>6}",
        "heuristic", "V_SLA", "paper", "V_F", "paper", "V_CPU", "paper"
    );
    for r in rows {
        let _ = writeln!(
            out,
            "{:<18} {:>6} {:>6} | {:>6} {:>6} | {:>6} {:>6}",
            r.heuristic,
            cell(r.asap_sla),
            cell(r.paper_asap_sla),
            cell(r.asap_fair),
            cell(r.paper_asap_fair),
            cell(r.asap_cpu),
            cell(r.paper_asap_cpu)
        );
    }
    out
}
