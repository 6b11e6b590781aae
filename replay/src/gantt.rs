//! Gantt charts of a log: rows (machines, or nodes) over time, each run a rectangle
//! coloured by how it ended, submits and rejections marked in two lanes above the
//! rows. `replay gantt LOG --out schedule.svg [--from T --to T] [--machines A..B]
//! [--window I]`.
//!
//! A chart is built in two steps, so that a new model only adds the first (its
//! [`Drawn`] collector):
//!
//! 1. one loop ([`collect`]) streams the log's records and hands those of the chosen
//!    window to the model's [`Collector`] (one submodule per model: [`service_level`],
//!    [`reservation`], [`tiers`], [`sla`]), which keeps only what falls in the time
//!    range and ends as a model-free [`Chart`]: rows, [`Bar`]s and [`Mark`]s. Reading
//!    stops at the first event past the range, so a large log costs only the records
//!    up to the end of the range. Runs on nodes that the kernel does not name are
//!    given rows by [`layout`].
//! 2. [`svg`] writes the chart as SVG.
//!
//! The SVG is written by hand rather than with a plotting crate: a Gantt chart is
//! rectangles, a few lines and text, and writing them directly keeps `replay` (the
//! log reader, which embedded users build too) free of a drawing dependency, gives
//! exact control of the row layout, and makes the bytes stable enough for an insta
//! snapshot.
//!
//! Time restarts at 0 after each `Reset` (each window of a windowed run), so a chart
//! shows one window: the first by default, `--window I` for another. A `Reset` with
//! no event since the previous one (or at the start of the log) opens no window.

use std::ops::Range;

use kernel::Tick;
use thiserror::Error;

use crate::format::{FormatError, Header, LogReader};
use crate::verify::Verified;

pub mod fit;
pub mod layout;
crate::for_each_model!(crate::model_modules!(pub));
pub mod svg;

/// How a run ended, which decides its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Outcome {
    /// Completed (or ended) by its deadline.
    OnTime,
    /// Stopped by a job with an earlier deadline; it resumes later.
    Preempted,
    /// Completed after its deadline, or ended past its window: a violated promise.
    Late,
    /// A reservation ended by the kernel at its end because the job overran it.
    Cut,
    /// Still running at the end of the drawn range.
    Open,
    /// Stopped because its resource left (a tiers job on a desktop whose owner took it
    /// back); it may be re-placed and run again.
    Lost,
}

impl Outcome {
    pub const ALL: [Self; 6] = [Self::OnTime, Self::Preempted, Self::Late, Self::Cut, Self::Open, Self::Lost];

    pub fn name(self) -> &'static str {
        match self {
            Self::OnTime => "on time",
            Self::Preempted => "preempted",
            Self::Late => "late or violated",
            Self::Cut => "cut at its end",
            Self::Open => "running past the range",
            Self::Lost => "lost when its resource left",
        }
    }
}

/// A class of service a run belongs to (a tiers job's tier), drawn as a stripe along
/// the top of its bar and a letter before its number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Class {
    Gold,
    Silver,
    Bronze,
}

impl Class {
    pub const ALL: [Self; 3] = [Self::Gold, Self::Silver, Self::Bronze];

    pub fn name(self) -> &'static str {
        match self {
            Self::Gold => "Gold",
            Self::Silver => "Silver",
            Self::Bronze => "Bronze",
        }
    }
}

/// One run: rows `rows` (a machine, or a band of nodes) over `[start, end)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bar {
    pub job: u32,
    pub rows: Range<u32>,
    pub start: Tick,
    pub end: Tick,
    pub outcome: Outcome,
    /// The run's class of service, where the model has them (tiers).
    pub class: Option<Class>,
}

/// What happened to a request at `t`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkKind {
    Submit,
    Reject,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mark {
    pub t: Tick,
    pub job: u32,
    pub kind: MarkKind,
}

/// A model-free chart: what [`svg::write`] draws.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chart {
    pub title: String,
    /// `machine` or `node`: the rows' noun.
    pub row_noun: &'static str,
    /// The rows drawn (bars outside are left out, bars across the edge are clipped).
    pub rows: Range<u32>,
    /// The time range drawn.
    pub from: Tick,
    pub to: Tick,
    pub bars: Vec<Bar>,
    pub marks: Vec<Mark>,
    /// Outcomes the legend lists: those of the model that occur among the bars drawn.
    pub outcomes: Vec<Outcome>,
    /// Row labels by row number, where the model names its rows by group (tiers:
    /// `cluster n0`, `desktop 4`); empty for `<row_noun> <row>`.
    pub row_names: Vec<String>,
    /// Rows that start a group of resources, drawn after a separating line.
    pub group_starts: Vec<u32>,
}

