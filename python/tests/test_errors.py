"""Refusals as Python exceptions, with the command line's words and their source."""

import pytest

import admission_kernel as ak


def test_a_refused_value_names_its_option():
    with pytest.raises(ak.AdmissionError) as refused:
        ak.run("service_level", machines="many")
    assert "--machines" in str(refused.value)
    assert (refused.value.option, refused.value.keyword, refused.value.usage) == ("--machines", "machines", True)


def test_an_unknown_option_is_named():
    with pytest.raises(ak.AdmissionError) as refused:
        ak.run("sla", machnes=4)
    assert refused.value.keyword == "machnes"
    assert "--machnes" in str(refused.value)


def test_an_unknown_model_names_the_models():
    with pytest.raises(ak.AdmissionError, match="service_level, reservation, tiers, sla"):
        ak.run("queue")


def test_a_missing_trace_names_the_file(tmp_path):
    missing = tmp_path / "absent.swf"
    with pytest.raises(ak.AdmissionError, match="absent.swf"):
        ak.run("service_level", trace=missing)


def test_a_scenario_files_value_names_its_file_and_line(tmp_path):
    scenario = tmp_path / "scenario.toml"
    scenario.write_text("# a scenario\nmachines = 4\nqueue-capacity = 17\n")
    with pytest.raises(ak.AdmissionError) as refused:
        ak.run("service_level", config=scenario)
    assert (refused.value.file, refused.value.line, refused.value.key) == (str(scenario), 3, "queue-capacity")
    assert "scenario.toml:3" in str(refused.value)


def test_a_log_is_never_written_over_an_input(kth, tmp_path):
    with pytest.raises(ak.AdmissionError, match="input"):
        ak.run("service_level", trace=kth, log=kth)


def test_a_later_run_may_write_where_an_earlier_one_read(tmp_path):
    log = tmp_path / "a.log"
    first = ak.run("service_level", jobs=200, log=log)
    first.log.whatif(machines=2)
    again = ak.run("service_level", jobs=300, log=log)
    assert again.summary["counts"]["submitted"] == 300


def test_every_native_function_has_a_stub():
    import pathlib

    from admission_kernel import _native

    stub = (pathlib.Path(ak.__file__).parent / "_native.pyi").read_text()
    public = [name for name in dir(_native) if not name.startswith("_")]
    assert public and all(name in stub for name in public)


def test_rows_that_are_not_numbers_name_their_column():
    with pytest.raises(ak.AdmissionError, match="column 'run'"):
        ak.run("service_level", trace={"submit": [0, 1], "run": [10, "long"]})
    with pytest.raises(ak.AdmissionError, match="not SWF fields"):
        ak.run("service_level", trace={"submit": [0], "run": [10], "runtime": [10]})
