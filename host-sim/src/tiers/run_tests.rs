//! The run loop fed lazily against the lists it was fed before: a trace streamed
//! against its whole list of SLAs, and the seeded changes whose end the run finds as
//! it goes against the list drawn up to that end beforehand.

use kernel::tiers::{Config, Decision, Event, Policy, Request, Tier};

use crate::input::TraceArgs;
use crate::tiers::faults::{ChangePlan, DEFAULT_FAULTS, Faults, Seeded, trace_until};
use crate::tiers::metrics::Summary;
use crate::tiers::testbed::{self, MIXES};
use crate::tiers::{Requests, Scenario};

/// Every event and decision of a run of `scenario`, with its summary.
fn recorded(scenario: &Scenario) -> (Vec<(Event, Vec<Decision>)>, Summary, usize) {
    let mut log = Vec::new();
    let (summary, ran) = scenario.run_observed(&mut |e, d| log.push((*e, d.to_vec())), &mut |_| {}).unwrap();
    (log, summary, ran.out.changes_sent)
}

/// Trace-like SLAs: bursts of short jobs, some long ones whose deadlines lie days
/// ahead, Bronze among them, so that runs go on past the last submission.
fn requests(count: u32) -> Vec<Request> {
    let mut t = 0;
    (0..count)
        .map(|i| {
            t += u64::from(i * 7919 % 301);
            let work = if i % 37 == 0 {
                30_000 + u64::from(i % 5) * 9_000
            } else {
                60 + u64::from(i * 104_729 % 2_400)
            };
            let tier = [Tier::Gold, Tier::Silver, Tier::Bronze][(i % 3) as usize];
            Request { t, job: i + 1, tier, work, ready: t, deadline: t + 3 * work }
        })
        .collect()
}

fn scenario(policy: Policy, requests: Requests, changes: ChangePlan, faults: Faults, seed: u64) -> Scenario {
    let resources = testbed::split_resources(2, 5);
    Scenario { config: Config::new(policy), resources, requests, changes, faults, seed }
}

/// The seeded changes whose end the run finds (a day past the latest deadline, once
/// every request is in) are those drawn beforehand up to [`trace_until`].
#[test]
fn the_end_found_as_the_run_goes_is_the_end_drawn_before() {
    let short = Faults { up_mean_s: 2_000, down_mean_s: 300, ..DEFAULT_FAULTS };
    for (policy, faults, seed) in
        [(Policy::QosRes, DEFAULT_FAULTS, 1), (Policy::Qos, short, 2), (Policy::NoQos, short, 3)]
    {
        let list = requests(1_500);
        let until = trace_until(&list);
        let mut drawn = Seeded::new(&testbed::split_resources(2, 5), faults, seed, Some(until));
        let before: Vec<_> = std::iter::from_fn(|| {
            let next = drawn.peek(None);
            drawn.pop();
            next
        })
        .collect();
        let lazy = scenario(
            policy,
            Requests::Listed(list.clone()),
            ChangePlan::Seeded { until: None },
            faults,
            seed,
        );
        let listed =
            scenario(policy, Requests::Listed(list), ChangePlan::Listed(before.clone()), faults, seed);
        let (a, b) = (recorded(&lazy), recorded(&listed));
        assert_eq!(a, b);
        assert!(a.2 > 10, "changes were sent");
        // The run went on past its last submission with changes still coming.
        let last_submit = a.0.iter().rposition(|(e, _)| matches!(e, Event::Submit(_))).unwrap();
        assert!(
            a.0[last_submit..].iter().any(|(e, _)| matches!(e, Event::Leave { .. } | Event::Return { .. }))
        );
    }
}

/// A trace streamed gives the run of its whole list: the same events, decisions
/// and figures.
#[test]
fn a_streamed_trace_is_the_whole_list() {
    let dir = std::env::temp_dir().join(format!("host-sim-tiers-stream-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("t.swf");
    let lines: Vec<String> = requests(2_000)
        .iter()
        .map(|r| {
            let procs = 1 + r.job % 4;
            format!(
                "{} {} -1 {} {procs} -1 -1 {procs} -1 -1 -1 -1 -1 -1 -1 -1 -1 -1",
                r.job,
                r.t + 50,
                r.work
            )
        })
        .collect();
    std::fs::write(&path, lines.join("\n")).unwrap();
    let args = TraceArgs { trace: vec![path], limit: Some(1_800), ..TraceArgs::default() };
    let whole = args.read().unwrap().unwrap().workload;
    for (mix, seed) in [(MIXES[0], 1), (MIXES[3], 9)] {
        let list = testbed::trace_workload(&whole, mix, seed);
        let changes = ChangePlan::Seeded { until: Some(trace_until(&list)) };
        let listed = scenario(Policy::QosRes, Requests::Listed(list), changes, DEFAULT_FAULTS, seed);
        let scanned = args.scan().unwrap().unwrap();
        let trace = Requests::Trace { scanned: Box::new(scanned), mix };
        let streamed =
            scenario(Policy::QosRes, trace, ChangePlan::Seeded { until: None }, DEFAULT_FAULTS, seed);
        assert_eq!(recorded(&streamed), recorded(&listed));
        let (summary, ran) = streamed.run().unwrap();
        assert_eq!(summary.submitted, 1_800);
        assert_eq!(ran.wide, whole.jobs.iter().filter(|j| j.procs > 1).count() as u64);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
