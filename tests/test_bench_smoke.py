"""Every benchmark still runs: each ``bench/bench_*.py`` (and compare_search.py, retrieval.py,
ui_screenshots.py) with ``--smoke`` — tiny data, a few seconds — as its own process, the way
BENCHMARKS.md runs it. New benches are found by their file name, nothing to register.

A bench that cannot run here says so on a line starting with ``skipped:`` and exits 0 (the bench
data folder, ../shared/bench-data, absent; chromium missing): that becomes a skip with its reason.
Benches that drive chromium or the real Claude Code binary are marked slow / e2e."""

from __future__ import annotations

import glob
import os
import subprocess
import sys

import pytest

from conftest import REPO

BENCH = os.path.join(REPO, "bench")
EXTRA = ("compare_search.py", "retrieval.py", "ui_screenshots.py")
NEEDS_CHROMIUM = ("support.browser", "chromium")
NEEDS_CLAUDE = ("claude_runner", "CODE_MEMORY_TEST_CLAUDE_BIN")


def benches() -> list:
    names = sorted(os.path.basename(p) for p in glob.glob(os.path.join(BENCH, "bench_*.py")))
    return names + [name for name in EXTRA if os.path.isfile(os.path.join(BENCH, name))]


def _param(name: str):
    with open(os.path.join(BENCH, name), encoding="utf-8") as fh:
        source = fh.read()
    marks = []
    if any(word in source for word in NEEDS_CHROMIUM):
        marks.append(pytest.mark.slow)
    if any(word in source for word in NEEDS_CLAUDE):
        marks.append(pytest.mark.e2e)
    return pytest.param(name, marks=marks, id=name[:-3])


def test_the_benches_are_found():
    found = benches()
    assert {"bench_hooks.py", "bench_search.py", "compare_search.py", "retrieval.py"} <= set(found)


@pytest.mark.parametrize("name", [_param(name) for name in benches()])
def test_bench_runs_with_smoke(name, tmp_path):
    path = os.path.join(BENCH, name)
    with open(path, encoding="utf-8") as fh:
        assert "--smoke" in fh.read(), f"bench/{name} has no --smoke: every bench supports one (a few seconds)"
    proc = subprocess.run([sys.executable, path, "--smoke"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=600, env=dict(os.environ, TMPDIR=str(tmp_path)))
    said = (proc.stdout + "\n" + proc.stderr).splitlines()
    skipped = [line for line in said if line.startswith("skipped:")]
    if proc.returncode == 0 and skipped:
        pytest.skip(f"bench/{name}: {skipped[0][len('skipped:'):].strip()}")
    assert proc.returncode == 0, f"bench/{name} --smoke exited {proc.returncode}:\n" + "\n".join(said[-40:])
