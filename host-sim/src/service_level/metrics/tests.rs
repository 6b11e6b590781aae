//! The metric formulas on tiny schedules worked out by hand, through the real run loop.

use kernel::service_level::{Decision, Event, Level};
use replay::format::FormatError;

use super::*;
use crate::service_level::sim::{self, Recorder, RunConfig};
use crate::workload::Job;

fn jobs(list: &[(u32, Tick, Tick)]) -> Vec<Job> {
    list.iter().map(|&(id, release, p)| Job { id, release, p, procs: 1 }).collect()
}

/// The first hand-computed schedule: one machine, sf 2, price 19, alpha 1.
///
/// ```text
/// job  r   p  d    fate
/// 1    0  10  20   accepted, runs 0-2, preempted by 2, resumes 6-14
/// 2    2   4  10   accepted at the head (an interruption), runs 2-6
/// 3    3  20  43   accepted, runs 14-34
/// 4    4   9  22   rejected: after job 1 it would end at 4+2+8+9 = 23 > 22
/// ```
const SCHEDULE_ONE: [(u32, Tick, Tick); 4] = [(1, 0, 10), (2, 2, 4), (3, 3, 20), (4, 4, 9)];

fn assert_schedule_one(m: &Metrics) {
    assert_eq!(m.jobs_submitted, 4.0);
    assert_eq!(m.jobs_accepted, 3.0);
    assert_eq!(m.prj, 25.0);
    // (14-0)/10 + (6-2)/10 + (34-3)/20 = 1.4 + 0.4 + 1.55, over 3.
    assert!((m.mbsd - 3.35 / 3.0).abs() < 1e-12, "{}", m.mbsd);
    // (14-10-0) + (6-4-2) + (34-20-3) = 4 + 0 + 11, over 3.
    assert_eq!(m.mwt, 5.0);
    assert_eq!(m.tpt, 34.0);
    assert_eq!(m.tpt_fraction, 34.0 / 43.0);
    assert_eq!(m.mni, 1.0 / 3.0);
    // 34 ticks of work from r_first = 0 to c_last = 34 on one machine.
    assert_eq!(m.me, 1.0);
    // 19 * 34 - 1 * 43.
    assert_eq!(m.g, 603.0);
    assert_eq!(m.cv_u, 646.0 / (19.0 * 43.0));
    // d_max = 43 and m = 1: min(43, 43) = 43.
    assert_eq!(m.cv_l, 646.0 / (19.0 * 43.0));
    assert_eq!(m.greedy_bound, 0.5);
}

#[test]
fn schedule_one_by_hand() {
    let config = RunConfig::new(1, vec![Level::whole(2, 19)]);
    let report = sim::run(&config, &jobs(&SCHEDULE_ONE), None).unwrap();
    assert_eq!(report.windows.len(), 1);
    assert_schedule_one(&report.windows[0].metrics);
    assert_eq!(report.mean, report.windows[0].metrics);
    assert_eq!(report.sd, Metrics::default());
    assert_eq!(report.deepest_queue, 3);
    assert_eq!(report.rejections.no_feasible_machine, 1);
    assert_eq!(report.events, 5);
}

/// The second: one machine, sf 1, price 7, alpha 0.5, so that `c_V^l` differs.
///
/// ```text
/// job  r   p  d    fate
/// 1    0  10  10   accepted, runs 0-10
/// 2    0  10  10   rejected (0+10+10 > 10)
/// 3    5   2   7   rejected: job 1 would end at 5+2+5 = 12 > 10
/// 4   10   3  13   accepted, runs 10-13
/// ```
#[test]
fn schedule_two_by_hand() {
    let config = RunConfig { alpha_milli: 500, ..RunConfig::new(1, vec![Level::whole(1, 7)]) };
    let report = sim::run(&config, &jobs(&[(1, 0, 10), (2, 0, 10), (3, 5, 2), (4, 10, 3)]), None).unwrap();
    let m = &report.windows[0].metrics;
    assert_eq!((m.jobs_submitted, m.jobs_accepted, m.prj), (4.0, 2.0, 50.0));
    assert_eq!(m.mbsd, (1.0 + 0.3) / 2.0);
    assert_eq!((m.mwt, m.tpt, m.tpt_fraction, m.mni, m.me), (0.0, 13.0, 0.52, 0.0, 1.0));
    // 7 * 13 - 0.5 * 25.
    assert_eq!(m.g, 78.5);
    assert_eq!(m.cv_u, 91.0 / (7.0 * 25.0));
    // d_max = 13 on one machine bounds the work below the 25 submitted.
    assert_eq!(m.cv_l, 1.0);
    assert_eq!(m.greedy_bound, 0.0);
}

