//! [`case_from_bytes`]: one decoder from arbitrary bytes to a small scenario, so that
//! libFuzzer's inputs and the tests' seeded random bytes explore the same space.
//!
//! Every byte string decodes (missing bytes read as zero), and the decoding is
//! deliberately skewed towards what finds bugs in this kernel: many submits at the
//! same or nearby ticks, so that queues fill and tests fail, with a few of each odd
//! case (zero work, unknown level, time going backwards, work so large that the
//! deadline overflows, a jump to the far end of time, a drained reset).

use kernel::service_level::{Event, Level, LevelId, Policy};
use kernel::{JobId, Tick};

/// The kernel sizes a case is run on. The sizes are small so that queues fill and
/// every branch of the kernel is reached within a few dozen events.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `ServiceLevelKernel<3, 4, 3>`: up to three machines, queues of four, up to three levels.
    Wide,
    /// `ServiceLevelKernel<1, 8, 1>`: one machine and one level, the setting of the thesis'
    /// Theorem 2, with few enough events that the brute-force optimum stays cheap.
    Single,
}

impl Shape {
    pub const fn machine_capacity(self) -> u16 {
        match self {
            Self::Wide => 3,
            Self::Single => 1,
        }
    }

    pub const fn queue_capacity(self) -> usize {
        match self {
            Self::Wide => 4,
            Self::Single => 8,
        }
    }

    pub const fn level_capacity(self) -> usize {
        match self {
            Self::Wide => 3,
            Self::Single => 1,
        }
    }

    /// Events decoded at most, before the final drain.
    pub const fn max_events(self) -> usize {
        match self {
            Self::Wide => 40,
            Self::Single => 14,
        }
    }
}

/// A scenario: a kernel configuration and the events to feed it. The last event is
/// always `Advance { t: Tick::MAX }`, which runs every queue dry, and every `Reset` is
/// preceded by one, so every accepted job must be seen to complete.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    pub shape: Shape,
    /// Machines in use, `1..=shape.machine_capacity()`.
    pub machines: u16,
    /// The level table, `1..=shape.level_capacity()` entries.
    pub levels: Vec<Level>,
    /// The machine-choice policy, from the first byte's top three bits (so the cases
    /// of the first-fit-only decoder are the same cases, each now under a policy).
    pub policy: Policy,
    pub events: Vec<Event>,
}

/// Reads bytes front to back; past the end, every byte is zero.
struct Bytes<'a> {
    rest: &'a [u8],
}

impl Bytes<'_> {
    fn next(&mut self) -> u8 {
        let (&first, rest) = self.rest.split_first().unwrap_or((&0, &[]));
        self.rest = rest;
        first
    }

    fn next_u16(&mut self) -> u16 {
        u16::from_le_bytes([self.next(), self.next()])
    }

    fn is_empty(&self) -> bool {
        self.rest.is_empty()
    }
}

/// Decodes a scenario from `bytes`: a shape byte (shape, machines, level count and
/// policy), the levels, then one event per
/// opcode byte (each followed by its parameter bytes) until the input or the shape's
/// event budget runs out.
pub fn case_from_bytes(bytes: &[u8]) -> Case {
    let mut input = Bytes { rest: bytes };
    let head = input.next();
    let shape = if head & 1 == 0 { Shape::Wide } else { Shape::Single };
    let machines = 1 + u16::from(head >> 1) % shape.machine_capacity();
    let level_count = 1 + usize::from(head >> 3) % shape.level_capacity();
    let policy = Policy::ALL[usize::from(head >> 5) % Policy::ALL.len()];
    let levels = (0..level_count).map(|_| decode_level(&mut input)).collect();
    let mut events = EventGen { events: Vec::new(), now: 0, next_job: 0, level_count };
    while !input.is_empty() && events.events.len() < shape.max_events() {
        events.decode_one(&mut input);
    }
    events.drain();
    Case { shape, machines, levels, policy, events: events.events }
}

/// Mostly small slack factors in steps of a quarter (1, 1.25, ... 4.75), which give
/// tight deadlines and round-ups; now and then an arbitrary one up to about 66.
fn decode_level(input: &mut Bytes<'_>) -> Level {
    let b = input.next();
    let slack_milli =
        if b < 224 { 1000 + u32::from(b % 16) * 250 } else { 1000 + u32::from(input.next_u16()) };
    Level { slack_milli, price_per_tick: u32::from(input.next()) }
}

