//! The accept-all audit: from the records alone, every request gets exactly one
//! answer, for its own job at its own time, and only a late request is rejected.

use kernel::Tick;
use kernel::accept_all::{Decision, Event};

/// What the audit counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AcceptAllCounts {
    pub requests: u64,
    pub accepted: u64,
    pub late: u64,
}

/// A broken promise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AcceptAllViolation {
    #[error("request of job {job} at {t} has {answers} answers, not one")]
    Answers { job: u32, t: Tick, answers: usize },
    #[error("the answer to job {job} at {t} names another job or time")]
    Mismatch { job: u32, t: Tick },
    #[error("job {job} at {t} is rejected as late, but no request before it was later")]
    NotLate { job: u32, t: Tick },
    #[error("job {job} at {t} is accepted, but a request before it was later ({latest})")]
    Late { job: u32, t: Tick, latest: Tick },
}

/// The audit's state: the latest accepted time, and the counts.
#[derive(Clone, Debug, Default)]
pub struct AcceptAllAudit {
    latest: Tick,
    counts: AcceptAllCounts,
}

impl AcceptAllAudit {
    /// Checks one request and its answers.
    pub fn step(&mut self, event: &Event, decisions: &[Decision]) -> Result<(), AcceptAllViolation> {
        let Event::Submit { t, job } = *event;
        self.counts.requests += 1;
        let [decision] = decisions else {
            return Err(AcceptAllViolation::Answers { job, t, answers: decisions.len() });
        };
        match *decision {
            Decision::Accept { t: at, job: of } if (at, of) == (t, job) => {
                if t < self.latest {
                    return Err(AcceptAllViolation::Late { job, t, latest: self.latest });
                }
                self.latest = t;
                self.counts.accepted += 1;
            }
            Decision::Reject { t: at, job: of, .. } if (at, of) == (t, job) => {
                if t >= self.latest {
                    return Err(AcceptAllViolation::NotLate { job, t });
                }
                self.counts.late += 1;
            }
            _ => return Err(AcceptAllViolation::Mismatch { job, t }),
        }
        Ok(())
    }

    pub const fn counts(&self) -> AcceptAllCounts {
        self.counts
    }
}
