//! Outputs never destroy: each way a run could replace something it should not, tried
//! on the binary. A device (a copy of /dev/null made with `mknod` in a scratch folder),
//! a symbolic link, an output equal to the input, two equal outputs, and a run
//! stopped by SIGTERM while its log is being written.

mod common;

use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use common::{HAND_TRACE, host_sim, stderr_of_failure, stdout};

fn trace_in(dir: &Path) -> String {
    let trace = dir.join("hand.swf");
    fs::write(&trace, HAND_TRACE).unwrap();
    trace.display().to_string()
}

#[test]
fn a_log_named_as_the_trace_is_refused_and_the_trace_kept() {
    let dir = common::scratch("log-is-trace");
    let trace = trace_in(&dir);
    let stderr = stderr_of_failure(&host_sim(&["run", "--trace", &trace, "--log", &trace]));
    assert!(stderr.contains("--log") && stderr.contains("same file as --trace"), "{stderr}");
    assert_eq!(fs::read_to_string(&trace).unwrap(), HAND_TRACE);
    for model in ["reserve", "tiers", "sla"] {
        let stderr = stderr_of_failure(&host_sim(&[model, "--trace", &trace, "--log", &trace]));
        assert!(stderr.contains("same file as --trace"), "{model}: {stderr}");
        assert_eq!(fs::read_to_string(&trace).unwrap(), HAND_TRACE, "{model}");
    }
}

#[test]
fn two_outputs_on_one_file_are_refused_before_anything_runs() {
    let dir = common::scratch("two-outputs");
    let trace = trace_in(&dir);
    let out = dir.join("both.out").display().to_string();
    let stderr = stderr_of_failure(&host_sim(&["run", "--trace", &trace, "--log", &out, "--jobs-out", &out]));
    assert!(
        stderr.contains("--log") && stderr.contains("--jobs-out") && stderr.contains("same file"),
        "{stderr}"
    );
    assert!(!Path::new(&out).exists());
}

#[cfg(unix)]
#[test]
fn a_log_through_a_symbolic_link_keeps_the_link() {
    let dir = common::scratch("link");
    let trace = trace_in(&dir);
    let link = dir.join("latest.log");
    let _ = fs::remove_file(&link);
    std::os::unix::fs::symlink("run-1.log", &link).unwrap();
    stdout(&host_sim(&["run", "--trace", &trace, "--log", &link.display().to_string()]));
    assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert!(fs::read(dir.join("run-1.log")).unwrap().starts_with(b"ADMLOG"));
}

#[cfg(unix)]
#[test]
fn a_log_on_a_device_writes_through_it() {
    use std::os::unix::fs::FileTypeExt;
    let dir = common::scratch("device");
    let trace = trace_in(&dir);
    let device = dir.join("null");
    let _ = fs::remove_file(&device);
    let made = Command::new("mknod").arg(&device).args(["c", "1", "3"]).status().is_ok_and(|s| s.success());
    if !made {
        println!("NOTICE: mknod needs root; the device case was not tried");
        return;
    }
    let device_text = device.display().to_string();
    stdout(&host_sim(&["run", "--trace", &trace, "--log", &device_text, "--jobs-out", &device_text]));
    assert!(fs::metadata(&device).unwrap().file_type().is_char_device());
    assert!(!dir.join("null.tmp").exists());
}

#[cfg(unix)]
#[test]
fn sigterm_mid_run_removes_the_staged_log() {
    use std::os::unix::process::ExitStatusExt;
    let dir = common::scratch("sigterm");
    let log = dir.join("big.log");
    let tmp = dir.join("big.log.tmp");
    let _ = fs::remove_file(&tmp);
    // Three million synthetic jobs: seconds of work after the log is opened.
    let mut child = Command::new(env!("CARGO_BIN_EXE_host-sim"))
        .args(["run", "--jobs", "3000000", "--machines", "4", "--log"])
        .arg(&log)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while !tmp.exists() {
        assert!(started.elapsed() < Duration::from_secs(120), "the log was never opened");
        assert!(child.try_wait().unwrap().is_none(), "the run ended before it could be interrupted");
        std::thread::sleep(Duration::from_millis(20));
    }
    let Ok(sent) = Command::new("kill").args(["-TERM", &child.id().to_string()]).status() else {
        // No `kill` program (Debian's procps): the case cannot be tried from here.
        println!("NOTICE: no kill command; the SIGTERM case was not tried");
        let _ = child.kill();
        let _ = child.wait();
        return;
    };
    assert!(sent.success());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(128 + 15), "{status:?} (signal {:?})", status.signal());
    assert!(!tmp.exists(), "the staged log was left behind");
    assert!(!log.exists());
}
