"""Deterministic admission control for deadline agreements, from Python.

The same kernels a controller embeds and `host-sim` runs, called in process: every
function here runs one of host-sim's or replay's command lines, with the same options,
defaults and messages, and gives its results as dicts and pandas data frames. The GIL
is released while a model runs, so a thread pool of runs uses every core.

    >>> import admission_kernel as ak
    >>> run = ak.run("service_level", trace="KTH-SP2-1996-2.1-cln.swf.gz", machines=4)
    >>> run.summary["counts"]["accepted"]
    >>> run.jobs.head()

Options are the command line's, `_` for `-` (`machines=4`, `policy="best-fit"`,
`jobs_out="kth.csv"`); True is a bare flag, a list a comma-separated value. A refusal
raises AdmissionError, whose message is the command line's and whose `option`,
`keyword`, `file`, `line` and `key` say what it is about. The guide is docs/python.md.
"""

from ._argv import RUNS, SWEEPS, SWF_FIELDS, write_swf
from ._log import Diff, Log, Verification
from ._native import HOST_SIM_VERSION, AdmissionError
from ._run import Compare, Run, Sweep, command, compare, run, sweep, whatif

#: The four models, as `run` and `sweep` name them.
MODELS = tuple(RUNS)

#: The service level's five machine-choice policies (`policy=`).
POLICIES = ("first-fit", "best-fit", "worst-fit", "least-loaded", "round-robin")

__version__ = HOST_SIM_VERSION


def read_log(path: str) -> Log:
    """The decision log at `path` (any model's); its tables are read once it verifies."""
    return Log(path)


__all__ = [
    "AdmissionError",
    "Compare",
    "Diff",
    "Log",
    "MODELS",
    "POLICIES",
    "RUNS",
    "Run",
    "SWEEPS",
    "SWF_FIELDS",
    "Sweep",
    "Verification",
    "command",
    "compare",
    "read_log",
    "run",
    "sweep",
    "whatif",
    "write_swf",
]
