//! Scenarios: small text files of events, run through the kernel and rendered as a
//! readable decision listing followed by the thesis' metrics. The insta snapshots in
//! `tests/` hold those renderings, so any change of behaviour shows up as a diff to
//! review.
//!
//! # The files and their tests
//! - `scenarios/*.scn`, each run through its model's engine (`replay::engine`): the
//!   service-level cases by name, `policy_*.scn` (the same events under each
//!   machine-choice policy), `resv_*.scn` (each criterion, fixing and request kind,
//!   offers), `tiers_*.scn`, and `sla_*.scn` (each of the seven terms under `min` and
//!   `max`, weighted pairs and three terms, `w = +inf, -inf, 0`, ties, a `Δt` of three
//!   slots, whole-set, one-at-a-time and interval batches, the random order, and a case
//!   per reject reason but `batch_full`, which needs 4,097 submits at the engine's
//!   `B`). A listing numbers each record and describes it as `replay export` does
//!   (`replay::export::describe`).
//! - `tests/scenarios.rs`: an insta snapshot of each scenario's listing and summary,
//!   and of a seeded synthetic run.
//! - `logs/*.log`: the logs of those runs. `tests/committed_logs.rs` requires each to
//!   be re-made byte for byte and to verify, and `cargo xtask verify` runs `replay
//!   verify` on each; re-record them on purpose with
//!   `RECORD_LOGS=1 cargo test -p snapshots --test committed_logs`.
//! - `tests/gantt.rs`: every committed log's Gantt chart (text inside the figure, the
//!   legend naming the outcomes drawn, the tiers row groups and tiers, axes in hours
//!   or days), and one chart's SVG as a snapshot.
//!
//! # Scenario format
//! One directive per line; `#` starts a comment; blank lines are ignored.
//!
//! ```text
//! machines 2          # machines in use (default 1)
//! queue 16            # queue capacity, one of the engine's compiled sizes (default 16)
//! policy best-fit     # first-fit | best-fit | worst-fit | least-loaded | round-robin
//!                     # (default first-fit; any other is named above the listing)
//! level 2             # a service level with slack factor 2 and the default price 21 - sf
//! level 1.5 price 30  # slack factors may be fractional; the price may be given
//! submit 0 1 10       # submit at t=0 job 1 with p=10 on level 0
//! submit 5 2 3 1      # ... on level 1
//! advance 100         # time passes to 100
//! drain               # time passes until every queue is empty
//! reset               # forget everything and return to time 0
//! ```
//!
//! Levels must all come before the first event. The scenario always ends with a
//! drain, so every accepted job completes and the metrics are whole.
//!
//! # Reservation scenarios
//! A scenario whose first directive is `model reservation` runs the reservation
//! kernel (`replay::engine::reservation`) instead. Its configuration comes before the
//! first event:
//!
//! ```text
//! model reservation
//! nodes 8             # the pool (default 4)
//! slot 10             # slot length in ticks (default 10)
//! criterion edf       # fifo | edf | lff | bjf | shuffle (default edf)
//! fixing half         # never | at_acceptance | quarter | half | three_quarters (default never)
//! offers 4            # offer trials per rejection, 0 = no offers (default 0)
//! request 0 1 4 30 10 100 flexible 7
//!                     # at t=0 job 1 asks for 4 nodes for 30 ticks in [10, 100]:
//!                     # strict | relaxed | flexible; the shuffle key is optional (default 0)
//! finish 35 1         # the host reports job 1 finished at 35
//! advance 50          # time passes to 50
//! drain               # time passes to the end: every reservation starts and ends
//! reset               # forget everything and return to time 0
//! ```
//!
//! It also always ends with a drain.
//!
//! # Tiers scenarios
//! A scenario whose first directive is `model tiers` runs the tiers kernel
//! (`replay::engine::tiers`). Its configuration comes before the first event:
//!
//! ```text
//! model tiers
//! policy qos-res      # no-qos | qos | qos-res (default qos-res)
//! slot 10             # slot length in ticks (default 10)
//! laxity 1000         # rescheduling threshold in thousandths (default 1000)
//! bronze 1000         # Bronze internal deadline in ticks (default 1000)
//! resource high 2 1000  # a resource: group, nodes, speed in thousandths (in index order)
//! submit 0 1 gold 20 10 60  # at t=0 job 1, Gold, work 20, window [10, 60]
//! submit 0 2 bronze 30      # Bronze has no window
//! finish 35 1         # the host reports job 1 finished at 35
//! leave 40 1          # resource 1 leaves; `return 90 1` brings it back
//! advance 50          # time passes to 50
//! reset
//! ```
//!
//! It has no drain: the scenario reports the finishes it wants. Its listing is followed by the counts of its
//! decisions and the node-ticks its executed reservations used.
//!
//! # SLA scenarios
//! A scenario whose first directive is `model sla` runs the SLA kernel
//! (`replay::engine::sla`). Its configuration comes before the first event:
//!
//! ```text
//! model sla
//! nodes 4             # the machine's nodes (default 4)
//! slot 10             # slot length in ticks (default 10)
//! step 30             # Δt, a multiple of the slot (default: the slot)
//! hour 100            # ticks per hour, for the terms' fixed point (default 100)
//! order min(TF - 0.8*tD)  # the heuristic as the paper writes it, or `random SEED` (default min(TS))
//! submit 0 1 2 40 0 300   # at t=0 job 1 asks for 2 nodes for 40 ticks in [0, 300]
//! plan 0              # fit the pending batch at t=0
//! reset 0             # a new, empty machine at t=0 (pending requests are dropped)
//! ```
//!
//! It has no drain: a request is decided at a plan. Its listing is followed by the
//! configuration, the counts of its decisions and every job set's six incomes (Rigid
//! and ASAP under SLA, CPU and Fair pricing, as host-sim prices them).

