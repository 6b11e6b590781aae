//! The SLA kernel's rules on small hand-made cases, and the documented `size_of`.
//! (The kernel against a plain reference on seeded random sets is in
//! `replay/tests/sla_props.rs` and the `sla` fuzz target.)

use kernel::log::{Body, RECORD_MAX_BYTES, Record, encode};
use kernel::sla::{
    Config, ConfigError, Decision, Direction, Event, Heuristic, Order, Outcome, Pending, RejectReason,
    Request, SlaKernel, Term, Weight, random_key,
};

type Small = SlaKernel<64, 16>;

fn order(direction: Direction, h1: Term, second: Option<(Weight, Term)>) -> Order {
    Order::Heuristic(Heuristic { direction, h1, second, third: None })
}

/// `nodes` nodes, 10-tick slots, `Δt` = `step`, 100 ticks an hour.
fn kernel(nodes: u32, step: u64, order: Order) -> Small {
    let config = Config { nodes, slot_ticks: 10, step_ticks: step, ticks_per_hour: 100, order };
    Small::new(config).unwrap()
}

fn req(job: u32, ts: u64, tf: u64, td: u64, ncpu: u32) -> Request {
    Request { job, ts, tf, td, ncpu }
}

fn step<const H: usize, const B: usize>(k: &mut SlaKernel<H, B>, event: Event) -> (Outcome, Vec<Decision>) {
    let mut out = Vec::new();
    let outcome = k.step(event, &mut |d| out.push(d));
    (outcome, out)
}

/// Submits every request at `t = 0`, then plans at `plan_t`; the plan's decisions.
fn whole_set<const H: usize, const B: usize>(
    k: &mut SlaKernel<H, B>,
    requests: &[Request],
    plan_t: u64,
) -> Vec<Decision> {
    for &request in requests {
        assert_eq!(step(k, Event::Submit { t: 0, request }), (Outcome::Queued, vec![]));
    }
    step(k, Event::Plan { t: plan_t }).1
}

fn jobs(decisions: &[Decision]) -> Vec<u32> {
    decisions.iter().map(Decision::job).collect()
}

fn accept(job: u32, start: u64) -> Decision {
    Decision::Accept { job, start }
}

fn reject(job: u32, reason: RejectReason) -> Decision {
    Decision::Reject { job, reason }
}

/// Three requests whose seven terms (with 100 ticks an hour) are:
///
/// | job | TS | TF | tD | NCPU | A | tT | tL |
/// |---|---|---|---|---|---|---|---|
/// | 1 | 0 | 100 | 10 | 2 | 20 | 0.100 | 90 |
/// | 2 | 5 | 40 | 30 | 1 | 30 | 0.857 | 5 |
/// | 3 | 2 | 60 | 20 | 3 | 60 | 0.345 | 38 |
fn three() -> [Request; 3] {
    [req(1, 0, 100, 10, 2), req(2, 5, 40, 30, 1), req(3, 2, 60, 20, 3)]
}

#[test]
fn documented_size() {
    assert_eq!(size_of::<SlaKernel<4096, 1024>>(), 114_848);
    assert_eq!(size_of::<SlaKernel<65536, 4096>>(), 852_128);
    assert_eq!(size_of::<Pending>(), 80);
}

#[test]
fn term_values_are_in_the_documented_fixed_point() {
    let [_, r, _] = three();
    // 100 ticks an hour: a tick is 10,000 micro-hours.
    let values: Vec<i128> = Term::ALL.iter().map(|t| t.value(&r, 100)).collect();
    assert_eq!(values, [50_000, 400_000, 300_000, 1_000_000, 300_000, 857_142, 50_000]);
    // One-second ticks: 5400 s is 1.5 h; A of 3 nodes for 1.5 h is 4.5 CPU-hours.
    let r = req(9, 3600, 18_000, 5400, 3);
    assert_eq!(Term::Td.value(&r, 3600), 1_500_000);
    assert_eq!(Term::A.value(&r, 3600), 4_500_000);
    assert_eq!(Term::Tt.value(&r, 3600), 375_000);
    assert_eq!(Term::Tl.value(&r, 3600), 2_500_000);
    // Floors: one second is 277.77.. micro-hours.
    assert_eq!(Term::Ts.value(&req(1, 1, 10, 1, 1), 3600), 277);
    // The widest values fit.
    let wide = req(1, 0, u64::MAX, u64::MAX, u32::MAX);
    assert_eq!(Term::A.value(&wide, 1), i128::from(u32::MAX) * i128::from(u64::MAX) * 1_000_000);
}

