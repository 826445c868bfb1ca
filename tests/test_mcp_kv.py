"""set_memory and memory_default_read over MCP, driven by the mcp SDK's stdio client."""

from __future__ import annotations

import json
import os

import pytest

pytest.importorskip("mcp")
from code_memory.kv.layout import KVLayout
from test_mcp_server import _is_error, _payload, _run  # noqa: E402

USER = {"kind": "user", "name": "chat", "retrieved_at": "2026-02-22T10:00:00Z", "locator": {"m": "1"}}


@pytest.fixture
def server_env(tmp_path):
    project = tmp_path / "alpha"
    project.mkdir()
    env = dict(os.environ)
    env["MEMTOOL_DB"] = str(tmp_path / "mcp.db")
    env["CLAUDE_PROJECT_DIR"] = str(project)
    return env


def test_tools_are_listed_with_schemas(server_env):
    async def calls(session):
        return (await session.list_tools()).tools

    tools = {t.name: t for t in _run(server_env, calls)}
    assert {"set_memory", "memory_default_read"} <= set(tools)
    schema = getattr(tools["set_memory"], "input_schema", None) or tools["set_memory"].inputSchema
    assert set(schema["required"]) == {"key", "json_content", "source"}
    assert "retrieved_at" in schema["properties"]["source"]["description"]


def test_write_tombstone_and_default_read(server_env, memory_root):
    async def calls(session):
        out = {}
        out["pref"] = await session.call_tool("set_memory", {
            "key": "/user/preference/style",
            "json_content": {"type": "preference", "summary": "MCP-KV-MARKER 用户偏好简洁", "importance": 8},
            "source": USER})
        out["tagged"] = await session.call_tool("set_memory", {
            "key": "/project/alpha/deploy", "json_content": {"summary": "blue green", "tags": ["alpha"]},
            "source": "chat"})
        out["empty"] = await session.call_tool("set_memory", {"key": "/user/empty", "json_content": {},
                                                              "source": "chat"})
        out["gone"] = await session.call_tool("set_memory", {"key": "/user/gone", "json_content": {"summary": "x"},
                                                             "source": "chat"})
        out["tomb"] = await session.call_tool("set_memory", {"key": "/user/gone", "json_content": None,
                                                             "source": "chat"})
        out["read"] = await session.call_tool("memory_default_read", {"token_limit": 300})
        out["small"] = await session.call_tool("memory_default_read", {"token_limit": 12, "tags": ["x"]})
        return out

    out = _run(server_env, calls)
    assert not any(_is_error(r) for r in out.values()), {k: r.content[0].text for k, r in out.items()}
    pref = _payload(out["pref"])
    assert pref["ok"] and pref["valid"] is True and pref["path"].startswith("kv/index/user/preference/style@")
    assert _payload(out["empty"])["valid"] is True
    assert _payload(out["tomb"])["valid"] is False
    read = _payload(out["read"])
    assert read["text"].startswith("[Agent Memory]\n")
    assert "- /user/preference/style preference MCP-KV-MARKER 用户偏好简洁" in read["lines"]
    assert not any("/user/gone" in line for line in read["lines"])
    assert read["token_count"] <= 300
    assert _payload(out["small"])["token_count"] <= 12
    with open(KVLayout.of(memory_root).log, encoding="utf-8") as fh:
        envelopes = [json.loads(line) for line in fh]
    assert [e["key"] for e in envelopes] == ["/user/preference/style", "/project/alpha/deploy", "/user/empty",
                                            "/user/gone", "/user/gone"]
    assert envelopes[-1]["valid"] is False and envelopes[-1]["content"] is None


def test_errors_are_tool_errors_with_codes(server_env):
    async def calls(session):
        return {
            "kb": await session.call_tool("set_memory", {"key": "/kb/x", "json_content": {"a": 1}, "source": "chat"}),
            "key": await session.call_tool("set_memory", {"key": "/a/../b", "json_content": 1, "source": "chat"}),
            "nosource": await session.call_tool("set_memory", {"key": "/a", "json_content": 1, "source": ""}),
            "now": await session.call_tool("memory_default_read", {"now": "yesterday"}),
        }

    out = _run(server_env, calls)
    assert all(_is_error(r) for r in out.values())
    errors = {name: _payload(r)["error"] for name, r in out.items()}
    assert errors == {"kb": "KV_PROVENANCE_REQUIRED", "key": "MEMORY_PATH_TRAVERSAL",
                      "nosource": "KV_SOURCE_INVALID", "now": "INVALID_ARGUMENT"}
    assert _payload(out["kb"])["missing"] == ["kind", "name", "retrieved_at", "locator"]
