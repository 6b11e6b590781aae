//! The SLA run loop on batches larger than the kernel's `B`: planned in parts, so
//! that every request is decided and none is rejected `batch_full`; and the largest
//! batch an input gathers, from which `host-sim sla` sizes its engine.

use host_sim::sla::mapping::Sla;
use host_sim::sla::metrics::Terms;
use host_sim::sla::run::{Batch, Input, largest_batch, run_set};
use kernel::sla::{Config, Decision, Event, Order, RejectReason, SlaKernel};

/// Ten one-node requests of ten minutes, submitted a minute apart, each free to start
/// anywhere in the next two days.
fn requests() -> Vec<Sla> {
    (0..10)
        .map(|i| {
            let ts = 60 * i;
            Sla { job: i as u32 + 1, submit: ts, terms: Terms { ts, tf: ts + 2 * 86_400, td: 600, ncpu: 1 } }
        })
        .collect()
}

fn config() -> Config {
    Config {
        nodes: 2,
        slot_ticks: 60,
        step_ticks: 60,
        ticks_per_hour: 3600,
        order: Order::Random { seed: 3 },
    }
}

#[test]
fn a_batch_past_the_capacity_is_planned_in_parts_and_every_request_is_decided() {
    let input = Input { requests: requests(), capacity: 1 };
    for batch in [Batch::Whole, Batch::Every(3600)] {
        assert_eq!(largest_batch(&input.requests, batch), 10);
        let mut kernel = Box::new(SlaKernel::<4096, 4>::new(config()).unwrap());
        let mut plans = Vec::new();
        let mut answered = Vec::new();
        let mut starts = Vec::new();
        let mut observe = |event: &Event, decisions: &[Decision]| {
            if let Event::Plan { t } = *event {
                plans.push((t, decisions.len()));
            }
            answered.extend(decisions.iter().map(|d| match *d {
                Decision::Accept { job, .. } | Decision::Reject { job, .. } => job,
            }));
        };
        let out = run_set(kernel.as_mut(), &input, batch, &mut observe, &mut |r, start| {
            starts.push((r.job, start))
        });
        assert_eq!(
            out.rejected[RejectReason::ALL.iter().position(|&r| r == RejectReason::BatchFull).unwrap()],
            0
        );
        answered.sort_unstable();
        assert_eq!(answered, (1..=10).collect::<Vec<u32>>(), "{batch:?}");
        // Parts of 4, 4 and 2: the first two planned when full, at the next submit.
        let expected = match batch {
            Batch::Whole => vec![(0, 4), (0, 4), (0, 2)],
            Batch::Every(_) => vec![(240, 4), (480, 4), (3600, 2)],
        };
        assert_eq!(plans, expected, "{batch:?}");
        assert_eq!(starts.iter().filter(|(_, s)| s.is_some()).count(), 10, "two days hold every request");
        assert_eq!(starts.iter().map(|&(job, _)| job).collect::<Vec<u32>>(), (1..=10).collect::<Vec<u32>>());
        assert_eq!(out.summary.accepted, 10);
    }
}

#[test]
fn the_largest_batch_counts_the_busiest_interval() {
    let requests = requests();
    assert_eq!(largest_batch(&requests, Batch::Every(0)), 1);
    assert_eq!(largest_batch(&requests, Batch::Every(120)), 2);
    assert_eq!(largest_batch(&requests, Batch::Every(300)), 5);
    assert_eq!(largest_batch(&[], Batch::Every(300)), 0);
    assert_eq!(largest_batch(&[], Batch::Whole), 0);
}