/// What to draw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    pub from: Tick,
    /// The end of the range; `None` for the end of the window.
    pub to: Option<Tick>,
    /// Rows to draw; `None` for all of them.
    pub rows: Option<Range<u32>>,
    /// Which window (0 is the first): time restarts at each `Reset`.
    pub window: u64,
}

/// The most runs and marks one chart draws (about 20 MB of SVG); past it, a
/// narrower range is asked for rather than a file nobody can open.
pub const MAX_BARS: usize = 100_000;

#[derive(Debug, Error)]
pub enum GanttError {
    #[error(transparent)]
    Format(#[from] FormatError),
    #[error("--from {from} is not before --to {to}")]
    EmptyRange { from: Tick, to: Tick },
    #[error(
        "--machines {start}..{end}: the log has {rows} {noun}{} (rows 0..{rows})",
        if *rows == 1 { "" } else { "s" }
    )]
    Rows { start: u32, end: u32, rows: u32, noun: &'static str },
    #[error(
        "the log has {windows} {}; --window {window} is not one of them (0 is the first)",
        if *windows == 1 { "window" } else { "windows" }
    )]
    NoWindow { window: u64, windows: u64 },
    #[error(
        "more than {MAX_BARS} runs and marks fall in the range (at least {runs} runs and {marks} marks); \
         draw a narrower one with --from and --to, or fewer rows with --machines"
    )]
    TooManyBars { runs: usize, marks: usize },
    #[error("the header is not for the {0} model")]
    NotModel(&'static str),
}

/// Reads `reader` and builds the chart of the model its header names.
pub fn collect<R: std::io::Read>(reader: LogReader<R>, options: &Options) -> Result<Chart, GanttError> {
    if let Some(to) = options.to
        && to <= options.from
    {
        return Err(GanttError::EmptyRange { from: options.from, to });
    }
    let model = reader.header().model.clone();
    crate::with_model!(model, collect_model(reader, options))
}

/// What a model supplies to be drawn (in `gantt/NAME.rs`): its [`Collector`].
pub trait Drawn: Verified {
    type Collector: Collector<Self>;

    /// The time of `event` for the chart's windows: `None` for a reset, which starts
    /// the next one.
    fn window_time(event: &Self::Event) -> Option<Tick> {
        Self::time(event)
    }
}

/// What a model's chart keeps while its log streams by: only the jobs in flight and
/// what falls in the range. [`collect`] hands it the records of the chosen window.
pub trait Collector<M: Verified + ?Sized>: Sized {
    /// The collector for a log whose header's model part is `header`, drawing the
    /// rows `options` asks for ([`chosen_rows`]).
    fn new(header: &M::Header, options: &Options) -> Result<Self, GanttError>;
    /// Takes in one event of the chosen window.
    fn event(&mut self, event: &M::Event, position: &mut Position, options: &Options);
    /// Takes in one decision of the chosen window.
    fn decision(&mut self, decision: &M::Decision, position: &mut Position, options: &Options);
    /// The runs kept so far (at most [`MAX_BARS`]).
    fn runs(&self) -> usize;
    /// What is drawn of the range up to `to`, once reading is over.
    fn finish(self, to: Tick, options: &Options) -> Drawing;
}

/// The one loop over a log of the model `M`: the records of the chosen window to its
/// collector, until the first event past the range.
fn collect_model<M: Drawn>(
    mut reader: LogReader<impl std::io::Read>,
    options: &Options,
) -> Result<Chart, GanttError> {
    let header = M::header(reader.header()).ok_or(GanttError::NotModel(M::NAME))?;
    let mut collector = M::Collector::new(header, options)?;
    let mut position = Position::default();
    while let Some(record) = reader.next_record()? {
        if let Some(event) = M::event(&record.body) {
            if !position.event(M::window_time(&event), options) {
                break;
            }
            if position.in_window(options) {
                collector.event(&event, &mut position, options);
            }
        } else if let Some(decision) = M::decision(&record.body)
            && position.in_window(options)
        {
            collector.decision(&decision, &mut position, options);
        }
        within_bar_limit(collector.runs())?;
    }
    let to = position.end(options)?;
    let chart = chart(reader.header(), options, to, collector.finish(to, options));
    let (runs, marks) = (chart.bars.len(), chart.marks.len());
    if runs + marks > MAX_BARS {
        return Err(GanttError::TooManyBars { runs, marks });
    }
    Ok(chart)
}

impl Options {
    /// Adds `job`'s mark at `t` to `marks` when `t` is inside the drawn range.
    pub(crate) fn mark(&self, marks: &mut Vec<Mark>, t: Tick, job: u32, kind: MarkKind) {
        if overlaps(t, t, self.from, self.to) {
            marks.push(Mark { t, job, kind });
        }
    }
}

