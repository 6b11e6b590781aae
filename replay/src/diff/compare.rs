//! The two passes of a diff: both logs side by side (the first divergence and each
//! job's fate), then the fates compared and the counts paired.

use std::io::Read;

use kernel::log::Body;

use super::{
    Answer, Change, DiffError, Diffed, Fate, Fates, FirstDivergence, JobChange, Measure, read_error,
};
use crate::contract::body_label;
use crate::export::describe;
use crate::format::LogReader;
use crate::verify::{Report, VerifyError};

/// Both logs read side by side: the first record where they differ, and each log's fates.
pub(super) fn follow<M: Diffed>(
    sides: [(&str, LogReader<impl Read>); 2],
) -> Result<(Option<FirstDivergence>, [Fates; 2]), DiffError> {
    let [(name_a, mut a), (name_b, mut b)] = sides;
    let (mut fates_a, mut fates_b) = (Fates::default(), Fates::default());
    let mut first = None;
    let mut after: Option<Body> = None;
    loop {
        let record_a = a.next_record().map_err(|e| read_error(name_a, e))?;
        let record_b = b.next_record().map_err(|e| read_error(name_b, e))?;
        let (body_a, body_b) = (record_a.map(|r| r.body), record_b.map(|r| r.body));
        let Some(seq) = record_a.or(record_b).map(|r| r.seq) else { break };
        if first.is_none() && body_a != body_b {
            let [a, b, after] = [body_a, body_b, after].map(|body| body.as_ref().map(describe));
            first = Some(FirstDivergence { seq, after, a, b });
        }
        if let Some(body) = body_a {
            if first.is_none() && M::event(&body).is_some() {
                after = Some(body);
            }
            follow_record::<M>(&mut fates_a, &body, seq, name_a)?;
        }
        if let Some(body) = body_b {
            follow_record::<M>(&mut fates_b, &body, seq, name_b)?;
        }
    }
    Ok((first, [fates_a, fates_b]))
}

/// One record into its log's fates; a record of another model is refused.
fn follow_record<M: Diffed>(fates: &mut Fates, body: &Body, seq: u64, name: &str) -> Result<(), DiffError> {
    if let Some(event) = M::event(body) {
        M::follow_event(fates, &event);
    } else if let Some(decision) = M::decision(body) {
        M::follow_decision(fates, &decision);
    } else {
        let error = VerifyError::WrongModel { seq, found: body_label(body), header: M::LABEL };
        return Err(DiffError::Records(crate::trust::TrustError::new(name, error)));
    }
    Ok(())
}

/// The jobs in either log, and every job whose fate changed, by window and job.
pub(super) fn compare([a, b]: [Fates; 2]) -> (u64, Vec<JobChange>) {
    let mut b = b.jobs;
    let mut compared = 0;
    let mut jobs = Vec::new();
    for ((window, job), fate_a) in a.jobs {
        compared += 1;
        let fate_b = b.remove(&(window, job));
        let changes =
            fate_b.as_ref().map_or_else(|| vec![Change::OnlyInA], |fate_b| changes(&fate_a, fate_b));
        if !changes.is_empty() {
            jobs.push(JobChange { window, job, changes, a: Some(fate_a), b: fate_b });
        }
    }
    for ((window, job), fate_b) in b {
        compared += 1;
        jobs.push(JobChange { window, job, changes: vec![Change::OnlyInB], a: None, b: Some(fate_b) });
    }
    jobs.sort_by_key(|j| (j.window, j.job));
    (compared, jobs)
}

/// What changed from `a` to `b`: a flip of the answer alone (the rest follows from
/// it), else every field that differs.
fn changes(a: &Fate, b: &Fate) -> Vec<Change> {
    match (&a.answer, &b.answer) {
        (Answer::Accepted, Answer::Rejected(_)) => return vec![Change::AcceptedToRejected],
        (Answer::Rejected(_), Answer::Accepted) => return vec![Change::RejectedToAccepted],
        (x, y) if std::mem::discriminant(x) != std::mem::discriminant(y) => return vec![Change::Answered],
        _ => {}
    }
    let fields = [
        (a.answer != b.answer, Change::Reason),
        (a.place != b.place, Change::Place),
        (a.start != b.start, Change::Start),
        (a.completion != b.completion, Change::Completion),
        (a.interruptions != b.interruptions, Change::Interruptions),
        (a.moves != b.moves, Change::Moves),
        (a.offers != b.offers, Change::Offers),
    ];
    fields.into_iter().filter(|(differs, _)| *differs).map(|(_, change)| change).collect()
}

/// Both reports' counts side by side: every model's, then the model's own.
pub(super) fn measures(a: &Report, b: &Report) -> Vec<Measure> {
    let (a, b) = (a.measures(), b.measures());
    a.into_iter().zip(b).map(|((name, a), (_, b))| Measure { name, a, b }).collect()
}
