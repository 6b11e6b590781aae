//! The example inputs shipped in `examples/`, run as the docs run them:
//! `event_trace.tab` through `host-sim tiers --availability`, and `what-if.toml`
//! through `host-sim --config FILE LOG`. Neither needs `../shared/traces`.

mod common;

use std::path::{Path, PathBuf};

use common::{host_sim, host_sim_in, scratch, stdout};
use replay::format::LogReader;
use serde_json::Value;

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples").join(name)
}

/// The JSON summary a run prints (its whole standard output, or its last line).
fn json(output: &std::process::Output) -> Value {
    let text = stdout(output);
    serde_json::from_str(&text)
        .unwrap_or_else(|_| serde_json::from_str(text.lines().last().unwrap()).unwrap())
}

#[test]
fn the_availability_example_is_an_archive_shaped_file() {
    let text = std::fs::read_to_string(example("event_trace.tab")).unwrap();
    assert!(text.len() < 8 * 1024, "a small file: {} bytes", text.len());
    let first = text.lines().next().unwrap();
    assert!(first.starts_with('#'), "a leading comment says what it is: {first}");
    assert!(text.contains("host-sim tiers --availability examples/event_trace.tab"));
    let header = text.lines().find(|l| !l.starts_with('#')).unwrap();
    assert!(header.starts_with("event_id\t\t"), "a line of column names, tab-padded: {header}");
    assert!(text.contains("\tNULL\t") && text.contains(".250\t"), "NULLs and fractional times");
}

#[test]
fn the_availability_example_drives_the_desktops() {
    let file = example("event_trace.tab");
    let run = json(&host_sim(&["tiers", "--availability", file.to_str().unwrap(), "--json"]));
    let a = &run["availability"];
    assert_eq!((a["events"].as_u64(), a["nodes"].as_u64()), (Some(58), Some(10)));
    assert_eq!((a["desktops"].as_u64(), a["nodes_left_out"].as_u64()), (Some(9), Some(1)));
    assert_eq!(a["desktops_left"].as_u64(), Some(9), "{a}");
    assert!(a["leaves"].as_u64().unwrap() > 9 && a["warning"].is_null(), "{a}");
    // The nodes begin years apart: on the file's own clock only the first is watched
    // during the run.
    let args = ["tiers", "--availability", file.to_str().unwrap(), "--availability-align", "file", "--json"];
    let file_clock = json(&host_sim(&args));
    assert_eq!(file_clock["availability"]["desktops_left"].as_u64(), Some(1), "{file_clock}");
}

/// `host-sim --config examples/what-if.toml LOG` from a folder laid out as the docs'
/// (`examples/` beside `out/`): the file's command and options, the log named on the
/// command line, the new log written where the file says (relative to its folder),
/// and that log the one `run` writes with the same changes.
#[test]
fn the_what_if_example_runs_on_a_log_given_on_the_command_line() {
    let dir = scratch("example-what-if");
    std::fs::create_dir_all(dir.join("examples")).unwrap();
    std::fs::create_dir_all(dir.join("out")).unwrap();
    std::fs::copy(example("what-if.toml"), dir.join("examples/what-if.toml")).unwrap();
    let text = std::fs::read_to_string(example("what-if.toml")).unwrap();
    assert!(text.starts_with('#') && text.contains("host-sim --config examples/what-if.toml out/kth.log"));
    stdout(&host_sim_in(&dir, &["run", "--jobs", "300", "--machines", "4", "--log", "out/kth.log"]));
    let summary = json(&host_sim_in(&dir, &["--config", "examples/what-if.toml", "out/kth.log", "--json"]));
    assert_eq!((summary["machines"].as_u64(), summary["policy"].as_str()), (Some(6), Some("best-fit")));
    assert_eq!(summary["levels"][0]["slack_milli"].as_u64(), Some(1500));
    let what_if = std::fs::read(dir.join("out/kth-what-if.log")).unwrap();
    replay::verify::verify(LogReader::new(std::io::Cursor::new(&what_if)).unwrap()).unwrap();
    let direct = ["run", "--jobs", "300", "--machines", "6", "--policy", "best-fit", "--slack", "1.5"];
    stdout(&host_sim_in(&dir, &[&direct[..], &["--log", "out/direct.log"]].concat()));
    assert_eq!(what_if, std::fs::read(dir.join("out/direct.log")).unwrap());
}
