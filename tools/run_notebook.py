"""Executes a notebook from its own folder, as `cargo xtask wheel` does for
examples/: every cell in order, in a fresh kernel; any cell's error fails the run,
naming the cell. The notebook file is left as it is (its outputs are not saved).

Usage: python tools/run_notebook.py NOTEBOOK.ipynb [TIMEOUT_SECONDS]
"""

import os
import sys
import time

import nbclient
import nbformat


def main() -> int:
    path = sys.argv[1]
    timeout = int(sys.argv[2]) if len(sys.argv) > 2 else 600
    notebook = nbformat.read(path, as_version=4)
    folder = os.path.dirname(os.path.abspath(path))
    client = nbclient.NotebookClient(
        notebook, timeout=timeout, kernel_name="python3", resources={"metadata": {"path": folder}}
    )
    started = time.perf_counter()
    try:
        client.execute()
    except nbclient.exceptions.CellExecutionError as error:
        print(f"{path}: a cell failed:\n{error}", file=sys.stderr)
        return 1
    code = sum(1 for cell in notebook.cells if cell.cell_type == "code")
    print(f"{path}: {code} code cells ran in {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
