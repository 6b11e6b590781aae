//! Same content, same bytes: a log is a function of the input's content and the
//! configuration. Each model runs its sample (`HostModel::SAMPLE`) twice, from two working
//! directories, once with an absolute and once with a relative trace path, writing
//! logs of two different names; the two logs must be identical byte for byte. The
//! header then names the trace by its file name alone.

mod common;

use std::path::Path;

use common::{HAND_TRACE, host_sim_in, scratch, stdout};

/// Runs `args` (with the trace and the log appended) from two folders and returns
/// both logs.
fn twice(name: &str, args: &[&str]) -> (Vec<u8>, Vec<u8>) {
    let root = scratch(&format!("determinism-{name}"));
    let traces = root.join("traces");
    let (first_dir, second_dir) = (root.join("one"), root.join("two/deeper"));
    for dir in [&traces, &first_dir, &second_dir] {
        std::fs::create_dir_all(dir).unwrap();
    }
    let trace = traces.join("hand.swf");
    std::fs::write(&trace, HAND_TRACE).unwrap();
    let absolute = trace.canonicalize().unwrap();
    let absolute = absolute.to_str().unwrap();
    let runs: [(&Path, &str, &str); 2] =
        [(&first_dir, absolute, "first.log"), (&second_dir, "../../traces/hand.swf", "second.log")];
    let mut logs = Vec::new();
    for (dir, trace, log) in runs {
        stdout(&host_sim_in(dir, &[args, &["--trace", trace, "--log", log]].concat()));
        logs.push(std::fs::read(dir.join(log)).unwrap());
    }
    std::fs::remove_dir_all(&root).unwrap();
    let second = logs.pop().unwrap();
    (logs.pop().unwrap(), second)
}

fn assert_same(model: &str, (first, second): (Vec<u8>, Vec<u8>)) {
    assert!(!first.is_empty());
    if let Some(at) = first.iter().zip(&second).position(|(a, b)| a != b) {
        panic!("{model}: the logs differ first at byte {at}");
    }
    assert_eq!(first.len(), second.len(), "{model}: the logs differ in length");
    let header = replay::format::LogReader::new(&first[..]).unwrap().header().clone();
    assert_eq!(header.inputs.len(), 1, "{model}");
    assert_eq!(header.inputs[0].name, "hand.swf", "{model}");
    assert!(header.check().is_ok(), "{model}: {:?}", header.check());
}

#[test]
fn every_model_logs_the_same_bytes_from_anywhere() {
    assert_eq!(host_sim::model::SAMPLES.len(), host_sim::model::MODELS.len());
    for &(model, args) in host_sim::model::SAMPLES {
        assert_same(model, twice(model, args));
    }
}

#[test]
fn every_policy_logs_the_same_bytes_from_anywhere() {
    for policy in ["best-fit", "worst-fit", "least-loaded", "round-robin"] {
        let args = ["run", "--machines", "3", "--levels", "1,2,3", "--seed", "3", "--policy", policy];
        assert_same(policy, twice(policy, &args));
    }
}
