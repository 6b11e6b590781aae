//! The accept-all model's independent reference and checks:
//! - [`reference`]: the rule restated plainly, which the fuzz target compares the
//!   kernel with ([`harness`]);
//! - [`audit`]: [`AcceptAllAudit`], which holds a log's decisions to the rule from the
//!   records alone.

pub mod audit;
pub mod harness;

pub use audit::{AcceptAllAudit, AcceptAllCounts, AcceptAllViolation};

use kernel::accept_all::{Decision, Event, RejectReason};

/// The decisions the rule gives `events`: accept in time order, reject what is late.
pub fn reference(events: &[Event]) -> Vec<Decision> {
    let mut latest = 0;
    let mut out = Vec::with_capacity(events.len());
    for &Event::Submit { t, job } in events {
        if t < latest {
            out.push(Decision::Reject { t, job, reason: RejectReason::Late });
        } else {
            latest = t;
            out.push(Decision::Accept { t, job });
        }
    }
    out
}
