//! The Failure Trace Archive reader of `tiers --availability FILE`: an `event_trace.tab`
//! file as the archive ships it, made into the desktops' leaves and returns on the
//! run's clock.
//!
//! # The file
//! One event per line, nine columns separated by any run of spaces or tabs (the archive
//! pads its columns with several tabs): `event_id component_id node_id platform_id
//! node_name event_type event_start_time event_stop_time event_end_reason`, the last of
//! which may be absent. `event_type` 0 is an unavailability, 1 an availability. Times
//! are seconds since 1970, digits with optional decimals (`1102446000.000`); the
//! decimals are cut, so that a time stays in the second it fell in; a time past
//! 2^64 - 1 seconds is refused. `NULL` may stand for any column but `node_id`,
//! `event_type` and `event_start_time`; an unavailability whose `event_stop_time` is
//! `NULL` never ends. A `node_id` is a whole number from 0 to 2^64 - 1. A NUL byte,
//! which no text file holds, is refused where it is met. Blank lines, lines whose
//! first field starts with `#`, and one line of column names before the first event
//! (a first field that is neither a number nor `NULL`; the names must be [`COLUMNS`],
//! in order) are skipped. A file without an event line is refused; so is every bad
//! field, with the file, the line and the column.
//!
//! # Nodes and desktops
//! The nodes, in the order of their first line, are the desktops in index order; the
//! nodes past the last desktop are counted and left out. A node's unavailabilities
//! merge where they overlap or touch; time that none covers counts as available (the
//! availability events only place the node's timeline).
//!
//! # Time alignment
//! Archive traces span months or years and their nodes appear at different times; a
//! tiers run spans hours or days. With the file's earliest event at time 0 (`file`),
//! the first nodes of a real trace may begin years later, and the run then never sees
//! a desktop leave. So by default (`node`) each node's timeline starts at its own first
//! event (of either type): every desktop brings the start of its own recorded history
//! to the run. The price is that outages shared by several nodes are no longer
//! simultaneous; `file` keeps the archive's common clock for a trace whose nodes were
//! watched together. A shift then starts the run that far into each timeline; an
//! unavailability that spans the new time 0 starts the run with its desktop away (a
//! leave at 0).

use std::collections::{BTreeSet, HashMap};
use std::io::BufRead;
use std::path::Path;

use kernel::Tick;
use kernel::tiers::{Group, Resource};

use super::error::TiersError;
use super::faults::Change;
use crate::path_error::PathError;
use crate::workload::INPUT_CRC;

/// The columns of an `event_trace.tab` line, as the archive names them.
pub const COLUMNS: [&str; 9] = [
    "event_id",
    "component_id",
    "node_id",
    "platform_id",
    "node_name",
    "event_type",
    "event_start_time",
    "event_stop_time",
    "event_end_reason",
];

/// Where each node's timeline starts on the run's clock (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    /// Each node's first event at time 0 (the default).
    Node,
    /// The file's earliest event at time 0, for every node.
    File,
}

impl Align {
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "node" => Some(Self::Node),
            "file" => Some(Self::File),
            _ => None,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Self::Node => "node",
            Self::File => "file",
        }
    }
}

/// The alignment and the shift, in seconds, of the run's time 0 after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Alignment {
    pub align: Align,
    pub shift_s: u64,
}

impl Default for Alignment {
    fn default() -> Self {
        Self { align: Align::Node, shift_s: 0 }
    }
}

/// What an FTA file gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FtaTrace {
    /// The desktops' leaves and returns on the run's clock, in time order.
    pub changes: Vec<Change>,
    /// Event lines read.
    pub events: usize,
    /// Distinct nodes of the file.
    pub nodes: usize,
    /// Desktops given a node (the first nodes of the file).
    pub desktops: usize,
    /// Nodes past the last desktop, left out.
    pub nodes_left_out: usize,
    /// CRC-64 of the file's bytes: the log header's input hash.
    pub hash: u64,
}

impl FtaTrace {
    /// The desktops that leave among the first `sent` changes (those a run delivered),
    /// and the number of those leaves.
    pub fn left_during(&self, sent: usize) -> (usize, usize) {
        let leaves: Vec<u8> =
            self.changes.iter().take(sent).filter(|c| !c.back).map(|c| c.resource).collect();
        (leaves.iter().collect::<BTreeSet<_>>().len(), leaves.len())
    }