#[test]
fn each_term_min_and_max() {
    let expected_min = [
        (Term::Ts, [1, 3, 2]),
        (Term::Tf, [2, 3, 1]),
        (Term::Td, [1, 3, 2]),
        (Term::Ncpu, [2, 1, 3]),
        (Term::A, [1, 2, 3]),
        (Term::Tt, [1, 3, 2]),
        (Term::Tl, [2, 3, 1]),
    ];
    for (term, ascending) in expected_min {
        let mut k = kernel(10, 10, order(Direction::Min, term, None));
        let decisions = whole_set(&mut k, &three(), 0);
        assert_eq!(jobs(&decisions), ascending, "min({})", term.name());
        assert!(decisions.iter().all(|d| matches!(d, Decision::Accept { .. })));
        let mut k = kernel(10, 10, order(Direction::Max, term, None));
        let mut descending = ascending;
        descending.reverse();
        assert_eq!(jobs(&whole_set(&mut k, &three(), 0)), descending, "max({})", term.name());
    }
}

#[test]
fn the_fitting_order_decides_who_gets_the_machine() {
    // One node; all three want [0, 30) or later, and every window is tight enough that
    // the first fitted takes what the others needed.
    let requests = [req(1, 0, 30, 30, 1), req(2, 0, 40, 10, 1), req(3, 0, 60, 30, 1)];
    let mut k = kernel(1, 10, order(Direction::Min, Term::Tf, None));
    let d = whole_set(&mut k, &requests, 0);
    assert_eq!(d, [accept(1, 0), accept(2, 30), reject(3, RejectReason::NoRoom)]);
    // Longest first: 1 and 3 tie on tD = 30 (submit order), then 2 finds no room.
    let mut k = kernel(1, 10, order(Direction::Max, Term::Td, None));
    let d = whole_set(&mut k, &requests, 0);
    assert_eq!(d, [accept(1, 0), accept(3, 30), reject(2, RejectReason::NoRoom)]);
}

#[test]
fn weighted_pairs_as_the_paper_writes_them() {
    // min(TF - 0.8*tD) in hours (100 ticks): job 1: 1.0 - 0.08 = 0.92; job 2: 0.40 -
    // 0.24 = 0.16; job 3: 0.60 - 0.16 = 0.44. Order 2, 3, 1.
    let h = order(Direction::Min, Term::Tf, Some((Weight::Milli(-800), Term::Td)));
    let mut k = kernel(10, 10, h);
    assert_eq!(jobs(&whole_set(&mut k, &three(), 0)), [2, 3, 1]);
    // max(TS + 0.72*NCPU): job 1: 0 + 1.44; job 2: 0.05 + 0.72 = 0.77; job 3: 0.02 +
    // 2.16 = 2.18. Order 3, 1, 2.
    let h = order(Direction::Max, Term::Ts, Some((Weight::Milli(720), Term::Ncpu)));
    let mut k = kernel(10, 10, h);
    assert_eq!(jobs(&whole_set(&mut k, &three(), 0)), [3, 1, 2]);
    // Three terms, min(TF + 0.5*A + 2*tL): job 1: 1.0 + 0.1 + 1.8 = 2.9; job 2: 0.4 +
    // 0.15 + 0.1 = 0.65; job 3: 0.6 + 0.3 + 0.76 = 1.66. Order 2, 3, 1.
    let h = Order::Heuristic(Heuristic {
        direction: Direction::Min,
        h1: Term::Tf,
        second: Some((Weight::Milli(500), Term::A)),
        third: Some((Weight::Milli(2000), Term::Tl)),
    });
    let mut k = kernel(10, 10, h);
    assert_eq!(jobs(&whole_set(&mut k, &three(), 0)), [2, 3, 1]);
    // The same with a third weight that flips it: min(TF + 0.5*A - 5*tL): job 1: 1.0 +
    // 0.1 - 4.5 = -3.4; job 2: 0.4 + 0.15 - 0.25 = 0.3; job 3: 0.6 + 0.3 - 1.9 = -1.0.
    let h = Order::Heuristic(Heuristic {
        direction: Direction::Min,
        h1: Term::Tf,
        second: Some((Weight::Milli(500), Term::A)),
        third: Some((Weight::Milli(-5000), Term::Tl)),
    });
    let mut k = kernel(10, 10, h);
    assert_eq!(jobs(&whole_set(&mut k, &three(), 0)), [1, 3, 2]);
}

