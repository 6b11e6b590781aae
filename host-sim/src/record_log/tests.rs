//! A log encoded apart ([`Threaded::apart`], its [`LogWork`] run by another
//! thread between other work) is the log its own thread writes.

use kernel::log::Body;
use kernel::service_level::{Decision, Event, Level, Policy};
use replay::format::{Header, LogWriter, ServiceLevelHeader};

use super::{BATCH, LogWork, Threaded};

fn header() -> Header {
    let levels = vec![Level::whole(1, 20)];
    Header::new(ServiceLevelHeader::new(2, 64, Policy::FirstFit, levels).into()).with_input("unit", 7)
}

/// Three records a job, for several batches' worth and a part.
fn bodies() -> Vec<Body> {
    let jobs = u32::try_from(3 * BATCH / 2).unwrap();
    (0..jobs)
        .flat_map(|job| {
            let t = u64::from(job) * 3;
            [
                Body::Event(Event::Submit { t, job, p: 2, level: 0 }),
                Body::Decision(Decision::Accept { job, machine: 1, deadline: t + 4, preempted: None }),
                Body::Decision(Decision::Start { t, job, machine: 1 }),
            ]
        })
        .collect()
}

fn writer() -> LogWriter<Vec<u8>> {
    LogWriter::new(Vec::new(), &header()).unwrap()
}

/// Records `bodies`, and the log's bytes once finished.
fn written(mut log: Threaded<Vec<u8>>, bodies: &[Body]) -> Vec<u8> {
    for body in bodies {
        log.record(*body);
    }
    log.finish().unwrap().finish().unwrap()
}

#[test]
fn a_log_encoded_apart_is_the_log_its_own_thread_writes() {
    let bodies = bodies();
    let own = written(Threaded::new(writer()).unwrap(), &bodies);
    let mut direct = writer();
    direct.record_all(&bodies).unwrap();
    assert_eq!(own, direct.finish().unwrap());
    // The work helped now and then, waited for, and finished.
    let (log, mut work) = Threaded::apart(writer());
    let helper = std::thread::spawn(move || {
        work.help();
        while work.wait(std::time::Duration::from_millis(5)) {
            work.help();
        }
        work.finish();
    });
    let apart = written(log, &bodies);
    helper.join().unwrap();
    assert_eq!(apart, own);
}

#[test]
fn a_log_whose_work_is_never_run_says_so() {
    let (log, work) = Threaded::apart(writer());
    drop::<LogWork<_>>(work);
    let error = log.finish().unwrap_err();
    assert_eq!(error.to_string(), "i/o error: the log's thread stopped");
}
