//! The SLA model's checks: seeded random bytes decoded into small cases, each run
//! through a small kernel and the plain reference (every decision the same) and the
//! audit (the fuzz target `sla` runs the same `check_case` on arbitrary inputs); the
//! audit's one-pass first fit against brute force; the audit refusing broken logs;
//! a whole SLA log written, verified, summarised and refused when tampered with.

mod common;

use kernel::log::Body;
use kernel::sla::{
    Config, Decision, Direction, Event, Heuristic, Order, RejectReason, Request, Term, Weight,
};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use replay::engine::sla::{SlaEngine, header};
use replay::format::{Header, LogReader, LogWriter, Model, SlaHeader};
use replay::model::sla::harness::{CaseStats, case_from_bytes, check_case};
use replay::model::sla::plain::{Usage, first_fit, first_fit_linear, slots_of};
use replay::model::sla::{SlaAudit, SlaCounts, summary};
use replay::verify::{VerifyError, verify};

#[test]
fn seeded_cases_agree_with_the_reference_and_the_audit() {
    let mut total = CaseStats::default();
    for (seed, bytes) in common::seeded_bytes(3000) {
        let case = case_from_bytes(&bytes);
        let stats = check_case(&case).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{case:?}"));
        total.accepted += stats.accepted;
        total.moved_on += stats.moved_on;
        for (sum, n) in total.rejected.iter_mut().zip(stats.rejected) {
            *sum += n;
        }
    }
    // Every branch is reached many times.
    assert!(total.accepted > 10_000, "{total:?}");
    assert!(total.moved_on > 1_000, "{total:?}");
    for (reason, count) in RejectReason::ALL.iter().zip(total.rejected) {
        assert!(count >= 100, "{reason} reached only {count} times: {total:?}");
    }
}

#[test]
fn the_one_pass_first_fit_is_the_brute_force_one() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for _ in 0..20_000 {
        let slot_ticks = rng.random_range(1..6);
        let config = Config {
            nodes: rng.random_range(1..6),
            slot_ticks,
            step_ticks: slot_ticks * rng.random_range(1..5),
            ticks_per_hour: 3600,
            order: Order::Random { seed: 0 },
        };
        let now = rng.random_range(0..50);
        let mut used = Usage::default();
        used.forget_before(now / slot_ticks);
        for _ in 0..rng.random_range(0..12) {
            let start = now + rng.random_range(0..80);
            used.add(slots_of(start, rng.random_range(1..15), slot_ticks), 1);
        }
        let td = rng.random_range(1..20);
        let ts = now + rng.random_range(0..30) - rng.random_range(0..30).min(now);
        let r = Request {
            job: 1,
            ts,
            tf: ts + td + rng.random_range(0..60),
            td,
            ncpu: rng.random_range(1..=config.nodes),
        };
        let horizon = rng.random_range(1..60);
        assert_eq!(
            first_fit_linear(&config, horizon, &used, &r, now),
            first_fit(&config, horizon, &used, &r, now),
            "{config:?} {r:?} now {now} horizon {horizon} {used:?}"
        );
    }
}

/// Two nodes, 10-tick slots, `min(TF)`, `H = 20`, `B = 4`.
fn small_header() -> SlaHeader {
    let order = Order::Heuristic(Heuristic::single(Direction::Min, Term::Tf));
    SlaHeader { config: Config::new(2, 10, order), slots: 20, batch: 4 }
}

fn submit(t: u64, job: u32, ts: u64, tf: u64, td: u64, ncpu: u32) -> Event {
    Event::Submit { t, request: Request { job, ts, tf, td, ncpu } }
}

/// Feeds `steps` to a fresh audit; the first refusal.
fn audit(steps: &[(Event, Vec<Decision>)]) -> Result<(), String> {
    let mut audit = SlaAudit::new(&small_header());
    for (event, decisions) in steps {
        audit.step(event, decisions).map_err(|e| e.to_string())?;
    }
    Ok(())
}

