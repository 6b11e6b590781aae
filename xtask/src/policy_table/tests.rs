//! The tally on hand-made sweep tables: a sole win, a tie, a configuration where every
//! policy ties, and the files it refuses.

use super::{Better, METRICS, Tally, differences, parse, render, tally};

const HEADER: &str = "mode,sf_or_k,machines,policy,prj_mean,mwt_mean,mbsd_mean,g_mean,cv_l_mean,me_mean";

/// Three configurations of three policies. PRJ (lower is better): all tie at sf 1;
/// worst fit alone at sf 2; worst fit and least loaded tie at sf 3. ME (higher is
/// better): least loaded alone at sf 2 and sf 3. The other metrics tie everywhere.
const SWEEP: &str = "\
single,1,2,first-fit,10,0,1,5,0.5,0.9
single,1,2,worst-fit,10,0,1,5,0.5,0.9
single,1,2,least-loaded,10,0,1,5,0.5,0.9
single,2,2,first-fit,30,0,1,5,0.5,0.7
single,2,2,worst-fit,20,0,1,5,0.5,0.7
single,2,2,least-loaded,25,0,1,5,0.5,0.8
single,3,2,first-fit,3.0000000000000004,0,1,5,0.5,0.7
single,3,2,worst-fit,3,0,1,5,0.5,0.75
single,3,2,least-loaded,3,0,1,5,0.5,0.8
";

fn sweep_text(rows: &str) -> String {
    format!("{HEADER}\n{rows}")
}

#[test]
fn sole_wins_ties_and_all_ties_are_counted_apart() {
    let sweep = parse("hand.csv", &sweep_text(SWEEP)).expect("a complete sweep");
    assert_eq!(sweep.policies, ["first-fit", "worst-fit", "least-loaded"]);
    assert_eq!(sweep.means.len(), 3);
    // 3.0000000000000004 is not 3: the tie rule compares exact values.
    assert_eq!(
        tally(&sweep, 0, Better::Lower),
        Tally { sole: vec![0, 1, 0], tied: vec![0, 1, 1], contested: 2 }
    );
    assert_eq!(
        tally(&sweep, 5, Better::Higher),
        Tally { sole: vec![0, 0, 2], tied: vec![0, 0, 0], contested: 2 }
    );
    assert_eq!(tally(&sweep, 1, Better::Lower).contested, 0);
    assert_eq!(METRICS[0].0, "PRJ");
    assert_eq!(METRICS[5].0, "ME");
    let table = render(&[("hand".to_owned(), sweep)]);
    assert_eq!(
        table,
        "| trace | PRJ | MWT | MBSD | G | c_V^l | ME |\n\
         |---|---|---|---|---|---|---|\n\
         | hand | WF 1+1/2 (LL 0+1) | all tie | all tie | all tie | all tie | LL 2+0/2 (FF 0+0) |\n"
    );
}

#[test]
fn incomplete_or_malformed_sweeps_are_refused_by_file_line_and_field() {
    let missing =
        SWEEP.lines().filter(|l| !l.starts_with("single,3,2,worst-fit")).collect::<Vec<_>>().join("\n");
    let err = parse("hand.csv", &sweep_text(&missing)).expect_err("a missing row");
    assert_eq!(err, "hand.csv: no row for worst-fit at single, sf_or_k 3, 2 machines");
    let twice = format!("{SWEEP}single,2,2,worst-fit,20,0,1,5,0.5,0.7\n");
    let err = parse("hand.csv", &sweep_text(&twice)).expect_err("a repeated row");
    assert_eq!(err, "hand.csv: line 11: a second row for worst-fit at single, sf_or_k 2, 2 machines");
    let bad = SWEEP.replace("single,2,2,worst-fit,20", "single,2,2,worst-fit,NaN");
    let err = parse("hand.csv", &sweep_text(&bad)).expect_err("not a number");
    assert_eq!(err, "hand.csv: line 6: field prj_mean: `NaN` is not a finite number");
    let short = SWEEP.replace("single,2,2,worst-fit,20,", "single,2,2,worst-fit,");
    let err = parse("hand.csv", &sweep_text(&short)).expect_err("a row one field short");
    assert!(err.starts_with("hand.csv: ") && err.contains("line: 6"), "{err}");
    let err = parse("hand.csv", "mode,sf_or_k,machines,policy,prj_mean\n").expect_err("a missing column");
    assert_eq!(err, "hand.csv: line 1: no column `mwt_mean`");
}

#[test]
fn check_names_the_shown_row_that_differs() {
    let sweep = parse("hand.csv", &sweep_text(SWEEP)).expect("a complete sweep");
    let table = render(&[("hand".to_owned(), sweep)]);
    let mut lines: Vec<&str> = table.lines().collect();
    let shown = format!("# Results\n\n{}\n", lines.join("\n"));
    assert!(differences("README.md", &shown, &table).is_empty());
    lines[2] = "| hand | WF 2/2 (LL 1) | all tie | all tie | all tie | all tie | LL 2+0/2 (FF 0+0) |";
    let stale = format!("# Results\n\n{}\n", lines.join("\n"));
    let problems = differences("README.md", &stale, &table);
    assert_eq!(problems.len(), 1);
    assert!(problems[0].starts_with("README.md: line 5: the row differs"), "{}", problems[0]);
}
