//! The paper's numbers (Yarmolenko and Sakellariou, Tables 1 and 2), as printed,
//! to be shown beside ours row by row. Weights are the paper's; `None` marks its `-∞`
//! (the paper's tables have no `+∞`).
//!
//! The tables came out of the PDF's text one column after another; the rows below are
//! the columns put back side by side, in the paper's order.

/// A weight in the paper's table: a number, or `-∞`.
pub type PaperWeight = Option<f64>;

/// One row of Table 1: the best SLA factor and CPU utilisation (percent of the
/// complete schedule) of a heuristic, each with the `w` it was found at.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Table1Row {
    /// The heuristic with `w` for the weight, as our parser reads it once `w` is put in.
    pub heuristic: &'static str,
    pub sla_pct: f64,
    pub sla_w: PaperWeight,
    pub cpu_pct: f64,
    pub cpu_w: PaperWeight,
}

const NEG_INF: PaperWeight = None;

const fn row(
    heuristic: &'static str,
    sla_pct: f64,
    sla_w: PaperWeight,
    cpu_pct: f64,
    cpu_w: PaperWeight,
) -> Table1Row {
    Table1Row { heuristic, sla_pct, sla_w, cpu_pct, cpu_w }
}

/// Table 1: the highest utilisation by each heuristic.
pub const TABLE1: [Table1Row; 15] = [
    row("min(TF + w*tD)", 96.1, Some(-0.8), 94.2, Some(-7.2)),
    row("min(TS + w*tD)", 96.0, Some(9.4), 93.9, Some(2.8)),
    row("min(TF + w*NCPU)", 97.9, Some(0.24), 91.3, Some(-0.84)),
    row("min(TS + w*NCPU)", 95.1, Some(0.72), 94.1, Some(-0.36)),
    row("min(TF + w*A)", 97.9, Some(0.03), 93.3, Some(-0.135)),
    row("min(TS + w*A)", 96.9, Some(0.135), 93.4, Some(0.0)),
    row("min(TF + w*tL)", 96.1, Some(-0.12), 94.1, Some(-0.78)),
    row("min(TS + w*tL)", 96.2, Some(5.0), 94.0, Some(0.3)),
    row("min(TF + w*TS)", 96.0, Some(-1.0), 94.0, Some(2.0)),
    row("min(A + w*tL)", 93.9, Some(0.06), 78.1, NEG_INF),
    row("max(A + w*tL)", 90.6, NEG_INF, 86.7, Some(0.0)),
    row("min(tD + w*NCPU)", 93.8, Some(0.1), 84.5, NEG_INF),
    row("max(tD + w*NCPU)", 92.9, NEG_INF, 87.0, Some(0.7)),
    row("min(NCPU + w*tL)", 93.9, Some(1.35), 78.4, NEG_INF),
    row("max(NCPU + w*tL)", 90.7, NEG_INF, 87.0, Some(0.15)),
];

/// One row of Table 2: the highest income under the ASAP constraint for SLA, Fair and
/// CPU pricing (the paper's maximum is about 384, a set's job count).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Table2Row {
    pub heuristic: &'static str,
    pub sla: f64,
    pub fair: f64,
    pub cpu: f64,
}

const fn income(heuristic: &'static str, sla: f64, fair: f64, cpu: f64) -> Table2Row {
    Table2Row { heuristic, sla, fair, cpu }
}

/// Table 2: the highest ASAP income by each heuristic.
pub const TABLE2: [Table2Row; 11] = [
    income("max(TF + w*tD)", 381.0, 367.0, 359.0),
    income("max(TS + w*tD)", 380.0, 367.0, 359.0),
    income("max(TF + w*NCPU)", 384.0, 367.0, 357.0),
    income("max(TS + w*NCPU)", 388.0, 370.0, 352.0),
    income("max(TF + w*A)", 385.0, 368.0, 357.0),
    income("max(TS + w*A)", 388.0, 370.0, 352.0),
    income("max(TF + w*tL)", 381.0, 367.0, 359.0),
    income("max(TS + w*tL)", 380.0, 366.0, 359.0),
    income("min(A + w*tL)", 377.0, 361.0, 347.0),
    income("min(tD + w*NCPU)", 385.0, 366.0, 346.0),
    income("min(NCPU + w*tL)", 385.0, 366.0, 350.0),
];

/// The paper's findings this model checks (§5 and the conclusions).
pub const FINDINGS: [&str; 4] = [
    "prioritising by TS or TF alone schedules better than a random order (Figure 3)",
    "a second term with the right sign and weight never lowers the best utilisation (Figures 5, 7)",
    "Fair income equals the mean of SLA and CPU income (Figures 8, 9)",
    "under ASAP, maximising TS or TF earns more than minimising them (Table 2, Figure 9)",
];

/// The paper's job count per set and ceiling of every income (about 384).
pub const JOBS_PER_SET: f64 = 384.0;
