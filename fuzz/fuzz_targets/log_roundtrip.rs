//! Arbitrary headers and records written with `LogWriter` and read back with
//! `LogReader`: the same header, the same records in the same order, numbered from
//! zero, then the end of the log.
//!
//! The kernel's types do not implement `Arbitrary` (the kernel keeps its dependency
//! list short), so this file mirrors them and converts. Besides arbitrary records, it
//! makes records that follow the ones before them the way a kernel's do (an accept of
//! the job just submitted with its level's deadline, a complete of the job a machine
//! started), so that the encoding's implicit paths are round-tripped as well as its
//! escapes. Reservation records (format version 3) come arbitrary too, mixed with the
//! service-level ones, and the header may carry a reservation configuration.

#![no_main]

use arbitrary::Arbitrary;
use kernel::log::{Body, Record};
use kernel::reservation::{self, Config, Criterion, Fixing, Request, RequestKind};
use kernel::service_level::{Decision, Event, Level, Policy, RejectReason};
use libfuzzer_sys::fuzz_target;
use replay::format::{Header, LogReader, LogWriter, Model, ReservationHeader, ServiceLevelHeader, Setting};

#[derive(Arbitrary, Debug)]
struct Input {
    machines: u16,
    queue_capacity: u32,
    levels: Vec<(u32, u32)>,
    seed: u64,
    input_name: String,
    input_hash: String,
    window_ticks: Option<u64>,
    settings: Vec<(String, String)>,
    reservation: Option<ArbReservationHeader>,
    bodies: Vec<ArbBody>,
    /// The bodies are written `1 + repeat % 32` times over, to cross block boundaries.
    repeat: u8,
}

/// Nodes, slot length, criterion, fixing, offer trials and the four capacities.
type ArbReservationHeader = (u32, u64, u8, u8, u16, [u32; 3], u16);

#[derive(Arbitrary, Debug, Clone, Copy)]
enum ArbBody {
    Submit {
        t: u64,
        job: u32,
        p: u64,
        level: u8,
    },
    Advance {
        t: u64,
    },
    Reset,
    Accept {
        job: u32,
        machine: u16,
        deadline: u64,
        preempted: Option<u32>,
    },
    Reject {
        job: u32,
        reason: u8,
    },
    Start {
        t: u64,
        job: u32,
        machine: u16,
    },
    Preempt {
        t: u64,
        job: u32,
        machine: u16,
    },
    Complete {
        t: u64,
        job: u32,
        machine: u16,
    },
    /// An accept of the last submitted job, with the deadline its level gives.
    AcceptSubmitted {
        machine: u16,
        preempted: Option<u32>,
    },
    /// A reject of the last submitted job.
    RejectSubmitted {
        reason: u8,
    },
    /// A start of the last submitted job at its submit time.
    StartSubmitted {
        machine: u16,
    },
    /// A preempt or complete of the job `machine` last started, `dt` after its start.
    StopStarted {
        dt: u16,
        machine: u16,
        complete: bool,
    },
    Request {
        t: u64,
        job: u32,
        nodes: u32,
        estimate: u64,
        ready: u64,
        deadline: u64,
        kind: u8,
        shuffle_key: u32,
    },
    ResvAdvance {
        t: u64,
    },
    Finish {
        t: u64,
        job: u32,
    },
    ResvReset,
    ResvAccept {
        job: u32,
        start: u64,
    },
    ResvReject {
        job: u32,
        reason: u8,
    },
    Offer {
        job: u32,
        ready: u64,
        deadline: u64,
        start: u64,
    },
    Replan {
        job: u32,
        start: u64,
    },
    Fix {
        t: u64,
        job: u32,
    },
    ResvStart {
        t: u64,
        job: u32,
    },
    End {
        t: u64,
        job: u32,
        early: bool,
        cut: bool,
    },
}

const KINDS: [RequestKind; 3] = [RequestKind::Strict, RequestKind::RelaxedStart, RequestKind::Flexible];

