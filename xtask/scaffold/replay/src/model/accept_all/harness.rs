//! The fuzz target's case: arbitrary bytes into requests whose times mostly go up and
//! now and then back, checked against [`super::reference`] and the audit.

use kernel::accept_all::{AcceptAllKernel, Config, Event};
use kernel::contract::Kernel;

use super::AcceptAllAudit;
use crate::model::bytes::Bytes;

/// A case: its requests.
#[derive(Debug, Clone)]
pub struct Case {
    pub events: Vec<Event>,
}

/// The requests `data` spells: each byte a step of time, back when its top bit is set.
pub fn case_from_bytes(data: &[u8]) -> Case {
    let mut bytes = Bytes(data);
    let (mut t, mut events) = (0u64, Vec::new());
    for job in 0..64 {
        if bytes.is_empty() {
            break;
        }
        let step = bytes.next();
        t = if step & 0x80 == 0 { t + u64::from(step) } else { t.saturating_sub(u64::from(step & 0x7f)) };
        events.push(Event::Submit { t, job });
    }
    Case { events }
}

/// The kernel against the reference and the audit, event by event.
pub fn check_case(case: &Case) -> Result<(), String> {
    let expected = super::reference(&case.events);
    let (mut kernel, mut audit) = (AcceptAllKernel::new(Config {}), AcceptAllAudit::default());
    for (i, (event, want)) in case.events.iter().zip(&expected).enumerate() {
        let mut got = Vec::new();
        kernel.step(*event, &mut |d| got.push(d));
        if got != [*want] {
            return Err(format!("request {i}: the kernel decided {got:?}, the reference {want:?}"));
        }
        audit.step(event, &got).map_err(|e| format!("request {i}: {e}"))?;
    }
    Ok(())
}
