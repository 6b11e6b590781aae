"""Where the tests find the shared traces and the host-sim binary they hold the
package to: ADMISSION_KERNEL_TRACES and HOST_SIM, else the repository's places."""

import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def traces() -> Path:
    folder = Path(os.environ.get("ADMISSION_KERNEL_TRACES", ROOT.parent / "shared" / "traces"))
    if not folder.is_dir():
        pytest.skip(f"no shared traces at {folder} (set ADMISSION_KERNEL_TRACES)")
    return folder


@pytest.fixture(scope="session")
def kth(traces: Path) -> Path:
    return traces / "KTH-SP2-1996-2.1-cln.swf.gz"


@pytest.fixture(scope="session")
def host_sim_json():
    """`host-sim ARGS... --json`'s summary, from the binary."""
    binary = os.environ.get("HOST_SIM", str(ROOT / "target" / "release" / "host-sim"))

    def run(*args) -> dict:
        out = subprocess.run([binary, *map(str, args), "--json"], check=True, capture_output=True, text=True)
        return json.loads(out.stdout.strip().splitlines()[-1])

    return run
