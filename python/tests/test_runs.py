"""Runs of the four models from Python against the command line's numbers."""

from concurrent.futures import ThreadPoolExecutor

import pandas as pd
import pytest

import admission_kernel as ak

#: Each model's run on KTH, with its defaults (and the service level on 4 machines),
#: as the command line gives it: the subcommand and its options.
RUNS = {
    "service_level": ("run", {"machines": 4}),
    "reservation": ("reserve", {}),
    "tiers": ("tiers", {}),
    "sla": ("sla", {}),
}


def without_log(summary):
    """A summary but the service level's `log` field, the path of the log it wrote
    (the package always writes one; the command line only with --log)."""
    return {k: v for k, v in summary.items() if k != "log"}


@pytest.mark.parametrize("model", list(RUNS))
def test_a_kth_run_is_the_command_lines(model, kth, host_sim_json):
    subcommand, options = RUNS[model]
    run = ak.run(model, trace=kth, **options)
    cli_options = [a for k, v in options.items() for a in (f"--{k}", v)]
    assert without_log(run.summary) == without_log(host_sim_json(subcommand, "--trace", kth, *cli_options))
    assert run.model == model
    assert isinstance(run.jobs, pd.DataFrame)
    assert len(run.jobs) == run.summary["counts"]["submitted"]
    assert run.jobs["job"].is_unique


def test_kth_counts_are_the_rust_tests(kth):
    # host-sim/tests/service_level_diff_kth.rs holds the same numbers.
    first = ak.run("service_level", trace=kth, machines=4, slack=2, policy="first-fit")
    best = ak.run("service_level", trace=kth, machines=4, slack=2, policy="best-fit")
    assert (first.summary["counts"]["accepted"], best.summary["counts"]["accepted"]) == (15_134, 15_312)
    diff = first.log.diff(best.log)
    assert not diff.same_records
    assert diff.summary["jobs_compared"] == 28_468
    assert len(diff.jobs) > 0


def test_the_built_in_workload_runs_without_a_trace(host_sim_json):
    run = ak.run("service_level", machines=2, jobs=500)
    assert without_log(run.summary) == without_log(host_sim_json("run", "--machines", 2, "--jobs", 500))
    assert run.summary["log"] == run.log.path
    assert len(run.jobs) == 500


def test_rows_as_a_frame_decide_as_the_file(kth):
    columns = list(ak.SWF_FIELDS)
    rows = pd.read_csv(kth, sep=r"\s+", comment=";", header=None, names=columns)
    from_frame = ak.run("service_level", trace=rows, machines=4)
    from_file = ak.run("service_level", trace=kth, machines=4)
    assert from_frame.summary["counts"] == from_file.summary["counts"]
    assert from_frame.jobs.equals(from_file.jobs)
    only_times = {"submit": [0, 10, 20], "run": [100, 50, 10], "procs": [1, 1, 1]}
    assert ak.run("service_level", trace=only_times, machines=1).summary["counts"]["submitted"] == 3


def test_a_pool_of_threads_gives_the_serial_results(kth):
    def accepted(policy):
        return ak.run("service_level", trace=kth, machines=4, policy=policy).summary["counts"]

    serial = [accepted(p) for p in ak.POLICIES]
    with ThreadPoolExecutor(max_workers=5) as pool:
        assert list(pool.map(accepted, ak.POLICIES)) == serial


def test_a_sweep_gives_its_tables(kth, tmp_path):
    sweep = ak.sweep("service_level", trace=kth, limit=2000, no_plots=True, machine_counts=[2, 4])
    assert list(sweep.tables) == ["sweep"]
    assert set(sweep.tables["sweep"]["machines"]) == {2, 4}
    assert sweep.summary is not None
    kept = ak.sweep("service_level", trace=kth, limit=2000, no_plots=True, machine_counts=[2], out=tmp_path)
    assert (tmp_path / "sweep.csv").is_file() and len(kept.tables["sweep"]) > 0


@pytest.mark.parametrize(
    "model, options, tables",
    [
        ("reservation", {"limit": 500}, ["fig2", "fig3", "fig4", "fig5", "fig6", "fig7"]),
        ("tiers", {"seeds": "1..1"}, ["tiers_runs", "tiers_cells"]),
        ("sla", {"sets": 2}, ["sla_families", "sla_fig3", "sla_fig4", "sla_fig7", "sla_fig8", "sla_points"]),
    ],
)
def test_every_models_sweep_gives_its_tables(model, options, tables, kth):
    trace = kth if model == "reservation" else None
    sweep = ak.sweep(model, trace=trace, no_plots=True, **options)
    assert all(name in sweep.tables and len(sweep.tables[name]) > 0 for name in tables), list(sweep.tables)
    assert (sweep.summary is not None) == (model != "reservation")
    assert sweep.text.strip()  # the paper's findings beside ours, as the command prints them


def test_rows_as_an_array_decide_as_a_frame(kth):
    import numpy as np

    rows = pd.read_csv(kth, sep=r"\s+", comment=";", header=None, names=list(ak.SWF_FIELDS), nrows=3000)
    from_array = ak.run("service_level", trace=rows.to_numpy(), machines=2)
    from_frame = ak.run("service_level", trace=rows, machines=2)
    assert isinstance(rows.to_numpy(), np.ndarray)
    assert from_array.summary["counts"] == from_frame.summary["counts"]
    assert from_array.jobs.equals(from_frame.jobs)


def test_the_package_under_test_is_the_installed_one():
    import os
    import sys

    if os.environ.get("ADMISSION_KERNEL_WHEEL"):
        assert ak.__file__.startswith(sys.prefix), f"{ak.__file__} is not the wheel installed in {sys.prefix}"


def test_compare_has_a_row_per_model(kth):
    compared = ak.compare(trace=kth, limit=2000)
    assert list(compared.table["model"]) == ["run", "reserve", "tiers", "sla"]
    assert compared.summary["model"] == "compare"
