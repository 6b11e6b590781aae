"""The Rust half of admission_kernel (python/src/lib.rs)."""

from typing import List, Optional, Tuple

HOST_SIM_VERSION: str
#: The models host-sim knows, in its order, each with its run subcommand.
MODELS: List[Tuple[str, str]]

class AdmissionError(Exception):
    """A run or a log refused, with host-sim's or replay's own message."""

    #: The option the refusal is about, as the command line spells it (`--machines`).
    option: Optional[str]
    #: The same as a keyword of `run` (`machines`).
    keyword: Optional[str]
    #: The scenario file, line and key that set that option, when one did.
    file: Optional[str]
    line: Optional[int]
    key: Optional[str]
    #: Whether the command line itself was refused (an unknown option, a bad value).
    usage: bool

def command(args: List[str]) -> str:
    """Runs `host-sim ARGS...` in process, the GIL released; gives its standard output."""

def export(path: str, format: str) -> bytes:
    """`replay export --format FORMAT` (csv, segments, batsim, jsonl) once the log verifies."""

def records(path: str) -> Tuple[str, bytes, bytes]:
    """The header as JSON, the events and the decisions as JSON lines."""

def verify(path: str) -> Tuple[str, List[Tuple[str, int]]]:
    """`replay verify`: its text and every count, named."""

def diff(a: str, b: str) -> Tuple[str, bool]:
    """`replay diff A B --format json`, and whether the records are the same."""
