//! [`super::verify`] on two cores. A second thread reads the log, counts it and holds
//! it to the promises with the logged decisions taken as made (the loop of
//! [`super::audit`]), handing every record on in batches; the caller's thread rebuilds
//! the kernel and matches its decisions against those records.
//!
//! Each side stops at its first error, and the one reported is the one that a single
//! loop doing both would meet first: the earlier record, and within one record the
//! earlier step ([`Step`]). So the reading side hands on every record it handled, the
//! one it failed at too, and the re-making side sees every record up to the reading
//! side's error; when the re-making side stops first, the reading side stops at its
//! next hand-over. At most [`IN_FLIGHT`] batches of [`BATCH`] records wait between the
//! two, so memory stays bounded however long the log.

use std::io::Read;
use std::sync::mpsc::{Receiver, Sender, channel, sync_channel};

use kernel::log::Record;

use super::{At, Ended, Matcher, Report, Step, Verified, VerifyError, audit_model, model_header};
use crate::format::{FormatError, LogReader};

/// Records handed over at a time.
const BATCH: usize = 4096;
/// Batches the reading side may be ahead.
const IN_FLIGHT: usize = 4;

/// What the re-making side ends with: its matcher, the records it took, and its first
/// error with where it was met.
type Remade<M> = (
    Matcher<<M as crate::contract::LogModel>::Event, <M as crate::contract::LogModel>::Decision>,
    u64,
    Option<(At, VerifyError)>,
);

/// Verifies a log of the model `M`: every record re-made and audited.
pub(super) fn verify_model<M: Verified>(reader: LogReader<impl Read + Send>) -> Result<Report, VerifyError> {
    let header = model_header::<M>(reader.header())?;
    let mut engine = M::engine(&header)?;
    std::thread::scope(|scope| {
        let (full, batches) = sync_channel::<Vec<Record>>(IN_FLIGHT);
        let (emptied, empties) = channel::<Vec<Record>>();
        let header = &header;
        let reading = std::thread::Builder::new().name("audit".into()).spawn_scoped(scope, move || {
            let mut batch = Vec::with_capacity(BATCH);
            let mut forward = |record| {
                batch.push(record);
                if batch.len() < BATCH {
                    return Ok(());
                }
                let next = empties.try_recv().unwrap_or_else(|_| Vec::with_capacity(BATCH));
                full.send(std::mem::replace(&mut batch, next)).map_err(drop)
            };
            let read = audit_model::<M, ()>(reader, header, &mut forward);
            // The re-making side may have stopped and gone.
            let _ = full.send(batch);
            read
        });
        let reading = reading.map_err(|e| VerifyError::Format(FormatError::Io(e)))?;
        let remade = remake::<M>(&mut engine, &batches, &emptied);
        if remade.2.is_some() {
            // The reading side stops at its next hand-over.
            drop(batches);
        }
        let read = reading.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        first_error::<M>(remade, read)
    })
}

/// The re-making side: the kernel's decisions for every record handed over, matched
/// against the logged ones, until the first that differs.
fn remake<M: Verified>(
    engine: &mut M::Engine,
    batches: &Receiver<Vec<Record>>,
    emptied: &Sender<Vec<Record>>,
) -> Remade<M> {
    let mut matcher = Matcher::new(M::wrap_decision, false);
    let mut taken = 0u64;
    for mut batch in batches {
        for record in batch.drain(..) {
            taken += 1;
            let seq = record.seq;
            if let Some(event) = M::event(&record.body) {
                if let Err(error) = matcher.close(seq, Some(record.body)) {
                    return (matcher, taken, Some(((seq, Step::Close), error)));
                }
                matcher.open(event, M::time(&event), |e, out| M::step(engine, e, out));
            } else if let Some(logged) = M::decision(&record.body)
                && let Err(error) = matcher.decision(seq, logged, record.body)
            {
                return (matcher, taken, Some(((seq, Step::Match), error)));
            }
            // A record of neither kind is the reading side's error.
        }
        // The reading side may have finished and stopped taking them back.
        let _ = emptied.send(batch);
    }
    (matcher, taken, None)
}

/// The report, or the error a single loop would have met first. When the reading side
/// read the whole log, the re-making side's last check comes first: the kernel decided
/// nothing more for the last event than the log holds.
fn first_error<M: Verified>(
    remade: Remade<M>,
    read: Result<Report, Ended<()>>,
) -> Result<Report, VerifyError> {
    let (matcher, taken, mut remade) = remade;
    let whole = match &read {
        Ok(_) => true,
        Err(Ended::Error(met)) => met.0 == (taken, Step::Check) || met.0 == (taken, Step::Finish),
        Err(Ended::Stopped(())) => false,
    };
    if whole && remade.is_none() {
        remade = matcher.close(taken, None).err().map(|error| ((taken, Step::Close), error));
    }
    match (read, remade) {
        (Ok(report), None) => Ok(report),
        (Err(Ended::Error(met)), Some((first, _))) if met.0 < first => Err(met.1),
        (Err(Ended::Error(met)), None) => Err(met.1),
        (_, Some((_, error))) => Err(error),
        // The reading side stops only once the re-making side has met an error.
        (Err(Ended::Stopped(())), None) => Err(VerifyError::Format(FormatError::Io(std::io::Error::other(
            "the log's reading stopped early",
        )))),
    }
}
