"""What a model meets in the MCP server, through the real mcp SDK client: every tool with a title,
hints and a description, every parameter described and bounded by the library's own limits, values
out of those bounds refused before any work in the one error shape, every tool answering compact JSON
with the same object as structured content; and docs/mcp.md's tool reference generated from the
live tool list, failing here when it is stale."""

from __future__ import annotations

import json
import os
import pathlib
import sqlite3

import pytest

pytest.importorskip("mcp")
from code_memory.kv.keys import MAX_KEY_CHARS  # noqa: E402
from code_memory.memtool.knowledge_map import MAX_DEPTH  # noqa: E402
from code_memory.memtool.store import FIELD_LIMITS, MAX_LIMIT, MAX_TAGS  # noqa: E402
from code_memory.search.engine import MAX_GET_LINES, MODES  # noqa: E402
from code_memory.search.unified import SOURCES  # noqa: E402
from test_mcp_server import _is_error, _run  # noqa: E402

# (read-only, destructive, idempotent) as they truly are; no tool reaches outside the machine
HINTS = {
    "memory_search": (True, False, True), "memory_get": (True, False, True), "memory_list": (True, False, True),
    "memory_delete": (False, True, True), "memory_store": (False, True, False),
    "memory_recall": (True, False, True), "memory_contextual_search": (True, False, True),
    "memory_assess_knowledge": (True, False, True), "memory_knowledge_map": (True, False, True),
    "memory_review_due": (True, False, True), "set_memory": (False, True, True),
    "memory_default_read": (True, False, True),
    # writes a mark; reversible (reopen); a second identical call is refused (CONFLICT), changing nothing
    "memory_todo": (False, False, True),
}
# the required arguments of each tool, valid, for building one bad value at a time
REQUIRED = {"memory_search": {"query": "x"}, "memory_get": {"id": "MEMORY.md"}, "memory_list": {"store": "kv"},
            "memory_delete": {"id": "kv:/x"}, "memory_store": {"content": "x"},
            "memory_assess_knowledge": {"topic": "x"}, "memory_knowledge_map": {"center_topic": "x"},
            "set_memory": {"key": "/x", "json_content": {}, "source": "chat"}}


def _dump(tool) -> dict:
    """The tool as the protocol carries it (inputSchema, annotations in camelCase)."""
    return tool.model_dump(mode="json", by_alias=True, exclude_none=True)


def _structured(result):
    return getattr(result, "structured_content", getattr(result, "structuredContent", None))


def _answer(result) -> dict:
    """The one answer shape: the text is the compact JSON of the structured content."""
    structured = _structured(result)
    assert isinstance(structured, dict), result
    assert len(result.content) == 1
    assert result.content[0].text == json.dumps(structured, ensure_ascii=False, separators=(",", ":"))
    assert structured["ok"] is (not _is_error(result))
    return structured


@pytest.fixture
def server_env(tmp_path, memory_root):
    project = tmp_path / "alpha"
    project.mkdir()
    return dict(os.environ, MEMTOOL_DB=str(tmp_path / "mcp.db"), CLAUDE_PROJECT_DIR=str(project),
                CODE_MEMORY_EMBEDDING__ENABLED="false")


def _variants(prop: dict) -> list:
    return [v for v in prop.get("anyOf", [prop]) if v.get("type") != "null"]


def _bad_values(prop: dict) -> list:
    """``(what, value)`` for each bound the property's schema declares: one value just beyond it."""
    out = []
    for v in _variants(prop):
        step = 1 if v.get("type") == "integer" else 0.5
        if "minimum" in v:
            out.append(("below minimum", v["minimum"] - step))
        if "maximum" in v:
            out.append(("above maximum", v["maximum"] + step))
        if v.get("minLength"):
            out.append(("too short", ""))
        if "maxLength" in v:
            out.append(("too long", "/" + "x" * v["maxLength"]))
        if "pattern" in v:
            out.append(("not matching", "no-slash"))
        if "enum" in v:
            out.append(("not allowed", "not-a-choice"))
        if "maxItems" in v:
            out.append(("too many items", [f"t{i}" for i in range(v["maxItems"] + 1)]))
        if v.get("items"):
            out += [(f"an item {what}", [bad]) for what, bad in _bad_values(v["items"])]
    return out


