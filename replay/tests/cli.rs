//! The `replay` binary: outputs appear whole or not at all.

use std::process::Command;

use kernel::log::Body;
use kernel::service_level::{Decision, Event, Level, Policy};
use replay::format::{Header, LogWriter};

fn replay(args: &[&std::ffi::OsStr]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_replay")).args(args).output().expect("the replay binary runs")
}

/// A log of `jobs` submits with their accepts, large enough for several blocks.
fn log(jobs: u32) -> Vec<u8> {
    let header = Header::new(1, 1024, Policy::FirstFit, vec![Level::whole(2, 19)]).with_input("unit", 7);
    let mut writer = LogWriter::new(Vec::new(), &header).unwrap();
    for job in 0..jobs {
        let t = u64::from(job) * 10;
        writer.record(Body::Event(Event::Submit { t, job, p: 5, level: 0 })).unwrap();
        writer
            .record(Body::Decision(Decision::Accept { job, machine: 0, deadline: t + 10, preempted: None }))
            .unwrap();
    }
    writer.finish().unwrap()
}

#[test]
fn an_export_of_a_damaged_log_leaves_no_file() {
    let dir = std::env::temp_dir().join(format!("replay-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bytes = log(3000);
    let damaged = dir.join("damaged.log");
    let cut = bytes.len() / 2;
    std::fs::write(&damaged, &bytes[..cut]).unwrap();
    let out = dir.join("out.jsonl");
    let run = replay(&["export".as_ref(), damaged.as_os_str(), "--out".as_ref(), out.as_os_str()]);
    assert!(!run.status.success());
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("the log ends early"), "{stderr}");
    assert!(!out.exists(), "a partial export was left behind");
    assert!(!dir.join("out.jsonl.tmp").exists(), "the temporary file was left behind");
    // A whole log exports, and the file appears.
    let whole = dir.join("whole.log");
    std::fs::write(&whole, &bytes).unwrap();
    let run = replay(&["export".as_ref(), whole.as_os_str(), "--out".as_ref(), out.as_os_str()]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    // The header line, then one line per record.
    assert_eq!(std::fs::read_to_string(&out).unwrap().lines().count(), 1 + 6000);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_export_or_chart_over_its_own_log_is_refused_and_the_log_kept() {
    let dir = std::env::temp_dir().join(format!("replay-cli-self-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bytes = log(10);
    let path = dir.join("run.log");
    std::fs::write(&path, &bytes).unwrap();
    for command in ["export", "gantt"] {
        let run = replay(&[command.as_ref(), path.as_os_str(), "--out".as_ref(), path.as_os_str()]);
        assert!(!run.status.success(), "{command}");
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(stderr.contains("--out") && stderr.contains("same file as LOG"), "{command}: {stderr}");
        assert_eq!(std::fs::read(&path).unwrap(), bytes, "{command}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