#[test]
fn the_audit_refuses_broken_promises() {
    let a = |job, start| Decision::Accept { job, start };
    let r = |job, reason| Decision::Reject { job, reason };
    // Jobs 1 and 2 need both nodes for 20 ticks; job 1's window is the tighter.
    let submits = vec![
        (submit(0, 1, 0, 40, 20, 2), vec![]),
        (submit(0, 2, 0, 80, 20, 2), vec![]),
        (submit(0, 3, 0, 30, 20, 2), vec![]),
    ];
    let with = |plan: Vec<Decision>| {
        let mut steps = submits.clone();
        steps.push((Event::Plan { t: 0 }, plan));
        audit(&steps)
    };
    // The kernel's answer: min(TF) fits 3 at 0, 1 at 20, and 2 at 40.
    assert_eq!(with(vec![a(3, 0), a(1, 20), a(2, 40)]), Ok(()));
    let refusals = [
        (vec![a(3, 0), a(1, 20), a(2, 50)], "first fit gives a start at 40"),
        (vec![a(3, 0), a(1, 20), a(2, 45)], "not TS + k*Δt"),
        (vec![a(3, 0), a(1, 10), a(2, 40)], "would have 4 of 2 nodes"),
        (vec![a(3, 0), a(1, 20), r(2, RejectReason::NoRoom)], "but start 40 had room"),
        (vec![a(1, 0), a(3, 20), a(2, 40)], "out of the order"),
        (vec![a(3, 0), a(1, 20)], "answers 2 requests, 3 are pending"),
        (vec![a(3, 0), a(1, 20), a(9, 40)], "not pending"),
        (vec![a(3, 0), a(1, 20), r(2, RejectReason::Horizon)], "had room"),
    ];
    for (plan, expected) in refusals {
        let got = with(plan.clone()).expect_err(&format!("{plan:?} passed"));
        assert!(got.contains(expected), "{plan:?}: {got}");
    }
    // A window that no start fits any more: Late, and nothing else.
    let late =
        vec![(submit(0, 1, 0, 30, 20, 1), vec![]), (Event::Plan { t: 15 }, vec![r(1, RejectReason::NoRoom)])];
    assert!(audit(&late).unwrap_err().contains("no start (late)"));
    // The horizon (20 slots of 10 ticks): a window past it is not "no room".
    let far = vec![
        (submit(0, 1, 150, 400, 100, 1), vec![]),
        (Event::Plan { t: 0 }, vec![r(1, RejectReason::NoRoom)]),
    ];
    assert!(audit(&far).unwrap_err().contains("no start inside the horizon"));
    // Submits answered at once only when they must be.
    let invalid = vec![(submit(0, 1, 0, 10, 20, 1), vec![])];
    assert!(audit(&invalid).unwrap_err().contains("invalid"));
    let early = vec![(submit(0, 1, 0, 40, 20, 1), vec![r(1, RejectReason::BatchFull)])];
    assert!(audit(&early).unwrap_err().contains("waits for its plan"));
    let twice = vec![(submit(0, 1, 0, 40, 20, 1), vec![]), (submit(0, 1, 0, 40, 20, 1), vec![])];
    assert!(audit(&twice).unwrap_err().contains("twice"));
    let reset = vec![(submit(0, 1, 0, 40, 20, 1), vec![]), (Event::Reset { t: 0 }, vec![])];
    assert!(audit(&reset).unwrap_err().contains("drop"));
}

/// A generated set of a few dozen requests on 8 nodes, whole-set then online.
fn sample_events() -> Vec<Event> {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut events = Vec::new();
    for set in 0..2u32 {
        events.push(Event::Reset { t: 0 });
        let mut t = 0;
        for job in 0..40u32 {
            let td = rng.random_range(1..8) * 600;
            let ts = rng.random_range(0..48) * 600;
            let tf = ts + td + rng.random_range(0..10) * 600;
            let request = Request { job: set * 100 + job, ts, tf, td, ncpu: rng.random_range(1..9) };
            if set == 0 {
                events.push(Event::Submit { t: 0, request });
            } else {
                t = t.max(ts.saturating_sub(1200));
                events.push(Event::Submit { t, request });
                events.push(Event::Plan { t });
            }
        }
        events.push(Event::Plan { t });
    }
    events
}

fn sla_log(config: Config, events: &[Event]) -> Vec<u8> {
    let mut engine = SlaEngine::new(config).unwrap();
    let h = Header::new(Model::Sla(header(config))).with_input("sample", 7);
    assert_eq!(h.format_version, 6);
    let mut writer = LogWriter::new(Vec::new(), &h).unwrap();
    for &event in events {
        writer.record(Body::SlaEvent(event)).unwrap();
        let mut out = Vec::new();
        engine.step(event, &mut out);
        for d in out {
            writer.record(Body::SlaDecision(d)).unwrap();
        }
    }
    writer.finish().unwrap()
}

fn sample_config() -> Config {
    let order = Order::Heuristic(Heuristic::pair(Direction::Min, Term::Tf, Weight::Milli(-800), Term::Td));
    Config::new(8, 60, order)
}

