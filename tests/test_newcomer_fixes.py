"""The small things a newcomer hit (issue 13): lint's text output shows the findings, remember's
hint names options remember has, install.sh --help ends with the help, and --root / --format work
before the command word."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from conftest import REPO, run_script


def test_lint_text_output_lists_the_findings_that_block(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("def f(a=[]):\n    try:\n        pass\n    except:\n        pass\n")
    for script, args in (("code-memory.py", ["lint"]), ("lint-python-rules.py", [])):
        proc = run_script(script, *args, str(bad), "--format", "text")
        assert proc.returncode == 20
        assert f"{bad}:1: block [PY002]" in proc.stdout and f"{bad}:4: block [PY001]" in proc.stdout
        assert "error LINT_BLOCKED: 2 blocking finding(s)" in proc.stderr   # the findings are the answer


def test_remember_outside_a_workspace_hints_at_options_it_has(initialized_root, tmp_path):
    proc = run_script("code-memory.py", "remember", "a note", cwd=str(tmp_path))
    out = json.loads(proc.stdout)
    assert out["error"] == "MEMORY_WORKSPACE_NOT_FOUND" and "--all" not in out["hint"]
    assert "workspace add DIR" in out["hint"]
    ws = tmp_path / "ops"
    (ws / "memory").mkdir(parents=True)
    run_script("code-memory.py", "workspace", "add", str(ws))
    out = json.loads(run_script("code-memory.py", "remember", "a note", cwd=str(tmp_path)).stdout)
    assert "--workspace ID" in out["hint"] and "--all" not in out["hint"]
    done = json.loads(run_script("code-memory.py", "remember", "a note", "--workspace", "ops", cwd=str(tmp_path),
                                 terminal="y").stdout)          # another workspace: the user confirms
    assert done["ok"] is True


@pytest.mark.parametrize("argv", [
    ["memory-feedback.py", "--root", "{root}", "report"],
    ["signal-analyzer.py", "--root={root}", "recurring"],
    ["memory-search.py", "--root", "{root}", "status"],
    ["code-memory.py", "--root", "{root}", "--format", "json", "feedback", "score"],
])
def test_root_before_the_command_word(initialized_root, tmp_path, argv):
    other = str(tmp_path / "elsewhere")
    proc = run_script(argv[0], *[a.replace("{root}", other) for a in argv[1:]])
    out = json.loads(proc.stdout)
    assert proc.returncode == 0 and out["ok"] is True, out
    if "root" in out:
        assert out["root"] == other


def test_install_sh_help_is_only_the_help():
    out = subprocess.run([os.path.join(REPO, "install.sh"), "--help"], capture_output=True, text=True).stdout
    lines = out.strip().splitlines()
    assert lines[0].startswith("code-memory installer") and "set -euo" not in out
    assert not any(line.startswith("#") for line in lines)
    assert any("--uninstall" in line for line in lines) and any("--bin DIR" in line for line in lines)
