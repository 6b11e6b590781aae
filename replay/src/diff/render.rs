//! A [`Diff`] written out: a readable table, CSV rows of the changed jobs, or one JSON
//! object with everything.

use std::io::{self, Write};

use serde::Serialize;

use super::{Answer, Change, Diff, Fate, JobChange};

/// A change's name; a changed place is named by what the model places on.
fn change_name(change: Change, place: &'static str) -> &'static str {
    if change == Change::Place && !place.is_empty() { place } else { change.name() }
}

/// A count's change from A to B.
fn delta(a: u128, b: u128) -> String {
    if b >= a { format!("+{}", b - a) } else { format!("-{}", a - b) }
}

/// `accepted` or the reject reason's name (as `replay export --format csv` writes it).
fn outcome(fate: &Fate) -> &str {
    match &fate.answer {
        Answer::Unanswered => "unanswered",
        Answer::Accepted => "accepted",
        Answer::Rejected(reason) => reason,
    }
}

/// One fate on one line, e.g. `accepted machine 2 start 10 completion 20`.
fn readable(fate: Option<&Fate>, place: &str) -> String {
    let Some(fate) = fate else { return "absent".to_owned() };
    let mut text = match fate.answer {
        Answer::Rejected(_) => format!("rejected {}", outcome(fate)),
        _ => outcome(fate).to_owned(),
    };
    let mut add = |name: &str, value: Option<u64>| {
        if let Some(value) = value {
            text.push_str(&format!(" {name} {value}"));
        }
    };
    add(place, fate.place.filter(|_| !place.is_empty()).map(u64::from));
    add("start", fate.start);
    add("completion", fate.completion);
    let nonzero = |n: u32| (n > 0).then_some(u64::from(n));
    add("interruptions", nonzero(fate.interruptions));
    add("moves", nonzero(fate.moves));
    add("offers", nonzero(fate.offers));
    text
}

/// The readable table: the logs, what differs in their headers, the first divergence,
/// the changed jobs counted by change, the counts side by side, then the changed jobs
/// (the first `limit` of them, if given, saying how many were left out).
pub fn write_table(diff: &Diff, limit: Option<usize>, out: &mut dyn Write) -> io::Result<()> {
    let [a, b] = &diff.names;
    writeln!(out, "replay diff: two {} logs of the same input\n  A  {a}\n  B  {b}", diff.model)?;
    if diff.header.is_empty() {
        writeln!(out, "header: the same")?;
    } else {
        writeln!(out, "header: {} lines differ (A | B)", diff.header.len())?;
    }
    for line in &diff.header {
        let side = |v: &Option<String>| v.clone().unwrap_or_else(|| "-".to_owned());
        writeln!(out, "  {:<24} {} | {}", line.key, side(&line.a), side(&line.b))?;
    }
    match &diff.divergence {
        None => writeln!(out, "records: the same")?,
        Some(d) => {
            let side = |v: &Option<String>| v.clone().unwrap_or_else(|| "nothing (end of log)".to_owned());
            writeln!(out, "first divergence: record {}", d.seq)?;
            if let Some(after) = &d.after {
                writeln!(out, "  after  {}", after.trim_start())?;
            }
            writeln!(out, "  A      {}\n  B      {}", side(&d.a).trim_start(), side(&d.b).trim_start())?;
        }
    }
    writeln!(out, "jobs: {} compared, {} changed", diff.jobs_compared, diff.jobs.len())?;
    for &(change, count) in &diff.counts {
        let flip = matches!(change, Change::AcceptedToRejected | Change::RejectedToAccepted);
        if count > 0 || flip {
            writeln!(out, "  {:<24} {count:>10}", change_name(change, diff.place))?;
        }
    }
    let width = diff.measures.iter().map(|m| m.name.len()).max().unwrap_or(0).max(24);
    writeln!(out, "{:<w$} {:>14} {:>14} {:>12}", "count", "A", "B", "B-A", w = width + 2)?;
    for m in &diff.measures {
        writeln!(out, "  {:<width$} {:>14} {:>14} {:>12}", m.name, m.a, m.b, delta(m.a, m.b))?;
    }
    write_jobs(diff, limit, out)
}

/// The changed jobs, one line each.
fn write_jobs(diff: &Diff, limit: Option<usize>, out: &mut dyn Write) -> io::Result<()> {
    if diff.jobs.is_empty() {
        return Ok(());
    }
    let shown = limit.unwrap_or(usize::MAX).min(diff.jobs.len());
    writeln!(out, "changed jobs (window job: change: A | B)")?;
    for job in diff.jobs.iter().take(shown) {
        let changes: Vec<&str> = job.changes.iter().map(|&c| change_name(c, diff.place)).collect();
        writeln!(
            out,
            "  {} {}: {}: {} | {}",
            job.window,
            job.job,
            changes.join(", "),
            readable(job.a.as_ref(), diff.place),
            readable(job.b.as_ref(), diff.place)
        )?;
    }
    let left = diff.jobs.len() - shown;
    if left > 0 {
        writeln!(out, "  ... and {left} more changed jobs (the first {shown} shown: --limit)")?;
    }
    Ok(())
}

/// The CSV header line of [`write_csv`].
pub const CSV_HEADER: &str = "window,job,changes,a_outcome,a_place,a_start,a_completion,a_interruptions,\
a_moves,a_offers,b_outcome,b_place,b_start,b_completion,b_interruptions,b_moves,b_offers";

/// One row per changed job: its window and job, its changes (separated by `;`), then
/// each log's fate (`outcome` is `accepted`, `unanswered` or the reject reason; every
/// field is empty for a job absent from that log). Written by the `csv` crate.
pub fn write_csv(diff: &Diff, out: &mut dyn Write) -> io::Result<()> {
    fn opt<T: ToString>(v: Option<T>) -> String {
        v.map_or_else(String::new, |v| v.to_string())
    }
    fn fields(fate: Option<&Fate>, row: &mut Vec<String>) {
        let Some(f) = fate else { return row.extend(std::iter::repeat_n(String::new(), 7)) };
        row.extend([outcome(f).to_string(), opt(f.place), opt(f.start), opt(f.completion)]);
        row.extend([f.interruptions.to_string(), f.moves.to_string(), f.offers.to_string()]);
    }
    let mut csv = csv::Writer::from_writer(out);
    csv.write_record(CSV_HEADER.split(',')).map_err(io::Error::from)?;
    for job in &diff.jobs {
        let changes: Vec<&str> = job.changes.iter().map(|&c| change_name(c, diff.place)).collect();
        let mut row = vec![job.window.to_string(), job.job.to_string(), changes.join(";")];
        fields(job.a.as_ref(), &mut row);
        fields(job.b.as_ref(), &mut row);
        csv.write_record(&row).map_err(io::Error::from)?;
    }
    csv.flush()
}

#[derive(Serialize)]
struct Json<'a> {
    a: &'a str,
    b: &'a str,
    model: &'a str,
    same_records: bool,
    header: Vec<JsonHeader<'a>>,
    first_divergence: Option<JsonDivergence<'a>>,
    jobs_compared: u64,
    jobs_changed: usize,
    changes: Vec<JsonChange<'a>>,
    counts: Vec<JsonCount<'a>>,
    jobs: Vec<JsonJob<'a>>,
}

