//! The `replay` binary: outputs appear whole or not at all.

use std::process::Command;

use kernel::log::Body;
use kernel::service_level::{Event, Level, Policy};
use replay::engine::service_level::ServiceLevelEngine;
use replay::format::{Header, LogWriter, ServiceLevelHeader};

fn replay(args: &[&std::ffi::OsStr]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_replay")).args(args).output().expect("the replay binary runs")
}

/// A log of `jobs` submits and the kernel's decisions, large enough for several
/// blocks; it verifies.
fn log(jobs: u32) -> Vec<u8> {
    let levels = [Level::whole(2, 19)];
    let header = Header::new(ServiceLevelHeader::new(1, 1024, Policy::FirstFit, levels.to_vec()).into())
        .with_input("unit", 7);
    let mut engine = ServiceLevelEngine::new(1, 1024, Policy::FirstFit, &levels).unwrap();
    let mut writer = LogWriter::new(Vec::new(), &header).unwrap();
    let events = (0..jobs).map(|job| Event::Submit { t: u64::from(job) * 10, job, p: 5, level: 0 });
    let mut decisions = Vec::new();
    for event in events.chain([Event::Advance { t: u64::MAX }]) {
        writer.record(Body::Event(event)).unwrap();
        decisions.clear();
        engine.step(event, &mut decisions);
        for &decision in &decisions {
            writer.record(Body::Decision(decision)).unwrap();
        }
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
    // The header line, then one line per record: each job's submit, accept, start and
    // completion, and the closing advance.
    assert_eq!(std::fs::read_to_string(&out).unwrap().lines().count(), 1 + 4 * 3000 + 1);
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

/// A kernel-made log of three jobs at once, each 10 ticks due at 10, on `machines`.
fn kernel_log(machines: u16) -> Vec<u8> {
    let header = Header::new(
        ServiceLevelHeader::new(machines, 16, Policy::FirstFit, vec![Level::whole(1, 20)]).into(),
    )
    .with_input("unit", 7);
    let mut engine =
        replay::engine::service_level::ServiceLevelEngine::from_header(header.service_level().unwrap())
            .unwrap();
    let mut writer = LogWriter::new(Vec::new(), &header).unwrap();
    let submits = (1..=3).map(|job| Event::Submit { t: 0, job, p: 10, level: 0 });
    for event in submits.chain([Event::Advance { t: u64::MAX }]) {
        let mut decisions = Vec::new();
        engine.step(event, &mut decisions);
        writer.record(Body::Event(event)).unwrap();
        decisions.into_iter().for_each(|d| writer.record(Body::Decision(d)).unwrap());
    }
    writer.finish().unwrap()
}

#[test]
fn diff_exits_0_when_the_same_1_when_different_2_on_error() {
    let dir = std::env::temp_dir().join(format!("replay-diff-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (one, two, cut) = (dir.join("one.log"), dir.join("two.log"), dir.join("cut.log"));
    std::fs::write(&one, kernel_log(1)).unwrap();
    std::fs::write(&two, kernel_log(2)).unwrap();
    let bytes = kernel_log(2);
    std::fs::write(&cut, &bytes[..bytes.len() - 3]).unwrap();
    let diff = |b: &std::path::Path, more: &[&str]| {
        let mut args = vec!["diff".as_ref(), one.as_os_str(), b.as_os_str()];
        args.extend(more.iter().map(std::ffi::OsStr::new));
        replay(&args)
    };
    let same = diff(&one, &[]);
    assert_eq!(same.status.code(), Some(0), "{}", String::from_utf8_lossy(&same.stderr));
    assert!(String::from_utf8_lossy(&same.stdout).contains("records: the same"));
    let different = diff(&two, &["--limit", "1"]);
    assert_eq!(different.status.code(), Some(1), "{}", String::from_utf8_lossy(&different.stderr));
    let table = String::from_utf8_lossy(&different.stdout);
    assert!(table.contains("rejected->accepted                1"), "{table}");
    assert!(
        table.contains("0 2: rejected->accepted: rejected no_feasible_machine | accepted machine 1"),
        "{table}"
    );
    let out = dir.join("diff.json");
    let json = diff(&two, &["--format", "json", "--out", out.to_str().unwrap()]);
    assert_eq!(json.status.code(), Some(1));
    let value: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(value["jobs_changed"], 1);
    // A damaged log: exit 2, the error names it, and no output file is left.
    let failed_out = dir.join("failed.csv");
    let damaged = diff(&cut, &["--format", "csv", "--out", failed_out.to_str().unwrap()]);
    assert_eq!(damaged.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&damaged.stderr).contains("cut.log"));
    assert!(!failed_out.exists() && !dir.join("failed.csv.tmp").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A device's record stream of `jobs` submits and their decisions, on the firmware's
/// size (`ServiceLevelKernel<4, 32, 8>`), with the start offset of each frame.
fn stream(jobs: u32) -> (Vec<u8>, Vec<usize>) {
    use kernel::service_level::{Config, ServiceLevelKernel};
    use kernel::stream::{DeviceModel, RECORD_BUFFER_BYTES, Setup, StreamWriter};
    let levels = heapless::Vec::from_slice(&[Level::whole(2, 19)]).unwrap();
    let config = Config { machines: 4, policy: Policy::FirstFit, levels };
    let setup: Setup<8> = Setup::new("cli test", DeviceModel::service_level::<4, 32, 8>(&config).unwrap());
    let mut kernel = Box::new(ServiceLevelKernel::<4, 32, 8>::new(config).unwrap());
    let mut writer = StreamWriter::new();
    let mut buf = [0u8; 2 * RECORD_BUFFER_BYTES];
    let mut bytes = writer.setup(&setup, &mut buf).unwrap().to_vec();
    let mut starts = vec![0];
    let mut bodies = Vec::new();
    for job in 0..jobs {
        let event = Event::Submit { t: u64::from(job) * 10, job, p: 5, level: 0 };
        bodies.push(Body::Event(event));
        kernel.step(event, &mut |d| bodies.push(Body::Decision(d)));
    }
    let advance = Event::Advance { t: u64::MAX };
    bodies.push(Body::Event(advance));
    kernel.step(advance, &mut |d| bodies.push(Body::Decision(d)));
    for body in bodies {
        starts.push(bytes.len());
        bytes.extend_from_slice(writer.record(body, &mut buf).unwrap());
    }
    starts.push(bytes.len());
    bytes.extend_from_slice(writer.end(&mut buf).unwrap());
    (bytes, starts)
}

#[test]
fn a_stream_is_imported_and_verified_and_its_damage_named_by_offset() {
    let dir = std::env::temp_dir().join(format!("replay-cli-stream-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (bytes, starts) = stream(100);
    let path = dir.join("device.stream");
    std::fs::write(&path, &bytes).unwrap();
    let log = dir.join("device.log");
    let run = replay(&["import".as_ref(), path.as_os_str(), "--out".as_ref(), log.as_os_str()]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let verified = replay(&["verify".as_ref(), log.as_os_str()]);
    assert!(verified.status.success(), "{}", String::from_utf8_lossy(&verified.stderr));
    let direct = replay(&["verify".as_ref(), path.as_os_str()]);
    assert!(direct.status.success(), "{}", String::from_utf8_lossy(&direct.stderr));
    let summary = String::from_utf8_lossy(&direct.stdout);
    let records = starts.len() - 2;
    assert!(summary.contains(&format!("verified {records} records (101 events, ")), "{summary}");

    // The stream is never the output.
    let run = replay(&["import".as_ref(), path.as_os_str(), "--out".as_ref(), path.as_os_str()]);
    assert!(!run.status.success());
    assert_eq!(std::fs::read(&path).unwrap(), bytes);

    // One byte flipped in record 41's frame: that frame, by its offset; nothing written.
    let mut damaged = bytes.clone();
    damaged[starts[42] + 3] ^= 0x10;
    let bad = dir.join("bad.stream");
    std::fs::write(&bad, &damaged).unwrap();
    let bad_log = dir.join("bad.log");
    let run = replay(&["import".as_ref(), bad.as_os_str(), "--out".as_ref(), bad_log.as_os_str()]);
    assert!(!run.status.success());
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains(&format!("bad.stream: byte {} (", starts[42])), "{stderr}");
    assert!(stderr.contains("; record 41 lost"), "{stderr}");
    assert!(stderr.contains(&format!("({} records); 1 record lost", records - 1)), "{stderr}");
    assert_eq!(stderr.matches(" lost\n").count(), 2, "{stderr}");
    assert!(!bad_log.exists() && !dir.join("bad.log.tmp").exists());
    let run = replay(&["verify".as_ref(), bad.as_os_str()]);
    assert!(!run.status.success());
    std::fs::remove_dir_all(&dir).unwrap();
}
