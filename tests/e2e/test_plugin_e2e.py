"""Commands and the MCP server in a real session, without a full install:

* the commands the routing table names (``memory-search.py``, ``memory-feedback.py report``) run
  as written from Claude's Bash tool — on the PATH install.sh's links give, and in plugin mode,
  where Claude Code puts the plugin's ``bin/`` on the Bash tool's PATH by itself;
* plugin mode with a Python that has no ``mcp`` SDK: the server still starts and the session is
  told what to run (the MCP server instructions reach the model's request).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from conftest import REPO
from e2e.test_hooks_e2e import hooked, run, write  # noqa: F401 — install.sh and plugin mode
from support.standin_api import main, strings_in, tool

pytestmark = pytest.mark.e2e

MARK = "zebracache"


def results_of(standin) -> list:
    """Every tool result text the model was sent (the last request carries the whole conversation)."""
    out = []
    for message in standin.message_requests("main")[-1]["body"].get("messages", []):
        content = message.get("content")
        if isinstance(content, list):
            out += [json.dumps(block.get("content"), ensure_ascii=False) for block in content
                    if isinstance(block, dict) and block.get("type") == "tool_result"]
    return out


def test_routing_table_commands_run_from_claudes_bash(hooked, standin, memory_root, isolated_home):
    write(os.path.join(memory_root, "MEMORY.md"), f"# MEMORY\n\n## 避坑经验 (Pitfalls)\n\n- {MARK}: flush the cache first\n")
    # install.sh linked the commands into ~/.local/bin; a plugin needs nothing on PATH at all
    path = (f"{isolated_home}/.local/bin:/usr/bin:/bin" if hooked.mode == "install.sh" else "/usr/bin:/bin")
    standin.push(main(tool("Bash", command=f'memory-search.py "{MARK}" --mode bm25', description="search")),
                 main(tool("Bash", command="memory-feedback.py report", description="report")),
                 main(tool("Bash", command="code-memory model status", description="model")),
                 main({"text": "done"}))
    result = hooked.run("look it up", plugin_dirs=hooked.plugin_dirs, env={"PATH": path})
    assert result.ok, result.describe()
    outputs = results_of(standin)
    assert len(outputs) == 3 and not any("command not found" in o for o in outputs), outputs
    search = json.loads(json.loads(outputs[0]))
    assert search["ok"] is True and any(MARK in hit["snippet"] for hit in search["results"])
    assert '\\"ok\\":true' in outputs[1] and '\\"model\\":' in outputs[2]


def test_plugin_mcp_without_the_sdk_tells_the_session_what_to_run(claude_runner, standin, tmp_path, memory_root):
    bare = tmp_path / "python-without-mcp"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(bare)], check=True)
    python = str(bare / "bin" / "python")
    assert subprocess.run([python, "-c", "import mcp"], capture_output=True).returncode != 0

    def connected(body) -> bool:
        return any("code_memory_setup" in text for text in strings_in(body))

    for _ in range(15):
        standin.push({**main(tool("Bash", command="sleep 2", description="wait")), "when": lambda b: not connected(b)})
    standin.push(main({"text": "ok"}))
    result = claude_runner.run("hi", plugin_dirs=[REPO], env={"CODE_MEMORY_PYTHON": python})
    assert result.ok, result.describe()
    told = standin.requests_containing(f"{REPO}/install.sh --no-hooks", role="main")
    assert told, "the session was not told what to run"
    instructions = [t for t in strings_in(told[-1]["body"]) if "install.sh --no-hooks" in t][0]
    assert "MCP Server Instructions" in instructions and "has no `mcp` SDK" in instructions
    assert python in instructions
