//! The recipe's registration: the lines a new model adds outside its own files, as
//! ARCHITECTURE.md ("Adding a model") lists them, for the model `accept_all`; and
//! what the scaffold runs of it. A line a recipe step names that is no longer in its
//! file is an error that says so: the registration moved, and this list and
//! ARCHITECTURE.md move with it.

use std::fs;
use std::path::Path;
use std::process::Command;

use crate::cmd::Result;

/// Where an edit goes: after or before the one line of its file that is the anchor.
#[derive(Clone, Copy, Debug)]
pub(super) enum Place {
    After,
    Before,
    /// At the end of the file (the anchor is not used).
    End,
}

/// Lines added to a file the models share.
#[derive(Debug)]
pub(super) struct Edit {
    pub file: &'static str,
    pub place: Place,
    /// The line (trimmed) the text goes next to; it must be in the file once.
    pub anchor: &'static str,
    pub text: &'static str,
}

impl Edit {
    /// Adds the text to the copy's file.
    pub(super) fn apply(&self, copy: &Path) -> Result {
        let path = copy.join(self.file);
        let source =
            fs::read_to_string(&path).map_err(|e| format!("scaffold: cannot read {}: {e}", self.file))?;
        if let Place::End = self.place {
            let text = format!("{}\n{}\n", source.trim_end(), self.text);
            return fs::write(&path, text).map_err(|e| format!("scaffold: cannot write {}: {e}", self.file));
        }
        let lines: Vec<&str> = source.lines().collect();
        let at: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].trim() == self.anchor).collect();
        let [index] = at[..] else {
            return Err(format!(
                "scaffold: the recipe's line `{}` is in {} {} times, not once: the registration moved; \
                 update xtask/src/scaffold/recipe.rs and ARCHITECTURE.md's recipe",
                self.anchor,
                self.file,
                at.len()
            ));
        };
        let split = match self.place {
            Place::After => index + 1,
            Place::Before | Place::End => index,
        };
        let mut out: Vec<&str> = lines[..split].to_vec();
        out.extend(self.text.lines());
        out.extend(&lines[split..]);
        fs::write(&path, out.join("\n") + "\n")
            .map_err(|e| format!("scaffold: cannot write {}: {e}", self.file))
    }
}

use Place::{After, Before, End};