#[test]
fn infinite_and_zero_weights() {
    // Jobs 4 and 5 share NCPU = 2 with job 1; their TF differ.
    let mut requests = three().to_vec();
    requests.push(req(4, 0, 50, 10, 2));
    requests.push(req(5, 0, 200, 10, 2));
    // min(TF + inf*NCPU): by NCPU ascending, ties by TF: 2 (1 node), then 4, 1, 5 (2
    // nodes, TF 50, 100, 200), then 3.
    let h = order(Direction::Min, Term::Tf, Some((Weight::PlusInf, Term::Ncpu)));
    let mut k = kernel(10, 10, h);
    assert_eq!(jobs(&whole_set(&mut k, &requests, 0)), [2, 4, 1, 5, 3]);
    // min(TF - inf*NCPU): by NCPU descending, ties by TF ascending.
    let h = order(Direction::Min, Term::Tf, Some((Weight::MinusInf, Term::Ncpu)));
    let mut k = kernel(10, 10, h);
    assert_eq!(jobs(&whole_set(&mut k, &requests, 0)), [3, 4, 1, 5, 2]);
    // max(TF + inf*NCPU): the exact reverse of min(TF + inf*NCPU) (no ties left).
    let h = order(Direction::Max, Term::Tf, Some((Weight::PlusInf, Term::Ncpu)));
    let mut k = kernel(10, 10, h);
    assert_eq!(jobs(&whole_set(&mut k, &requests, 0)), [3, 5, 1, 4, 2]);
    // w = 0 is the single term (TF: 2, 4, 3, 1, 5), with or without the second term.
    for second in [None, Some((Weight::Milli(0), Term::Ncpu))] {
        let mut k = kernel(10, 10, order(Direction::Min, Term::Tf, second));
        assert_eq!(jobs(&whole_set(&mut k, &requests, 0)), [2, 4, 3, 1, 5]);
    }
    // An infinite weight beats any finite one: min(TS + 2000000*tD + inf*NCPU).
    let h = Order::Heuristic(Heuristic {
        direction: Direction::Min,
        h1: Term::Ts,
        second: Some((Weight::Milli(i32::MAX), Term::Td)),
        third: Some((Weight::PlusInf, Term::Ncpu)),
    });
    let mut k = kernel(10, 10, h);
    assert_eq!(jobs(&whole_set(&mut k, &requests, 0)), [2, 1, 4, 5, 3]);
}

#[test]
fn ties_keep_request_order_for_min_and_max() {
    let requests: Vec<Request> =
        (0..12).map(|i| req(100 - i, 0, 1000, 10 + 10 * (i % 2) as u64, 1)).collect();
    let odd_first: Vec<u32> =
        (0..12).filter(|i| i % 2 == 1).chain((0..12).filter(|i| i % 2 == 0)).map(|i| 100 - i).collect();
    let even_first: Vec<u32> =
        (0..12).filter(|i| i % 2 == 0).chain((0..12).filter(|i| i % 2 == 1)).map(|i| 100 - i).collect();
    let mut k = kernel(16, 10, order(Direction::Min, Term::Td, None));
    assert_eq!(jobs(&whole_set(&mut k, &requests, 0)), even_first);
    let mut k = kernel(16, 10, order(Direction::Max, Term::Td, None));
    assert_eq!(jobs(&whole_set(&mut k, &requests, 0)), odd_first);
    // Equal keys everywhere: submit order, whatever the job numbers.
    let mut k = kernel(16, 10, order(Direction::Max, Term::Ts, None));
    assert_eq!(jobs(&whole_set(&mut k, &requests, 0)), (89..=100).rev().collect::<Vec<_>>());
}

