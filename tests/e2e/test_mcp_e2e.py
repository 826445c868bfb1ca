"""The MCP server with the real Claude Code binary: ``code-memory mcp register`` adds it at user
scope (what install.sh runs), the binary lists its tools in the model request, and a scripted
memory_store call really runs and writes to memtool's database. The plugin's .mcp.json works too."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys

import pytest

from conftest import REPO, SCRIPTS

pytest.importorskip("mcp", reason="the MCP server needs the optional extra mcp (pip install code-memory[mcp])")
from support.standin_api import main, strings_in, tool

pytestmark = pytest.mark.e2e

TOOLS = ("memory_search", "memory_get", "memory_store", "memory_recall", "memory_contextual_search", "memory_assess_knowledge",
         "memory_knowledge_map", "memory_review_due")


def _mentions(body, name: str) -> bool:
    """The tool is offered in this request: in the tool list, or by name in the deferred-tools
    message (Claude Code defers MCP tools behind ToolSearch and lists only their names)."""
    return any(name in text for text in strings_in(body)) or \
        any(isinstance(t, dict) and t.get("name") == name for t in body.get("tools") or [])


def _connected(body) -> bool:
    return _mentions(body, "mcp__code-memory__memory_store")


def _script_store_call(standin, content: str) -> None:
    """Wait (Bash sleep) until the server's tools are offered, load memory_store's schema with
    ToolSearch, call it, then answer."""
    for _ in range(15):
        standin.push({**main(tool("Bash", command="sleep 2", description="wait")),
                      "when": lambda body: not _connected(body)})
    standin.push({**main(tool("ToolSearch", query="select:mcp__code-memory__memory_store", max_results=5)),
                  "when": _connected},
                 main(tool("mcp__code-memory__memory_store", content=content, type="feature", key="jwt")),
                 main({"text": "stored"}))


def test_registered_server_tools_reach_the_model_and_run(claude_runner, claude_bin, standin, tmp_path):
    db = tmp_path / "memtool.db"
    env = claude_runner.env({"MEMTOOL_DB": str(db)})
    reg = subprocess.run([sys.executable, os.path.join(SCRIPTS, "code-memory.py"), "mcp", "register",
                          "--claude", claude_bin], capture_output=True, text=True, env=env, timeout=120)
    out = json.loads(reg.stdout)
    assert reg.returncode == 0 and out["registered"] is True, reg.stdout + reg.stderr
    config = json.loads((tmp_path / "home" / ".claude.json").read_text(encoding="utf-8"))
    server = config["mcpServers"]["code-memory"]
    assert server["args"][-1].endswith("code-memory-mcp.py") and server["env"]["MEMTOOL_DB"] == str(db)
    # registering again replaces the entry instead of failing
    again = subprocess.run([sys.executable, os.path.join(SCRIPTS, "code-memory.py"), "mcp", "register",
                            "--claude", claude_bin], capture_output=True, text=True, env=env, timeout=120)
    assert json.loads(again.stdout)["registered"] is True

    _script_store_call(standin, "e2e marker: JWT refresh rotates keys")
    result = claude_runner.run("remember how JWT refresh works", env={"MEMTOOL_DB": str(db)})
    assert result.ok, result.describe()
    offered = [r for r in standin.message_requests("main") if _connected(r["body"])]
    assert offered, "the server's tools never reached the model"
    assert all(_mentions(offered[0]["body"], f"mcp__code-memory__{name}") for name in TOOLS)
    # once ToolSearch loaded it, the model got memory_store's schema: described and bounded
    schemas = [t.get("input_schema") or {} for r in standin.message_requests("main")
               for t in r["body"].get("tools") or []
               if isinstance(t, dict) and t.get("name") == "mcp__code-memory__memory_store"]
    assert schemas, "memory_store's schema never reached the model"
    props = schemas[-1]["properties"]
    assert all(p.get("description") for p in props.values())
    assert "Markdown" in props["content"]["description"] and '"maxLength": 512' in json.dumps(props["key"])
    # the tool ran: the item is in memtool's database and its answer reached the model
    conn = sqlite3.connect(db)
    rows = conn.execute("SELECT type, key, content FROM memory_items").fetchall()
    assert rows == [("feature", "jwt", "e2e marker: JWT refresh rotates keys")]
    assert standin.requests_containing('"action":"created"', role="main") or \
        standin.requests_containing('"action": "created"', role="main")


def test_plugin_mcp_json_starts_the_server(claude_runner, standin, tmp_path):
    plugin = tmp_path / "plugin"
    (plugin / ".claude-plugin").mkdir(parents=True)
    (plugin / ".claude-plugin" / "plugin.json").write_text(json.dumps({"name": "code-memory"}))
    (plugin / ".mcp.json").write_text((open(os.path.join(REPO, ".mcp.json"), encoding="utf-8").read()))
    (plugin / "scripts").symlink_to(SCRIPTS)
    (plugin / "hooks").symlink_to(os.path.join(REPO, "hooks"))
    for _ in range(15):
        standin.push({**main(tool("Bash", command="sleep 2", description="wait")),
                      "when": lambda body: not any("__memory_store" in t for t in strings_in(body))})
    standin.push(main({"text": "hello"}))
    result = claude_runner.run("hi", plugin_dirs=[plugin],
                               env={"MEMTOOL_DB": str(tmp_path / "plugin.db"), "CODE_MEMORY_PYTHON": sys.executable})
    assert result.ok, result.describe()
    texts = [t for r in standin.message_requests("main") for t in strings_in(r["body"]) if "__memory_store" in t]
    assert any("code-memory" in t for t in texts), "the plugin's server tools never reached the model"
