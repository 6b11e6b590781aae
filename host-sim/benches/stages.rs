//! Where host-sim's end-to-end time goes, stage by stage, on the NASA trace with the
//! set-up `cargo xtask bench` runs (64 machines, one level, sf 2): reading and
//! decompressing the gzipped trace, parsing it from memory, the run loop without a
//! log, and the run loop writing its log into memory.
//!
//! Run with `cargo bench -p host-sim --bench stages`. The sum is the process's time
//! less its start-up and the JSON summary.
//!
//! Then the stages of `host-sim run` on HPC2N, the largest shared trace, with 64
//! machines and its log, as one pass runs them on two cores: inflating the file
//! alone (what `gzip -dc` does), parsing its inflated text from memory on one
//! thread, reading it in one pass (inflate, CRC-64, parse and order on their two
//! threads, the jobs drained), the run loop alone from jobs in memory, and the run
//! loop handing its records to the log's own thread.

mod support;

use divan::Bencher;
use divan::counter::ItemsCount;
use host_sim::record_log::Threaded;
use host_sim::service_level::levels::single;
use host_sim::service_level::sim::{self, RunConfig};
use host_sim::swf::{self, Scan, SwfOptions};
use kernel::log::Body;
use kernel::service_level::{Decision, Event};
use replay::format::{FormatError, LogWriter};

const NASA: &str = "NASA-iPSC-1993-3.1-cln";
const HPC2N: &str = "HPC2N-2002-2.2-cln";

fn main() {
    divan::main();
}

fn config() -> RunConfig {
    RunConfig::new(64, single(2000))
}

/// `swf::read`: the file, gunzip, parse.
#[divan::bench]
fn read_gz(bencher: Bencher) {
    let path = support::trace_path(NASA);
    let jobs = support::trace(NASA).workload.jobs.len();
    bencher.counter(ItemsCount::new(jobs)).bench(|| swf::read(&path, SwfOptions::default()).unwrap());
}

/// `swf::parse` of the decompressed bytes, already in memory.
#[divan::bench]
fn parse(bencher: Bencher) {
    let raw = std::fs::read(support::trace_path(NASA)).unwrap();
    let bytes = swf::decompress(NASA, raw).unwrap();
    let jobs = support::trace(NASA).workload.jobs.len();
    bencher.counter(ItemsCount::new(jobs)).bench(|| swf::parse(NASA, &bytes, SwfOptions::default()).unwrap());
}

/// `sim::run` without a log: engine, kernel, metrics.
#[divan::bench]
fn run(bencher: Bencher) {
    let jobs = support::trace(NASA).workload.jobs;
    let config = config();
    bencher.counter(ItemsCount::new(jobs.len())).bench(|| sim::run(&config, &jobs, None).unwrap());
}

/// `sim::run` writing its log into a `Vec`.
#[divan::bench]
fn run_logged(bencher: Bencher) {
    let workload = support::trace(NASA).workload;
    let config = config();
    let header = config.log_header(&workload);
    bencher.counter(ItemsCount::new(workload.jobs.len())).bench(|| {
        let mut log = LogWriter::new(Vec::with_capacity(4 << 20), &header).unwrap();
        sim::run(&config, &workload.jobs, Some(&mut log)).unwrap();
        log.finish().unwrap()
    });
}

/// HPC2N inflated into memory: the decompressor alone.
#[divan::bench]
fn hpc2n_inflate(bencher: Bencher) {
    let raw = std::fs::read(support::trace_path(HPC2N)).unwrap();
    bencher.bench(|| swf::decompress(HPC2N, raw.clone()).unwrap().len());
}

/// HPC2N's text parsed from memory: lines, fields, exclusion and order.
#[divan::bench]
fn hpc2n_parse(bencher: Bencher) {
    let raw = std::fs::read(support::trace_path(HPC2N)).unwrap();
    let bytes = swf::decompress(HPC2N, raw).unwrap();
    bencher.bench(|| swf::parse(HPC2N, &bytes, SwfOptions::default()).unwrap().workload.jobs.len());
}

/// HPC2N's run on 64 machines from jobs in memory, without a log: the kernel's steps
/// and the run loop.
#[divan::bench]
fn hpc2n_run(bencher: Bencher) {
    let jobs = support::trace(HPC2N).workload.jobs;
    let config = RunConfig::new(64, single(2000));
    bencher.counter(ItemsCount::new(jobs.len())).bench(|| sim::run(&config, &jobs, None).unwrap());
}

/// HPC2N read in one pass (`Scan::once`), every job drained, the tallies waited for.
#[divan::bench]
fn hpc2n_read_once(bencher: Bencher) {
    let path = support::trace_path(HPC2N);
    let jobs = support::trace(HPC2N).workload.jobs.len();
    bencher.counter(ItemsCount::new(jobs)).bench(|| {
        let mut once = Scan::once(&path, SwfOptions::default(), None).unwrap();
        let taken = once.by_ref().count();
        (taken, once.finish().unwrap().scan.jobs)
    });
}

/// HPC2N's run on 64 machines from jobs in memory, its records encoded on the log's
/// own thread into a `Vec`.
#[divan::bench]
fn hpc2n_run_threaded_log(bencher: Bencher) {
    let workload = support::trace(HPC2N).workload;
    let config = RunConfig::new(64, single(2000));
    let header = config.log_header(&workload);
    bencher.counter(ItemsCount::new(workload.jobs.len())).bench(|| {
        let mut log = Threaded::new(LogWriter::new(Vec::with_capacity(4 << 20), &header).unwrap()).unwrap();
        sim::run(&config, &workload.jobs, Some(&mut log)).unwrap();
        log.finish().unwrap().finish().unwrap()
    });
}

/// HPC2N's records (64 machines) encoded into a `Vec` on the caller's thread: what the
/// log's own thread does in `host-sim run`, alone.
#[divan::bench]
fn hpc2n_encode(bencher: Bencher) {
    let workload = support::trace(HPC2N).workload;
    let config = RunConfig::new(64, single(2000));
    let header = config.log_header(&workload);
    let mut records = Recorded::default();
    sim::run(&config, &workload.jobs, Some(&mut records)).unwrap();
    bencher.counter(ItemsCount::new(records.0.len())).bench(|| {
        let mut log = LogWriter::new(Vec::with_capacity(4 << 20), &header).unwrap();
        log.record_all(&records.0).unwrap();
        log.finish().unwrap()
    });
}

/// Every record a run hands over, in order.
#[derive(Default)]
struct Recorded(Vec<Body>);

impl sim::Recorder for Recorded {
    fn event(&mut self, event: &Event) -> Result<(), FormatError> {
        self.0.push(Body::Event(*event));
        Ok(())
    }

    fn decision(&mut self, decision: &Decision) -> Result<(), FormatError> {
        self.0.push(Body::Decision(*decision));
        Ok(())
    }
}