#[test]
fn starts_step_by_delta_t_from_ts() {
    // One node, busy on [0, 40) (slots 0 to 3). A 10-tick job with TS = 5 occupies two
    // slots wherever it starts (5 is off the slot boundary).
    let blocker = req(1, 0, 40, 40, 1);
    let late = req(2, 5, 200, 10, 1);
    // Δt = one slot: tried 5, 15, 25, 35, 45: 45 occupies slots 4 and 5.
    let mut k = kernel(1, 10, Order::Random { seed: 0 });
    step(&mut k, Event::Submit { t: 0, request: blocker });
    step(&mut k, Event::Plan { t: 0 });
    assert_eq!(whole_set(&mut k, &[late], 0), [accept(2, 45)]);
    // Δt = three slots: tried 5, 35 (slot 3 is busy), 65.
    let mut k = kernel(1, 30, Order::Random { seed: 0 });
    step(&mut k, Event::Submit { t: 0, request: blocker });
    step(&mut k, Event::Plan { t: 0 });
    assert_eq!(whole_set(&mut k, &[late], 0), [accept(2, 65)]);
    // The last tried start must end by TF: 5 + 30k + 10 <= 70 allows k = 1 at most.
    let mut k = kernel(1, 30, Order::Random { seed: 0 });
    step(&mut k, Event::Submit { t: 0, request: blocker });
    step(&mut k, Event::Plan { t: 0 });
    assert_eq!(whole_set(&mut k, &[req(2, 5, 74, 10, 1)], 0), [reject(2, RejectReason::NoRoom)]);
    assert_eq!(whole_set(&mut k, &[req(3, 5, 75, 10, 1)], 0), [accept(3, 65)]);
}

#[test]
fn a_start_is_never_before_the_plan() {
    // Planned at 47 with Δt = 20: TS = 5 gives tried starts 65, 85, ...
    let mut k = kernel(2, 20, Order::Random { seed: 0 });
    assert_eq!(whole_set(&mut k, &[req(1, 5, 100, 10, 2)], 47), [accept(1, 65)]);
    // TS in the future is kept as it is.
    let mut k = kernel(2, 20, Order::Random { seed: 0 });
    assert_eq!(whole_set(&mut k, &[req(1, 55, 100, 10, 2)], 47), [accept(1, 55)]);
    // No tried start left: late. 5 + 20k >= 47 gives 65, and 65 + 30 > 90.
    let mut k = kernel(2, 20, Order::Random { seed: 0 });
    assert_eq!(whole_set(&mut k, &[req(1, 5, 90, 30, 2)], 47), [reject(1, RejectReason::Late)]);
    let mut k = kernel(2, 20, Order::Random { seed: 0 });
    assert_eq!(whole_set(&mut k, &[req(1, 5, 95, 30, 2)], 47), [accept(1, 65)]);
}

#[test]
fn the_horizon_is_its_own_answer() {
    // 64 slots of 10 ticks: the horizon is [0, 640).
    let mut k = kernel(1, 10, order(Direction::Min, Term::Ts, None));
    // Entirely past it.
    assert_eq!(whole_set(&mut k, &[req(1, 700, 900, 10, 1)], 0), [reject(1, RejectReason::Horizon)]);
    // Longer than the horizon.
    assert_eq!(whole_set(&mut k, &[req(2, 0, 2000, 650, 1)], 0), [reject(2, RejectReason::Horizon)]);
    // Starts inside, fits inside: accepted, as an unbounded calendar would.
    assert_eq!(whole_set(&mut k, &[req(3, 500, 5000, 100, 1)], 0), [accept(3, 500)]);
    // Every start inside the horizon is taken (from 500 to 600), later ones are past it.
    assert_eq!(whole_set(&mut k, &[req(4, 550, 5000, 50, 1)], 0), [reject(4, RejectReason::Horizon)]);
    // Whereas the same request with a window that closes inside the horizon: no room.
    assert_eq!(whole_set(&mut k, &[req(5, 550, 630, 50, 1)], 0), [reject(5, RejectReason::NoRoom)]);
    // The horizon moves with time: at 600 it is [600, 1240).
    let (_, d) = step(&mut k, Event::Submit { t: 600, request: req(6, 700, 900, 10, 1) });
    assert!(d.is_empty());
    assert_eq!(step(&mut k, Event::Plan { t: 600 }).1, [accept(6, 700)]);
}