use std::fmt::Write as _;

use kernel::log::Body;
use replay::engine::EngineError;
use replay::export::describe;
use replay::format::{FormatError, Header, LogWriter};

/// The models a scenario runs, one row each: `name: Variant(Scenario)`, with `name`
/// its module here and the word of its `model NAME` line, `Scenario` its
/// [`ModelScenario`]. [`Model`], its modules and the choice by the first directive
/// come from this list.
macro_rules! for_each_model {
    ($then:ident) => {
        $then! {
            service_level: ServiceLevel(ServiceLevelScenario),
            reservation: Reservation(ReservationScenario),
            tiers: Tiers(TiersScenario),
            sla: Sla(SlaScenario),
        }
    };
}

macro_rules! models {
    ($($name:ident: $variant:ident($scenario:ident),)*) => {
        $(
            mod $name;
            pub use $name::$scenario;
        )*

        /// The model a scenario runs, chosen by its first directive (`model NAME`; the
        /// service level when there is none).
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub enum Model {
            $($variant($scenario),)*
        }

        impl Model {
            /// The model a scenario's first directive names, or `None` if it names none.
            fn named(words: &[&str]) -> Option<Self> {
                match words {
                    $(["model", name] if *name == stringify!($name) => {
                        Some(Self::$variant($scenario::default()))
                    })*
                    _ => None,
                }
            }

            fn scenario(&self) -> &dyn ModelScenario {
                match self {
                    $(Self::$variant(scenario) => scenario,)*
                }
            }

            fn scenario_mut(&mut self) -> &mut dyn ModelScenario {
                match self {
                    $(Self::$variant(scenario) => scenario,)*
                }
            }
        }
    };
}

for_each_model!(models);

pub use service_level::{synthetic, synthetic_sample};

/// A parsed scenario: which model it runs, with that model's configuration and
/// events, and the input's hash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scenario {
    pub model: Model,
    /// CRC-64 of the scenario file's text (or of the synthetic workload's parameters):
    /// the log header's input hash.
    pub input_hash: u64,
}

