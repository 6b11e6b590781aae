"""The Python blocks of the docs run as they are written: each file's blocks in order,
in one namespace, from a scratch folder that has `../shared` beside it (as a fresh
clone has), against the installed package."""

import re

import pytest

from conftest import ROOT

#: The files whose ```python blocks are run.
FILES = ["docs/python.md", "README.md"]


def blocks(text):
    return re.findall(r"^```python\n(.*?)^```", text, flags=re.S | re.M)


@pytest.mark.parametrize("name", FILES)
def test_the_python_blocks_run(name, traces, tmp_path, monkeypatch):
    code = blocks((ROOT / name).read_text(encoding="utf-8"))
    assert code, f"{name} has no python block"
    (tmp_path / "shared").symlink_to(traces.parent, target_is_directory=True)
    scratch = tmp_path / "main"
    (scratch / "out").mkdir(parents=True)
    monkeypatch.chdir(scratch)
    namespace = {"__name__": "docs"}
    for number, block in enumerate(code, 1):
        exec(compile(block, f"{name} (python block {number})", "exec"), namespace)