#[test]
fn invalid_requests_are_rejected_at_the_submit() {
    let mut k = kernel(4, 10, Order::Random { seed: 1 });
    let invalid = [
        req(1, 0, 100, 0, 1),                  // no duration
        req(2, 0, 100, 10, 0),                 // no nodes
        req(3, 0, 100, 10, 5),                 // more nodes than the machine
        req(4, 50, 59, 10, 1),                 // TS + tD > TF
        req(5, u64::MAX - 5, u64::MAX, 10, 1), // TS + tD overflows
    ];
    for request in invalid {
        let (o, d) = step(&mut k, Event::Submit { t: 0, request });
        assert_eq!(o, Outcome::Rejected(RejectReason::Invalid));
        assert_eq!(d, [reject(request.job, RejectReason::Invalid)]);
    }
    assert!(k.pending().is_empty());
    // The edge cases that are valid: TS + tD = TF, NCPU = m.
    let (o, _) = step(&mut k, Event::Submit { t: 0, request: req(6, 50, 60, 10, 4) });
    assert_eq!(o, Outcome::Queued);
    assert_eq!(
        step(&mut k, Event::Plan { t: 0 }),
        (Outcome::Planned { accepted: 1, rejected: 0 }, vec![accept(6, 50)])
    );
}

#[test]
fn a_full_batch_rejects_and_a_full_batch_plans() {
    let mut k = SlaKernel::<64, 4>::new(Config::new(4, 10, order(Direction::Max, Term::Ncpu, None))).unwrap();
    for job in 1..=4 {
        let (o, d) = step(&mut k, Event::Submit { t: 0, request: req(job, 0, 100, 10, job) });
        assert_eq!((o, d), (Outcome::Queued, vec![]));
    }
    let (o, d) = step(&mut k, Event::Submit { t: 0, request: req(5, 0, 100, 10, 1) });
    assert_eq!(
        (o, d),
        (Outcome::Rejected(RejectReason::BatchFull), vec![reject(5, RejectReason::BatchFull)])
    );
    // The widest first: 4 nodes at 0, 3 at 10, then 2 at 20 and 1 beside 3 at 10.
    let (o, d) = step(&mut k, Event::Plan { t: 0 });
    assert_eq!(o, Outcome::Planned { accepted: 4, rejected: 0 });
    assert_eq!(d, [accept(4, 0), accept(3, 10), accept(2, 20), accept(1, 10)]);
    assert!(k.pending().is_empty());
    // Room again after the plan.
    assert_eq!(step(&mut k, Event::Submit { t: 0, request: req(5, 0, 100, 10, 1) }).0, Outcome::Queued);
}

#[test]
fn batches_build_on_what_is_accepted() {
    // The same four requests in one batch under min(TF), or one at a time (each planned
    // at its submit): one at a time, job 1 takes the node first and job 2 misses.
    let requests =
        [req(1, 0, 100, 30, 1), req(2, 0, 30, 30, 1), req(3, 0, 100, 30, 1), req(4, 40, 70, 30, 1)];
    let h = order(Direction::Min, Term::Tf, None);
    let mut batch = kernel(1, 10, h);
    let d = whole_set(&mut batch, &requests, 0);
    assert_eq!(d, [accept(2, 0), accept(4, 40), accept(1, 70), reject(3, RejectReason::NoRoom)]);
    let mut online = kernel(1, 10, h);
    let mut d = Vec::new();
    for request in requests {
        assert_eq!(step(&mut online, Event::Submit { t: 0, request }).0, Outcome::Queued);
        d.extend(step(&mut online, Event::Plan { t: 0 }).1);
    }
    assert_eq!(
        d,
        [accept(1, 0), reject(2, RejectReason::NoRoom), accept(3, 30), reject(4, RejectReason::NoRoom)]
    );
    // Two batches: the second fits around the first (the node is busy until 60), so
    // job 4's only start, 40, is taken, and job 3 (planned at 5: tried 10, 20, ...) goes
    // after.
    let mut k = kernel(1, 10, h);
    assert_eq!(whole_set(&mut k, &requests[..2], 0), [accept(2, 0), accept(1, 30)]);
    assert_eq!(whole_set(&mut k, &requests[2..], 5), [reject(4, RejectReason::NoRoom), accept(3, 60)]);
}

