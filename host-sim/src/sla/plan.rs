//! What `host-sim sla` runs and gives back: [`Plan`] (its sets, held or a trace's
//! stream, and its configuration) and [`Outcome`], which both the subcommand
//! ([`super::cli`]) and the log ([`super::log`]) use, so that neither depends on the
//! other for them; [`Plan::run`] runs each set through the run loop
//! ([`super::run`]).

use kernel::Tick;
use kernel::sla::{Config, Decision, Event};
use replay::engine::sla::SlaStepper;

use super::mapping::Sla;
use super::metrics::{self, Summary};
use super::run::{Batch, Input, SetOutcome, run_set};

/// The sets a run goes through: held in memory (generated sets, a log's sets), or a
/// trace's one set read as a stream.
#[derive(Debug)]
pub enum Sets {
    Held(Vec<Input>),
    Trace(Box<super::stream::TraceSet>),
}

impl Sets {
    /// How many sets.
    pub fn len(&self) -> usize {
        match self {
            Self::Held(inputs) => inputs.len(),
            Self::Trace(_) => 1,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// What `host-sim sla` runs: its sets (one for a trace), the kernel's configuration,
/// the batch mode, and what identifies the input in a log header.
#[derive(Debug)]
pub struct Plan {
    pub sets: Sets,
    pub config: Config,
    pub batch: Batch,
    /// The engine's `B`: the smallest compiled size that holds the largest batch.
    pub batch_capacity: u32,
    pub header: replay::format::Header,
    pub source: String,
    /// Trace jobs left out (no processor count).
    pub left_out: u64,
}

/// What a run hands each request once it is summed, in request order: the set's
/// number, the request, and its start if it was accepted.
pub type Settle<'a> = &'a mut dyn FnMut(usize, &Sla, Option<Tick>);

impl Plan {
    /// Runs every set on `kernel` (each reset first), handing each event and its
    /// decisions to `observe`, each request and its start to `settle`, and counting
    /// each set done on `bar`.
    pub fn run(
        &self,
        kernel: &mut SlaStepper,
        observe: &mut dyn FnMut(&Event, &[Decision]),
        settle: Settle<'_>,
        bar: &indicatif::ProgressBar,
    ) -> Result<Outcome, super::SlaError> {
        let mut sets = Vec::with_capacity(self.sets.len());
        match &self.sets {
            Sets::Held(inputs) => {
                for (i, input) in inputs.iter().enumerate() {
                    sets.push(run_set(kernel, input, self.batch, observe, &mut |r, start| {
                        settle(i, r, start)
                    }));
                    bar.inc(1);
                }
            }
            Sets::Trace(trace) => {
                sets.push(trace.run(kernel, self.batch, observe, &mut |r, start| settle(0, r, start))?);
                bar.inc(1);
            }
        }
        let mean = metrics::mean(&sets.iter().map(|s| s.summary).collect::<Vec<_>>());
        Ok(Outcome { sets, mean })
    }
}

/// The whole run's outcome: every set's.
#[derive(Debug)]
pub struct Outcome {
    pub sets: Vec<SetOutcome>,
    pub mean: Summary,
}
