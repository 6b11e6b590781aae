//! `tiers --availability FILE` around the reader ([`super::fta`]): the alignment
//! options, the settings they write in the log header, and the summary's account of
//! the file (its nodes, the desktops that left during the run, and a warning when none
//! did, since such a run is the same as one whose desktops never leave).

use std::path::Path;

use clap::Args;
use replay::format::Header;
use serde_json::{Value, json};

use super::fta::{self, Align, Alignment, FtaTrace};
use super::run::RunOutput;
use super::{Scenario, TiersError};
use crate::window::{DurationError, parse_duration};

/// The alignment options of `tiers --availability`.
#[derive(Clone, Debug, Args)]
pub struct AlignArgs {
    /// With --availability: where each node's timeline starts on the run's clock.
    /// `node`: at the node's own first event, so that every desktop brings the start
    /// of its recorded history (archive traces span years, and their nodes appear at
    /// different times); `file`: at the file's earliest event, which keeps outages
    /// shared by several nodes simultaneous (default: node).
    #[arg(long, value_name = "node|file")]
    pub availability_align: Option<String>,
    /// With --availability: starts the run this far into each timeline, after the
    /// alignment (a duration: 3600, 90m, 12h, 30d; default 0).
    #[arg(long, value_name = "DURATION")]
    pub availability_shift: Option<String>,
}

impl AlignArgs {
    /// The alignment these options ask for; errors name the option.
    pub fn alignment(&self) -> Result<Alignment, TiersError> {
        let name = self.availability_align.as_deref().unwrap_or(Align::Node.name());
        let align = Align::from_name(name).ok_or_else(|| {
            TiersError::Usage(format!("--availability-align: unknown value `{name}` (node or file)"))
        })?;
        let shift_s = match self.availability_shift.as_deref().map(parse_duration) {
            None | Some(Err(DurationError::Zero(_))) => 0,
            Some(Ok(seconds)) => seconds,
            Some(Err(e)) => return Err(TiersError::Usage(format!("--availability-shift: {e}"))),
        };
        Ok(Alignment { align, shift_s })
    }
}

/// Refuses the options when no `--availability` file is given for them to align. (Not
/// clap's `requires`: the scenario files' path probe parses each option alone.)
pub fn refuse_without_file(args: &AlignArgs) -> Result<(), TiersError> {
    let given = [
        ("--availability-align", &args.availability_align),
        ("--availability-shift", &args.availability_shift),
    ];
    match given.iter().find(|(_, value)| value.is_some()) {
        Some((option, _)) => {
            Err(TiersError::Usage(format!("{option}: aligns an --availability file, and none is given")))
        }
        None => Ok(()),
    }
}

/// An availability file as a run used it.
#[derive(Clone, Debug)]
pub struct Availability {
    /// The file's name, as the log header and the summary give it.
    pub name: String,
    pub alignment: Alignment,
    pub trace: FtaTrace,
}

/// Reads `path` into `scenario`'s changes.
pub fn load(path: &Path, args: &AlignArgs, scenario: &mut Scenario) -> Result<Availability, TiersError> {
    let alignment = args.alignment()?;
    let trace = fta::read_fta(path, &scenario.resources, alignment)?;
    scenario.changes = super::faults::ChangePlan::Listed(trace.changes.clone());
    let name = path.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    Ok(Availability { name, alignment, trace })
}

impl Availability {
    /// Adds to `inputs` the file (by name and hash) and the alignment as the settings
    /// `availability-align` and `availability-shift` (seconds), which change the
    /// events and so the decisions.
    pub fn stamp(&self, inputs: Header) -> Header {
        let mut inputs = inputs.with_input(&self.name, self.trace.hash);
        inputs.set("availability-align", self.alignment.align.name());
        inputs.set("availability-shift", self.alignment.shift_s);
        inputs
    }
}

/// What the summary says about the availability file of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The line of the text summary.
    pub line: String,
    /// The `availability` field of the JSON summary.
    pub json: Value,
    /// Set when no desktop left during the run.
    pub warning: Option<String>,
}

impl Availability {
    /// The account of this file in the run `out`.
    pub fn report(&self, out: &RunOutput, desktops: usize) -> Report {
        let t = &self.trace;
        let (left, leaves) = t.left_during(out.changes_sent);
        let align = match self.alignment.align {
            Align::Node => "each node's first event",
            Align::File => "the file's earliest event",
        };
        let line = format!(
            "availability: {}: {} events of {} nodes, the first {} followed by {} of the {desktops} \
             desktops, {} left out; time 0 at {align}, shifted {} s; desktops that left during the run: \
             {left} of {desktops} ({leaves} leaves before its end at {} s)\n",
            self.name,
            t.events,
            t.nodes,
            t.desktops,
            t.desktops,
            t.nodes_left_out,
            self.alignment.shift_s,
            out.end
        );
        let warning = (left == 0).then(|| self.warning(out.end));
        let json = json!({
            "file": self.name,
            "events": t.events,
            "nodes": t.nodes,
            "desktops": t.desktops,
            "nodes_left_out": t.nodes_left_out,
            "align": self.alignment.align.name(),
            "shift_s": self.alignment.shift_s,
            "desktops_left": left,
            "leaves": leaves,
            "run_end_s": out.end,
            "warning": warning,
        });
        Report { line, json, warning }
    }

    /// The warning of a run during which no desktop left, with what would change that.
    fn warning(&self, end: u64) -> String {
        let mut text = format!(
            "{}: no desktop left during the run (it ends at {end} s): the run is the same as one whose \
             desktops never leave",
            self.name
        );
        match self.trace.first_leave() {
            Some(first) => text.push_str(&format!(
                "; the first leave comes at {first} s on the run's clock: --availability-shift {} would \
                 bring it to 0",
                self.alignment.shift_s.saturating_add(first)
            )),
            None => text.push_str("; the file has no unavailability of a desktop after the run's time 0"),
        }
        if self.alignment.align == Align::File {
            text.push_str("; --availability-align node starts each node at its own first event");
        }
        text
    }
}