/// Records every log body in order.
#[derive(Default)]
struct Bodies(Vec<String>);

impl Recorder for Bodies {
    fn event(&mut self, event: &Event) -> Result<(), FormatError> {
        self.0.push(format!("{event:?}"));
        Ok(())
    }

    fn decision(&mut self, decision: &Decision) -> Result<(), FormatError> {
        self.0.push(format!("  {decision:?}"));
        Ok(())
    }
}

/// Schedule one twice, in two 100-tick windows with an empty one between: the
/// second copy is measured from its own window's start and gives the same metrics.
#[test]
fn windows_start_empty_and_measure_from_their_start() {
    let mut list = SCHEDULE_ONE.to_vec();
    list.extend(SCHEDULE_ONE.iter().map(|&(id, r, p)| (id + 10, r + 200, p)));
    let config = RunConfig { window_ticks: Some(100), ..RunConfig::new(1, vec![Level::whole(2, 19)]) };
    let mut bodies = Bodies::default();
    let report = sim::run(&config, &jobs(&list), Some(&mut bodies)).unwrap();
    assert_eq!(
        report.windows.iter().map(|w| (w.index, w.start_ticks)).collect::<Vec<_>>(),
        [(0, 0), (2, 200)]
    );
    assert_eq!(report.windows_empty, 1);
    assert_schedule_one(&report.mean);
    assert_eq!(report.sd, Metrics::default());
    let log = bodies.0;
    let resets: Vec<usize> = log.iter().enumerate().filter(|(_, b)| *b == "Reset").map(|(i, _)| i).collect();
    assert_eq!(resets.len(), 1);
    assert!(
        log[..resets[0]]
            .iter()
            .rev()
            .find(|b| !b.starts_with("  "))
            .is_some_and(|b| b == "Advance { t: 18446744073709551615 }")
    );
    assert_eq!(log[resets[0] + 1], "Submit { t: 0, job: 11, p: 10, level: 0 }");
    assert_eq!(
        log[..4],
        [
            "Submit { t: 0, job: 1, p: 10, level: 0 }",
            "  Accept { job: 1, machine: 0, deadline: 20, preempted: None }",
            "  Start { t: 0, job: 1, machine: 0 }",
            "Submit { t: 2, job: 2, p: 4, level: 0 }",
        ]
    );
    assert_eq!(report.events, 11);
    assert_eq!(report.decisions as usize, log.iter().filter(|b| b.starts_with("  ")).count());
}

#[test]
fn spread_is_mean_and_population_sd() {
    let a = Metrics { prj: 10.0, mwt: 1.0, ..Metrics::default() };
    let b = Metrics { prj: 30.0, mwt: 3.0, ..Metrics::default() };
    let s = spread([a, b].iter());
    assert_eq!((s.mean.prj, s.sd.prj), (20.0, 10.0));
    assert_eq!((s.mean.mwt, s.sd.mwt), (2.0, 1.0));
    assert_eq!(spread(std::iter::empty::<&Metrics>()), Spread::default());
}

#[test]
fn an_empty_tally_reports_zeros() {
    let context = MetricContext { machines: 2, u_max: 5, alpha_milli: 1000, greedy_bound: 0.5 };
    let m = Tally::default().finish(&context);
    assert_eq!(m, Metrics { greedy_bound: 0.5, ..Metrics::default() });
}
