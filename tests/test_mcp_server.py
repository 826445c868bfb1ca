"""The MCP server, driven over stdio by the mcp SDK's own client: list the tools, call each, check
the results and the error shapes."""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import sys

import pytest

from conftest import REPO

mcp = pytest.importorskip("mcp")
from mcp import ClientSession, StdioServerParameters  # noqa: E402
from mcp.client.stdio import stdio_client  # noqa: E402

SERVER = os.path.join(REPO, "scripts", "code-memory-mcp.py")
TOOLS = {"memory_search", "memory_get"}
MEMTOOL_TOOLS = {"memory_store", "memory_recall", "memory_contextual_search", "memory_assess_knowledge",
                 "memory_knowledge_map", "memory_review_due"}


def _is_error(result) -> bool:
    return bool(getattr(result, "is_error", getattr(result, "isError", False)))


def _payload(result) -> dict:
    """The tool's JSON answer (the text block; structured content must agree when present)."""
    text = result.content[0].text
    data = json.loads(text[text.index("{"):])
    structured = getattr(result, "structured_content", getattr(result, "structuredContent", None))
    if structured is not None and not _is_error(result):
        assert structured == data
    return data


async def _session(env, calls):
    params = StdioServerParameters(command=sys.executable, args=[SERVER], env=env)
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            return await calls(session)


def _run(env, calls):
    return asyncio.run(asyncio.wait_for(_session(env, calls), timeout=120))


@pytest.fixture
def server_env(tmp_path):
    env = dict(os.environ)
    env["MEMTOOL_DB"] = str(tmp_path / "mcp.db")
    env["CLAUDE_PROJECT_DIR"] = str(tmp_path)
    return env


def test_lists_the_memtool_tools_with_schemas(server_env):
    async def calls(session):
        return (await session.list_tools()).tools

    tools = {t.name: t for t in _run(server_env, calls)}
    assert TOOLS | MEMTOOL_TOOLS <= set(tools)
    schema = getattr(tools["memory_store"], "input_schema", None) or tools["memory_store"].inputSchema
    assert schema["required"] == ["content"]
    assert "project" in json.dumps(schema["properties"]["type"])
    assert all(tools[name].description for name in MEMTOOL_TOOLS)


def test_calls_every_memtool_tool(server_env):
    async def calls(session):
        out = {}
        out["store"] = await session.call_tool("memory_store", {
            "content": "URGENT: payment gateway timeout fixed by retry with backoff, solved",
            "type": "feature", "key": "gateway", "task_id": "T9", "tags": ["payments"], "confidence": "high"})
        out["store2"] = await session.call_tool("memory_store", {
            "content": "payment gateway retry backoff policy and jitter settings", "type": "feature"})
        item_id = _payload(out["store"])["id"]
        out["get"] = await session.call_tool("memory_recall", {"item_id": item_id})
        out["recall"] = await session.call_tool("memory_recall", {"context": "gateway timeout", "task_id": "T9"})
        out["contextual"] = await session.call_tool("memory_contextual_search",
                                                    {"query": "gateway", "emotional_filter": "positive"})
        out["assess"] = await session.call_tool("memory_assess_knowledge", {"topic": "gateway"})
        out["assess_none"] = await session.call_tool("memory_assess_knowledge", {"topic": "kubernetes"})
        out["map"] = await session.call_tool("memory_knowledge_map", {"center_topic": "gateway", "min_score": 0})
        out["review"] = await session.call_tool("memory_review_due", {"min_importance": 0})
        return out

    out = _run(server_env, calls)
    assert not any(_is_error(r) for r in out.values()), {k: r.content[0].text for k, r in out.items()}
    stored = _payload(out["store"])
    assert stored["ok"] is True and stored["action"] == "created" and stored["item"]["task_id"] == "T9"
    assert {"positive", "urgent"} <= set(stored["item"]["context_tags"])
    second = _payload(out["store2"])
    assert second["item"]["related_ids"] == [stored["id"]]
    assert _payload(out["get"])["item"]["content"].startswith("URGENT: payment gateway")
    recalled = _payload(out["recall"])
    assert recalled["items"][0]["id"] == stored["id"] and "context_match" in recalled["items"][0]["recommend_reasons"]
    assert [it["id"] for it in _payload(out["contextual"])["items"]] == [stored["id"]]
    assessed = _payload(out["assess"])
    assert assessed["confidence"] in ("low", "medium", "high") and assessed["stats"]["total_memories"] == 2
    assert _payload(out["assess_none"])["confidence"] == "none"
    graph = _payload(out["map"])
    assert graph["total_nodes"] == 2 and len(graph["edges"]) == 1 and graph["mermaid"].startswith("graph LR")
    assert _payload(out["review"])["total_due"] == 0          # nothing is a day old yet

    # the same database is memtool's: the CLI sees the items and the recorded reads
    conn = sqlite3.connect(server_env["MEMTOOL_DB"])
    count, reads = conn.execute("SELECT count(*), sum(access_count) FROM memory_items").fetchone()
    assert count == 2 and reads >= 2


