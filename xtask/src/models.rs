//! Every model's rows in the xtask steps, in one table: a model is one entry of
//! [`MODELS`], and `xtask tidy` holds the list to the models replay and host-sim
//! register (`for_each_model!` in `replay/src/contract.rs` and `host-sim/src/lib.rs`).

/// Where a cross-host run's jobs come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Input {
    /// The model's own workload.
    BuiltIn,
    /// The first N jobs of the shared trace.
    Trace(u32),
}
use Input::{BuiltIn, Trace};

/// One model's rows: its name (as every layer, and its fuzz target, names it), the
/// `host-sim` subcommand that runs it, its runs of the `traces` step as `(label,
/// options)` and its runs of the cross-host check as `(label, options, input)`.
pub(crate) struct ModelRows {
    pub name: &'static str,
    pub subcommand: &'static str,
    pub traces: &'static [(&'static str, &'static [&'static str])],
    pub crosshost: &'static [(&'static str, &'static [&'static str], Input)],
}

/// The models: the service level with one level and with five (on the traces) and
/// under best fit (cross-host); the reservations with their defaults and with flexible
/// windows, offers and Poisson run times; tiers under `qos-res` with mix C, on the
/// traces and the paper's workload; SLA under `min(TF - 0.8*tD)`, in one-hour batches
/// on the traces and on the paper's 100 generated sets.
pub(crate) const MODELS: &[ModelRows] = &[
    ModelRows {
        name: "service_level",
        subcommand: "run",
        traces: &[
            ("single", &["--machines", "4", "--slack", "2"]),
            ("multi", &["--machines", "4", "--levels", "1,2,3,4,5", "--seed", "7"]),
        ],
        crosshost: &[(
            "best-fit",
            &["--policy", "best-fit", "--machines", "4", "--levels", "1,2,3,4,5"],
            Trace(10_000),
        )],
    },
    ModelRows {
        name: "reservation",
        subcommand: "reserve",
        traces: &[("reservation", &[])],
        crosshost: &[
            ("reserve", &[], Trace(5000)),
            ("flexible", &["--flex", "long", "--offers", "0.5", "--estimates", "poisson80"], Trace(5000)),
        ],
    },
    ModelRows {
        name: "tiers",
        subcommand: "tiers",
        traces: &[("tiers", &["--policy", "qos-res", "--mix", "C"])],
        crosshost: &[
            ("tiers-paper", &["--policy", "qos-res", "--mix", "C"], BuiltIn),
            ("tiers-trace", &["--policy", "qos-res", "--mix", "C"], Trace(5000)),
        ],
    },
    ModelRows {
        name: "sla",
        subcommand: "sla",
        traces: &[("sla", &["--heuristic", "min(TF - 0.8*tD)", "--batch", "1h"])],
        crosshost: &[
            ("sla-sets", &["--heuristic", "min(TF - 0.8*tD)"], BuiltIn),
            ("sla-trace", &["--heuristic", "min(TF - 0.8*tD)", "--batch", "1h"], Trace(5000)),
        ],
    },
];

/// The runs of the `traces` step, as `(label, subcommand, options)`.
pub(crate) fn trace_runs() -> Vec<crate::corpus::Run> {
    MODELS
        .iter()
        .flat_map(|m| m.traces.iter().map(|&(label, options)| (label, m.subcommand, options)))
        .collect()
}

/// The runs of the cross-host check, as `(label, subcommand, options, input)`.
pub(crate) fn crosshost_runs() -> Vec<(&'static str, &'static str, &'static [&'static str], Input)> {
    let rows = MODELS.iter().flat_map(|m| m.crosshost.iter().map(|&(l, o, i)| (l, m.subcommand, o, i)));
    rows.collect()
}

/// The models as `(name, subcommand)`.
pub(crate) fn names() -> Vec<(&'static str, &'static str)> {
    MODELS.iter().map(|m| (m.name, m.subcommand)).collect()
}