/// Builds the event list, keeping the clock that valid events have reached.
struct EventGen {
    events: Vec<Event>,
    now: Tick,
    next_job: JobId,
    level_count: usize,
}

impl EventGen {
    fn decode_one(&mut self, input: &mut Bytes<'_>) {
        let op = input.next() % 32;
        match op {
            0..=19 => {
                let t = self.later(input);
                let (p, level) = (1 + Tick::from(input.next() % 8), self.level(input));
                self.submit(t, p, level);
            }
            20 | 21 => self.submit(self.now, 0, 0),
            22 => {
                let level = LevelId::try_from(self.level_count).unwrap_or(LevelId::MAX);
                self.submit(self.now, 1, level.saturating_add(input.next() % 4));
            }
            23 => {
                let t = self.earlier(input);
                self.submit(t, 1 + Tick::from(input.next() % 8), 0);
            }
            24..=26 => {
                let t = self.later(input);
                self.push(Event::Advance { t });
            }
            27 => {
                let t = self.earlier(input);
                self.push(Event::Advance { t });
            }
            // Work near the top of the range: the deadline overflows, or just fits.
            28 => self.submit(self.now, Tick::MAX >> (input.next() % 4), 0),
            29 => {
                self.drain();
                self.push(Event::Reset);
            }
            // Rarely, since only a reset comes back from there: the far end of time,
            // where the deadlines of small jobs start to overflow.
            30 => match input.next() {
                b @ 0..=31 => self.push(Event::Advance { t: Tick::MAX - Tick::from(b % 16) }),
                b => self.submit(self.now, 1 + Tick::from(b % 4), 0),
            },
            _ => self.submit(self.now, 1 + Tick::from(input.next() % 4), 0),
        }
    }

    /// Half the time the same tick, else one to eight ticks later.
    fn later(&self, input: &mut Bytes<'_>) -> Tick {
        let dt = Tick::from((input.next() % 16).saturating_sub(7));
        self.now.saturating_add(dt)
    }

    /// A tick before now, if there is one (else now, and the event is valid).
    fn earlier(&self, input: &mut Bytes<'_>) -> Tick {
        let back = 1 + Tick::from(input.next() % 4);
        self.now.saturating_sub(back)
    }

    fn level(&self, input: &mut Bytes<'_>) -> LevelId {
        let index = usize::from(input.next()) % self.level_count;
        LevelId::try_from(index).unwrap_or(0)
    }

    fn submit(&mut self, t: Tick, p: Tick, level: LevelId) {
        let job = self.next_job;
        self.next_job += 1;
        self.push(Event::Submit { t, job, p, level });
    }

    fn push(&mut self, event: Event) {
        match event {
            Event::Submit { t, .. } | Event::Advance { t } => self.now = self.now.max(t),
            Event::Reset => self.now = 0,
        }
        self.events.push(event);
    }

    /// Runs every queue dry, as callers must before a `Reset` and as the checks need
    /// at the end.
    fn drain(&mut self) {
        self.push(Event::Advance { t: Tick::MAX });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_input_is_a_drained_empty_case() {
        let case = case_from_bytes(&[]);
        assert_eq!(case.shape, Shape::Wide);
        assert_eq!(case.machines, 1);
        assert_eq!(case.levels, vec![Level { slack_milli: 1000, price_per_tick: 0 }]);
        assert_eq!(case.policy, Policy::FirstFit);
        assert_eq!(case.events, vec![Event::Advance { t: Tick::MAX }]);
    }

    #[test]
    fn decoding_is_deterministic_and_stays_in_shape() {
        let bytes: Vec<u8> = (0..=255).cycle().step_by(7).take(600).collect();
        for start in 0..bytes.len() {
            let case = case_from_bytes(&bytes[start..]);
            assert_eq!(case, case_from_bytes(&bytes[start..]));
            assert!((1..=case.shape.machine_capacity()).contains(&case.machines));
            assert!((1..=case.shape.level_capacity()).contains(&case.levels.len()));
            assert!(case.events.len() <= 2 * case.shape.max_events() + 1);
            assert_eq!(case.events.last(), Some(&Event::Advance { t: Tick::MAX }));
        }
    }
}
