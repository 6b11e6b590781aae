//! A log turned into JSON lines or a readable listing.
//!
//! Both stream: a record is written as soon as it is read, so a damaged log is
//! shown up to its last intact block before the error is returned.

use std::io::{Read, Write};

use kernel::Tick;
use kernel::log::Body;
use kernel::reservation::{self, RequestKind};
use kernel::service_level::{Decision, Event};

use crate::format::{FormatError, Header, LogReader, Model};

#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error(transparent)]
    Format(#[from] FormatError),
    #[error("writing the output: {0}")]
    Output(#[from] std::io::Error),
    #[error("writing the header as JSON: {0}")]
    Json(#[from] serde_json::Error),
}

/// One line per record, the header first:
/// `{"kind":"header",...}`, then `submit`, `advance`, `reset`, `accept`, `reject`,
/// `start`, `preempt` and `complete` objects. Accepts and rejects carry the time of
/// the submit they answer. Reservation records (version 3) are `request`,
/// `resv_advance`, `finish`, `resv_reset`, `resv_accept`, `resv_reject`, `offer`,
/// `replan`, `fix`, `resv_start` and `end`; the answers to a request carry its time.
/// SLA records (version 5) are `sla_submit`, `sla_plan`, `sla_reset`, `sla_accept` and
/// `sla_reject`; a decision carries the time of the event that made it.
pub fn jsonl<R: Read, W: Write>(mut reader: LogReader<R>, out: &mut W) -> Result<u64, ExportError> {
    let mut header = serde_json::to_value(reader.header())?;
    if let Some(map) = header.as_object_mut() {
        map.insert("kind".into(), "header".into());
    }
    writeln!(out, "{header}")?;
    let levels = reader.header().levels.clone();
    let mut now: Tick = 0;
    while let Some(record) = reader.next_record()? {
        let seq = record.seq;
        match record.body {
            Body::Event(Event::Submit { t, job, p, level }) => {
                now = t;
                let deadline = levels.get(usize::from(level)).and_then(|l| l.deadline(t, p));
                let deadline = deadline.map_or_else(|| "null".to_owned(), |d| d.to_string());
                writeln!(
                    out,
                    r#"{{"kind":"submit","seq":{seq},"t":{t},"job":{job},"p":{p},"level":{level},"deadline":{deadline}}}"#
                )?;
            }
            Body::Event(Event::Advance { t }) => {
                now = t;
                writeln!(out, r#"{{"kind":"advance","seq":{seq},"t":{t}}}"#)?;
            }
            Body::Event(Event::Reset) => {
                now = 0;
                writeln!(out, r#"{{"kind":"reset","seq":{seq}}}"#)?;
            }
            Body::Decision(decision) => write_decision(out, seq, now, &decision)?,
            Body::ReservationEvent(event) => {
                now = match event {
                    reservation::Event::Reset => 0,
                    _ => event.time().unwrap_or(now),
                };
                write_reservation_event(out, seq, &event)?;
            }
            Body::ReservationDecision(decision) => write_reservation_decision(out, seq, now, &decision)?,
            // Tiers records as serde gives them: `{"kind":"tiers_event","seq":..,"record":{..}}`.
            Body::TiersEvent(event) => {
                let record = serde_json::to_string(&event)?;
                writeln!(out, r#"{{"kind":"tiers_event","seq":{seq},"record":{record}}}"#)?;
            }
            Body::TiersDecision(decision) => {
                let record = serde_json::to_string(&decision)?;
                writeln!(out, r#"{{"kind":"tiers_decision","seq":{seq},"record":{record}}}"#)?;
            }
            Body::SlaEvent(event) => {
                now = event.time();
                write_sla_event(out, seq, &event)?;
            }
            Body::SlaDecision(decision) => write_sla_decision(out, seq, now, &decision)?,
        }
    }
    Ok(reader.records_read())
}

fn write_reservation_event<W: Write>(
    out: &mut W,
    seq: u64,
    event: &reservation::Event,
) -> std::io::Result<()> {
    match *event {
        reservation::Event::Request(r) => {
            let kind = kind_name(r.kind);
            writeln!(
                out,
                r#"{{"kind":"request","seq":{seq},"t":{},"job":{},"nodes":{},"estimate":{},"ready":{},"deadline":{},"request":"{kind}","shuffle_key":{}}}"#,
                r.t, r.job, r.nodes, r.estimate, r.ready, r.deadline, r.shuffle_key
            )
        }
        reservation::Event::Advance { t } => {
            writeln!(out, r#"{{"kind":"resv_advance","seq":{seq},"t":{t}}}"#)
        }
        reservation::Event::Finish { t, job } => {
            writeln!(out, r#"{{"kind":"finish","seq":{seq},"t":{t},"job":{job}}}"#)
        }
        reservation::Event::Reset => writeln!(out, r#"{{"kind":"resv_reset","seq":{seq}}}"#),
    }
}

fn write_reservation_decision<W: Write>(
    out: &mut W,
    seq: u64,
    now: Tick,
    decision: &reservation::Decision,
) -> std::io::Result<()> {
    use reservation::Decision as D;
    match *decision {
        D::Accept { job, start } => {
            writeln!(out, r#"{{"kind":"resv_accept","seq":{seq},"t":{now},"job":{job},"start":{start}}}"#)
        }
        D::Reject { job, reason } => {
            writeln!(out, r#"{{"kind":"resv_reject","seq":{seq},"t":{now},"job":{job},"reason":"{reason}"}}"#)
        }
        D::Offer { job, ready, deadline, start } => writeln!(
            out,
            r#"{{"kind":"offer","seq":{seq},"t":{now},"job":{job},"ready":{ready},"deadline":{deadline},"start":{start}}}"#
        ),
        D::Replan { job, start } => {
            writeln!(out, r#"{{"kind":"replan","seq":{seq},"t":{now},"job":{job},"start":{start}}}"#)
        }
        D::Fix { t, job } => writeln!(out, r#"{{"kind":"fix","seq":{seq},"t":{t},"job":{job}}}"#),
        D::Start { t, job } => writeln!(out, r#"{{"kind":"resv_start","seq":{seq},"t":{t},"job":{job}}}"#),
        D::End { t, job, early, cut } => {
            writeln!(out, r#"{{"kind":"end","seq":{seq},"t":{t},"job":{job},"early":{early},"cut":{cut}}}"#)
        }
    }
}

/// A request kind's name in exports and listings.
pub const fn kind_name(kind: RequestKind) -> &'static str {
    match kind {
        RequestKind::Strict => "strict",
        RequestKind::RelaxedStart => "relaxed",
        RequestKind::Flexible => "flexible",
    }
}

fn write_decision<W: Write>(out: &mut W, seq: u64, now: Tick, decision: &Decision) -> std::io::Result<()> {
    match *decision {
        Decision::Accept { job, machine, deadline, preempted } => {
            let preempted = preempted.map_or_else(|| "null".to_owned(), |j| j.to_string());
            writeln!(
                out,
                r#"{{"kind":"accept","seq":{seq},"t":{now},"job":{job},"machine":{machine},"deadline":{deadline},"preempted":{preempted}}}"#
            )
        }
        Decision::Reject { job, reason } => {
            writeln!(out, r#"{{"kind":"reject","seq":{seq},"t":{now},"job":{job},"reason":"{reason}"}}"#)
        }
        Decision::Start { t, job, machine } => {
            writeln!(out, r#"{{"kind":"start","seq":{seq},"t":{t},"job":{job},"machine":{machine}}}"#)
        }
        Decision::Preempt { t, job, machine } => {
            writeln!(out, r#"{{"kind":"preempt","seq":{seq},"t":{t},"job":{job},"machine":{machine}}}"#)
        }
        Decision::Complete { t, job, machine } => {
            writeln!(out, r#"{{"kind":"complete","seq":{seq},"t":{t},"job":{job},"machine":{machine}}}"#)
        }
    }
}

/// The header as `key: value` lines, then one line per record.
pub fn show<R: Read, W: Write>(mut reader: LogReader<R>, out: &mut W) -> Result<u64, ExportError> {
    write_header(reader.header(), out)?;
    while let Some(record) = reader.next_record()? {
        writeln!(out, "{:>8}  {}", record.seq, describe(&record.body))?;
    }
    Ok(reader.records_read())
}

/// The header of a log, readably.
pub fn write_header<W: Write>(header: &Header, out: &mut W) -> std::io::Result<()> {
    writeln!(out, "format version: {}", header.format_version)?;
    writeln!(out, "kernel version: {}", header.kernel_version)?;
    if header.model == Model::ServiceLevel {
        writeln!(
            out,
            "machines: {}, queue capacity: {}, policy: {:?}",
            header.machines, header.queue_capacity, header.policy
        )?;
    }
    for (index, level) in header.levels.iter().enumerate() {
        let sf = level.slack_milli;
        writeln!(
            out,
            "level {index}: sf {}.{:03}, price {} per tick",
            sf / 1000,
            sf % 1000,
            level.price_per_tick
        )?;
    }
    for input in &header.inputs {
        writeln!(out, "input: {} (crc64 {})", input.name, input.hash)?;
    }
    writeln!(out, "seed: {}", header.seed)?;
    if let Some(window) = header.window_ticks {
        writeln!(out, "window: {window} ticks")?;
    }
    if let Some(r) = header.reservation() {
        let c = &r.config;
        writeln!(
            out,
            "reservations: {} nodes, {}-tick slots, criterion {}, fixing {}, {} offer trials",
            c.nodes,
            c.slot_ticks,
            c.criterion.name(),
            c.fixing.name(),
            c.offer_trials
        )?;
        writeln!(
            out,
            "reservation kernel: {} slots, {} waiting, {} running, {} offers",
            r.slots, r.waiting, r.running, r.offers
        )?;
    }
    if let Some(s) = header.sla() {
        let c = &s.config;
        writeln!(
            out,
            "sla: {} nodes, {}-tick slots, starts every {} ticks, {} ticks an hour, order {}",
            c.nodes, c.slot_ticks, c.step_ticks, c.ticks_per_hour, c.order
        )?;
        writeln!(out, "sla kernel: {} slots, batches of {}", s.slots, s.batch)?;
    }
    if let Some(t) = header.tiers() {
        let c = &t.config;
        writeln!(
            out,
            "tiers: policy {}, {}-tick slots, laxity threshold {}/1000, Bronze deadline {} ticks",
            c.policy.name(),
            c.slot_ticks,
            c.laxity_threshold_milli,
            c.bronze_deadline
        )?;
        for (index, r) in t.resources.iter().enumerate() {
            writeln!(
                out,
                "resource r{index}: {} confidence, {} nodes, speed {}/1000",
                r.group.name(),
                r.nodes,
                r.speed_milli
            )?;
        }
        writeln!(out, "tiers kernel: {} resources, {} slots, {} jobs", t.resource_capacity, t.slots, t.jobs)?;
    }
    if !header.host_version.is_empty() {
        writeln!(out, "written by: {}", header.host_version)?;
    }
    for setting in &header.settings {
        writeln!(out, "setting: {} = {}", setting.key, setting.value)?;
    }
    Ok(())
}

/// One record, readably, e.g. `t=40 start job 7 on m1`.
pub fn describe(body: &Body) -> String {
    match *body {
        Body::TiersEvent(_) | Body::TiersDecision(_) => describe_tiers(body),
        Body::SlaEvent(_) | Body::SlaDecision(_) => describe_sla(body),
        Body::Event(Event::Submit { t, job, p, level }) => {
            format!("t={t} submit job {job} p={p} level {level}")
        }
        Body::Event(Event::Advance { t }) if t == Tick::MAX => "t=end advance (drain every queue)".to_owned(),
        Body::Event(Event::Advance { t }) => format!("t={t} advance"),
        Body::Event(Event::Reset) => "reset".to_owned(),
        Body::Decision(Decision::Accept { job, machine, deadline, preempted: Some(p) }) => {
            format!("  accept job {job} on m{machine}, deadline {deadline}, interrupts job {p}")
        }
        Body::Decision(Decision::Accept { job, machine, deadline, preempted: None }) => {
            format!("  accept job {job} on m{machine}, deadline {deadline}")
        }
        Body::Decision(Decision::Reject { job, reason }) => format!("  reject job {job}: {reason}"),
        Body::Decision(Decision::Start { t, job, machine }) => {
            format!("  t={t} start job {job} on m{machine}")
        }
        Body::Decision(Decision::Preempt { t, job, machine }) => {
            format!("  t={t} preempt job {job} on m{machine}")
        }
        Body::Decision(Decision::Complete { t, job, machine }) => {
            format!("  t={t} complete job {job} on m{machine}")
        }
        Body::ReservationEvent(event) => describe_reservation_event(&event),
        Body::ReservationDecision(decision) => describe_reservation_decision(&decision),
    }
}

fn describe_reservation_event(event: &reservation::Event) -> String {
    match *event {
        reservation::Event::Request(r) => format!(
            "t={} request job {}: {} nodes x {} ticks, {} window [{}, {}], key {}",
            r.t,
            r.job,
            r.nodes,
            r.estimate,
            kind_name(r.kind),
            r.ready,
            r.deadline,
            r.shuffle_key
        ),
        reservation::Event::Advance { t } if t == Tick::MAX => "t=end advance".to_owned(),
        reservation::Event::Advance { t } => format!("t={t} advance"),
        reservation::Event::Finish { t, job } => format!("t={t} finish job {job}"),
        reservation::Event::Reset => "reset".to_owned(),
    }
}

fn describe_reservation_decision(decision: &reservation::Decision) -> String {
    use reservation::Decision as D;
    match *decision {
        D::Accept { job, start } => format!("  accept job {job}, start {start}"),
        D::Reject { job, reason } => format!("  reject job {job}: {reason}"),
        D::Offer { job, ready, deadline, start } => {
            format!("  offer job {job} the window [{ready}, {deadline}], start {start}")
        }
        D::Replan { job, start } => format!("  replan job {job} to start {start}"),
        D::Fix { t, job } => format!("  t={t} fix job {job}"),
        D::Start { t, job } => format!("  t={t} start job {job}"),
        D::End { t, job, early, cut } => {
            let how = match (early, cut) {
                (false, false) => "",
                (true, false) => " (early)",
                (false, true) => " (cut)",
                (true, true) => " (early, cut)",
            };
            format!("  t={t} end job {job}{how}")
        }
    }
}

/// One tiers record, readably (for listings and snapshots).
fn describe_tiers(body: &Body) -> String {
    use kernel::tiers::{Decision as D, Event as E, Tier, Violation};
    match *body {
        Body::TiersEvent(E::Submit(r)) if r.tier == Tier::Bronze => {
            format!("t={} submit job {} bronze work {}", r.t, r.job, r.work)
        }
        Body::TiersEvent(E::Submit(r)) => {
            format!(
                "t={} submit job {} {} work {} window [{}, {}]",
                r.t,
                r.job,
                r.tier.name(),
                r.work,
                r.ready,
                r.deadline
            )
        }
        Body::TiersEvent(E::Advance { t }) => format!("t={t} advance"),
        Body::TiersEvent(E::Finish { t, job }) => format!("t={t} finish job {job}"),
        Body::TiersEvent(E::Leave { t, resource }) => format!("t={t} r{resource} leaves"),
        Body::TiersEvent(E::Return { t, resource }) => format!("t={t} r{resource} returns"),
        Body::TiersEvent(E::Reset) => "reset".to_owned(),
        Body::TiersDecision(d) => match d {
            D::Accept { job, resource, start } => format!("  accept job {job} on r{resource} at {start}"),
            D::Reject { job, reason } => format!("  reject job {job}: {reason}"),
            D::Move { job, resource, start, for_job } => {
                format!("  move job {job} to r{resource} at {start} (for job {for_job})")
            }
            D::Start { t, job } => format!("  t={t} start job {job}"),
            D::End { t, job, late } => format!("  t={t} end job {job}{}", if late { " (late)" } else { "" }),
            D::Lost { t, job, running } => {
                format!("  t={t} lose job {job} ({})", if running { "running" } else { "waiting" })
            }
            D::Replace { job, resource, start } => format!("  re-place job {job} on r{resource} at {start}"),
            D::Violate { t, job, why } => format!(
                "  t={t} violate job {job} ({})",
                match why {
                    Violation::Late => "late",
                    Violation::Lost => "lost",
                }
            ),
        },
        _ => String::new(),
    }
}

/// One SLA record, readably (for listings and snapshots).
fn describe_sla(body: &Body) -> String {
    use kernel::sla::{Decision as D, Event as E};
    match *body {
        Body::SlaEvent(E::Submit { t, request: r }) => {
            format!("t={t} submit job {}: {} nodes x {} ticks in [{}, {}]", r.job, r.ncpu, r.td, r.ts, r.tf)
        }
        Body::SlaEvent(E::Plan { t }) => format!("t={t} plan"),
        Body::SlaEvent(E::Reset { t }) => format!("t={t} reset"),
        Body::SlaDecision(D::Accept { job, start }) => format!("  accept job {job} at {start}"),
        Body::SlaDecision(D::Reject { job, reason }) => format!("  reject job {job}: {reason}"),
        _ => String::new(),
    }
}

/// `sla_submit` (the request's fields), `sla_plan` and `sla_reset`.
fn write_sla_event<W: Write>(out: &mut W, seq: u64, event: &kernel::sla::Event) -> std::io::Result<()> {
    use kernel::sla::Event as E;
    match *event {
        E::Submit { t, request: r } => writeln!(
            out,
            r#"{{"kind":"sla_submit","seq":{seq},"t":{t},"job":{},"ts":{},"tf":{},"td":{},"ncpu":{}}}"#,
            r.job, r.ts, r.tf, r.td, r.ncpu
        ),
        E::Plan { t } => writeln!(out, r#"{{"kind":"sla_plan","seq":{seq},"t":{t}}}"#),
        E::Reset { t } => writeln!(out, r#"{{"kind":"sla_reset","seq":{seq},"t":{t}}}"#),
    }
}

/// `sla_accept` and `sla_reject`, with the time of the event that decided them.
fn write_sla_decision<W: Write>(
    out: &mut W,
    seq: u64,
    t: Tick,
    decision: &kernel::sla::Decision,
) -> std::io::Result<()> {
    use kernel::sla::Decision as D;
    match *decision {
        D::Accept { job, start } => {
            writeln!(out, r#"{{"kind":"sla_accept","seq":{seq},"t":{t},"job":{job},"start":{start}}}"#)
        }
        D::Reject { job, reason } => {
            writeln!(out, r#"{{"kind":"sla_reject","seq":{seq},"t":{t},"job":{job},"reason":"{reason}"}}"#)
        }
    }
}
