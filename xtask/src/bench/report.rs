//! Every figure of `cargo xtask bench`, next to its goal: a readable table, and one
//! JSON object (the last line of the output with `--json`).

use serde_json::{Map, Value, json};

/// What a figure must reach.
#[derive(Clone, Copy, Debug)]
pub enum Goal {
    AtLeast(f64),
    AtMost(f64),
    /// Measured for the record; no goal.
    None,
}

impl Goal {
    fn describe(self, unit: &str) -> String {
        match self {
            Self::AtLeast(x) => format!(">= {} {unit}", human(x)),
            Self::AtMost(x) => format!("<= {} {unit}", human(x)),
            Self::None => "-".to_owned(),
        }
    }

    fn met(self, measured: Option<f64>) -> &'static str {
        match (self, measured) {
            (Self::None, _) => "-",
            (_, None) => "not measured",
            (Self::AtLeast(goal), Some(x)) if x >= goal => "yes",
            (Self::AtMost(goal), Some(x)) if x <= goal => "yes",
            _ => "NO",
        }
    }
}

/// One figure: its JSON key, what it is, its unit, its value (`None`: could not be
/// measured here) and its goal.
#[derive(Clone, Debug)]
pub struct Figure {
    pub key: &'static str,
    pub label: &'static str,
    pub unit: &'static str,
    pub value: Option<f64>,
    pub goal: Goal,
}

/// host-sim end to end on one trace, and `replay verify` on its log.
#[derive(Clone, Debug)]
pub struct TraceRow {
    pub name: String,
    pub jobs: u64,
    pub hostsim_s: f64,
    pub peak_rss_mib: Option<f64>,
    pub records: u64,
    pub verify_s: f64,
    pub log_bytes: u64,
    pub grid_s: f64,
}

/// Everything one run of `cargo xtask bench` measured.
#[derive(Debug, Default)]
pub struct Report {
    pub figures: Vec<Figure>,
    pub traces: Vec<TraceRow>,
    /// The figures bench's own JSON object (per-trace kernel rates, the latency table).
    pub kernel: Map<String, Value>,
    /// Why a figure is missing, or how it was taken.
    pub notes: Vec<String>,
}

impl Report {
    /// Every figure as one flat JSON object (null when not measured), plus the kernel
    /// bench's per-trace rates under `kernel_decisions_per_s`.
    pub fn json(&self) -> Value {
        let mut object = Map::new();
        for figure in &self.figures {
            object.insert(figure.key.to_owned(), figure.value.map_or(Value::Null, number));
        }
        if let Some(per_trace) = self.kernel.get("kernel_decisions_per_s") {
            object.insert("kernel_decisions_per_s".to_owned(), per_trace.clone());
        }
        Value::Object(object)
    }

    /// The readable report, in Markdown so that it can be pasted into
    /// `docs/performance.md` as it is.
    pub fn table(&self) -> String {
        let mut out = String::from("| figure | measured | goal | met? |\n|---|---|---|---|\n");
        for f in &self.figures {
            let measured =
                f.value.map_or_else(|| "not measured".to_owned(), |v| format!("{} {}", human(v), f.unit));
            out += &format!(
                "| {} (`{}`) | {measured} | {} | {} |\n",
                f.label,
                f.key,
                f.goal.describe(f.unit),
                f.goal.met(f.value)
            );
        }
        out += &self.growth_line();
        out += "\n| trace | jobs | host-sim s | jobs/s | peak RSS MiB | log records | bytes/record | verify records/s | grid s |\n";
        out += "|---|---|---|---|---|---|---|---|---|\n";
        for t in &self.traces {
            out += &format!(
                "| {} | {} | {:.3} | {} | {} | {} | {:.2} | {} | {:.2} |\n",
                t.name,
                t.jobs,
                t.hostsim_s,
                human(t.jobs as f64 / t.hostsim_s),
                t.peak_rss_mib.map_or_else(|| "-".to_owned(), |m| format!("{m:.1}")),
                t.records,
                t.log_bytes as f64 / t.records.max(1) as f64,
                human(t.records as f64 / t.verify_s),
                t.grid_s
            );
        }
        out += &self.kernel_table();
        for note in &self.notes {
            out += &format!("\nnote: {note}");
        }
        out
    }

    /// Whether the worst-case admission grows like the logarithm of the capacity:
    /// each fourfold capacity step then adds about the same time (a linear cost would
    /// add four times more at each step).
    fn growth_line(&self) -> String {
        let ns: Vec<Option<f64>> = ["q16", "q64", "q256", "q1024"]
            .iter()
            .map(|q| self.kernel.get(&format!("worst_admission_ns_m64_{q}")).and_then(Value::as_f64))
            .collect();
        let Some(ns) = ns.into_iter().collect::<Option<Vec<f64>>>() else {
            return String::new();
        };
        let steps: Vec<f64> = ns.windows(2).map(|w| w[1] - w[0]).collect();
        let growth = steps.windows(2).map(|w| w[1] / w[0].max(1e-9)).fold(0.0_f64, f64::max);
        let verdict = if growth < 2.0 { "yes" } else { "NO" };
        format!(
            "| worst-case growth over q16, q64, q256, q1024 (ns added per fourfold capacity: {}) | largest step ratio {growth:.2} | logarithmic: < 2 (linear: 4) | {verdict} |\n",
            steps.iter().map(|s| format!("{s:.0}")).collect::<Vec<_>>().join(", ")
        )
    }

    fn kernel_table(&self) -> String {
        let Some(Value::Object(per_trace)) = self.kernel.get("kernel_decisions_per_s") else {
            return String::new();
        };
        let mut out = String::from(
            "\n| kernel decisions/s | sf 2, 1 machine | sf 2, 16 machines | levels 1..20, 64 machines |\n|---|---|---|---|\n",
        );
        for row in self.traces.iter().map(|t| &t.name) {
            let Some(rates) = per_trace.get(row) else { continue };
            let rate = |k: &str| rates.get(k).and_then(Value::as_f64).map_or_else(|| "-".to_owned(), human);
            out +=
                &format!("| {row} | {} | {} | {} |\n", rate("sf2_m1"), rate("sf2_m16"), rate("levels20_m64"));
        }
        out
    }
}

/// A figure as JSON: whole numbers as integers, others to three decimals.
fn number(x: f64) -> Value {
    let rounded = (x * 1000.0).round() / 1000.0;
    if rounded.fract() == 0.0 && rounded.abs() < 9e15 { json!(rounded as i64) } else { json!(rounded) }
}

/// A number for people: thousands separated, at most three significant decimals.
pub fn human(x: f64) -> String {
    if x.abs() >= 1000.0 {
        let whole = format!("{:.0}", x.abs());
        let mut grouped = String::new();
        for (i, c) in whole.chars().enumerate() {
            if i > 0 && (whole.len() - i) % 3 == 0 {
                grouped.push(',');
            }
            grouped.push(c);
        }
        return if x < 0.0 { format!("-{grouped}") } else { grouped };
    }
    let text = format!("{x:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}
