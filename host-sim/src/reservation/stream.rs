//! A `reserve` run fed from a trace's stream ([`crate::input::Scanned::jobs`]) rather
//! than from a workload held whole: each job is mapped as it arrives (the same draws
//! in the same order as [`super::mapping::map_jobs`]) and held only until its window
//! has run. A window runs once the first request of a later window arrives, so that
//! the run holds one window's requests at a time; the window still held at the end
//! is the trailing one, dropped as [`super::run::split`] drops it when others ran.
//! The windows, their numbers, the empty ones and the outcome are those of
//! [`super::simulate_recorded`] on the same jobs, and so are the log's records.

use super::mapping::{Mapper, ReserveJob};
use super::run::{self, Recorder, Split};
use super::{Experiment, Outcome, ReserveError};
use crate::swf::SwfError;
use crate::window::Window;
use crate::workload::Job;

/// [`super::simulate_recorded`] on `jobs`, in release order, one window held at a time.
pub fn simulate_stream(
    jobs: impl Iterator<Item = Result<Job, SwfError>>,
    experiment: &Experiment,
    record: Option<Recorder<'_>>,
) -> Result<Outcome, ReserveError> {
    let mut kernel = run::engine(&experiment.run_options())?;
    simulate_stream_on(&mut kernel, jobs, experiment, record)
}

/// [`simulate_stream`] on `kernel`, made for `experiment` ([`run::engine`]) and not
/// yet used.
pub fn simulate_stream_on(
    kernel: &mut run::Kernel,
    jobs: impl Iterator<Item = Result<Job, SwfError>>,
    experiment: &Experiment,
    mut record: Option<Recorder<'_>>,
) -> Result<Outcome, ReserveError> {
    let options = experiment.run_options();
    let mut mapper = Mapper::new(&experiment.map_options());
    let length = experiment.window_ticks;
    let (mut origin, mut held) = (None, None::<Window>);
    let mut requests: Vec<ReserveJob> = Vec::new();
    let (mut kept, mut non_empty) = (0_u64, 0_u64);
    let mut windows = Vec::new();
    for job in jobs {
        let Some(request) = mapper.map(&job?) else { continue };
        kept += 1;
        let origin = *origin.get_or_insert(request.submit);
        // `window::split`'s numbering: a length of 0 is one window.
        let index = request.submit.saturating_sub(origin).checked_div(length).unwrap_or(0);
        if held.as_ref().is_none_or(|w| w.index != index) {
            if let Some(w) = held.take() {
                windows.push(run::run_window(kernel, &options, record.as_deref_mut(), &requests, &w));
                requests.clear();
            }
            let start = origin.saturating_add(index.saturating_mul(length));
            held = Some(Window { index, start, jobs: 0..0 });
            non_empty += 1;
        }
        requests.push(request);
    }
    let spanned = held.as_ref().map_or(0, |w| w.index + 1);
    let trailing_dropped = non_empty > 1;
    if let Some(w) = held.filter(|_| !trailing_dropped) {
        windows.push(run::run_window(kernel, &options, record, &requests, &w));
    }
    let split = Split { windows: Vec::new(), empty: spanned - non_empty, trailing_dropped };
    Ok(super::outcome(experiment, kept, &mapper.counts, &split, windows))
}

#[cfg(test)]
mod tests {
    use kernel::log::Body;

    use super::simulate_stream;
    use crate::reservation::mapping::{Estimates, Flex};
    use crate::reservation::{Experiment, Input, simulate_recorded};
    use crate::workload::Job;

    /// Jobs over ten one-day windows, two of them empty, some too short to keep or
    /// without processors: the streamed run gives the whole run's outcome and records.
    #[test]
    fn a_streamed_run_is_the_whole_run() {
        let jobs: Vec<Job> = (0..300_u32)
            .map(|i| Job {
                id: i + 1,
                release: u64::from(i) * 2_000 + if i >= 150 { 259_200 } else { 0 },
                p: 30 + u64::from(i * 37 % 5_000),
                procs: i % 9,
            })
            .collect();
        let experiment = Experiment {
            flex: Flex::Long,
            estimates: Estimates::Poisson80,
            offers_phi_milli: Some(500),
            window_ticks: 86_400,
            ..Experiment::paper(8)
        };
        let (mut whole, mut streamed) = (Vec::<Body>::new(), Vec::<Body>::new());
        let expected =
            simulate_recorded(&Input { jobs: &jobs }, &experiment, Some(&mut |b| whole.push(b))).unwrap();
        let stream = jobs.iter().map(|&j| Ok(j));
        let outcome = simulate_stream(stream, &experiment, Some(&mut |b| streamed.push(b))).unwrap();
        assert_eq!(outcome, expected);
        assert_eq!(streamed, whole);
        assert!(expected.windows_empty == 2 && expected.trailing_dropped && expected.excluded_no_procs > 0);
        assert!(expected.windows.len() > 5 && expected.excluded_short > 0);
    }
}
