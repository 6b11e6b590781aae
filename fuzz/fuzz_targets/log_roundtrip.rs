//! Arbitrary headers and records written with `LogWriter` and read back with
//! `LogReader`: the same header, the same records in the same order, numbered from
//! zero, then the end of the log.
//!
//! The kernel's types do not implement `Arbitrary` (the kernel keeps its dependency
//! list short), so this file mirrors them and converts.

#![no_main]

use arbitrary::Arbitrary;
use kernel::log::{Body, Record};
use kernel::{Decision, Event, Level, Policy, RejectReason};
use libfuzzer_sys::fuzz_target;
use replay::format::{Header, LogReader, LogWriter};

#[derive(Arbitrary, Debug)]
struct Input {
    machines: u16,
    queue_capacity: u32,
    levels: Vec<(u32, u32)>,
    seed: u64,
    input_name: String,
    input_hash: String,
    window_ticks: Option<u64>,
    command: String,
    bodies: Vec<ArbBody>,
    /// The bodies are written `1 + repeat % 32` times over, to cross block boundaries.
    repeat: u8,
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum ArbBody {
    Submit { t: u64, job: u32, p: u64, level: u8 },
    Advance { t: u64 },
    Reset,
    Accept { job: u32, machine: u16, deadline: u64, preempted: Option<u32> },
    Reject { job: u32, reason: u8 },
    Start { t: u64, job: u32, machine: u16 },
    Preempt { t: u64, job: u32, machine: u16 },
    Complete { t: u64, job: u32, machine: u16 },
}

const REASONS: [RejectReason; 6] = [
    RejectReason::NoFeasibleMachine,
    RejectReason::QueueFull,
    RejectReason::ZeroProcessingTime,
    RejectReason::UnknownLevel,
    RejectReason::TimeWentBackwards,
    RejectReason::Overflow,
];

impl From<ArbBody> for Body {
    fn from(body: ArbBody) -> Self {
        match body {
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
        }
    }
}

fn header(input: &Input) -> Header {
    let levels = input
        .levels
        .iter()
        .map(|&(slack_milli, price_per_tick)| Level { slack_milli, price_per_tick })
        .collect();
    let mut header = Header::new(input.machines, input.queue_capacity, Policy::FirstFit, levels);
    header.seed = input.seed;
    header.input_name.clone_from(&input.input_name);
    header.input_hash.clone_from(&input.input_hash);
    header.window_ticks = input.window_ticks;
    header.command.clone_from(&input.command);
    header
}

fuzz_target!(|input: Input| {
    let header = header(&input);
    let bodies: Vec<Body> =
        (0..=input.repeat % 32).flat_map(|_| input.bodies.iter().map(|&b| Body::from(b))).collect();
    let mut writer = LogWriter::new(Vec::new(), &header).expect("writing to memory cannot fail");
    for body in &bodies {
        match body {
            Body::Event(event) => writer.event(event),
            Body::Decision(decision) => writer.decision(decision),
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
