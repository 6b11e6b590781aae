//! What the host tells the kernel about the low-confidence resources: when they leave
//! and return, and how much their owners slow jobs down.
//!
//! # Seeded availability (ChaCha8, stream 3)
//! Each desktop alternates available and unavailable periods, starting available.
//! Periods are exponential (inverse transform of a 53-bit uniform, rounded to whole
//! seconds, at least 1) with means `--up-mean` and `--down-mean`; `--down-mean 0` turns
//! leaving off. The draws for desktop `k` come from the stream `3 + k`, so that a
//! desktop's periods do not depend on the others.
//!
//! # Owner load (ChaCha8, stream 2)
//! A job that starts on a desktop is slowed by its owner with probability
//! `--load-pct`: its actual run time is multiplied by a factor uniform in
//! `1 .. 1 + --load-max` (in thousandths).
//!
//! # Failure Trace Archive (`--availability FILE`)
//! An `event_trace.tab` file: tab-separated, one event per line, the columns
//! `event_id component_id node_id platform_id node_name event_type event_start_time
//! event_stop_time event_end_reason`; `event_type` 0 is an unavailability and 1 an
//! availability; times are epoch seconds (decimals are cut). Lines starting with `#`
//! and a first line whose first field is not a number (a header) are skipped. The
//! nodes, in order of first appearance, are the desktops in index order; nodes past the
//! last desktop are counted and left out. Times are shifted so that the earliest event
//! is at 0. Each unavailability `[start, stop)` is a leave at `start` and a return at
//! `stop`; overlapping ones of a node are merged.

use std::path::Path;

use kernel::Tick;
use kernel::tiers::{Group, Resource};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::error::TiersError;
use crate::path_error::PathError;

/// A leave (`false`) or return (`true`) of resource `resource` at `t`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Change {
    pub t: Tick,
    pub resource: u8,
    pub back: bool,
}

/// The fault parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Faults {
    pub up_mean_s: Tick,
    pub down_mean_s: Tick,
    pub load_pct: u32,
    pub load_max_milli: u64,
}

/// The calibrated defaults (see the README: chosen on No-QoS, mix A, only).
pub const DEFAULT_FAULTS: Faults =
    Faults { up_mean_s: 10_800, down_mean_s: 900, load_pct: 30, load_max_milli: 1000 };

fn exponential(rng: &mut ChaCha8Rng, mean: Tick) -> Tick {
    let u: u64 = rng.random_range(0..1u64 << 53);
    let x = (u as f64 + 0.5) / (1u64 << 53) as f64;
    ((-x.ln()) * mean as f64).round().max(1.0) as Tick
}

/// Where the seeded changes of the paper's workload end (`requests` in time order): a
/// day past the last request's deadline or submit.
pub fn paper_until(requests: &[kernel::tiers::Request]) -> Tick {
    requests.last().map_or(0, |r| r.deadline.max(r.t)) + 86_400
}

/// Where the seeded changes of a trace's SLAs end: a day past the latest deadline or
/// submit of any of them.
pub fn trace_until(requests: &[kernel::tiers::Request]) -> Tick {
    requests.iter().map(|r| r.deadline.max(r.t)).max().unwrap_or(0) + 86_400
}

/// Seeded leave/return changes for every desktop up to `until`, in time order.
pub fn seeded(resources: &[Resource], faults: Faults, seed: u64, until: Tick) -> Vec<Change> {
    let mut out = Vec::new();
    if faults.down_mean_s == 0 {
        return out;
    }
    for (k, r) in resources.iter().enumerate() {
        if r.group != Group::Low {
            continue;
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(3 + k as u64);
        let mut t = 0;
        loop {
            t += exponential(&mut rng, faults.up_mean_s);
            if t >= until {
                break;
            }
            out.push(Change { t, resource: k as u8, back: false });
            t += exponential(&mut rng, faults.down_mean_s);
            out.push(Change { t, resource: k as u8, back: true });
        }
    }
    out.sort_unstable();
    out
}

/// The owner's slowdown of one start, in thousandths (1000: none).
pub fn owner_factor_milli(rng: &mut ChaCha8Rng, faults: Faults) -> u64 {
    if faults.load_pct == 0 || rng.random_range(0..100) >= faults.load_pct {
        return 1000;
    }
    1000 + rng.random_range(0..=faults.load_max_milli)
}

/// What an FTA file gave: the changes and the nodes left out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FtaTrace {
    pub changes: Vec<Change>,
    pub nodes_left_out: usize,
    /// CRC-64 of the file's text: the log header's input hash.
    pub hash: u64,
}

/// Reads an `event_trace.tab` file (see the module documentation).
pub fn read_fta(path: &Path, resources: &[Resource]) -> Result<FtaTrace, TiersError> {
    let text = std::fs::read_to_string(path)
        .map_err(|source| TiersError::Io(PathError { path: path.display().to_string(), source }))?;
    parse_fta(&path.display().to_string(), &text, resources)
}

