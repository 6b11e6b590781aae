//! The figures end to end: `sweep` writes its SVG figures beside the CSV unless
//! `--no-plots` (the last of `--plots`/`--no-plots` wins), and `criteria` reads the
//! sweep back, prints the analysis beside the thesis and draws Figures 44 to 49.

mod common;

use std::path::Path;

use common::{host_sim, scratch, stderr_of_failure, stdout};

fn svgs(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".svg"))
        .collect();
    names.sort();
    names
}

fn sweep(dir: &Path, extra: &[&str]) {
    let args = ["sweep", "--jobs", "400", "--window", "1d", "--slacks", "1,2,3", "--machine-counts", "1,2,4"];
    let out = ["--out", dir.to_str().unwrap()];
    let run = host_sim(&[&args[..], &out, extra].concat());
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
}

#[test]
fn a_sweep_draws_every_figure_and_criteria_reads_it_back() {
    let dir = scratch("figures");
    sweep(&dir, &[]);
    let names = svgs(&dir);
    // Nine metrics and three per-machine c_V panels, for each mode.
    assert_eq!(names.len(), 2 * (9 + 3), "{names:?}");
    for name in ["single_prj.svg", "single_cv_l.svg", "multi_g.svg", "multi_cv_m4.svg"] {
        assert!(names.iter().any(|n| n == name), "{name} in {names:?}");
    }
    let report = stdout(&host_sim(&["criteria", dir.to_str().unwrap()]));
    assert!(report.contains("system-centric:"), "{report}");
    assert!(report.contains("thesis: sf 8, 9, 7 (best overall)"), "{report}");
    assert!(report.contains("thesis: k 14, 11, 10"), "{report}");
    let criteria = svgs(&dir).into_iter().filter(|n| n.starts_with("criteria_")).count();
    assert_eq!(criteria, 6);
    let csv = std::fs::read_to_string(dir.join("criteria.csv")).unwrap();
    // A header and 2 modes x 3 values x 3 machine counts.
    assert_eq!(csv.lines().count(), 1 + 18, "{csv}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn no_plots_leaves_the_figures_out_and_the_last_switch_wins() {
    let dir = scratch("no-plots");
    sweep(&dir, &["--no-plots"]);
    assert!(svgs(&dir).is_empty());
    assert!(dir.join("sweep.csv").exists());
    sweep(&dir, &["--no-plots", "--plots"]);
    assert_eq!(svgs(&dir).len(), 24);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn criteria_on_a_folder_without_a_sweep_names_the_file() {
    let dir = scratch("no-sweep");
    let error = stderr_of_failure(&host_sim(&["criteria", dir.to_str().unwrap()]));
    assert!(error.contains("sweep.csv"), "{error}");
    std::fs::remove_dir_all(&dir).unwrap();
}