/// What every model's scenario does, the one shape the four share: read its
/// directives, complete what the text leaves implicit, run, and name its log header.
pub(crate) trait ModelScenario {
    /// One directive after the `model` line; an error is a message, which the
    /// parser puts behind the file and line.
    fn directive(&mut self, words: &[&str]) -> Result<(), String>;
    /// Called once the text is read: what every scenario of the model implies (a
    /// closing drain, a default level). Nothing by default.
    fn finish(&mut self) {}
    /// Runs the scenario and renders the listing the snapshot holds.
    fn run(&self, file: &str) -> Result<Outcome, ScenarioError>;
    /// The log header's configuration, before the host and the input are stamped on it.
    fn header(&self) -> Header;
}

#[derive(Debug, thiserror::Error)]
pub enum ScenarioError {
    #[error("{file}:{line}: {message}")]
    Parse { file: String, line: usize, message: String },
    #[error("{file}: {source}")]
    Engine { file: String, source: EngineError },
    #[error("{file}: writing the log: {source}")]
    Log { file: String, source: FormatError },
}

/// Parses a scenario; errors name the file and line.
pub fn parse(file: &str, text: &str) -> Result<Scenario, ScenarioError> {
    let mut model: Option<Model> = None;
    for (index, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        // The first directive chooses the model and is then used up; any other first
        // directive is a service-level one.
        if model.is_none()
            && let Some(named) = Model::named(&words)
        {
            model = Some(named);
            continue;
        }
        let model = model.get_or_insert_with(|| Model::ServiceLevel(ServiceLevelScenario::default()));
        model.scenario_mut().directive(&words).map_err(|message| ScenarioError::Parse {
            file: file.to_owned(),
            line: index + 1,
            message,
        })?;
    }
    let mut model = model.unwrap_or_else(|| Model::ServiceLevel(ServiceLevelScenario::default()));
    model.scenario_mut().finish();
    Ok(Scenario { model, input_hash: host_sim::workload::INPUT_CRC.checksum(text.as_bytes()) })
}

/// Word `i` of a directive as a whole number; `what` names it in the error.
fn number(words: &[&str], i: usize, what: &str) -> Result<u64, String> {
    let directive = words.first().copied().unwrap_or_default();
    let word = words.get(i).ok_or_else(|| format!("`{directive}` needs {what}"))?;
    word.parse().map_err(|_| format!("{what}: `{word}` is not a whole number"))
}

/// The time and job of a `finish T JOB` directive (the job is read first, so its
/// error is the one named when both words are wrong).
fn job_end(words: &[&str]) -> Result<(kernel::Tick, kernel::JobId), String> {
    let job = narrow(number(words, 2, "a job id")?, "job")?;
    Ok((number(words, 1, "a time")?, job))
}

/// `value` as a `u32`, or an error naming `what`.
fn narrow(value: u64, what: &str) -> Result<u32, String> {
    u32::try_from(value).map_err(|_| format!("{what}: {value} is too large"))
}

/// What a scenario produced: every record, and the rendering the snapshot holds.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub bodies: Vec<Body>,
    pub rendering: String,
}

/// Every model's listing starts alike: each record numbered and described as
/// `replay export` describes it, then a blank line before the model's summary.
fn listing(bodies: &[Body]) -> String {
    let mut rendering = String::new();
    for (seq, body) in bodies.iter().enumerate() {
        let _ = writeln!(rendering, "{seq:>4}  {}", describe(body));
    }
    rendering.push('\n');
    rendering
}

/// Runs a scenario through its model's engine and renders the listing and the
/// summary.
pub fn run(file: &str, scenario: &Scenario) -> Result<Outcome, ScenarioError> {
    scenario.model.scenario().run(file)
}

/// The log of a scenario, as `replay verify` reads it.
pub fn log_bytes(file: &str, scenario: &Scenario, outcome: &Outcome) -> Result<Vec<u8>, ScenarioError> {
    let log_error = |source| ScenarioError::Log { file: file.to_owned(), source };
    let mut header = scenario.model.scenario().header();
    header.host_version = concat!("snapshots ", env!("CARGO_PKG_VERSION")).to_owned();
    header = header.with_input(file, scenario.input_hash);
    let mut writer = LogWriter::new(Vec::new(), &header).map_err(log_error)?;
    for body in &outcome.bodies {
        writer.record(*body).map_err(log_error)?;
    }
    writer.finish().map_err(log_error)
}
