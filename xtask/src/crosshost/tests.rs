//! The comparison over folders as the check writes them: two hosts' identical
//! outputs pass; `--tamper`'s planted byte fails, naming the run, the file, the
//! offset and the run's command line.

use std::fs;
use std::path::{Path, PathBuf};

use super::{compare_all, plant_difference};

/// A fresh folder per test under the system's temporary folder.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xtask-crosshost-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("x86_64")).unwrap();
    fs::create_dir_all(dir.join("s390x")).unwrap();
    dir
}

/// Writes the same outputs of the first two runs into both sides' folders.
fn write_outputs(dir: &Path) {
    for (label, ..) in &crate::models::crosshost_runs()[..2] {
        let log: Vec<u8> = (0..4000u32).map(|i| (i * 7 % 251) as u8).collect();
        let json = format!("{{\"run\": \"{label}\", \"log\": \"{label}.log\"}}\n");
        for side in ["x86_64", "s390x"] {
            fs::write(dir.join(side).join(format!("{label}.log")), &log).unwrap();
            fs::write(dir.join(side).join(format!("{label}.json")), &json).unwrap();
        }
    }
}

#[test]
fn identical_folders_pass_and_count_every_file() {
    let dir = scratch("same");
    write_outputs(&dir);
    let all = crate::models::crosshost_runs();
    let runs: Vec<_> = all[..2].iter().collect();
    let (files, bytes) = compare_all("x86_64", &dir.join("x86_64"), &dir.join("s390x"), &runs).unwrap();
    assert_eq!(files, 4);
    assert_eq!(bytes, 2 * 4000 + 2 * "{\"run\": \"\", \"log\": \".log\"}\n".len() + 2 * (8 + 7));
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_planted_byte_fails_naming_run_file_offset_and_command() {
    let dir = scratch("tampered");
    write_outputs(&dir);
    plant_difference(&dir.join("x86_64/best-fit.log")).unwrap();
    let all = crate::models::crosshost_runs();
    let runs: Vec<_> = all[..2].iter().collect();
    let err = compare_all("x86_64", &dir.join("x86_64"), &dir.join("s390x"), &runs).unwrap_err();
    assert!(err.contains("1 of 4 files differ between x86_64"), "{err}");
    // Byte 2000 is 2000 * 7 % 251 = 195 = 0xc3; the flipped bit makes it 0xc2.
    assert!(
        err.contains(
            "run `best-fit`: best-fit.log differs first at byte 2000 (of 4000 bytes on x86_64, 4000 on \
             s390x): x86_64 has 0xc2, s390x has 0xc3"
        ),
        "{err}"
    );
    assert!(err.contains("(run `best-fit` is `host-sim run --policy best-fit "), "{err}");
    assert!(!err.contains("reserve.log"), "{err}");
    fs::remove_dir_all(&dir).unwrap();
}
