//! Arbitrary operations on the reservation kernel's slot calendar
//! (`kernel::calendar::Calendar<16>`, a ring of 16 slots) against a plain array
//! model: one `u32` of free nodes per absolute slot, and brute force for every query.
//! After every operation the answers and the free capacity of every slot around the
//! horizon must agree.
//!
//! The same comparison runs as an ordinary test over a fixed seeded set of cases:
//! `kernel/tests/calendar.rs` (which also counts that every answer of
//! every operation is reached).

#![no_main]

use arbitrary::Arbitrary;
use kernel::calendar::{Calendar, Slot};
use libfuzzer_sys::fuzz_target;

const H: usize = 16;
/// Absolute slots the model keeps; the horizon's base never passes `SPAN - H`.
const SPAN: usize = 1024;

#[derive(Arbitrary, Debug)]
struct Input {
    /// The pool: `1 + capacity % 6` nodes.
    capacity: u8,
    ops: Vec<Op>,
}

/// Slots are given relative to the horizon's base, and may fall before or after it.
#[derive(Arbitrary, Debug, Clone, Copy)]
enum Op {
    Advance {
        by: u8,
    },
    Earliest {
        from: i8,
        len: u8,
        nodes: u8,
        n: u8,
    },
    Reserve {
        first: i8,
        n: u8,
        nodes: u8,
    },
    Release {
        first: i8,
        n: u8,
        nodes: u8,
    },
    /// Gives back the `index`-th run that was reserved and not yet given back.
    ReleaseHeld {
        index: u8,
    },
    Reset,
}

/// The plain model, shared with the kernel's seeded calendar test.
#[path = "../../kernel/tests/support/calendar_model.rs"]
mod calendar_model;
use calendar_model::CalendarModel as Model;

fuzz_target!(|input: Input| {
    let capacity = 1 + u32::from(input.capacity % 6);
    let mut calendar = Calendar::<H>::new(capacity);
    let mut model = Model::new(capacity, H, SPAN);
    let mut held: Vec<(Slot, u64, u32)> = Vec::new();
    for (step, op) in input.ops.iter().enumerate() {
        let at = |offset: i8| model.base.saturating_add_signed(i64::from(offset));
        let nodes_of = |nodes: u8| u32::from(nodes % 8);
        let n_of = |n: u8| u64::from(n % (2 * H as u8 + 2));
        match *op {
            Op::Advance { by } => {
                let base = (model.base + u64::from(by % (2 * H as u8 + 1))).min((SPAN - H) as Slot);
                calendar.advance_to(base);
                model.base = model.base.max(base);
                held.retain(|&(first, _, _)| first >= model.base);
            }
            Op::Earliest { from, len, nodes, n } => {
                let (from, nodes, n) = (at(from), nodes_of(nodes), n_of(n));
                // `len` past 200 gives a `to` before `from`: a bad request.
                let to =
                    if len > 200 { from.saturating_sub(1) } else { from + u64::from(len % (H as u8 + 4)) };
                let got = calendar.earliest(from, to, nodes, n);
                assert_eq!(got, model.earliest(from, to, nodes, n), "step {step}: {op:?}");
            }
            Op::Reserve { first, n, nodes } => {
                let (first, n, nodes) = (at(first), n_of(n), nodes_of(nodes));
                let got = calendar.reserve(first, n, nodes);
                assert_eq!(got, model.reserve(first, n, nodes), "step {step}: {op:?}");
                if got.is_ok() {
                    held.push((first, n, nodes));
                }
            }
            Op::Release { first, n, nodes } => {
                let (first, n, nodes) = (at(first), n_of(n), nodes_of(nodes));
                let got = calendar.release(first, n, nodes);
                assert_eq!(got, model.release(first, n, nodes), "step {step}: {op:?}");
            }
            Op::ReleaseHeld { index } => {
                if held.is_empty() {
                    continue;
                }
                let (first, n, nodes) = held.swap_remove(usize::from(index) % held.len());
                let got = calendar.release(first, n, nodes);
                assert_eq!(got, model.release(first, n, nodes), "step {step}: release of a held run");
            }
            Op::Reset => {
                calendar.reset();
                model = Model::new(capacity, H, SPAN);
                held.clear();
            }
        }
        assert_eq!(calendar.base(), model.base, "step {step}: base");
        for slot in model.base.saturating_sub(3)..model.end() + 3 {
            assert_eq!(calendar.free(slot), model.free(slot), "step {step}: slot {slot} after {op:?}");
        }
    }
});
