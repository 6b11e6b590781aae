"""A decision log from Python: its tables, its records, its verification, its diff."""

from __future__ import annotations

import io
import json
import os
import shutil
import weakref
from typing import Any, Dict, List, Optional

from . import _native


def frame_of_csv(data: bytes) -> Any:
    """A CSV table (written by the `csv` crate) as a data frame."""
    import pandas as pd

    return pd.read_csv(io.BytesIO(data))


def frame_of_lines(data: bytes) -> Any:
    """JSON lines as a data frame, a column per field (absent fields are NaN)."""
    import pandas as pd

    return pd.DataFrame.from_records([json.loads(line) for line in data.splitlines()])


class Log:
    """A decision log. Every table is read only once the log verifies (as `replay`
    does: verify before trust), and kept.

    `path` is where it lies; a log a run made in a temporary folder lives as long as
    this object.
    """

    def __init__(self, path: "os.PathLike[str] | str", _folder: Optional[str] = None) -> None:
        self.path = os.fspath(path)
        self._tables: Dict[str, Any] = {}
        self._records: Optional[tuple] = None
        if _folder is not None:
            weakref.finalize(self, shutil.rmtree, _folder, True)

    def __repr__(self) -> str:
        return f"Log({self.path!r})"

    def _table(self, name: str) -> Any:
        if name not in self._tables:
            self._tables[name] = frame_of_csv(_native.export(self.path, name))
        return self._tables[name]

    @property
    def jobs(self) -> Any:
        """One row per job: the per-job table of `replay export --format csv`."""
        return self._table("csv")

    @property
    def segments(self) -> Any:
        """One row per piece of a job's run (`replay export --format segments`)."""
        return self._table("segments")

    @property
    def batsim(self) -> Any:
        """Batsim's jobs.csv, one row per piece, for evalys (`--format batsim`)."""
        return self._table("batsim")

    def _read_records(self) -> tuple:
        if self._records is None:
            header, events, decisions = _native.records(self.path)
            self._records = (json.loads(header), frame_of_lines(events), frame_of_lines(decisions))
        return self._records

    @property
    def header(self) -> Dict[str, Any]:
        """The header as `replay export --format jsonl` gives it (its first line)."""
        return self._read_records()[0]

    @property
    def events(self) -> Any:
        """The events (submissions, ends, resets ...): a row each, a column per field."""
        return self._read_records()[1]

    @property
    def decisions(self) -> Any:
        """The kernel's decisions (accept, reject, ...): a row each, with the time `t` of
        the event they answer."""
        return self._read_records()[2]

    def export(self, format: str = "jsonl") -> bytes:
        """`replay export --format FORMAT` as bytes: jsonl, csv, segments or batsim."""
        return _native.export(self.path, format)

    def verify(self) -> "Verification":
        """`replay verify`: every decision re-made by the kernel rebuilt from the header,
        every promise audited; raises AdmissionError naming the first that fails."""
        text, counts = _native.verify(self.path)
        return Verification(text, dict(counts))

    def diff(self, other: "Log | os.PathLike[str] | str") -> "Diff":
        """`replay diff THIS OTHER --format json`: what changed between two logs of the
        same input."""
        other_path = other.path if isinstance(other, Log) else os.fspath(other)
        text, same = _native.diff(self.path, other_path)
        return Diff(json.loads(text), same)

    def whatif(self, log: "os.PathLike[str] | str | None" = None, **options: Any) -> Any:
        """`host-sim whatif`: this log's requests decided again with `options` changed
        (every other option is the log's); a Run."""
        from ._run import whatif

        return whatif(self, log=log, **options)


class Verification:
    """What `replay verify` says of a log: `text` as it prints it, `counts` by name."""

    def __init__(self, text: str, counts: Dict[str, int]) -> None:
        self.text = text
        self.counts = counts

    def __repr__(self) -> str:
        return f"Verification({self.text.splitlines()[0]!r})"


class Diff:
    """What `replay diff --format json` says: `summary` is the whole JSON object,
    `same_records` whether the records are the same, `jobs` the changed jobs."""

    def __init__(self, summary: Dict[str, Any], same_records: bool) -> None:
        self.summary = summary
        self.same_records = same_records

    @property
    def jobs(self) -> Any:
        import pandas as pd

        rows: List[Dict[str, Any]] = self.summary.get("jobs", [])
        return pd.DataFrame.from_records(rows)

    def __repr__(self) -> str:
        return f"Diff(same_records={self.same_records})"