#[test]
fn time_never_goes_back_but_a_reset_may() {
    let mut k = kernel(2, 10, Order::Random { seed: 3 });
    step(&mut k, Event::Submit { t: 50, request: req(1, 50, 200, 10, 1) });
    let (o, d) = step(&mut k, Event::Submit { t: 40, request: req(2, 50, 200, 10, 1) });
    assert_eq!(
        (o, d),
        (
            Outcome::Rejected(RejectReason::TimeWentBackwards),
            vec![reject(2, RejectReason::TimeWentBackwards)]
        )
    );
    assert_eq!(
        step(&mut k, Event::Plan { t: 40 }),
        (Outcome::Refused(RejectReason::TimeWentBackwards), vec![])
    );
    assert_eq!(k.pending().len(), 1);
    step(&mut k, Event::Submit { t: 60, request: req(3, 60, 200, 10, 2) });
    // A reset drops the pending requests (in submit order) and may go back in time.
    let (o, d) = step(&mut k, Event::Reset { t: 0 });
    assert_eq!(o, Outcome::Reset { dropped: 2 });
    assert_eq!(d, [reject(1, RejectReason::Dropped), reject(3, RejectReason::Dropped)]);
    assert_eq!(k.now(), 0);
    assert!(k.pending().is_empty());
}

#[test]
fn a_reset_is_a_new_machine() {
    let h = order(Direction::Min, Term::Ts, None);
    let requests = [req(1, 0, 100, 50, 2), req(2, 0, 100, 50, 2), req(3, 0, 100, 50, 2)];
    let mut k = kernel(2, 10, h);
    let first = whole_set(&mut k, &requests, 0);
    assert_eq!(first, [accept(1, 0), accept(2, 50), reject(3, RejectReason::NoRoom)]);
    step(&mut k, Event::Reset { t: 0 });
    assert_eq!(k, kernel(2, 10, h));
    assert_eq!(whole_set(&mut k, &requests, 0), first);
    // A reset at a later time moves the horizon there.
    step(&mut k, Event::Reset { t: 1000 });
    assert_eq!(k.calendar().base(), 100);
    step(&mut k, Event::Submit { t: 1000, request: req(4, 0, 2000, 10, 1) });
    assert_eq!(step(&mut k, Event::Plan { t: 1000 }).1, [accept(4, 1000)]);
}

#[test]
fn the_random_order_is_the_seeded_hash_of_the_submit_index() {
    let requests: Vec<Request> = (0..10).map(|i| req(i, 0, 1000, 10, 1)).collect();
    let mut expected: Vec<(u64, u32)> = (0..10).map(|i| (random_key(7, u64::from(i)), i)).collect();
    expected.sort_unstable();
    let expected: Vec<u32> = expected.into_iter().map(|(_, i)| i).collect();
    let mut k = kernel(16, 10, Order::Random { seed: 7 });
    let got = jobs(&whole_set(&mut k, &requests, 0));
    assert_eq!(got, expected);
    assert_ne!(got, (0..10).collect::<Vec<_>>());
    // Another seed, another order; the index restarts after a reset.
    let mut other = kernel(16, 10, Order::Random { seed: 8 });
    assert_ne!(jobs(&whole_set(&mut other, &requests, 0)), got);
    step(&mut k, Event::Reset { t: 0 });
    assert_eq!(jobs(&whole_set(&mut k, &requests, 0)), got);
}

