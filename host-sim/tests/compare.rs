//! `host-sim compare`: every model on one trace, one row each, as text, CSV and JSON.

mod common;

use common::{HAND_TRACE, host_sim, scratch, stdout};

#[test]
fn every_model_gets_a_row_in_every_format() {
    let dir = scratch("compare");
    let trace = dir.join("hand.swf");
    std::fs::write(&trace, HAND_TRACE).unwrap();
    let out_dir = dir.join("out");
    let args = ["compare", "--trace", trace.to_str().unwrap(), "--out", out_dir.to_str().unwrap(), "--json"];
    let value: serde_json::Value = serde_json::from_str(&stdout(&host_sim(&args))).unwrap();
    let rows = value["rows"].as_array().unwrap();
    let models: Vec<&str> = rows.iter().map(|r| r["model"].as_str().unwrap()).collect();
    assert_eq!(models, ["run", "reserve", "tiers", "sla"]);
    for row in rows {
        for key in [
            "requests",
            "accepted_pct",
            "utilisation_pct",
            "violations",
            "mean_wait_s",
            "mean_bounded_slowdown",
        ] {
            assert!(row[key].is_number(), "{key} in {row}");
        }
        let accepted = row["accepted_pct"].as_f64().unwrap();
        assert!((0.0..=100.0).contains(&accepted), "{row}");
    }
    // Eight jobs of at least a minute, each with a processor count: every model sees all.
    for row in rows {
        assert_eq!(row["requests"], 8, "{row}");
    }
    // Tiers: 12 single-node resources of the 3-node cluster and 9 desktops; each job,
    // due three run times after its submission, fits one node on its own.
    assert!(rows[2]["accepted_pct"].as_f64().unwrap() > 0.0, "{}", rows[2]);
    // SLA heuristics on the 16-node pool, one-hour batches: jobs planned at the hour's
    // end, inside windows of one to seven run times; an accepted job earns at most 1
    // under ASAP Fair pricing.
    let sla = &rows[3];
    assert!(sla["accepted_pct"].as_f64().unwrap() > 0.0, "{sla}");
    let accepted = (sla["accepted_pct"].as_f64().unwrap() * 8.0 / 100.0).round();
    assert!((0.0..=accepted + 1e-9).contains(&sla["income"].as_f64().unwrap()), "{sla}");
    assert_eq!(sla["violations"], 0);
    assert_eq!(value["nodes"], 16);
    let csv = std::fs::read_to_string(out_dir.join("compare.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + rows.len());
    assert!(csv.starts_with("model,requests,accepted_pct,"));
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("compare.json")).unwrap()).unwrap();
    assert_eq!(saved, value);
    let svg = std::fs::read_to_string(out_dir.join("compare.svg")).unwrap();
    assert!(
        svg.starts_with("<svg")
            && svg.contains("Netto")
            && svg.contains("Tomás")
            && svg.contains("Yarmolenko"),
        "{svg}"
    );
    // The utilisations, each of the model's own resources, in a figure of their own
    // that says what each is of; the mean wait and slowdown in theirs.
    let utilisation = std::fs::read_to_string(out_dir.join("compare_utilisation.svg")).unwrap();
    assert!(
        utilisation.contains("utilisation of its 1 machine")
            && utilisation.contains("utilisation of 16 nodes")
    );
    assert!(!svg.contains("utilisation of"), "compare.svg draws only what every model defines alike");
    for name in ["compare_wait.svg", "compare_slowdown.svg"] {
        assert!(out_dir.join(name).exists(), "{name}");
    }
    let table = stdout(&host_sim(&["compare", "--trace", trace.to_str().unwrap()]));
    assert!(table.contains("service levels (Lezama 2012)") && table.contains("Netto"), "{table}");
    std::fs::remove_dir_all(&dir).unwrap();
}
