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

/// Runs `args` and checks it fails naming `input`, which is left as it was, with no
/// `.tmp` beside it.
fn refused_and_kept(args: &[&str], input: &Path, text: &str) -> String {
    let stderr = stderr_of_failure(&host_sim(args));
    let figure = "gets the figures (*.svg) and";
    assert!(stderr.contains("same file as") || stderr.contains(figure), "{args:?}: {stderr}");
    assert_eq!(fs::read_to_string(input).unwrap(), text, "{args:?} changed {}", input.display());
    let tmp = replay::staged::tmp_path(input);
    assert!(!tmp.exists(), "{args:?} left {}", tmp.display());
    stderr
}

#[test]
fn the_scenario_file_is_an_input_of_every_subcommand() {
    let dir = common::scratch("scenario-input");
    let trace = trace_in(&dir);
    let scenario = dir.join("s.toml");
    let path = scenario.display().to_string();
    let text = "command = \"run\"\ntrace = \"hand.swf\"\nlog = \"s.toml\"\n";
    fs::write(&scenario, text).unwrap();
    let stderr = refused_and_kept(&["--config", &path], &scenario, text);
    assert!(stderr.contains("--log") && stderr.contains("--config") && stderr.contains(":3, key `log`"));
    let text = "jobs = 10\n";
    fs::write(&scenario, text).unwrap();
    let spelled = dir.join(".").join("s.toml").display().to_string();
    for option in ["--log", "--jobs-out", "--stream-out"] {
        refused_and_kept(&["run", "--config", &path, option, &spelled], &scenario, text);
    }
    for model in ["reserve", "tiers", "sla"] {
        let text = format!("trace = {:?}\n", trace);
        fs::write(&scenario, &text).unwrap();
        refused_and_kept(&[model, "--config", &path, "--log", &path], &scenario, &text);
    }
    fs::write(&scenario, "trace = \"hand.swf\"\n").unwrap();
    refused_and_kept(&["optimum", "--config", &path, "--out", &path], &scenario, "trace = \"hand.swf\"\n");
    #[cfg(unix)]
    {
        let link = dir.join("latest.log");
        std::os::unix::fs::symlink("s.toml", &link).unwrap();
        let link = link.display().to_string();
        refused_and_kept(&["run", "--config", &path, "--log", &link], &scenario, "trace = \"hand.swf\"\n");
    }
}

/// Every file `args` writes in `out`, found by running it there once.
fn written(args: &[&str], out: &Path) -> Vec<String> {
    stdout(&host_sim(args));
    let mut names: Vec<String> =
        fs::read_dir(out).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    fs::remove_dir_all(out).unwrap();
    assert!(!names.is_empty(), "{args:?} wrote nothing");
    names
}

/// Each file a folder output writes, put where an input is (the trace, or the
/// scenario for the sweeps that read no trace), is refused and kept.
#[test]
fn no_folder_output_writes_over_an_input() {
    let dir = common::scratch("folder-over-input");
    let out = dir.join("out");
    let o = out.display().to_string();
    let trace = "hand.swf";
    let sweeps: [(&str, &[&str]); 5] = [
        ("trace", &["sweep", "--slacks", "1", "--machine-counts", "1", "--modes", "single"]),
        ("trace", &["compare"]),
        ("trace", &["reserve-sweep"]),
        ("config", &["tiers-sweep", "--seeds", "1..1"]),
        ("config", &["sla-sweep", "--sets", "1", "--no-plots"]),
    ];
    for (input, args) in sweeps {
        let (scenario, given) = (dir.join("first.toml"), dir.join("hand.swf"));
        fs::write(&given, HAND_TRACE).unwrap();
        let first = if input == "trace" { format!("trace = {trace:?}\n") } else { "\n".to_owned() };
        fs::write(&scenario, &first).unwrap();
        let first_path = scenario.display().to_string();
        let run = [args, &["--config", &first_path, "--out", &o]].concat();
        for name in written(&run, &out) {
            fs::create_dir_all(&out).unwrap();
            let at = out.join(&name);
            let (text, config) = if input == "trace" {
                (HAND_TRACE.to_owned(), format!("trace = {:?}\n", at.display().to_string()))
            } else {
                ("\n".to_owned(), String::new())
            };
            fs::write(&at, &text).unwrap();
            let scenario = if input == "trace" { dir.join("s.toml") } else { at.clone() };
            if input == "trace" {
                fs::write(&scenario, &config).unwrap();
            }
            let s = scenario.display().to_string();
            refused_and_kept(&[args, &["--config", &s, "--out", &o]].concat(), &at, &text);
            // Refused before the run, figures too: the failed run wrote nothing.
            assert_eq!(fs::read_dir(&out).unwrap().count(), 1, "{args:?} {name}: the failed run wrote files");
            fs::remove_dir_all(&out).unwrap();
        }
    }
}