#[test]
fn an_sla_log_verifies_summarises_and_is_stamped_version_6() {
    let bytes = sla_log(sample_config(), &sample_events());
    assert_eq!(&bytes[8..10], &6u16.to_le_bytes());
    // A header that says an older version is raised to version 6 by the writer,
    // which writes only the newest layout.
    let mut h = Header::new(Model::Sla(header(sample_config()))).with_input("x", 1);
    h.format_version = 5;
    let raised = LogWriter::new(Vec::new(), &h).unwrap().finish().unwrap();
    assert_eq!(LogReader::new(&raised[..]).unwrap().header().format_version, 6);
    let report = verify(LogReader::new(&bytes[..]).unwrap()).unwrap();
    let Some(&counts) = report.counts::<SlaCounts>() else { panic!("not an SLA log: {report:?}") };
    assert_eq!(counts.requests, 80);
    assert_eq!(counts.sets, 2);
    assert_eq!(counts.accepted + counts.rejected_total(), 80);
    assert_eq!(report.accepted, counts.accepted);
    assert!(counts.accepted > 20 && counts.rejected_for(RejectReason::NoRoom) > 0, "{counts:?}");
    let summary = summary(LogReader::new(&bytes[..]).unwrap()).unwrap();
    assert_eq!(summary.counts, counts);
    assert_eq!(summary.sets.len(), 2);
    assert_eq!(summary.sets.iter().map(|s| s.requested.len()).sum::<usize>(), 80);
    let node_ticks: u128 = summary
        .sets
        .iter()
        .flat_map(|s| &s.accepted)
        .map(|p| u128::from(p.request.ncpu) * u128::from(p.request.td))
        .sum();
    assert_eq!(node_ticks, counts.node_ticks);
    // Every accepted start is inside its window.
    for p in summary.sets.iter().flat_map(|s| &s.accepted) {
        assert!(p.start >= p.request.ts && p.start + p.request.td <= p.request.tf, "{p:?}");
    }
    // A service-level log is version 6 too: every model's header part is its own.
    let part = replay::format::ServiceLevelHeader::new(
        1,
        16,
        kernel::service_level::Policy::FirstFit,
        vec![kernel::service_level::Level::whole(2, 1)],
    );
    let h = Header::new(part.into()).with_input("x", 1);
    let log = LogWriter::new(Vec::new(), &h).unwrap().finish().unwrap();
    assert_eq!(&log[8..10], &6u16.to_le_bytes());
    assert_eq!(LogReader::new(&log[..]).unwrap().header().format_version, 6);
}

#[test]
fn a_tampered_sla_log_is_refused() {
    let events = sample_events();
    let config = sample_config();
    // Another order in the header: the kernel re-makes other decisions.
    let mut bytes = sla_log(config, &events);
    let other = Config { order: Order::Heuristic(Heuristic::single(Direction::Max, Term::Ncpu)), ..config };
    let mut h = LogReader::new(&bytes[..]).unwrap().header().clone();
    h.model = Model::Sla(header(other));
    let mut writer = LogWriter::new(Vec::new(), &h).unwrap();
    let mut reader = LogReader::new(&bytes[..]).unwrap();
    while let Some(record) = reader.next_record().unwrap() {
        writer.record(record.body).unwrap();
    }
    let swapped = writer.finish().unwrap();
    assert!(matches!(verify(LogReader::new(&swapped[..]).unwrap()), Err(VerifyError::Diverged(_))));
    // The summary (the audit alone) also sees it: the order is the header's.
    assert!(summary(LogReader::new(&swapped[..]).unwrap()).unwrap_err().to_string().contains("order"));
    // Other capacities are refused by name.
    h.model = Model::Sla(SlaHeader { slots: 100, ..header(config) });
    let writer = LogWriter::new(Vec::new(), &h).unwrap();
    bytes = writer.finish().unwrap();
    let error = verify(LogReader::new(&bytes[..]).unwrap()).unwrap_err().to_string();
    assert!(error.contains("calendar slots (H)"), "{error}");
}

#[test]
fn sla_headers_are_checked_field_by_field() {
    let good = header(sample_config());
    let check = |sla: SlaHeader| {
        let h = Header::new(Model::Sla(sla)).with_input("x", 1);
        h.check().map_err(|e| e.field)
    };
    assert_eq!(check(good), Ok(()));
    let bad = |f: fn(&mut SlaHeader)| {
        let mut h = good;
        f(&mut h);
        check(h).unwrap_err()
    };
    assert_eq!(bad(|h| h.config.nodes = 0), "sla.config.nodes");
    assert_eq!(bad(|h| h.config.slot_ticks = 0), "sla.config.slot_ticks");
    assert_eq!(bad(|h| h.config.step_ticks = 90), "sla.config.step_ticks");
    assert_eq!(bad(|h| h.config.ticks_per_hour = 0), "sla.config.ticks_per_hour");
    assert_eq!(bad(|h| h.slots = 0), "sla.slots");
    assert_eq!(bad(|h| h.batch = 0), "sla.batch");
    let mut h = Header::new(Model::Sla(good)).with_input("x", 1);
    h.format_version = 4;
    assert_eq!(h.check().unwrap_err().field, "model");
    h.format_version = 5;
    h.set("batch", "3600");
    h.set("sets", "100");
    assert_eq!(h.check(), Ok(()));
    h.set("batch", "1h");
    assert_eq!(h.check().unwrap_err().field, "settings.batch");
}