const RESERVATION_REASONS: [reservation::RejectReason; 12] = {
    use reservation::RejectReason as R;
    [
        R::TimeWentBackwards,
        R::ZeroNodes,
        R::TooManyNodes,
        R::ZeroEstimate,
        R::WindowTooShort,
        R::KindMismatch,
        R::WindowPassed,
        R::DuplicateJob,
        R::QueueFull,
        R::BeyondHorizon,
        R::NoRoom,
        R::NotRunning,
    ]
};

/// A reservation record, or `None` for a service-level variant.
fn reservation_body(body: ArbBody) -> Option<Body> {
    use reservation::{Decision as D, Event as E};
    Some(match body {
        ArbBody::Request { t, job, nodes, estimate, ready, deadline, kind, shuffle_key } => {
            let kind = KINDS[usize::from(kind) % KINDS.len()];
            Body::ReservationEvent(E::Request(Request {
                t,
                job,
                nodes,
                estimate,
                ready,
                deadline,
                kind,
                shuffle_key,
            }))
        }
        ArbBody::ResvAdvance { t } => Body::ReservationEvent(E::Advance { t }),
        ArbBody::Finish { t, job } => Body::ReservationEvent(E::Finish { t, job }),
        ArbBody::ResvReset => Body::ReservationEvent(E::Reset),
        ArbBody::ResvAccept { job, start } => Body::ReservationDecision(D::Accept { job, start }),
        ArbBody::ResvReject { job, reason } => {
            let reason = RESERVATION_REASONS[usize::from(reason) % RESERVATION_REASONS.len()];
            Body::ReservationDecision(D::Reject { job, reason })
        }
        ArbBody::Offer { job, ready, deadline, start } => {
            Body::ReservationDecision(D::Offer { job, ready, deadline, start })
        }
        ArbBody::Replan { job, start } => Body::ReservationDecision(D::Replan { job, start }),
        ArbBody::Fix { t, job } => Body::ReservationDecision(D::Fix { t, job }),
        ArbBody::ResvStart { t, job } => Body::ReservationDecision(D::Start { t, job }),
        ArbBody::End { t, job, early, cut } => Body::ReservationDecision(D::End { t, job, early, cut }),
        _ => return None,
    })
}

/// What the records so far say, for the variants that follow them.
#[derive(Default)]
struct Followed {
    submit: Option<(u64, u32, u64, u8)>,
    started: std::collections::HashMap<u16, (u64, u32)>,
}

const REASONS: [RejectReason; 6] = [
    RejectReason::NoFeasibleMachine,
    RejectReason::QueueFull,
    RejectReason::ZeroProcessingTime,
    RejectReason::UnknownLevel,
    RejectReason::TimeWentBackwards,
    RejectReason::Overflow,
];