    /// The run's time of the first leave of any desktop.
    pub fn first_leave(&self) -> Option<Tick> {
        self.changes.iter().find(|c| !c.back).map(|c| c.t)
    }
}

/// Reads the `event_trace.tab` file at `path` (see the module documentation).
pub fn read_fta(path: &Path, resources: &[Resource], alignment: Alignment) -> Result<FtaTrace, TiersError> {
    let io = |source| TiersError::Io(PathError { path: path.display().to_string(), source });
    if path.is_dir() {
        return Err(io(std::io::Error::other("it is a folder, not an event_trace.tab file")));
    }
    let file = std::fs::File::open(path).map_err(io)?;
    parse_fta(&path.display().to_string(), std::io::BufReader::new(file), resources, alignment)
}

/// One event line: its node, whether it is an unavailability, its start and stop
/// (whole seconds; no stop: `NULL`).
struct Event {
    node: u64,
    down: bool,
    start: u64,
    stop: Option<u64>,
}

/// What the file says about one node given a desktop: its first event's start and its
/// unavailabilities.
struct Node {
    first_s: u64,
    spans: Vec<(u64, Option<u64>)>,
}

/// A field as the error messages show it ([`replay::echo`]: quoted, escaped, cut).
fn shown(field: &[u8]) -> String {
    replay::echo::echo_bytes(field)
}

/// A node id: a whole number, as the archive numbers its nodes.
fn parse_node(field: &[u8]) -> Result<u64, String> {
    let digits = !field.is_empty() && field.iter().all(u8::is_ascii_digit);
    let node = std::str::from_utf8(field).ok().filter(|_| digits).and_then(|text| text.parse::<u64>().ok());
    node.ok_or_else(|| format!("{} is not a node id (a whole number from 0 to 2^64 - 1)", shown(field)))
}

/// Whether `field` is a number or `NULL` (so that its line is not a header).
fn is_number_or_null(field: &[u8]) -> bool {
    field == b"NULL" || std::str::from_utf8(field).is_ok_and(|s| s.parse::<f64>().is_ok())
}

/// Seconds since 1970, decimals cut, from digits with optional decimals.
fn parse_time(field: &[u8]) -> Result<u64, String> {
    let shown = shown(field);
    if field.starts_with(b"-") {
        return Err(format!("{shown} is negative: times are seconds since 1970"));
    }
    let text = String::from_utf8_lossy(field);
    let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || !digits(whole) || !digits(fraction) {
        return Err(format!("{shown} is not a time (seconds since 1970: digits, optional decimals)"));
    }
    whole.parse::<u64>().map_err(|_| format!("{shown} is past 2^64 - 1 seconds"))
}

/// Reads the fields of line `line` of `file`; errors name the line and the column.
fn parse_event(file: &str, line: usize, fields: &[&[u8]]) -> Result<Event, TiersError> {
    let bad = |column: usize, why: String| TiersError::Fta {
        file: file.to_owned(),
        line,
        field: COLUMNS.get(column).unwrap_or(&"columns").to_string(),
        why,
    };
    let n = fields.len();
    if n < 8 {
        return Err(bad(n, format!("missing: the line has {n} columns, and the first 8 are needed")));
    }
    if n > COLUMNS.len() {
        let why = format!("the line has {n} columns, 9 at most (does a node_name hold a space?)");
        return Err(bad(COLUMNS.len(), why));
    }
    let required = |column: usize| match fields[column] {
        b"NULL" => Err(bad(column, "is NULL, and every event needs it".to_owned())),
        field => Ok(field),
    };
    let node = parse_node(required(2)?).map_err(|why| bad(2, why))?;
    let down = match required(5)? {
        b"0" => true,
        b"1" => false,
        other => return Err(bad(5, format!("{} is not 0 or 1", shown(other)))),
    };
    let start = parse_time(required(6)?).map_err(|why| bad(6, why))?;
    let stop = match fields[7] {
        b"NULL" => None,
        field => Some(parse_time(field).map_err(|why| bad(7, why))?),
    };
    if let Some(stop) = stop
        && stop < start
    {
        return Err(bad(7, format!("{stop} is before the start {start}")));
    }
    Ok(Event { node, down, start, stop })
}