#[test]
fn configurations_are_checked() {
    let o = Order::Random { seed: 0 };
    let bad = |config: Config| Small::new(config).err();
    assert_eq!(bad(Config::new(0, 10, o)), Some(ConfigError::NoNodes));
    assert_eq!(bad(Config::new(4, 0, o)), Some(ConfigError::ZeroSlotLength));
    let c = Config { step_ticks: 15, ..Config::new(4, 10, o) };
    assert_eq!(bad(c), Some(ConfigError::BadStep { step_ticks: 15, slot_ticks: 10 }));
    let c = Config { step_ticks: 0, ..Config::new(4, 10, o) };
    assert_eq!(bad(c), Some(ConfigError::BadStep { step_ticks: 0, slot_ticks: 10 }));
    let c = Config { ticks_per_hour: 0, ..Config::new(4, 10, o) };
    assert_eq!(bad(c), Some(ConfigError::ZeroTicksPerHour));
    assert_eq!(Config::new(4, 10, o).step_ticks, 10);
    assert_eq!(Config::new(4, 10, o).ticks_per_hour, 3600);
}

#[test]
fn heuristics_print_as_the_paper_writes_them() {
    let pair = |d, h1, w, h2| Heuristic::pair(d, h1, w, h2).to_string();
    assert_eq!(pair(Direction::Min, Term::Tf, Weight::Milli(-800), Term::Td), "min(TF - 0.8*tD)");
    assert_eq!(pair(Direction::Max, Term::Ts, Weight::Milli(720), Term::Ncpu), "max(TS + 0.72*NCPU)");
    assert_eq!(pair(Direction::Min, Term::Td, Weight::MinusInf, Term::Ncpu), "min(tD - inf*NCPU)");
    assert_eq!(pair(Direction::Min, Term::A, Weight::Milli(135), Term::Tt), "min(A + 0.135*tT)");
    assert_eq!(pair(Direction::Max, Term::Tl, Weight::Milli(9400), Term::Tf), "max(tL + 9.4*TF)");
    assert_eq!(pair(Direction::Min, Term::Ts, Weight::Milli(0), Term::Tf), "min(TS + 0*TF)");
    assert_eq!(Heuristic::single(Direction::Min, Term::Ts).to_string(), "min(TS)");
    let three = Heuristic {
        direction: Direction::Min,
        h1: Term::Tf,
        second: Some((Weight::Milli(500), Term::A)),
        third: Some((Weight::PlusInf, Term::Tl)),
    };
    assert_eq!(three.to_string(), "min(TF + 0.5*A + inf*tL)");
    assert_eq!(Order::Random { seed: 4 }.to_string(), "random(seed=4)");
    assert_eq!(Term::from_name("ncpu"), Some(Term::Ncpu));
    assert_eq!(Term::from_name("x"), None);
}

#[test]
fn the_widest_records_fit_a_record_buffer() {
    let request = req(u32::MAX, u64::MAX, u64::MAX, u64::MAX, u32::MAX);
    let bodies = [
        Body::SlaEvent(Event::Submit { t: u64::MAX, request }),
        Body::SlaEvent(Event::Reset { t: u64::MAX }),
        Body::SlaDecision(Decision::Accept { job: u32::MAX, start: u64::MAX }),
        Body::SlaDecision(Decision::Reject { job: u32::MAX, reason: RejectReason::Dropped }),
    ];
    let mut buf = [0u8; RECORD_MAX_BYTES];
    for body in bodies {
        let bytes = encode(&Record { seq: u64::MAX, body }, &mut buf).unwrap();
        assert!(bytes.len() <= RECORD_MAX_BYTES, "{body:?}: {} bytes", bytes.len());
    }
    // The widest is 62 bytes: seq 10, body 1, event 1, t 10, job 5, three times 30, NCPU 5.
    let submit = Body::SlaEvent(Event::Submit { t: u64::MAX, request });
    assert_eq!(encode(&Record { seq: u64::MAX, body: submit }, &mut buf).unwrap().len(), 62);
}
