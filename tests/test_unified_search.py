"""One search over every store (search/unified.py): ``memory-search.py`` and MCP ``memory_search``
find the Markdown tree, kv keys, the session's workspace and memtool items, each hit labelled with
its source and an id that ``get`` / ``memory_get`` reads back; isolation holds; a corrupt memtool
database leaves the other stores answering; the MCP tools list and delete stored items and keys.
memtool's CLI and the MCP server share one database under the memory root."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys

import pytest

from conftest import SCRIPTS, run_script

MARK = "zebracache"


def search(*args, cwd=None, env=None):
    proc = run_script("memory-search.py", *args, cwd=cwd, env=env, terminal="y")   # --project alpha: the user says y
    return proc.returncode, json.loads(proc.stdout.splitlines()[0])


def memtool(*args, cwd=None):
    proc = run_script("memtool.py", *args, cwd=cwd)
    return json.loads(proc.stdout)


@pytest.fixture
def stores(initialized_root, project, tmp_path):
    """A marker in every store: MEMORY.md, alpha's rules, another project's rules (must stay
    hidden), a kv key, a quarantined kv key (hidden), the session's workspace, another workspace
    (hidden), and a memtool item in the shared database."""
    from code_memory.kv.write import set_memory

    root = initialized_root.root
    with open(initialized_root.memory_md, "a", encoding="utf-8") as fh:
        fh.write(f"\n## 避坑经验 (Pitfalls)\n\n- {MARK} in MEMORY: restart the cache after deploy\n")
    for name in ("alpha", "secretproj"):
        path = os.path.join(initialized_root.project_dir(name), "rules.md")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(f"# {name}\n\n## 规范\n\n- {MARK} rule of {name}\n")
    set_memory(root, "/user/preference/cache", {"summary": f"{MARK} kv: prefers redis"}, "chat")   # an agent's: MCP may delete it
    set_memory(root, "/untrusted/web/x", {"summary": f"{MARK} quarantined"}, "user")
    spaces = {}
    for name in ("ops", "other"):
        ws = tmp_path / "spaces" / name
        (ws / "memory").mkdir(parents=True)
        (ws / "memory" / "2026-02-01.md").write_text(f"## 2026-02-01\n\n## 2026-02-01 09:30 — 决策\n- 结论：{MARK} in {name}\n",
                                                     encoding="utf-8")
        spaces[name] = str(ws)
    with open(os.path.join(root, "config.json"), "w", encoding="utf-8") as fh:
        json.dump({"workspaces": {"paths": list(spaces.values())}}, fh)
    out = memtool("put", "--type", "project", "--key", "cache-policy", "--content", f"{MARK} memtool: TTL 300s")
    assert out["ok"] is True
    return {"root": root, "project": project, "spaces": spaces, "memtool_id": out["id"]}


def test_one_search_covers_every_store_with_ids_that_get_reads(stores):
    workdir = os.path.join(stores["spaces"]["ops"])      # inside workspace ops; project: ops's directory
    code, out = search(MARK, "--mode", "bm25", "--project", "alpha", "--top-k", "20", cwd=workdir)
    assert code == 0, out
    by_source = {}
    for hit in out["results"]:
        by_source.setdefault(hit["source"], []).append(hit)
    assert set(by_source) == {"memory", "kv", "workspace", "memtool"}
    text = json.dumps(out, ensure_ascii=False)
    assert "secretproj" not in text and "quarantined" not in text and " in other" not in text
    assert out["stores"]["index"]["ok"] and out["stores"]["memtool"] == {"ok": True, "count": 1, "fts5": True}
    # every id reads back with get
    kv_hit = by_source["kv"][0]
    assert kv_hit["id"] == "kv:/user/preference/cache"
    code, got = search("get", "--id", kv_hit["id"], cwd=workdir)
    assert code == 0 and got["entry"]["content"]["summary"].startswith(MARK)
    mt_hit = by_source["memtool"][0]
    assert mt_hit["id"] == f"memtool:{stores['memtool_id']}" and mt_hit["heading"] == "cache-policy"
    code, got = search("get", "--id", mt_hit["id"], cwd=workdir)
    assert code == 0 and got["item"]["content"] == f"{MARK} memtool: TTL 300s"
    for hit in by_source["memory"] + by_source["workspace"]:
        code, got = search("get", "--id", hit["id"], "--from", str(hit["start_line"]), "--project", "alpha",
                           cwd=workdir)
        assert code == 0 and MARK in got["text"]
    # --source narrows; a quarantined key is never served by id
    code, only = search(MARK, "--source", "memtool,kv", "--mode", "bm25", cwd=workdir)
    assert {h["source"] for h in only["results"]} == {"memtool", "kv"} and only["sources"] == ["kv", "memtool"]
    code, bad = search(MARK, "--source", "files")
    assert code == 2 and bad["error"] == "INVALID_ARGUMENT"
    code, refused = search("get", "--id", "kv:/untrusted/web/x")
    assert code == 3 and refused["error"] == "NOT_FOUND"


def test_a_corrupt_memtool_database_leaves_the_markdown_results(stores):
    db = os.path.join(stores["root"], "memtool.db")
    for suffix in ("-wal", "-shm"):
        if os.path.exists(db + suffix):
            os.unlink(db + suffix)
    with open(db, "wb") as fh:
        fh.write(b"definitely not sqlite " * 200)
    code, out = search(MARK, "--mode", "bm25", "--project", "alpha", cwd=stores["project"])
    assert code == 0 and out["results"] and {h["source"] for h in out["results"]} <= {"memory", "kv"}
    assert out["stores"]["memtool"]["ok"] is False and out["stores"]["memtool"]["error"] == "DB_ERROR"
    assert "memtool" in out["degraded"]["stores"]
    text = run_script("memory-search.py", MARK, "--mode", "bm25", "--format", "text", cwd=stores["project"]).stdout
    assert "store memtool failed: DB_ERROR" in text
    # only memtool asked: nothing answered, so the search itself fails with memtool's error
    code, out = search(MARK, "--source", "memtool", cwd=stores["project"])
    assert code != 0 and out["error"] == "DB_ERROR" and out["stores"]["memtool"]["ok"] is False


def test_memtool_cli_and_the_mcp_server_share_one_database(stores, tmp_path):
    from code_memory.config import load_config
    from code_memory.mcp.server import ServerContext

    ctx = ServerContext.from_environment(env={"CODE_MEMORY_ROOT": stores["root"]})
    assert ctx.memtool_db == os.path.join(stores["root"], "memtool.db")
    listed = memtool("list", cwd=str(tmp_path))
    assert [it["id"] for it in listed["items"]] == [stores["memtool_id"]]
    cfg = load_config(root_override=stores["root"])
    from code_memory.memtool.location import resolve_db
    assert resolve_db(cfg) == (ctx.memtool_db, "memory root")


# -- MCP: search, get, list, delete through the real SDK client -------------------------------

mcp = pytest.importorskip("mcp")


def _mcp(env, calls):
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    async def run():
        params = StdioServerParameters(command=sys.executable, args=[os.path.join(SCRIPTS, "code-memory-mcp.py")],
                                       env=env)
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                return await calls(session)
    return asyncio.run(asyncio.wait_for(run(), timeout=120))


def _json(result):
    text = result.content[0].text
    return json.loads(text[text.index("{"):])


def _error(result) -> bool:
    return bool(getattr(result, "is_error", getattr(result, "isError", False)))


def test_mcp_search_finds_what_memory_store_saved_and_list_delete_work(stores):
    env = dict(os.environ, CLAUDE_PROJECT_DIR=stores["project"])

    async def calls(session):
        out = {"tools": [t.name for t in (await session.list_tools()).tools]}
        saved = _json(await session.call_tool("memory_store", {"content": "quokkaflag: the deploy needs VPN",
                                                               "type": "feature", "key": "deploy"}))
        out["saved"] = saved
        out["search"] = _json(await session.call_tool("memory_search", {"query": "quokkaflag", "mode": "bm25"}))
        out["all"] = _json(await session.call_tool("memory_search", {"query": MARK, "mode": "bm25", "top_k": 20}))
        out["get"] = _json(await session.call_tool("memory_get", {"path": f"memtool:{saved['id']}"}))
        out["get_kv"] = _json(await session.call_tool("memory_get", {"path": "kv:/user/preference/cache"}))
        out["list_mt"] = _json(await session.call_tool("memory_list", {"store": "memtool"}))
        out["list_kv"] = _json(await session.call_tool("memory_list", {"store": "kv"}))
        out["del_mt"] = _json(await session.call_tool("memory_delete", {"id": f"memtool:{saved['id']}"}))
        out["del_kv"] = _json(await session.call_tool("memory_delete", {"id": "kv:/user/preference/cache"}))
        again = await session.call_tool("memory_delete", {"id": "kv:/user/preference/cache"})
        out["again"] = (_error(again), _json(again))
        quarantined = await session.call_tool("memory_delete", {"id": "kv:/untrusted/web/x"})
        out["quarantined"] = (_error(quarantined), _json(quarantined))
        a_file = await session.call_tool("memory_delete", {"id": os.path.join(stores["root"], "MEMORY.md")})
        out["file"] = (_error(a_file), _json(a_file))
        out["after"] = _json(await session.call_tool("memory_search", {"query": MARK, "mode": "bm25", "top_k": 20}))
        return out

    out = _mcp(env, calls)
    assert {"memory_list", "memory_delete"} <= set(out["tools"]) and len(out["tools"]) == 13
    hits = out["search"]["results"]
    assert hits and hits[0]["source"] == "memtool" and hits[0]["id"] == f"memtool:{out['saved']['id']}"
    assert {h["source"] for h in out["all"]["results"]} == {"memory", "kv", "memtool"}
    assert "secretproj" not in json.dumps(out["all"]) and "quarantined" not in json.dumps(out["all"])
    assert out["get"]["item"]["content"] == "quokkaflag: the deploy needs VPN"
    assert out["get_kv"]["entry"]["key"] == "/user/preference/cache"
    assert {it["id"] for it in out["list_mt"]["items"]} == {f"memtool:{stores['memtool_id']}",
                                                            f"memtool:{out['saved']['id']}"}
    assert [it["id"] for it in out["list_kv"]["items"]] == ["kv:/user/preference/cache"]  # no quarantined key
    assert out["del_mt"]["deleted"] is True and out["del_kv"]["deleted"] is True
    assert out["again"][0] and out["again"][1]["error"] == "NOT_FOUND"
    assert out["quarantined"][0] and out["quarantined"][1]["error"] == "NOT_FOUND"
    assert out["file"][0] and out["file"][1]["error"] == "INVALID_ARGUMENT"
    assert {h["source"] for h in out["after"]["results"]} == {"memory", "memtool"}
    remaining = memtool("list")
    assert [it["id"] for it in remaining["items"]] == [stores["memtool_id"]]   # the CLI sees the same database
    log = subprocess.run([sys.executable, os.path.join(SCRIPTS, "code-memory.py"), "kv", "get",
                          "/user/preference/cache"], capture_output=True, text=True)
    assert json.loads(log.stdout)["error"] == "NOT_FOUND"
