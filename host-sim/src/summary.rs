//! The core every `--json` summary opens with, one shape for the four models and
//! `compare`: the model, the inputs by file name and content hash, the limits applied
//! to them, and the requests' counts. The model's own fields follow on the same
//! level of the one JSON object (`docs/schemas/` has a JSON Schema for each).
//!
//! The core is read from the run's log header (built whether or not `--log` is
//! given), so it says what the log says: the same file gives the same `inputs`
//! wherever it lies and however its path was typed.

use std::io::{self, Write};

use replay::format::{Header, Input, Setting};
use serde::Serialize;

/// What every summary holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Core {
    /// The model's name, as every layer names it (`service_level`, ...), or `compare`.
    pub model: &'static str,
    /// The inputs, by file name and CRC-64 of their content (a merged workload's parts,
    /// in merge order; a generated workload's name and the hash of its parameters).
    pub inputs: Vec<InputRef>,
    /// The cuts made to the input.
    pub limits: Limits,
    /// The requests, where the summary is of one model's run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counts: Option<Counts>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct InputRef {
    pub name: String,
    pub hash: String,
}

/// `--limit` (the first jobs kept) and `--windows` (the first windows kept); null
/// when not given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Limits {
    pub jobs: Option<u64>,
    pub windows: Option<u64>,
}

/// Requests submitted to the model, accepted and rejected (a request the model
/// never answered is in neither of the last two).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Counts {
    pub submitted: u64,
    pub accepted: u64,
    pub rejected: u64,
}

impl Core {
    /// The core of a run of `model` whose log header is `header`.
    pub fn new(model: &'static str, header: &Header, counts: Option<Counts>) -> Self {
        Self::of(model, &header.inputs, &header.settings, counts)
    }

    /// The core of a summary over `workload` that has no one log header (`compare`,
    /// `run --seeds`): its inputs and limits as a log header of it holds them, without
    /// counts.
    pub fn of_workload(model: &'static str, workload: &crate::workload::Workload) -> Self {
        Self::of(model, &workload.inputs(), &workload.settings, None)
    }

    fn of(model: &'static str, inputs: &[Input], settings: &[Setting], counts: Option<Counts>) -> Self {
        let setting = |key: &str| settings.iter().find(|s| s.key == key).and_then(|s| s.value.parse().ok());
        Self {
            model,
            inputs: inputs.iter().map(|i| InputRef { name: i.name.clone(), hash: i.hash.clone() }).collect(),
            limits: Limits { jobs: setting("limit"), windows: setting("windows") },
            counts,
        }
    }
}

/// Writes the core, then `own`'s fields (it must serialize as a map or a struct), as
/// one JSON object on one line.
pub fn write_json<T: Serialize + ?Sized>(core: &Core, own: &T, mut out: impl Write) -> io::Result<()> {
    #[derive(Serialize)]
    struct Line<'a, T: ?Sized> {
        #[serde(flatten)]
        core: &'a Core,
        #[serde(flatten)]
        own: &'a T,
    }
    serde_json::to_writer(&mut out, &Line { core, own }).map_err(io::Error::from)?;
    writeln!(out)
}

/// `write_json` into a string, for the callers that print through
/// [`crate::output::write_stdout`].
pub fn json_line<T: Serialize + ?Sized>(core: &Core, own: &T) -> io::Result<String> {
    let mut bytes = Vec::new();
    write_json(core, own, &mut bytes)?;
    String::from_utf8(bytes).map_err(io::Error::other)
}
