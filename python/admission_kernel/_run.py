"""Runs, what-ifs, sweeps and comparisons: host-sim's subcommands, in process."""

from __future__ import annotations

import glob
import json
import os
import shutil
import tempfile
import weakref
from typing import Any, Dict, List, Optional

from . import _argv, _native
from ._log import Log, frame_of_csv

#: The files each model's sweep writes to its `--out` folder that are tables.
SWEEP_TABLES = {
    "service_level": ["sweep.csv"],
    "reservation": ["fig*.csv"],
    "tiers": ["tiers_runs.csv", "tiers_cells.csv"],
    "sla": ["sla_*.csv"],
}
#: The summary each sweep writes there, where it writes one.
SWEEP_SUMMARY = {"service_level": "sweep.json", "tiers": "tiers.json", "sla": "sla.json"}


class Run:
    """One run of a model: `summary` (the `--json` summary, a dict of the result
    schema), `log` (the decision log) and its tables, `jobs` and `segments` (pandas
    data frames, made on first use from the log, as `replay export` makes them)."""

    def __init__(self, model: str, summary: Dict[str, Any], log: Optional[Log]) -> None:
        self.model = model
        self.summary = summary
        self.log = log

    def __repr__(self) -> str:
        counts = self.summary.get("counts")
        return f"Run({self.model!r}, counts={counts})"

    def _logged(self) -> Log:
        if self.log is None:
            raise _argv.refusal(f"this {self.model} run wrote no log (run --seeds writes none)", "log")
        return self.log

    @property
    def jobs(self) -> Any:
        """One row per job (docs/records.md)."""
        return self._logged().jobs

    @property
    def segments(self) -> Any:
        """One row per piece of a job's run."""
        return self._logged().segments

    @property
    def batsim(self) -> Any:
        """Batsim's jobs.csv, for evalys."""
        return self._logged().batsim


def command(*args: "str | os.PathLike[str]") -> str:
    """Runs `host-sim ARGS...` in this process (the GIL released) and gives what it
    printed; a refusal raises AdmissionError with the command line's message."""
    return _native.command([_argv.text(a) for a in args])


def _logged_run(argv: List[str], model: str, log: Any) -> Run:
    """Runs `argv` with `--json` and a log (`log`, else one in a temporary folder)."""
    folder = None
    if log is None:
        folder = tempfile.mkdtemp(prefix="admission-kernel-")
        log = os.path.join(folder, "run.log")
    try:
        out = _native.command(argv + ["--log", os.fspath(log), "--json"])
    except BaseException:
        if folder is not None:
            shutil.rmtree(folder, True)
        raise
    summary = json.loads(_argv.last_json_line(out) or "{}")
    return Run(summary.get("model", model), summary, Log(log, _folder=folder))


def run(model: str, trace: Any = None, **options: Any) -> Run:
    """Runs `model` (service_level, reservation, tiers or sla) on `trace` (a path,
    several paths merged, or rows as a data frame or arrays) or on its built-in
    workload, with the command line's options and defaults (`machines=4` is
    `--machines 4`; `log="out/kth.log"` keeps the log there)."""
    subcommand = _argv.subcommand(model, _argv.RUNS)
    log = options.pop("log", None)
    with _argv.traces(trace) as trace_args:
        argv = [subcommand, *trace_args, *_argv.options(options)]
        if options.get("seeds"):
            out = _native.command(argv + ["--json"])
            return Run(model, json.loads(_argv.last_json_line(out) or "{}"), None)
        return _logged_run(argv, model, log)


def whatif(source: "Log | os.PathLike[str] | str", **options: Any) -> Run:
    """`host-sim whatif SOURCE`: the requests of the log `source` decided again with
    `options` changed (every other option is the log's); the new log is kept at `log=`
    when given."""
    path = source.path if isinstance(source, Log) else os.fspath(source)
    new_log = options.pop("log", None)
    argv = ["whatif", path, *_argv.options(options)]
    return _logged_run(argv, "whatif", new_log)


class Sweep:
    """A sweep's output folder read back: `tables` (each CSV as a data frame, by file
    name without `.csv`), `summary` (its JSON file, where it writes one), `text` (what
    it printed: the paper's findings beside ours, where it has them) and `out` (the
    folder; a temporary one lives as long as this object)."""

    def __init__(self, model: str, out: str, folder: Optional[str], text: str = "") -> None:
        self.model = model
        self.out = out
        self.text = text
        self.tables: Dict[str, Any] = {}
        for pattern in SWEEP_TABLES[model]:
            for path in sorted(glob.glob(os.path.join(glob.escape(out), pattern))):
                with open(path, "rb") as table:
                    self.tables[os.path.basename(path)[: -len(".csv")]] = frame_of_csv(table.read())
        name = SWEEP_SUMMARY.get(model)
        self.summary: Optional[Dict[str, Any]] = None
        if name is not None and os.path.isfile(os.path.join(out, name)):
            with open(os.path.join(out, name), encoding="utf-8") as summary:
                self.summary = json.load(summary)
        if folder is not None:
            weakref.finalize(self, shutil.rmtree, folder, True)

    def __repr__(self) -> str:
        return f"Sweep({self.model!r}, tables={list(self.tables)})"


def sweep(model: str, trace: Any = None, out: "os.PathLike[str] | str | None" = None, **options: Any) -> Sweep:
    """Runs `model`'s sweep (`sweep`, `reserve-sweep`, `tiers-sweep`, `sla-sweep`) with
    the command line's options, writing to `out` (else a temporary folder), and reads
    its tables back."""
    subcommand = _argv.subcommand(model, _argv.SWEEPS)
    folder = tempfile.mkdtemp(prefix="admission-kernel-sweep-") if out is None else None
    where = folder if out is None else os.fspath(out)
    try:
        with _argv.traces(trace) as trace_args:
            text = _native.command([subcommand, *trace_args, *_argv.options(options), "--out", where])
    except BaseException:
        if folder is not None:
            shutil.rmtree(folder, True)
        raise
    return Sweep(model, where, folder, text)


class Compare:
    """`host-sim compare --json`: `summary` (the dict) and `table` (its rows, one per
    model, as a data frame)."""

    def __init__(self, summary: Dict[str, Any]) -> None:
        import pandas as pd

        self.summary = summary
        self.table = pd.DataFrame.from_records(summary.get("rows", []))

    def __repr__(self) -> str:
        return f"Compare(models={list(self.table.get('model', []))})"


def compare(trace: Any = None, **options: Any) -> Compare:
    """Every model on the same trace with its defaults: one row of shared measures each."""
    with _argv.traces(trace) as trace_args:
        out = _native.command(["compare", *trace_args, *_argv.options(options), "--json"])
    return Compare(json.loads(_argv.last_json_line(out) or "{}"))
