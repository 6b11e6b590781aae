"""Python calls into host-sim command lines: keyword options into `--options`, and
traces given as rows (a data frame, a dict of columns, a 2-D array) into SWF files."""

from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from typing import Any, Iterator, List, Mapping, Optional, Sequence

from . import _native

#: The model names, and their run subcommands: host-sim's registry.
RUNS = dict(_native.MODELS)
#: Their sweeps' subcommands.
SWEEPS = {
    "service_level": "sweep",
    "reservation": "reserve-sweep",
    "tiers": "tiers-sweep",
    "sla": "sla-sweep",
}

#: The 18 fields of a Standard Workload Format line, in order, as a frame's columns
#: name them.
SWF_FIELDS = (
    "job", "submit", "wait", "run", "procs", "cpu", "memory", "req_procs", "req_time",
    "req_memory", "status", "user", "group", "app", "queue", "partition", "preceding", "think",
)  # fmt: skip


def refusal(message: str, keyword: Optional[str] = None) -> _native.AdmissionError:
    """An AdmissionError raised by the Python half, shaped as the native ones."""
    error = _native.AdmissionError(message)
    error.option = None if keyword is None else "--" + keyword.replace("_", "-")
    error.keyword = keyword
    error.file = error.line = error.key = None
    error.usage = True
    return error


def subcommand(model: str, table: Mapping[str, str]) -> str:
    """The subcommand of `model` in `table`, or a refusal naming the models it has."""
    try:
        return table[model]
    except (KeyError, TypeError):
        names = ", ".join(table)
        what = "no model" if model not in RUNS else "no subcommand of this kind for the model"
        raise refusal(f"{what} named {model!r}; the models are {names}", "model") from None


def options(given: Mapping[str, Any]) -> List[str]:
    """`machines=4` as `--machines 4`; True as the bare flag; False and None left out;
    a list or tuple as one comma-separated value; a path as its text."""
    argv: List[str] = []
    for keyword, value in given.items():
        if value is None or value is False:
            continue
        option = "--" + keyword.replace("_", "-")
        if value is True:
            argv.append(option)
        elif isinstance(value, (list, tuple)):
            argv += [option, ",".join(text(v) for v in value)]
        else:
            argv += [option, text(value)]
    return argv


def text(value: Any) -> str:
    """A value as the command line spells it."""
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


@contextmanager
def traces(trace: Any) -> Iterator[List[str]]:
    """`--trace` arguments for `trace`: a path, several paths (merged), or rows (written
    to an SWF file that lives as long as the run)."""
    if trace is None:
        yield []
        return
    if isinstance(trace, (str, os.PathLike)):
        yield ["--trace", os.fspath(trace)]
        return
    if isinstance(trace, (list, tuple)) and trace and all(isinstance(t, (str, os.PathLike)) for t in trace):
        yield [arg for t in trace for arg in ("--trace", os.fspath(t))]
        return
    with tempfile.TemporaryDirectory(prefix="admission-kernel-trace-") as folder:
        path = os.path.join(folder, "frame.swf")
        write_swf(trace, path)
        yield ["--trace", path]


def write_swf(rows: Any, path: str) -> None:
    """Writes `rows` as an SWF file: a data frame or a dict of columns named as
    `SWF_FIELDS` (`submit` and `run` at least; absent fields are -1, `job` counts from
    1), or a 2-D array of 18 columns in SWF order."""
    import pandas as pd

    frame = rows if isinstance(rows, pd.DataFrame) else _frame(rows, pd)
    unknown = [c for c in frame.columns if c not in SWF_FIELDS]
    if unknown:
        raise refusal(f"trace: columns {unknown} are not SWF fields; the fields are {list(SWF_FIELDS)}", "trace")
    missing = [c for c in ("submit", "run") if c not in frame.columns]
    if missing:
        raise refusal(f"trace: the rows have no {' or '.join(missing)} column", "trace")
    frame = frame.reindex(columns=list(SWF_FIELDS))
    for column in frame.columns:
        try:
            frame[column] = pd.to_numeric(frame[column])
        except (TypeError, ValueError) as error:
            raise refusal(f"trace: column {column!r} holds a value that is not a number ({error})", "trace") from None
    if frame["job"].isna().all():
        frame["job"] = range(1, len(frame) + 1)
    with open(path, "w", encoding="ascii") as out:
        for row in frame.itertuples(index=False):
            out.write(" ".join(_field(v) for v in row) + "\n")


def _frame(rows: Any, pd: Any) -> Any:
    if isinstance(rows, Mapping):
        return pd.DataFrame(dict(rows))
    frame = pd.DataFrame(rows)
    if frame.shape[1] != len(SWF_FIELDS):
        raise refusal(f"trace: rows of {frame.shape[1]} columns; an array trace has the 18 SWF fields", "trace")
    frame.columns = list(SWF_FIELDS)
    return frame


def _field(value: Any) -> str:
    if value != value:  # NaN: a field the rows do not give
        return "-1"
    number = float(value)
    return str(int(number)) if number.is_integer() else repr(number)


def last_json_line(out: str) -> Optional[str]:
    """The summary a `--json` run prints as its last line of standard output."""
    lines: Sequence[str] = out.rstrip("\n").split("\n")
    return lines[-1] if lines and lines[-1].startswith("{") else None