/// One event line of an FTA file: its node, whether it is an unavailability
/// (`event_type` 0), and its start and stop times (seconds, whole).
struct FtaEvent<'a> {
    node: &'a str,
    down: bool,
    start: i64,
    stop: i64,
}

/// Reads the fields of line `line` of `file`; errors name the line and the field.
fn parse_event<'a>(file: &str, line: usize, fields: &[&'a str]) -> Result<FtaEvent<'a>, TiersError> {
    let bad = |field: &str, why: String| TiersError::Fta {
        file: file.to_string(),
        line,
        field: field.to_string(),
        why,
    };
    if fields.len() < 8 {
        return Err(bad("event_stop_time", format!("{} fields, expected at least 8", fields.len())));
    }
    let kind: i64 =
        fields[5].parse().map_err(|_| bad("event_type", format!("`{}` is not 0 or 1", fields[5])))?;
    if kind != 0 && kind != 1 {
        return Err(bad("event_type", format!("`{kind}` is not 0 or 1")));
    }
    let time = |i: usize, name: &str| -> Result<i64, TiersError> {
        let v: f64 = fields[i].parse().map_err(|_| bad(name, format!("`{}` is not a time", fields[i])))?;
        if !v.is_finite() || v < 0.0 {
            return Err(bad(name, format!("`{}` is not a time", fields[i])));
        }
        Ok(v as i64)
    };
    let start = time(6, "event_start_time")?;
    let stop = time(7, "event_stop_time")?;
    if stop < start {
        return Err(bad("event_stop_time", format!("{stop} is before the start {start}")));
    }
    Ok(FtaEvent { node: fields[2], down: kind == 0, start, stop })
}

/// Parses the text of an `event_trace.tab` file named `file`.
pub fn parse_fta(file: &str, text: &str, resources: &[Resource]) -> Result<FtaTrace, TiersError> {
    let desktops: Vec<u8> =
        resources.iter().enumerate().filter(|(_, r)| r.group == Group::Low).map(|(i, _)| i as u8).collect();
    let mut nodes: Vec<String> = Vec::new();
    let mut spans: Vec<(usize, i64, i64)> = Vec::new();
    let mut origin: Option<i64> = None;
    for (number, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = trimmed.split('\t').map(str::trim).collect();
        if number == 0 && fields.first().is_some_and(|f| f.parse::<f64>().is_err()) {
            continue;
        }
        let event = parse_event(file, number + 1, &fields)?;
        let index = match nodes.iter().position(|n| n == event.node) {
            Some(i) => i,
            None => {
                nodes.push(event.node.to_string());
                nodes.len() - 1
            }
        };
        origin = Some(origin.map_or(event.start, |o| o.min(event.start)));
        if event.down {
            spans.push((index, event.start, event.stop));
        }
    }
    Ok(FtaTrace {
        changes: changes(&desktops, &spans, origin.unwrap_or(0)),
        nodes_left_out: nodes.len().saturating_sub(desktops.len()),
        hash: crate::workload::INPUT_CRC.checksum(text.as_bytes()),
    })
}

/// The availability changes of the desktops: node `k` of the file (in first-seen
/// order) is the `k`-th desktop; its unavailable spans are merged where they overlap
/// and timed from `origin`, the earliest event's start.
fn changes(desktops: &[u8], spans: &[(usize, i64, i64)], origin: i64) -> Vec<Change> {
    let mut changes = Vec::new();
    for (k, &resource) in desktops.iter().enumerate() {
        let mut mine: Vec<(i64, i64)> = spans.iter().filter(|s| s.0 == k).map(|s| (s.1, s.2)).collect();
        mine.sort_unstable();
        let mut merged: Vec<(i64, i64)> = Vec::new();
        for (a, b) in mine {
            match merged.last_mut() {
                Some(last) if a <= last.1 => last.1 = last.1.max(b),
                _ => merged.push((a, b)),
            }
        }
        for (a, b) in merged.into_iter().filter(|(a, b)| b > a) {
            changes.push(Change { t: (a - origin) as Tick, resource, back: false });
            changes.push(Change { t: (b - origin) as Tick, resource, back: true });
        }
    }
    changes.sort_unstable();
    changes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiers::testbed::paper_resources;

    #[test]
    fn fta_errors_name_the_line_and_field() {
        let text = "event_id\tcomponent_id\tnode_id\tplatform_id\tnode_name\tevent_type\tevent_start_time\tevent_stop_time\tevent_end_reason\n1\t1\t7\t1\tn\t0\t100\t50\t0\n";
        let err = parse_fta("x.tab", text, &paper_resources()).unwrap_err().to_string();
        assert_eq!(err, "x.tab:2: event_stop_time: 50 is before the start 100");
        let err =
            parse_fta("x.tab", "1\t1\t7\t1\tn\t2\t1\t5\t0\n", &paper_resources()).unwrap_err().to_string();
        assert_eq!(err, "x.tab:1: event_type: `2` is not 0 or 1");
    }
}
