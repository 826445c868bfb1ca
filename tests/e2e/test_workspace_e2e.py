"""Workspace isolation inside a real Claude Code session: the model searches memory through its
Bash tool from workspace alpha and sees alpha's memory only; --scope all is refused there."""

from __future__ import annotations

import os
import shlex
import sys

import pytest

from conftest import REPO
from support.standin_api import main, strings_in, tool
from support.workspaces import workspaces_with_decisions

pytestmark = pytest.mark.e2e


def test_session_search_sees_only_its_workspace(claude_runner, standin, memory_root, project_dir, tmp_path):
    bravo = tmp_path / "work" / "bravo"
    bravo.mkdir(parents=True)
    workspaces_with_decisions(memory_root, {project_dir: "E2E-WS-ALPHA", bravo: "E2E-WS-BRAVO"})
    search = os.path.join(REPO, "scripts", "memory-search.py")
    ask = " ".join(shlex.quote(a) for a in (sys.executable, search, "canary release", "--mode", "bm25"))
    ask_all = ask + " --scope all --force"
    standin.push(main(tool("Bash", command=ask, description="search memory")),
                 main(tool("Bash", command=ask_all, description="search everything")),
                 main({"text": "done"}))
    result = claude_runner.run("what do we know about canary releases?", plugin_dirs=[REPO])
    assert result.ok, result.describe()
    mains = standin.message_requests("main")
    first = " ".join(strings_in(mains[1]["body"]))
    assert "E2E-WS-ALPHA" in first and "E2E-WS-BRAVO" not in first
    second = " ".join(strings_in(mains[2]["body"]))
    assert "inside a Claude Code session" in second and "E2E-WS-BRAVO" not in second