/// What a collector drew, before it becomes a [`Chart`].
#[derive(Debug, Default)]
pub struct Drawing {
    /// What the rows are, for the title (`4 machines`, `pool of 16 nodes`).
    pub what: String,
    /// As [`Chart::row_noun`] and [`Chart::rows`].
    pub row_noun: &'static str,
    pub rows: Range<u32>,
    /// The outcomes the model can give, in legend order (the chart lists those drawn).
    pub outcomes: Vec<Outcome>,
    pub bars: Vec<Bar>,
    pub marks: Vec<Mark>,
    /// As [`Chart::row_names`] and [`Chart::group_starts`].
    pub row_names: Vec<String>,
    pub group_starts: Vec<u32>,
}

/// The chart of what was drawn up to `to`: its title names the log's inputs, what
/// the rows are (the machine or pool), the window and the range drawn.
fn chart(header: &Header, options: &Options, to: Tick, drawing: Drawing) -> Chart {
    let Drawing { what, row_noun, rows, mut outcomes, bars, marks, row_names, group_starts } = drawing;
    // Only outcomes some bar has: a legend entry for one that cannot occur (or does
    // not here) would say it might.
    outcomes.retain(|o| bars.iter().any(|b| b.outcome == *o));
    let (window, from) = (options.window, options.from);
    let span = to.saturating_sub(from) as f64;
    // A long range also in the hours or days its axis is drawn in.
    let length = if span > 3.0 * 86_400.0 {
        format!(" ({:.1} d)", span / 86_400.0)
    } else if span > 3.0 * 3_600.0 {
        format!(" ({:.1} h)", span / 3_600.0)
    } else {
        String::new()
    };
    let title = format!("{}: {what}, window {window}, t {from}..{to} s{length}", header.input_names());
    Chart { title, row_noun, rows, from, to, bars, marks, outcomes, row_names, group_starts }
}

/// `Ok` while a collector holds no more than [`MAX_BARS`] runs.
const fn within_bar_limit(runs: usize) -> Result<(), GanttError> {
    if runs > MAX_BARS { Err(GanttError::TooManyBars { runs, marks: 0 }) } else { Ok(()) }
}

/// The rows to draw: `options.rows` checked against the log's `total`.
pub fn chosen_rows(options: &Options, total: u32, noun: &'static str) -> Result<Range<u32>, GanttError> {
    match &options.rows {
        None => Ok(0..total),
        Some(r) if r.start < r.end && r.end <= total => Ok(r.clone()),
        Some(r) => Err(GanttError::Rows { start: r.start, end: r.end, rows: total, noun }),
    }
}

/// Where the reading is in the log: which window, and whether the range is done.
#[derive(Debug, Default)]
pub struct Position {
    pub window: u64,
    /// The highest time seen in the chosen window.
    pub last_time: Tick,
    /// An event past the range was seen: its decisions are still read, then reading stops.
    pub past_range: bool,
    /// A timed event was seen since the last `Reset`: a `Reset` before any (a log that
    /// opens with one, or two in a row) does not start another window.
    pub timed: bool,
}

impl Position {
    /// Called for every event: `time` is `None` for a `Reset`. Returns `false` once
    /// reading can stop.
    pub fn event(&mut self, time: Option<Tick>, options: &Options) -> bool {
        if self.past_range {
            return false;
        }
        match time {
            None => {
                if self.timed {
                    self.window += 1;
                    self.timed = false;
                }
                self.window <= options.window
            }
            Some(t) => {
                self.timed = true;
                if self.window == options.window && options.to.is_some_and(|to| t > to) {
                    self.past_range = true;
                }
                true
            }
        }
    }

    /// Whether the records being read belong to the chosen window.
    pub fn in_window(&self, options: &Options) -> bool {
        self.window == options.window
    }

    /// The drawn range's end, once reading is over.
    pub fn end(&self, options: &Options) -> Result<Tick, GanttError> {
        if self.window < options.window {
            return Err(GanttError::NoWindow { window: options.window, windows: self.window + 1 });
        }
        Ok(options.to.unwrap_or(self.last_time.max(options.from.saturating_add(1))))
    }

    /// Notes a time of the chosen window (the drain's `Advance` to `Tick::MAX` is not one).
    pub fn saw(&mut self, t: Tick) {
        if t != Tick::MAX {
            self.last_time = self.last_time.max(t);
        }
    }
}

/// Whether the run `[start, end)` has a moment inside `[from, to)`, or, when it is an
/// instant (`start == end`: a mark, or a job displaced the moment it started), whether
/// that instant is inside `[from, to]`. A run that only touches the range's edge is
/// left out: it would be drawn with no width.
pub(crate) fn overlaps(start: Tick, end: Tick, from: Tick, to: Option<Tick>) -> bool {
    if start == end {
        return from <= start && to.is_none_or(|to| start <= to);
    }
    end > from && to.is_none_or(|to| start < to)
}

#[cfg(test)]
mod tests;