def test_error_shapes(server_env):
    async def calls(session):
        return {
            "missing": await session.call_tool("memory_recall", {"item_id": "doesnotexist"}),
            "empty": await session.call_tool("memory_store", {"content": "   "}),
            "bad_type": await session.call_tool("memory_store", {"content": "x", "type": "galaxy"}),
            "bad_filter": await session.call_tool("memory_contextual_search", {}),
            "bad_depth": await session.call_tool("memory_knowledge_map", {"center_topic": "x", "depth": 0}),
            "unknown_tool": await session.call_tool("memory_teleport", {}),
        }

    out = _run(server_env, calls)
    assert all(_is_error(r) for r in out.values())
    missing = _payload(out["missing"])
    assert missing == {"ok": False, "error": "NOT_FOUND", "message": "No memory item found with id: doesnotexist",
                       "hint": "Check the id, or use search to find the item", "id": "doesnotexist"}
    assert _payload(out["empty"])["error"] == "PARAM_ERROR"
    assert _payload(out["bad_filter"])["error"] == "PARAM_ERROR"
    # rejected by the input schema before any work, in the same shape (tests/test_mcp_contract.py)
    assert _payload(out["bad_depth"])["fields"] == ["depth"]
    assert _payload(out["bad_type"])["error"] == "INVALID_ARGUMENT" and _payload(out["bad_type"])["fields"] == ["type"]
    assert "memory_teleport" in out["unknown_tool"].content[0].text


def test_list_tools_flag_and_database_default(tmp_path):
    env = dict(os.environ)
    env.pop("MEMTOOL_DB", None)
    import subprocess
    proc = subprocess.run([sys.executable, SERVER, "--list-tools"], capture_output=True, text=True, env=env,
                          timeout=60)
    assert proc.returncode == 0 and MEMTOOL_TOOLS <= set(json.loads(proc.stdout)["tools"])
    from code_memory.mcp.server import ServerContext
    ctx = ServerContext.from_environment(env={"CODE_MEMORY_ROOT": str(tmp_path / "root"),
                                              "CLAUDE_PROJECT_DIR": str(tmp_path)})
    assert ctx.memtool_db == str(tmp_path / "root" / "memtool.db")
    ctx = ServerContext.from_environment(env={"CODE_MEMORY_ROOT": str(tmp_path / "root"),
                                              "CODE_MEMORY_MEMTOOL__DB": str(tmp_path / "cfg.db")})
    assert ctx.memtool_db == str(tmp_path / "cfg.db")
    ctx = ServerContext.from_environment(env={"MEMTOOL_DB": str(tmp_path / "env.db"),
                                              "CODE_MEMORY_MEMTOOL__DB": str(tmp_path / "cfg.db")})
    assert ctx.memtool_db == str(tmp_path / "env.db")