/// Reads an `event_trace.tab` file named `file` from `input`.
pub fn parse_fta(
    file: &str,
    mut input: impl BufRead,
    resources: &[Resource],
    alignment: Alignment,
) -> Result<FtaTrace, TiersError> {
    let desktops: Vec<u8> =
        resources.iter().enumerate().filter(|(_, r)| r.group == Group::Low).map(|(i, _)| i as u8).collect();
    let mut seen: HashMap<u64, usize> = HashMap::new();
    let mut used: Vec<Node> = Vec::new();
    let (mut earliest, mut events, mut header) = (u64::MAX, 0, false);
    let mut digest = INPUT_CRC.digest();
    let (mut bytes, mut offset) = (Vec::new(), 0);
    for line in 1.. {
        if !lines::read_line(file, line, &mut input, &mut bytes, &mut offset)? {
            break;
        }
        digest.update(&bytes);
        lines::lone_cr(file, line, &bytes)?;
        let fields: Vec<&[u8]> = bytes.split(u8::is_ascii_whitespace).filter(|f| !f.is_empty()).collect();
        match fields.first() {
            None => continue,
            Some(first) if first.starts_with(b"#") => continue,
            Some(first) if events == 0 && !header && !is_number_or_null(first) => {
                lines::check_names(file, line, &fields)?;
                header = true;
                continue;
            }
            Some(_) => {}
        }
        let event = parse_event(file, line, &fields)?;
        events += 1;
        earliest = earliest.min(event.start);
        let next = seen.len();
        let k = *seen.entry(event.node).or_insert(next);
        if k >= desktops.len() {
            continue;
        }
        if k == used.len() {
            used.push(Node { first_s: event.start, spans: Vec::new() });
        }
        let node = &mut used[k];
        node.first_s = node.first_s.min(event.start);
        if event.down {
            node.spans.push((event.start, event.stop));
        }
    }
    if events == 0 {
        let why = "no event line: the file is empty or holds only header and comment lines";
        return Err(TiersError::FtaFile { file: file.to_owned(), why: why.to_owned() });
    }
    Ok(FtaTrace {
        changes: changes(&desktops, &used, earliest, alignment),
        events,
        nodes: seen.len(),
        desktops: used.len(),
        nodes_left_out: seen.len() - used.len(),
        hash: digest.finalize(),
    })
}

/// A node's unavailabilities sorted and merged where they overlap or touch (no stop:
/// never ends).
fn merged(spans: &[(u64, Option<u64>)]) -> Vec<(u64, Option<u64>)> {
    let mut sorted = spans.to_vec();
    sorted.sort_unstable_by_key(|s| s.0);
    let mut out: Vec<(u64, Option<u64>)> = Vec::new();
    for (start, stop) in sorted {
        match out.last_mut() {
            Some(last) if last.1.is_none_or(|end| start <= end) => {
                last.1 = last.1.zip(stop).map(|(a, b)| a.max(b));
            }
            _ => out.push((start, stop)),
        }
    }
    out
}

/// The desktops' changes: node `k` (first-seen order) is the `k`-th desktop; its
/// merged unavailabilities are timed from its time 0 (its first event, or the file's
/// `earliest`, plus the shift) and cut at it.
fn changes(desktops: &[u8], nodes: &[Node], earliest: u64, alignment: Alignment) -> Vec<Change> {
    let mut changes = Vec::new();
    for (node, &resource) in nodes.iter().zip(desktops) {
        let origin = match alignment.align {
            Align::Node => node.first_s,
            Align::File => earliest,
        };
        let zero = origin.saturating_add(alignment.shift_s);
        for (start, stop) in merged(&node.spans) {
            if stop.is_some_and(|stop| stop <= zero || stop == start) {
                continue;
            }
            changes.push(Change { t: start.saturating_sub(zero), resource, back: false });
            if let Some(stop) = stop {
                changes.push(Change { t: stop - zero, resource, back: true });
            }
        }
    }
    changes.sort_unstable();
    changes
}

mod lines;

#[cfg(test)]
#[path = "fta_tests.rs"]
mod tests;