def test_every_tool_and_parameter_describes_itself(server_env):
    async def calls(session):
        return (await session.list_tools()).tools

    tools = {t.name: _dump(t) for t in _run(server_env, calls)}
    assert set(tools) == set(HINTS)
    undescribed, params = [], 0
    for name, tool in tools.items():
        assert tool["description"] and tool["title"], name
        hints = tool["annotations"]
        assert (hints["readOnlyHint"], hints["destructiveHint"], hints["idempotentHint"]) == HINTS[name], name
        assert hints["openWorldHint"] is False and hints["title"] == tool["title"]
        for param, prop in tool["inputSchema"]["properties"].items():
            params += 1
            if not prop.get("description"):
                undescribed.append(f"{name}.{param}")
    assert undescribed == [] and params >= 50

    def prop(tool, param):
        variants = _variants(tools[tool]["inputSchema"]["properties"][param])
        return {k: v for variant in variants for k, v in variant.items()}
    # the library's own limits, one schema each
    assert (prop("memory_search", "top_k")["minimum"], prop("memory_search", "top_k")["maximum"]) == (1, 100)
    assert tuple(prop("memory_search", "mode")["enum"]) == MODES
    assert tuple(prop("memory_search", "sources")["items"]["enum"]) == SOURCES
    assert prop("memory_get", "lines")["maximum"] == MAX_GET_LINES
    assert tools["memory_get"]["inputSchema"]["required"] == ["id"]
    assert prop("memory_list", "limit")["maximum"] == 200 and prop("memory_list", "store")["enum"] == ["memtool", "kv"]
    assert prop("memory_store", "key")["maxLength"] == FIELD_LIMITS["key"]
    assert prop("memory_store", "tags")["maxItems"] == MAX_TAGS
    assert prop("memory_store", "tags")["items"]["maxLength"] == FIELD_LIMITS["tag"]
    assert prop("memory_store", "confidence")["enum"] == ["high", "medium", "low"]
    assert prop("memory_recall", "limit")["maximum"] == MAX_LIMIT
    assert prop("memory_knowledge_map", "depth")["maximum"] == MAX_DEPTH
    importance = prop("memory_review_due", "min_importance")
    assert (importance["minimum"], importance["maximum"]) == (0, 1)
    assert prop("set_memory", "key")["maxLength"] == MAX_KEY_CHARS and prop("set_memory", "key")["pattern"] == "^/"


def test_values_beyond_the_bounds_are_refused_in_the_one_error_shape(server_env, memory_root):
    async def calls(session):
        tools = {t.name: _dump(t) for t in (await session.list_tools()).tools}
        out = []
        for name, tool in tools.items():
            for param, prop in tool["inputSchema"]["properties"].items():
                for what, bad in _bad_values(prop):
                    args = {**REQUIRED.get(name, {}), param: bad}
                    out.append((name, param, what, await session.call_tool(name, args)))
        out.append(("memory_get", "id", "missing", await session.call_tool("memory_get", {"lines": 5})))
        out.append(("memory_search", "top_k", "wrong type", await session.call_tool(
            "memory_search", {"query": "x", "top_k": "many"})))
        return out

    out = _run(server_env, calls)
    assert len(out) >= 40
    seen_tools = set()
    for name, param, what, result in out:
        assert _is_error(result), (name, param, what)
        answer = _answer(result)
        assert answer["error"] == "INVALID_ARGUMENT", (name, param, what, answer)
        assert [field.split(".")[0] for field in answer["fields"]] == [param], (name, param, what, answer)
        assert answer["message"].startswith(param) and answer["hint"], answer
        assert "xxxxxxxxxx" not in answer["message"]        # the refused value is not echoed back
        seen_tools.add(name)
    assert seen_tools == set(HINTS)                     # every tool has a bounded parameter
    # nothing was written by the refused calls
    assert not os.path.exists(server_env["MEMTOOL_DB"]) or sqlite3.connect(server_env["MEMTOOL_DB"]).execute(
        "SELECT count(*) FROM memory_items").fetchone()[0] == 0
    assert not os.path.isdir(os.path.join(memory_root, "kv"))


