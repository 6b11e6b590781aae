//! The rough edges a bad-input campaign found, each as a reproduction: every one of
//! these failed before it was fixed.

mod common;

use common::{HAND_TRACE, host_sim, scratch, stderr_of_failure, stdout};

/// `--log` naming a directory is refused, and no `DIR.tmp` is left behind.
#[test]
fn a_log_path_that_is_a_directory_leaves_nothing_behind() {
    let dir = scratch("log-dir");
    let trace = dir.join("hand.swf");
    std::fs::write(&trace, HAND_TRACE).unwrap();
    let target = dir.join("logs");
    std::fs::create_dir_all(&target).unwrap();
    let (trace, target_text) = (trace.to_str().unwrap(), target.to_str().unwrap());
    for args in [
        vec!["run", "--trace", trace, "--log", target_text],
        vec!["reserve", "--trace", trace, "--nodes", "16", "--log", target_text],
    ] {
        let err = stderr_of_failure(&host_sim(&args));
        assert!(err.contains("is a directory"), "{err}");
        assert!(!dir.join("logs.tmp").exists(), "{} left logs.tmp behind", args[0]);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The level limit is one number, the kernel's, stated in `--help`.
#[test]
fn the_level_limit_is_the_kernels_and_is_stated() {
    let levels: Vec<String> = (1..=33).map(|sf| sf.to_string()).collect();
    let err = stderr_of_failure(&host_sim(&["run", "--jobs", "10", "--levels", &levels.join(",")]));
    assert!(err.contains("33 service levels given: at least 1 and at most 32 are supported"), "{err}");
    let ok = stdout(&host_sim(&["run", "--jobs", "10", "--levels", &levels[..32].join(",")]));
    assert!(ok.contains("PRJ"), "{ok}");
    let help = stdout(&host_sim(&["run", "--help"]));
    assert!(help.contains("at most 32"), "{help}");
}

/// An input with no usable job is an error that says so, unless allowed.
#[test]
fn an_input_with_no_usable_job_is_not_a_silent_success() {
    let dir = scratch("empty");
    let inputs = [
        ("empty.swf", String::new()),
        ("comments.swf", "; only a header\n; MaxProcs: 4\n".to_owned()),
        ("unusable.swf", "1 0 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1\n".to_owned()),
    ];
    for (name, text) in inputs {
        let trace = dir.join(name);
        std::fs::write(&trace, text).unwrap();
        let path = trace.to_str().unwrap();
        for model in [vec!["run"], vec!["reserve", "--nodes", "4"]] {
            let args = [&model[..], &["--trace", path]].concat();
            let err = stderr_of_failure(&host_sim(&args));
            assert!(err.contains("no usable job, nothing was simulated"), "{name}: {err}");
            assert!(err.contains("--allow-empty"), "{err}");
        }
        let allowed = host_sim(&["run", "--trace", path, "--allow-empty"]);
        assert!(allowed.status.success(), "{}", String::from_utf8_lossy(&allowed.stderr));
        assert!(String::from_utf8_lossy(&allowed.stderr).contains("nothing was simulated"));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A negative number for a numeric option names the option.
#[test]
fn a_negative_count_names_its_option() {
    for args in [
        vec!["run", "--machines", "-1"],
        vec!["--machines", "-1"],
        vec!["reserve", "--trace", "t", "--slot", "-5"],
    ] {
        let err = stderr_of_failure(&host_sim(&args));
        let option = args[args.len() - 2];
        assert!(err.contains(&format!("invalid value '{}' for '{option}", args[args.len() - 1])), "{err}");
    }
}

/// Trace quirks end to end: a Latin-1 comment, a byte-order mark, Alea's 21 fields.
#[test]
fn trace_quirks_read_from_the_command_line() {
    let dir = scratch("quirks");
    let job = "1 0 -1 60 1 -1 -1 1 60 -1 1 1 1 1 1 1 -1 -1";
    let files: [(&str, Vec<u8>); 2] = [
        ("latin1.swf", [b"; Jos\xe9\n".as_slice(), job.as_bytes(), b"\n"].concat()),
        ("bom.swf", ["\u{FEFF}", job, "\n"].concat().into_bytes()),
    ];
    for (name, bytes) in files {
        let trace = dir.join(name);
        std::fs::write(&trace, bytes).unwrap();
        for extra in [&[][..], &["--skip-bad-lines"]] {
            let args = [&["run", "--trace", trace.to_str().unwrap(), "--json"][..], extra].concat();
            let out: serde_json::Value = serde_json::from_str(&stdout(&host_sim(&args))).unwrap();
            assert_eq!(out["jobs"], 1, "{name}");
            assert_eq!(out["excluded"]["bad_lines"], 0, "{name}");
        }
    }
    let alea = dir.join("alea.swf");
    std::fs::write(&alea, format!("{job} 0 1 2\n")).unwrap();
    let err = stderr_of_failure(&host_sim(&["run", "--trace", alea.to_str().unwrap()]));
    assert!(err.contains("21 fields") && err.contains("--allow-extra-fields"), "{err}");
    let out =
        stdout(&host_sim(&["run", "--trace", alea.to_str().unwrap(), "--allow-extra-fields", "--json"]));
    let out: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(out["jobs"], 1);
    std::fs::remove_dir_all(&dir).unwrap();
}
