//! [`super::verify`]. For a model whose kernel's work outweighs handing records over
//! ([`Verified::SPLIT`]), on two cores: on a second thread, the loop of
//! [`super::audit`] reads the log, counts it and holds it to the promises with the
//! logged decisions taken as made, handing every record on in batches as it is read;
//! on the caller's, a [`Remaker`] rebuilds the kernel's decisions and matches them
//! against the logged ones. Other models verify in that same loop on the caller's
//! thread, re-making each record before its audit ([`super::one_loop`]).
//!
//! Each side stops at its first error, and the one reported is the one that a single
//! loop doing both would meet first: the earlier record, and within one record the
//! earlier step ([`Step`]). The reading side hands on every record before it handles
//! it, so the re-making side sees every record up to the reading side's error; when
//! the re-making side stops first, the reading side stops at its next hand-over. At
//! most [`IN_FLIGHT`] batches of [`BATCH`] records wait between the two, so memory
//! stays bounded however long the log.

use std::io::Read;
use std::sync::mpsc::{Receiver, Sender, channel, sync_channel};

use kernel::log::Record;

use super::{At, Ended, Matcher, Report, Step, Verified, VerifyError, audit_model, model_header, one_loop};
use crate::contract::LogModel;
use crate::format::{FormatError, LogReader};

/// Records handed over at a time.
const BATCH: usize = 4096;
/// Batches the reading side may be ahead.
const IN_FLIGHT: usize = 4;

/// Verifies a log of the model `M`: every record re-made and audited.
pub(super) fn verify_model<M: Verified>(reader: LogReader<impl Read + Send>) -> Result<Report, VerifyError> {
    if !M::SPLIT {
        return one_loop::<M>(reader, true);
    }
    let header = model_header::<M>(reader.header())?;
    let mut remaker = Remaker::<M>::new(M::engine(&header)?);
    std::thread::scope(|scope| {
        let (full, batches) = sync_channel::<Vec<Record>>(IN_FLIGHT);
        let (emptied, empties) = channel::<Vec<Record>>();
        let header = &header;
        let reading = std::thread::Builder::new().name("audit".into()).spawn_scoped(scope, move || {
            let mut batch = Vec::with_capacity(BATCH);
            let forward = |record| {
                batch.push(record);
                if batch.len() < BATCH {
                    return Ok(());
                }
                let next = empties.try_recv().unwrap_or_else(|_| Vec::with_capacity(BATCH));
                full.send(std::mem::replace(&mut batch, next)).map_err(drop)
            };
            let read = audit_model::<M, ()>(reader, header, None, forward);
            // The re-making side may have stopped and gone.
            let _ = full.send(batch);
            read
        });
        let reading = reading.map_err(|e| VerifyError::Format(FormatError::Io(e)))?;
        take_all(&mut remaker, &batches, &emptied);
        if remaker.error.is_some() {
            // The reading side stops at its next hand-over.
            drop(batches);
        }
        let read = reading.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        remaker.first_error(read)
    })
}

/// Every record handed over in `batches`, to `remaker`, until its first error; each
/// emptied batch goes back.
fn take_all<M: Verified>(
    remaker: &mut Remaker<M>,
    batches: &Receiver<Vec<Record>>,
    emptied: &Sender<Vec<Record>>,
) {
    for mut batch in batches {
        if batch.drain(..).try_for_each(|record| remaker.take(record)).is_err() {
            return;
        }
        // The reading side may have finished and stopped taking them back.
        let _ = emptied.send(batch);
    }
}

/// The re-making side: the kernel rebuilt, its decisions for the records taken so
/// far, and its first error with where it was met.
struct Remaker<M: LogModel + Verified> {
    engine: M::Engine,
    matcher: Matcher<M::Event, M::Decision>,
    taken: u64,
    error: Option<(At, VerifyError)>,
}

impl<M: Verified> Remaker<M> {
    fn new(engine: M::Engine) -> Self {
        Self { engine, matcher: Matcher::new(M::wrap_decision, false), taken: 0, error: None }
    }

    /// The kernel's decisions for the next record matched against the log; `Err` once
    /// they differ (then it takes no more).
    fn take(&mut self, record: Record) -> Result<(), ()> {
        if self.error.is_some() {
            return Err(());
        }
        self.taken += 1;
        let seq = record.seq;
        let met = if let Some(event) = M::event(&record.body) {
            match self.matcher.close(seq, Some(record.body)) {
                Err(error) => Some(((seq, Step::Close), error)),
                Ok(()) => {
                    let engine = &mut self.engine;
                    self.matcher.open(event, M::time(&event), |e, out| M::step(engine, e, out));
                    None
                }
            }
        } else if let Some(logged) = M::decision(&record.body) {
            self.matcher.decision(seq, logged, record.body).err().map(|error| ((seq, Step::Match), error))
        } else {
            // A record of neither kind is the reading side's error.
            None
        };
        self.error = met;
        if self.error.is_some() { Err(()) } else { Ok(()) }
    }

    /// The report, or the error a single loop would have met first, given how the
    /// reading side ended. When it read the whole log, the re-making side's last
    /// check comes first: the kernel decided nothing more for the last event than
    /// the log holds.
    fn first_error(mut self, read: Result<Report, Ended<()>>) -> Result<Report, VerifyError> {
        let taken = self.taken;
        let whole = match &read {
            Ok(_) => true,
            Err(Ended::Error(met)) => met.0 == (taken, Step::Check) || met.0 == (taken, Step::Finish),
            Err(Ended::Stopped(())) => false,
        };
        if whole && self.error.is_none() {
            self.error = self.matcher.close(taken, None).err().map(|error| ((taken, Step::Close), error));
        }
        match (read, self.error) {
            (Ok(report), None) => Ok(report),
            (Err(Ended::Error(met)), Some((first, _))) if met.0 < first => Err(met.1),
            (Err(Ended::Error(met)), None) => Err(met.1),
            (_, Some((_, error))) => Err(error),
            // The reading side stops only once the re-making side has met an error.
            (Err(Ended::Stopped(())), None) => Err(VerifyError::Format(FormatError::Io(
                std::io::Error::other("the log's reading stopped early"),
            ))),
        }
    }
}