#[derive(Serialize)]
struct JsonChange<'a> {
    change: &'a str,
    jobs: u64,
}

#[derive(Serialize)]
struct JsonHeader<'a> {
    key: &'a str,
    a: Option<&'a str>,
    b: Option<&'a str>,
}

#[derive(Serialize)]
struct JsonDivergence<'a> {
    record: u64,
    after: Option<&'a str>,
    a: Option<&'a str>,
    b: Option<&'a str>,
}

#[derive(Serialize)]
struct JsonCount<'a> {
    name: &'a str,
    a: u128,
    b: u128,
    delta: String,
}

#[derive(Serialize)]
struct JsonJob<'a> {
    window: u64,
    job: u32,
    changes: Vec<&'a str>,
    a: Option<JsonFate<'a>>,
    b: Option<JsonFate<'a>>,
}

#[derive(Serialize)]
struct JsonFate<'a> {
    outcome: &'a str,
    place: Option<u32>,
    start: Option<u64>,
    completion: Option<u64>,
    interruptions: u32,
    moves: u32,
    offers: u32,
}

fn json_job<'a>(j: &'a JobChange, place: &'static str) -> JsonJob<'a> {
    JsonJob {
        window: j.window,
        job: j.job,
        changes: j.changes.iter().map(|&c| change_name(c, place)).collect(),
        a: j.a.as_ref().map(JsonFate::of),
        b: j.b.as_ref().map(JsonFate::of),
    }
}

impl<'a> JsonFate<'a> {
    fn of(fate: &'a Fate) -> Self {
        let Fate { place, start, completion, interruptions, moves, offers, .. } = *fate;
        Self { outcome: outcome(fate), place, start, completion, interruptions, moves, offers }
    }
}

/// Everything as one JSON object on one line (counts as numbers; `delta` as a signed
/// string, `+3` or `-2`, since a count's change may not fit a JSON number's range).
pub fn write_json(diff: &Diff, out: &mut dyn Write) -> io::Result<()> {
    let place = diff.place;
    let json = Json {
        a: &diff.names[0],
        b: &diff.names[1],
        model: diff.model,
        same_records: diff.same_records(),
        header: diff
            .header
            .iter()
            .map(|h| JsonHeader { key: &h.key, a: h.a.as_deref(), b: h.b.as_deref() })
            .collect(),
        first_divergence: diff.divergence.as_ref().map(|d| JsonDivergence {
            record: d.seq,
            after: d.after.as_deref().map(str::trim_start),
            a: d.a.as_deref().map(str::trim_start),
            b: d.b.as_deref().map(str::trim_start),
        }),
        jobs_compared: diff.jobs_compared,
        jobs_changed: diff.jobs.len(),
        changes: diff
            .counts
            .iter()
            .map(|&(c, jobs)| JsonChange { change: change_name(c, place), jobs })
            .collect(),
        counts: diff
            .measures
            .iter()
            .map(|m| JsonCount { name: &m.name, a: m.a, b: m.b, delta: delta(m.a, m.b) })
            .collect(),
        jobs: diff.jobs.iter().map(|j| json_job(j, place)).collect(),
    };
    serde_json::to_writer(&mut *out, &json).map_err(io::Error::other)?;
    writeln!(out)
}