def _write(root, rel, text):
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_memory_search_and_get_are_project_scoped(tmp_path, memory_root):
    import pathlib
    root = pathlib.Path(memory_root)
    _write(root, "MEMORY.md", "# Memory\n\n## 避坑经验 (Pitfalls)\n- zebracorn: always pin the 数据库 driver\n")
    _write(root, "areas/projects/alpha/rules.md", "# alpha rules\n\n- zebracorn retries use backoff\n- line 4\n")
    _write(root, "areas/projects/beta/rules.md", "# beta rules\n\n- zebracorn secret of beta\n")
    _write(root, "sessions/s-beta.md", "# 会话摘要: s-beta\n\n- **项目**: beta\n\nzebracorn beta session\n")
    project = tmp_path / "work" / "alpha"
    project.mkdir(parents=True)
    env = dict(os.environ, CLAUDE_PROJECT_DIR=str(project), MEMTOOL_DB=str(tmp_path / "m.db"),
               CODE_MEMORY_EMBEDDING__ENABLED="false", CLAUDE_CODE_SESSION_ID="sess-mcp-1")

    async def calls(session):
        return {
            "search": await session.call_tool("memory_search", {"query": "zebracorn", "top_k": 10}),
            "search_zh": await session.call_tool("memory_search", {"query": "数据库"}),
            "get": await session.call_tool("memory_get", {"path": "areas/projects/alpha/rules.md",
                                                          "from_line": 3, "lines": 2}),
            "get_other": await session.call_tool("memory_get", {"path": "areas/projects/beta/rules.md"}),
            "get_session": await session.call_tool("memory_get", {"path": str(root / "sessions/s-beta.md")}),
            "get_escape": await session.call_tool("memory_get", {"path": "../../../etc/passwd"}),
            "get_missing": await session.call_tool("memory_get", {"path": "areas/projects/alpha/nope.md"}),
            "empty": await session.call_tool("memory_search", {"query": "  "}),
        }

    out = _run(env, calls)
    found = _payload(out["search"])
    assert found["ok"] is True and found["scope"] == "project" and found["project"] == "alpha"
    paths = {os.path.relpath(hit["path"], memory_root) if os.path.isabs(hit["path"]) else hit["path"]
             for hit in found["results"]}
    assert paths == {"MEMORY.md", os.path.join("areas", "projects", "alpha", "rules.md")}
    assert all({"start_line", "end_line", "snippet", "score"} <= set(hit) for hit in found["results"])
    assert [os.path.basename(h["path"]) for h in _payload(out["search_zh"])["results"]] == ["MEMORY.md"]
    got = _payload(out["get"])
    assert got["text"] == "- zebracorn retries use backoff\n- line 4" and got["from_line"] == 3
    for name in ("get_other", "get_session", "get_escape"):
        assert _is_error(out[name]) and _payload(out[name])["error"] == "MEMORY_PATH_TRAVERSAL", name
    assert _payload(out["get_missing"])["error"] == "MEMORY_FILE_NOT_FOUND"
    assert _payload(out["empty"])["error"] == "INVALID_ARGUMENT"
    # the experiences shown were recorded as used in this Claude Code session (feedback loop)
    from code_memory.fsutil import iter_jsonl
    from code_memory.memory import experience
    from code_memory.paths import MemoryPaths
    refs = {(e["experience_id"], e.get("context")) for e in iter_jsonl(MemoryPaths(memory_root).audit_log)
            if e.get("event_type") == "ref" and e["session_id"] == "sess-mcp-1"}
    shown = {e for hit in found["results"] for e in hit.get("experiences", [])}
    assert shown and {(e, "mcp-search") for e in shown} <= refs
    assert (experience.rule_id("alpha", "- zebracorn retries use backoff"), "mcp-get") in refs


def test_memory_search_and_get_see_only_the_sessions_workspace(tmp_path, memory_root):
    import pathlib
    ws_a, ws_b = tmp_path / "ws-a", tmp_path / "ws-b"
    _write(ws_a, "memory/2026-03-01.md", "# 2026-03-01\n\n## decision\n- quokkaflux goes through the queue\n")
    _write(ws_b, "memory/2026-03-01.md", "# 2026-03-01\n\n## decision\n- quokkaflux secret of workspace b\n")
    _write(pathlib.Path(memory_root), "config.json", json.dumps({"workspaces": {"paths": [str(ws_a), str(ws_b)]}}))
    project = ws_a / "src"
    project.mkdir()
    env = dict(os.environ, CLAUDE_PROJECT_DIR=str(project), MEMTOOL_DB=str(tmp_path / "m.db"),
               CODE_MEMORY_EMBEDDING__ENABLED="false")

    async def calls(session):
        return {
            "search": await session.call_tool("memory_search", {"query": "quokkaflux"}),
            "get_own": await session.call_tool("memory_get", {"path": str(ws_a / "memory" / "2026-03-01.md")}),
            "get_other": await session.call_tool("memory_get", {"path": str(ws_b / "memory" / "2026-03-01.md")}),
        }

    out = _run(env, calls)
    found = _payload(out["search"])
    assert found["workspace"] == "ws-a"
    assert [os.path.realpath(h["path"]) for h in found["results"]] == [os.path.realpath(ws_a / "memory" / "2026-03-01.md")]
    assert "queue" in _payload(out["get_own"])["text"]
    assert _is_error(out["get_other"]) and _payload(out["get_other"])["error"] == "MEMORY_PATH_TRAVERSAL"