def test_every_tool_answers_in_the_one_shape(server_env, memory_root):
    root = pathlib.Path(memory_root)
    root.mkdir(parents=True, exist_ok=True)
    (root / "MEMORY.md").write_text("# Memory\n\n## 避坑经验 (Pitfalls)\n- quillfeather: pin the driver\n",
                                    encoding="utf-8")
    user = {"kind": "user", "name": "chat", "retrieved_at": "2026-02-22T10:00:00Z", "locator": {"m": "1"}}

    async def calls(session):
        listed = {t.name for t in (await session.list_tools()).tools}
        out = {}
        out["set_memory"] = await session.call_tool("set_memory", {
            "key": "/user/preference/quillfeather", "json_content": {"summary": "quillfeather tabs"}, "source": user})
        out["memory_store"] = await session.call_tool("memory_store", {
            "content": "quillfeather gateway retries with backoff, solved", "type": "feature", "key": "gw",
            "tags": ["payments"]})
        out["memory_search"] = await session.call_tool("memory_search", {"query": "quillfeather", "top_k": 10})
        hits = {hit["source"]: hit["id"] for hit in _structured(out["memory_search"])["results"]}
        out["memory_get"] = await session.call_tool("memory_get", {"id": hits["memory"], "lines": 4})
        out["get by path (older name)"] = await session.call_tool("memory_get", {"path": hits["memory"]})
        out["get memtool id"] = await session.call_tool("memory_get", {"id": hits["memtool"]})
        out["memory_list"] = await session.call_tool("memory_list", {"store": "memtool", "limit": 5})
        out["list kv"] = await session.call_tool("memory_list", {"store": "kv"})
        out["memory_recall"] = await session.call_tool("memory_recall", {"context": "gateway retries"})
        out["recall by search id"] = await session.call_tool("memory_recall", {"item_id": hits["memtool"]})
        out["memory_contextual_search"] = await session.call_tool("memory_contextual_search",
                                                                  {"emotional_filter": "positive"})
        out["memory_assess_knowledge"] = await session.call_tool("memory_assess_knowledge", {"topic": "gateway"})
        out["memory_knowledge_map"] = await session.call_tool("memory_knowledge_map", {"center_topic": "gateway"})
        out["memory_review_due"] = await session.call_tool("memory_review_due", {"min_importance": 0})
        out["memory_default_read"] = await session.call_tool("memory_default_read", {"token_limit": 200})
        out["memory_todo"] = await session.call_tool("memory_todo", {"status": "all"})
        out["memory_delete"] = await session.call_tool("memory_delete", {"id": hits["kv"]})
        out["library error"] = await session.call_tool("memory_recall", {"item_id": "memtool:nosuchitem"})
        out["delete a file"] = await session.call_tool("memory_delete", {"id": "MEMORY.md"})
        return listed, hits, out

    listed, hits, out = _run(server_env, calls)
    assert listed <= set(out)                                   # every tool called at least once
    answers = {name: _answer(result) for name, result in out.items()}
    failed = {name: a for name, a in answers.items() if not a["ok"]}
    assert set(failed) == {"library error", "delete a file"}, failed
    assert failed["library error"]["error"] == "NOT_FOUND" and failed["library error"]["id"] == "nosuchitem"
    assert failed["delete a file"]["error"] == "INVALID_ARGUMENT"
    assert {h["source"] for h in answers["memory_search"]["results"]} == {"memory", "kv", "memtool"}
    assert "quillfeather" in answers["memory_get"]["text"]
    assert answers["get by path (older name)"]["text"] == answers["memory_get"]["text"]
    assert answers["get memtool id"]["item"]["content"].startswith("quillfeather gateway")
    assert answers["recall by search id"]["item"]["id"] == answers["memory_store"]["id"]
    assert answers["memory_store"]["item"]["content_chars"] > 0 and "content" not in answers["memory_store"]["item"]
    assert [it["id"] for it in answers["memory_list"]["items"]] == [hits["memtool"]]
    assert answers["memory_delete"]["deleted"] is True
    assert answers["memory_todo"] == {"ok": True, "project": "alpha", "status": "all", "count": 0, "todos": []}


def test_an_unexpected_failure_is_answered_in_the_one_shape():
    from code_memory.mcp.server import _tool_wrapper

    def memory_boom() -> dict:
        raise RuntimeError("zqx-internal-marker: for the server log only")

    result = _tool_wrapper(memory_boom)()
    assert _is_error(result) and _answer(result)["error"] == "INTERNAL_ERROR"
    assert "zqx-internal-marker" not in result.content[0].text


def test_docs_mcp_md_is_generated_from_the_live_tool_list():
    from code_memory.mcp import reference
    # exit 1 (and the command to run on stderr) when docs/mcp.md differs from what the tools say
    assert reference.main(["--check"]) == 0