/// The registration, in the recipe's order (ARCHITECTURE.md, "Adding a model").
pub(super) const EDITS: &[Edit] = &[
    // kernel: the module, and its records at the end of `Body`.
    Edit {
        file: "kernel/src/lib.rs",
        place: Before,
        anchor: "pub mod calendar;",
        text: "pub mod accept_all;",
    },
    Edit {
        file: "kernel/src/log.rs",
        place: After,
        anchor: "SlaDecision(sla::Decision),",
        text: "    /// An event that went into the accept-all kernel.
    AcceptAllEvent(crate::accept_all::Event),
    /// A decision that came out of the accept-all kernel.
    AcceptAllDecision(crate::accept_all::Decision),",
    },
    // replay: its row of the models, its header part at the end of `Model`.
    Edit {
        file: "replay/src/contract.rs",
        place: After,
        anchor: "\"SLA priority heuristics on a parallel machine (Yarmolenko and Sakellariou).\",",
        text: "            accept_all: AcceptAll [AcceptAllEvent AcceptAllDecision]
                \"Every request accepted at once: the recipe's example.\",",
    },
    Edit {
        file: "replay/src/format/model.rs",
        place: After,
        anchor: "Sla(SlaHeader),",
        text: "    /// Every request accepted at once: the recipe's example.
    AcceptAll(accept_all::AcceptAllHeader),",
    },
    Edit {
        file: "replay/src/format/model.rs",
        place: After,
        anchor: "use serde::{Deserialize, Serialize};",
        text: "\npub mod accept_all;",
    },
    // host-sim and snapshots: their rows of the models.
    Edit {
        file: "host-sim/src/lib.rs",
        place: After,
        anchor: "\"sla\": Sla(sla),",
        text: "            \"accept_all\": AcceptAll(accept_all),",
    },
    Edit {
        file: "host-sim/Cargo.toml",
        place: After,
        anchor: "name = \"sla\"",
        text: "harness = false\n\n[[bench]]\nname = \"accept_all\"",
    },
    Edit {
        file: "snapshots/src/lib.rs",
        place: After,
        anchor: "sla: Sla(SlaScenario),",
        text: "            accept_all: AcceptAll(AcceptAllScenario),",
    },
    // xtask: its runs, its fuzz target, the panic-free probe.
    Edit {
        file: "xtask/src/models.rs",
        place: Before,
        anchor: "];",
        text: "    ModelRows {
        name: \"accept_all\",
        subcommand: \"accept-all\",
        traces: &[(\"accept_all\", &[])],
        crosshost: &[(\"accept-all\", &[], Trace(5000))],
    },",
    },
    Edit {
        file: "fuzz/Cargo.toml",
        place: End,
        anchor: "",
        text: "\n[[bin]]\nname = \"accept_all\"\npath = \"fuzz_targets/accept_all.rs\"\ntest = false\ndoc = false\nbench = false",
    },
    Edit {
        file: "xtask/footprint/src/main.rs",
        place: Before,
        anchor: "\"calendar\",",
        text: "    \"accept_all\",",
    },
    Edit {
        file: "xtask/footprint/src/main.rs",
        place: After,
        anchor: "step(self.sla.as_mut(), if let Body::SlaEvent(e) = body { Some(e) } else { None });",
        text: "            let mut accept_all = kernel::accept_all::AcceptAllKernel::default();
            step(Some(&mut accept_all), if let Body::AcceptAllEvent(e) = body { Some(e) } else { None });",
    },
    // docs: its row of the README's models, its index and records in the log's spec.
    Edit {
        file: "README.md",
        place: After,
        anchor: "| SLA priority heuristics and pricing on a parallel machine | Yarmolenko and Sakellariou | `sla`, `sla-sweep` | [docs/models/sla.md](docs/models/sla.md) |",
        text: "| every request accepted at once: the recipe's example | - | `accept-all` | [docs/models/accept_all.md](docs/models/accept_all.md) |",
    },
    Edit {
        file: "docs/log-format.md",
        place: After,
        anchor: "- 3 = `Sla` (version 5 on), followed by an `SlaHeader`",
        text: "- 4 = `AcceptAll`, followed by an `AcceptAllHeader` (its `Config`, which has no field)",
    },
    Edit {
        file: "docs/log-format.md",
        place: Before,
        anchor: "## Footer (postcard)",
        text: "## Accept-all records

In their own tag space (`replay/src/format/codec/accept_all.rs`), with no context: a
tag byte (0 `Submit`, 1 `Accept`, 2 `Reject`), the time and the job as varints, and a
reject's reason as one byte (0 `late`). The rule is `kernel/src/accept_all/mod.rs`.
",
    },
];

/// The copy's tests of the new model: `cargo test` arguments.
pub(super) const TESTS: &[&[&str]] = &[
    &["-p", "admission-kernel", "--lib", "accept_all"],
    &["-p", "replay", "--lib"],
    &["-p", "snapshots"],
    &["-p", "host-sim", "--test", "determinism"],
];

/// Four jobs in SWF (18 fields each), the second and third at the same time.
const HAND_TRACE: &str = "; a trace of four jobs\n\
    1 0 0 100 1 -1 -1 1 100 -1 1 1 1 1 1 -1 -1 -1\n\
    2 50 0 100 1 -1 -1 1 100 -1 1 1 1 1 1 -1 -1 -1\n\
    3 50 0 20 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n\
    4 90 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 -1 -1 -1\n";

/// Runs the model on a trace with the copy's tools (`bin`, a folder of debug
/// binaries), verifies its log and re-makes it with `host-sim whatif`.
pub(super) fn run_model(copy: &Path, bin: &Path) -> Result {
    let trace = copy.join("accept_all.swf");
    fs::write(&trace, HAND_TRACE).map_err(|e| format!("scaffold: cannot write {}: {e}", trace.display()))?;
    let log = copy.join("accept_all.log");
    let again = copy.join("accept_all_again.log");
    let host_sim = bin.join("host-sim");
    let mut run = Command::new(&host_sim);
    run.arg("accept-all").arg("--trace").arg(&trace).arg("--log").arg(&log);
    crate::cmd::run("scaffold: accept-all on a trace", &mut run)?;
    crate::cmd::run("scaffold: verify", Command::new(bin.join("replay")).arg("verify").arg(&log))?;
    let mut whatif = Command::new(&host_sim);
    whatif.arg("whatif").arg(&log).arg("--log").arg(&again);
    crate::cmd::run("scaffold: whatif", &mut whatif)?;
    let same = fs::read(&log).ok().is_some_and(|a| fs::read(&again).ok() == Some(a));
    if same { Ok(()) } else { Err("scaffold: the what-if did not re-make the log byte for byte".to_owned()) }
}