impl ArbBody {
    /// The record this stands for, after the records `followed` has seen.
    fn to_body(self, levels: &[Level], followed: &mut Followed) -> Body {
        if let Some(body) = reservation_body(self) {
            return body;
        }
        let (t0, job0, p0, level0) = followed.submit.unwrap_or_default();
        let body = match self {
            ArbBody::Submit { t, job, p, level } => Body::Event(Event::Submit { t, job, p, level }),
            ArbBody::Advance { t } => Body::Event(Event::Advance { t }),
            ArbBody::Reset => Body::Event(Event::Reset),
            ArbBody::Accept { job, machine, deadline, preempted } => {
                Body::Decision(Decision::Accept { job, machine, deadline, preempted })
            }
            ArbBody::Reject { job, reason } => {
                let reason = REASONS[usize::from(reason) % REASONS.len()];
                Body::Decision(Decision::Reject { job, reason })
            }
            ArbBody::Start { t, job, machine } => Body::Decision(Decision::Start { t, job, machine }),
            ArbBody::Preempt { t, job, machine } => Body::Decision(Decision::Preempt { t, job, machine }),
            ArbBody::Complete { t, job, machine } => Body::Decision(Decision::Complete { t, job, machine }),
            ArbBody::AcceptSubmitted { machine, preempted } => {
                let level = levels.get(usize::from(level0));
                let deadline = level.and_then(|l| l.deadline(t0, p0)).unwrap_or(t0);
                Body::Decision(Decision::Accept { job: job0, machine, deadline, preempted })
            }
            ArbBody::RejectSubmitted { reason } => {
                let reason = REASONS[usize::from(reason) % REASONS.len()];
                Body::Decision(Decision::Reject { job: job0, reason })
            }
            ArbBody::StartSubmitted { machine } => {
                Body::Decision(Decision::Start { t: t0, job: job0, machine })
            }
            ArbBody::StopStarted { dt, machine, complete } => {
                let (since, job) = followed.started.get(&machine).copied().unwrap_or_default();
                let t = since.saturating_add(u64::from(dt));
                let decision = if complete {
                    Decision::Complete { t, job, machine }
                } else {
                    Decision::Preempt { t, job, machine }
                };
                Body::Decision(decision)
            }
            _ => unreachable!("reservation records are made above"),
        };
        match body {
            Body::Event(Event::Submit { t, job, p, level }) => followed.submit = Some((t, job, p, level)),
            Body::Decision(Decision::Start { t, job, machine }) => {
                followed.started.insert(machine, (t, job));
            }
            _ => {}
        }
        body
    }
}

fn header(input: &Input) -> Header {
    let levels = input
        .levels
        .iter()
        .map(|&(slack_milli, price_per_tick)| Level { slack_milli, price_per_tick })
        .collect();
    let mut header = Header::new(
        ServiceLevelHeader::new(input.machines, input.queue_capacity, Policy::FirstFit, levels).into(),
    );
    header.seed = input.seed;
    header
        .inputs
        .push(replay::format::Input { name: input.input_name.clone(), hash: input.input_hash.clone() });
    header.window_ticks = input.window_ticks;
    header.settings = input.settings.iter().map(|(key, value)| Setting::new(key, value)).collect();
    let reservation = input.reservation.map(
        |(nodes, slot_ticks, criterion, fixing, offer_trials, [slots, waiting, running], offers)| {
            const CRITERIA: [Criterion; 5] = Criterion::ALL;
            const FIXINGS: [Fixing; 5] = Fixing::ALL;
            let config = Config {
                nodes,
                slot_ticks,
                criterion: CRITERIA[usize::from(criterion) % CRITERIA.len()],
                fixing: FIXINGS[usize::from(fixing) % FIXINGS.len()],
                offer_trials,
            };
            ReservationHeader { config, slots, waiting, running, offers }
        },
    );
    if let Some(reservation) = reservation {
        header.model = Model::Reservation(reservation);
    }
    header
}

fuzz_target!(|input: Input| {
    let header = header(&input);
    let mut followed = Followed::default();
    let levels = header.service_level().map_or(&[][..], |part| part.levels.as_slice());
    let bodies: Vec<Body> = (0..=input.repeat % 32)
        .flat_map(|_| input.bodies.iter())
        .map(|&b| b.to_body(levels, &mut followed))
        .collect();
    let mut writer = LogWriter::new(Vec::new(), &header).expect("writing to memory cannot fail");
    for body in &bodies {
        match body {
            Body::Event(event) => writer.event(event),
            Body::Decision(decision) => writer.decision(decision),
            _ => writer.record(*body),
        }
        .expect("every record encodes");
    }
    let bytes = writer.finish().expect("writing to memory cannot fail");

    let mut reader = LogReader::new(&bytes[..]).expect("a written log opens");
    assert_eq!(reader.header(), &header);
    for (seq, body) in (0u64..).zip(&bodies) {
        let record = reader.next_record().expect("a written record reads back");
        assert_eq!(record, Some(Record { seq, body: *body }));
    }
    assert!(matches!(reader.next_record(), Ok(None)), "records after the last one written");
});
