//! The committed logs under `logs/`: each scenario's log must be re-made byte for
//! byte, and must pass `replay verify`. A change of behaviour or of the format fails
//! here until the logs are re-recorded on purpose with
//! `RECORD_LOGS=1 cargo test -p snapshots --test committed_logs`.

use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

fn scenario_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(root().join("scenarios"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "scn"))
        .collect();
    files.sort();
    files
}

#[test]
fn committed_logs_are_remade_byte_for_byte_and_verify() {
    let record = std::env::var("RECORD_LOGS").is_ok_and(|v| v == "1");
    let mut scenarios: Vec<(String, snapshots::Scenario)> = scenario_files()
        .iter()
        .map(|path| {
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            let scenario = snapshots::parse(&name, &fs::read_to_string(path).unwrap()).unwrap();
            (name, scenario)
        })
        .collect();
    scenarios.push(("synthetic".to_owned(), snapshots::synthetic_sample()));
    for (name, scenario) in scenarios {
        let outcome = snapshots::run(&name, &scenario).unwrap();
        let bytes = snapshots::log_bytes(&name, &scenario, &outcome).unwrap();
        let log = root().join("logs").join(format!("{name}.log"));
        if record {
            fs::write(&log, &bytes).unwrap();
        }
        let committed =
            fs::read(&log).unwrap_or_else(|e| panic!("{}: {e} (record with RECORD_LOGS=1)", log.display()));
        assert!(committed == bytes, "{} differs from what the kernel writes now", log.display());
        let reader = replay::format::LogReader::new(&committed[..]).unwrap();
        let report = replay::verify::verify(reader).unwrap_or_else(|e| panic!("{}: {e}", log.display()));
        assert_eq!(report.records, outcome.bodies.len() as u64);
    }
}