#[test]
fn criteria_and_cv_sweep_write_over_no_input() {
    let dir = common::scratch("criteria-over-input");
    let trace = trace_in(&dir);
    let sweep = dir.join("sweep");
    let s = sweep.display().to_string();
    let grid = ["sweep", "--trace", &trace, "--slacks", "1", "--machine-counts", "1", "--modes", "single"];
    stdout(&host_sim(&[&grid[..], &["--no-plots", "--out", &s]].concat()));
    let kept = fs::read_to_string(sweep.join("sweep.csv")).unwrap();
    // Its input is SWEEP_DIR/sweep.csv; a link named criteria.csv would replace it.
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("sweep.csv", sweep.join("criteria.csv")).unwrap();
        let stderr =
            refused_and_kept(&["criteria", &s, "--machine-counts", "1"], &sweep.join("sweep.csv"), &kept);
        assert!(stderr.contains("SWEEP_DIR"), "{stderr}");
        fs::remove_file(sweep.join("criteria.csv")).unwrap();
    }
    let scenario = sweep.join("criteria.csv");
    fs::write(&scenario, "machine-counts = \"1\"\n").unwrap();
    let c = scenario.display().to_string();
    refused_and_kept(&["criteria", &s, "--config", &c], &scenario, "machine-counts = \"1\"\n");
    // cv-sweep is refused before it asks for the solver.
    let out = dir.join("cv");
    fs::create_dir_all(&out).unwrap();
    let at = out.join("cv.csv");
    fs::write(&at, HAND_TRACE).unwrap();
    let (a, o) = (at.display().to_string(), out.display().to_string());
    refused_and_kept(&["cv-sweep", "--trace", &a, "--out", &o], &at, HAND_TRACE);
}

#[test]
fn an_output_folder_that_is_a_file_is_named() {
    let dir = common::scratch("out-is-file");
    let trace = trace_in(&dir);
    for sweep in ["sweep", "compare", "reserve-sweep", "tiers-sweep", "sla-sweep", "cv-sweep"] {
        let args: Vec<&str> = match sweep {
            "tiers-sweep" | "sla-sweep" => vec![sweep, "--out", &trace],
            _ => vec![sweep, "--trace", &trace, "--out", &trace],
        };
        let stderr = stderr_of_failure(&host_sim(&args));
        let expected = format!("--out {trace} names a folder to write in, and {trace} is a file");
        assert!(stderr.contains(&expected), "{sweep}: {stderr}");
        assert_eq!(fs::read_to_string(&trace).unwrap(), HAND_TRACE);
    }
}

#[test]
fn a_trace_given_twice_is_refused_naming_both() {
    let dir = common::scratch("trace-twice");
    let trace = trace_in(&dir);
    let again = dir.join(".").join("hand.swf").display().to_string();
    let out = dir.join("cv").display().to_string();
    for sub in ["run", "sweep", "cv-sweep", "reserve", "compare"] {
        let mut args = vec![sub, "--trace", &trace, "--trace", &again];
        if sub == "cv-sweep" {
            args.extend(["--out", &out]);
        }
        let stderr = stderr_of_failure(&host_sim(&args));
        let expected =
            format!("--trace {trace} and --trace {again} name the same file; give each trace once");
        assert!(stderr.contains(&expected), "{sub}: {stderr}");
    }
}
