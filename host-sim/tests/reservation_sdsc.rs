//! The paper's trace, SDSC SP2, from `../shared/traces/` (relative to the workspace
//! root): FIFO at the trace's load, fixed intervals. Skipped, with a notice, only when
//! the traces folder is absent.

use std::path::PathBuf;

use host_sim::input::TraceArgs;
use host_sim::reservation::cli::{ReserveInput, load};
use host_sim::reservation::{Experiment, Input, simulate};
use kernel::reservation::Criterion;

#[test]
fn sdsc_fifo_at_the_traces_load() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let dir = root.join("../shared/traces");
    if !dir.is_dir() {
        println!("NOTICE: {} is absent; the SDSC reservation test is skipped", dir.display());
        return;
    }
    let input = ReserveInput {
        source: TraceArgs { trace: vec![dir.join("SDSC-SP2-1998-4.2-cln.swf.gz")], ..TraceArgs::default() },
        seed: 1,
        window: 15 * 86_400,
        nodes: None,
        slot: 60,
    };
    let loaded = load(&input).unwrap();
    assert_eq!(loaded.nodes, 128);
    let jobs = Input { jobs: &loaded.workload.jobs };
    let experiment = Experiment { criterion: Criterion::Fifo, ..Experiment::paper(128) };
    let a = simulate(&jobs, &experiment).unwrap();
    assert_eq!(a.jobs_kept, 41_036);
    assert_eq!(a.windows.len(), 48);
    assert_eq!(a.totals.requests, 40_824);
    assert_eq!(a.totals.accepted, 34_275);
    // Nothing is refused for want of capacity: the figures are the paper's model.
    assert_eq!(a.totals.rejected.keys().copied().collect::<Vec<_>>(), ["no_room"]);
    assert!(a.totals.deepest_waiting < 2048);
    assert!((a.utilisation.0 - 50.6).abs() < 0.05, "{}", a.utilisation.0);
    let b = simulate(&jobs, &experiment).unwrap();
    assert_eq!(a, b, "same seed, same run");
}
