"""Logs from Python: verified, read into frames, diffed, decided again."""

import pytest

import admission_kernel as ak


@pytest.fixture(scope="module")
def kth_run(kth, tmp_path_factory):
    log = tmp_path_factory.mktemp("logs") / "kth.log"
    return ak.run("service_level", trace=kth, machines=4, log=log)


def test_a_kth_log_verifies_with_the_rust_tests_counts(kth_run):
    verified = kth_run.log.verify()
    assert verified.counts["records"] == 109_405
    assert verified.counts["accepted"] == kth_run.summary["counts"]["accepted"] == 15_134
    assert "verified 109405 records" in verified.text


def test_a_log_reads_into_events_decisions_and_tables(kth_run):
    log = ak.read_log(kth_run.log.path)
    assert log.header["kind"] == "header"
    assert len(log.events) + len(log.decisions) == 109_405
    assert (log.decisions["kind"] == "accept").sum() == 15_134
    assert len(log.jobs) == 28_468
    assert len(log.segments) > 0 and len(log.batsim) >= len(log.segments)
    assert log.export("jsonl").startswith(b'{"')


def test_a_whatif_with_nothing_changed_is_the_log_byte_for_byte(kth_run, tmp_path):
    again = kth_run.log.whatif(log=tmp_path / "again.log")
    with open(kth_run.log.path, "rb") as a, open(again.log.path, "rb") as b:
        assert a.read() == b.read()


def test_a_whatif_is_the_run_it_stands_for_byte_for_byte(kth, kth_run, tmp_path):
    best = ak.whatif(kth_run.log, policy="best-fit", log=tmp_path / "whatif.log")
    direct = ak.run("service_level", trace=kth, machines=4, policy="best-fit", log=tmp_path / "run.log")
    assert best.summary["counts"] == direct.summary["counts"]
    with open(best.log.path, "rb") as a, open(direct.log.path, "rb") as b:
        assert a.read() == b.read()


def test_a_damaged_log_is_refused_by_name(kth_run, tmp_path):
    damaged = tmp_path / "damaged.log"
    data = bytearray(open(kth_run.log.path, "rb").read())
    data[len(data) // 2] ^= 0xFF
    damaged.write_bytes(bytes(data))
    with pytest.raises(ak.AdmissionError, match="damaged.log"):
        ak.read_log(damaged).jobs
    with pytest.raises(ak.AdmissionError, match="damaged.log"):
        ak.read_log(damaged).verify()
