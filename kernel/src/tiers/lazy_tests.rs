//! What the kernel keeps to go faster changes no decision. Lagging calendars decide as
//! calendars moved at every event: one kernel runs as it does (each calendar brought
//! to the present only when a use needs a later slot), its twin has every calendar
//! brought to the present after every event. And rescheduling's memo of candidates
//! that could not move (`frees.rs`), with placement's of stretches without room
//! (`known.rs`), decides as trying them again: a twin forgets the first after every
//! event and never learns the second (a record kept within one event matters too:
//! a rescheduling trial searches again after giving a tail back). So do the answers kept about the waiting jobs' planned starts
//! (`waits.rs`), against a twin that reads every job for each. Over long random runs
//! every pair hands out the same decisions and stays equal.

use heapless::Vec;

use super::event::{Decision, Event, Request};
use super::kernel::TiersKernel;
use super::types::{Config, Group, Policy, Resource, Tier};

/// A seeded stream of numbers below a bound.
struct Draw(u64);

impl Draw {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

fn resources() -> [Resource; 5] {
    let desktop = |speed_milli| Resource { group: Group::Low, nodes: 1, speed_milli };
    [
        Resource { group: Group::High, nodes: 2, speed_milli: 1000 },
        desktop(800),
        desktop(1000),
        desktop(1200),
        desktop(500),
    ]
}

/// How a run's events are drawn: of every `out_of` draws, `submits` submissions and
/// `finishes` finishes of running jobs, then one leave and one return of a desktop,
/// the rest advances. A trace-like submission's window is three times its work
/// from now (as `host-sim tiers` maps a trace); the others' open up to an hour later.
struct Mix {
    out_of: u64,
    submits: u64,
    finishes: u64,
    trace_like: bool,
}

/// Submissions mostly, many changes of the desktops.
const PLAIN: Mix = Mix { out_of: 10, submits: 5, finishes: 2, trace_like: false };
/// A crowded run, as a trace's: more submissions, fewer changes of the desktops.
const CROWDED: Mix = Mix { out_of: 40, submits: 28, finishes: 9, trace_like: true };

/// The next event at `t`, drawn by `mix`.
fn event(draw: &mut Draw, kernel: &TiersKernel<5, 128, 48>, t: u64, job: u32, mix: &Mix) -> Event {
    let running: Vec<u32, 48> = kernel.jobs().iter().filter(|j| j.running).map(|j| j.job).collect();
    let k = draw.below(mix.out_of);
    let changes = mix.submits + mix.finishes;
    if k < mix.submits {
        let tier = [Tier::Gold, Tier::Silver, Tier::Bronze][draw.below(3) as usize];
        if mix.trace_like {
            let work = 60 + draw.below(2_400);
            return Event::Submit(Request { t, job, tier, work, ready: t, deadline: t + 3 * work });
        }
        let ready = t + draw.below(3_600);
        let deadline = ready + 60 + draw.below(12_000);
        return Event::Submit(Request { t, job, tier, work: 60 + draw.below(3_000), ready, deadline });
    }
    match k {
        _ if k < changes && !running.is_empty() => {
            Event::Finish { t, job: running[draw.below(running.len() as u64) as usize] }
        }
        _ if k == changes => Event::Leave { t, resource: 1 + draw.below(4) as u8 },
        _ if k == changes + 1 => Event::Return { t, resource: 1 + draw.below(4) as u8 },
        _ => Event::Advance { t },
    }
}

#[test]
fn lagging_calendars_decide_as_calendars_moved_at_every_event() {
    for (policy, seed) in [(Policy::NoQos, 1), (Policy::Qos, 2), (Policy::QosRes, 3), (Policy::QosRes, 4)] {
        // 128 one-minute slots: windows reach past the horizon too.
        let config = Config { slot_ticks: 60, ..Config::new(policy) };
        let mut lazy = TiersKernel::<5, 128, 48>::new(config, &resources()).unwrap();
        let mut moved = lazy.clone();
        let (mut draw, mut t, mut lagged) = (Draw(seed), 0, 0);
        let mut kinds = [0usize; 3];
        for job in 0..8_000 {
            t += draw.below(240);
            let event = event(&mut draw, &lazy, t, job, &PLAIN);
            let (mut a, mut b): (Vec<Decision, 512>, Vec<Decision, 512>) = (Vec::new(), Vec::new());
            lazy.step(event, &mut |d| a.push(d).unwrap());
            moved.step(event, &mut |d| b.push(d).unwrap());
            (0..5).for_each(|r| moved.reach(r, u64::MAX));
            assert_eq!(a, b, "{policy:?}, event {job}: {event:?}");
            for d in &a {
                match d {
                    Decision::Accept { .. } => kinds[0] += 1,
                    Decision::Move { .. } | Decision::Replace { .. } => kinds[1] += 1,
                    Decision::Reject { .. } => kinds[2] += 1,
                    _ => {}
                }
            }
            assert!(lazy == moved, "{policy:?}, event {job}: {event:?}");
            let base = |k: &TiersKernel<5, 128, 48>, r| k.calendar(r).map(|c| c.base());
            lagged += usize::from((0..5).any(|r| base(&lazy, r) < base(&moved, r)));
        }
        // The runs test something: calendars lagged after most events.
        assert!(lagged > 4_000, "{policy:?}: lagged after {lagged} events");
        // And every kind of placement: accepted, moved or re-placed (Bronze jobs are
        // re-placed under every policy), rejected.
        assert!(kinds[0] > 1_000 && kinds[1] > 100 && kinds[2] > 1_000, "{policy:?}: {kinds:?}");
    }
}

#[test]
fn the_memo_of_stuck_candidates_decides_as_trying_them_again() {
    for seed in [5, 6, 7, 8, 9] {
        let config = Config { slot_ticks: 60, ..Config::new(Policy::QosRes) };
        let mut memo = TiersKernel::<5, 128, 48>::new(config, &resources()).unwrap();
        let mut plain = memo.clone();
        // The twin knows nothing of earlier searches, not even within an event.
        plain.known.off = true;
        let (mut draw, mut t, mut stuck) = (Draw(seed), 0, 0);
        for job in 0..8_000 {
            t += draw.below(120);
            let event = event(&mut draw, &memo, t, job, &CROWDED);
            if let Event::Submit(_) = event {
                // Candidates the memo would leave out at this submit, whatever its tail.
                let jobs = memo.jobs.as_slice().iter().enumerate();
                stuck += jobs.filter(|&(i, j)| memo.still_stuck(i, j, 0)).count();
            }
            let (mut a, mut b): (Vec<Decision, 512>, Vec<Decision, 512>) = (Vec::new(), Vec::new());
            memo.step(event, &mut |d| a.push(d).unwrap());
            plain.step(event, &mut |d| b.push(d).unwrap());
            plain.jobs.forget_stuck();
            assert_eq!(a, b, "seed {seed}, event {job}: {event:?}");
            assert!(memo == plain, "seed {seed}, event {job}: {event:?}");
        }
        assert!(stuck > 1_000, "seed {seed}: {stuck} candidates left out");
    }
}

#[test]
fn the_kept_answers_about_planned_starts_decide_as_reading_every_job() {
    for (mix, seed) in [(&PLAIN, 10), (&CROWDED, 11), (&CROWDED, 12)] {
        let config = Config { slot_ticks: 60, ..Config::new(Policy::QosRes) };
        let mut kept = TiersKernel::<5, 128, 48>::new(config, &resources()).unwrap();
        let mut read = kept.clone();
        read.jobs.keep_nothing();
        let (mut draw, mut t, mut starts, mut wakes) = (Draw(seed), 0, 0, 0);
        for job in 0..8_000 {
            t += draw.below(120);
            let event = event(&mut draw, &kept, t, job, mix);
            let (mut a, mut b): (Vec<Decision, 512>, Vec<Decision, 512>) = (Vec::new(), Vec::new());
            kept.step(event, &mut |d| a.push(d).unwrap());
            read.step(event, &mut |d| b.push(d).unwrap());
            assert_eq!(a, b, "seed {seed}, event {job}: {event:?}");
            assert!(kept == read, "seed {seed}, event {job}: {event:?}");
            assert_eq!(kept.poll_at(), read.poll_at(), "seed {seed}, event {job}: {event:?}");
            starts += a.iter().filter(|d| matches!(d, Decision::Start { .. })).count();
            wakes += usize::from(kept.poll_at().is_some());
        }
        // The runs test something: many starts, and a planned start ahead most of the time.
        assert!(starts > 1_000 && wakes > 4_000, "seed {seed}: {starts} starts, {wakes} wakes");
    }
}
