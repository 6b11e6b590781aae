//! The greedy run's windows, captured from its event stream: the run loop's
//! [`Recorder`] sees every submit (time from the window's start, work, level) and every
//! completion, which is all the offline optimum needs and what `V` is: the same jobs,
//! levels and deadlines the kernel saw, and the income of the jobs it completed.

use std::collections::BTreeMap;

use kernel::service_level::{Decision, Event, Level};
use replay::format::FormatError;
use replay::model::service_level::OfflineJob;

use crate::service_level::sim::Recorder;

/// One simulated window as the kernel saw it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CapturedWindow {
    /// The submits, in order: release (from the window's start), work, deadline and
    /// income `u_j p_j`. A submit whose deadline overflows a tick (which the kernel
    /// rejects as invalid) is left out: no schedule can earn it.
    pub jobs: Vec<OfflineJob>,
    /// The machine the greedy run completed each job of `jobs` on, or `None`.
    pub completed: Vec<Option<u16>>,
    /// `V`: the income of the jobs the greedy run completed.
    pub income: u128,
    /// The largest price per tick of the level table.
    pub u_max: u64,
}

/// A [`Recorder`] that keeps the windows the run loop feeds, split at its `Reset`s.
#[derive(Debug)]
pub struct Capture<'a> {
    levels: &'a [Level],
    /// Which windows (counted among the simulated ones, from 0) to keep; `None` keeps all.
    keep: Option<Vec<usize>>,
    position: usize,
    current: CapturedWindow,
    /// A job's place in `current.jobs`, by job number.
    place: BTreeMap<u32, usize>,
    windows: Vec<(usize, CapturedWindow)>,
}

impl<'a> Capture<'a> {
    pub fn new(levels: &'a [Level], keep: Option<Vec<usize>>) -> Self {
        Self {
            levels,
            keep,
            position: 0,
            current: CapturedWindow::default(),
            place: BTreeMap::new(),
            windows: Vec::new(),
        }
    }

    fn keeping(&self) -> bool {
        self.keep.as_ref().is_none_or(|k| k.contains(&self.position))
    }

    fn close(&mut self) {
        if self.keeping() {
            let mut window = std::mem::take(&mut self.current);
            window.u_max = self.levels.iter().map(|l| u64::from(l.price_per_tick)).max().unwrap_or(0);
            self.windows.push((self.position, window));
        }
        self.current = CapturedWindow::default();
        self.place.clear();
        self.position += 1;
    }

    /// The kept windows, each with its position among the simulated windows.
    pub fn finish(mut self) -> Vec<(usize, CapturedWindow)> {
        self.close();
        self.windows
    }
}

impl Recorder for Capture<'_> {
    fn event(&mut self, event: &Event) -> Result<(), FormatError> {
        match *event {
            Event::Reset => self.close(),
            Event::Submit { t, job, p, level } if self.keeping() => {
                let Some(level) = self.levels.get(usize::from(level)) else { return Ok(()) };
                let Some(deadline) = level.deadline(t, p) else { return Ok(()) };
                let income = u64::from(level.price_per_tick).saturating_mul(p);
                self.place.insert(job, self.current.jobs.len());
                self.current.jobs.push(OfflineJob { release: t, p, deadline, income });
                self.current.completed.push(None);
            }
            _ => {}
        }
        Ok(())
    }

    fn decision(&mut self, decision: &Decision) -> Result<(), FormatError> {
        if let Decision::Complete { job, machine, .. } = *decision
            && let Some(&i) = self.place.get(&job)
        {
            self.current.completed[i] = Some(machine);
            self.current.income += u128::from(self.current.jobs[i].income);
        }
        Ok(())
    }
}
