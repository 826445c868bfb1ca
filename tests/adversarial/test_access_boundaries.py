"""The access policy (search/access.py) through every door: derived files and quarantined text are
never served by get (CLI, MCP via the real SDK client), another project's memory and daily lines
stay hidden, the summarizer's session entries carry their project, traversal and symlinks through
every path argument are refused."""

from __future__ import annotations

import asyncio
import json
import os
import sys

import pytest

from code_memory.search import access
from code_memory.search.chunking import chunk_daily
from conftest import REPO, run_script

pytest.importorskip("mcp")
from mcp import ClientSession, StdioServerParameters  # noqa: E402
from mcp.client.stdio import stdio_client  # noqa: E402

ALPHA, BETA = "ISO-ALPHA-LINE", "ISO-BETA-LINE"
SECRET_Q = "ISO-QUARANTINED-TEXT"
DAY = "2026-03-02"
DERIVED = [".index/search.sqlite", ".index/recent/alpha.json", "kv/log.jsonl", "kv/state.jsonl", "kv/state.json",
           "kv/digest.json", "kv/index/untrusted/web/x.json", "kv/index/user/pref.json", "memtool.db",
           "evolution/signals.jsonl", "evolution/feedback.sqlite", "config.json", "daily/.lock", "hooks.log"]
TRAVERSALS = ["../../../../etc/passwd", "/etc/passwd", "areas/../../outside.md", "link-out.md", "areas/link-dir/x.md",
              "sessions/../../outside.md", "%2e%2e/%2e%2e/etc/passwd"]


@pytest.fixture
def tree(memory_root, tmp_path):
    root = memory_root
    for rel in DERIVED:
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as fh:
            fh.write(json.dumps({"content": SECRET_Q}) + "\n")
    for name, mark in (("alpha", ALPHA), ("beta", BETA)):
        area = os.path.join(root, "areas", "projects", name)
        os.makedirs(area, exist_ok=True)
        with open(os.path.join(area, "rules.md"), "w") as fh:
            fh.write(f"# {name}\n\n## Deploy\n- deploy rule {mark}\n")
    os.makedirs(os.path.join(root, "sessions"), exist_ok=True)
    with open(os.path.join(root, "sessions", "s-beta.md"), "w") as fh:
        fh.write(f"# session\n\n- **项目**: beta\n- first prompt {BETA}\n")
    os.makedirs(os.path.join(root, "daily"), exist_ok=True)
    with open(os.path.join(root, "daily", f"{DAY}.md"), "w") as fh:
        fh.write(f"# {DAY}\n\n- 10:00 [alpha] a.py {ALPHA}\n- 10:01 [beta] b.py {BETA}\n\n"
                 f"### 会话 s-beta\n- 时间: 10:05 · [beta]\n- 主题: deploy {BETA}\n- 摘要: sessions/s-beta.md\n\n"
                 f"### 会话 s-alpha\n- 时间: 10:06 · [alpha]\n- 主题: deploy {ALPHA}\n\n")
    with open(os.path.join(root, "MEMORY.md"), "w") as fh:
        fh.write("# Memory\n\n- deploy notes\n")
    outside = tmp_path / "outside.md"
    outside.write_text(f"outside {SECRET_Q}\n")
    os.symlink(outside, os.path.join(root, "link-out.md"))
    os.symlink(tmp_path, os.path.join(root, "areas", "link-dir"))
    alpha = tmp_path / "work" / "alpha"
    alpha.mkdir(parents=True)
    return root, str(alpha)


def get(path, cwd, *extra, env=None, session=None):
    res = run_script("memory-search.py", "get", "--path", path, *extra, cwd=cwd, env=env, session=session)
    return res.returncode, json.loads(res.stdout)


def test_session_entries_carry_their_project():
    text = (f"# {DAY}\n\n### 会话 s1\n- 时间: 10:05 · [beta]\n- 主题: {BETA}\n\n"
            f"### 会话 s2\n- 时间: — · [—]\n- 主题: nothing\n")
    chunks = chunk_daily(text)
    assert [(c.project, BETA in c.text) for c in chunks] == [("beta", True), (None, False)]


@pytest.mark.parametrize("rel", DERIVED)
def test_derived_files_are_never_served_by_cli_get(tree, rel):
    root, alpha = tree
    code, out = get(rel, alpha)
    assert code == 6 and out["error"] == "MEMORY_PATH_TRAVERSAL" and SECRET_Q not in json.dumps(out)
    code, out = get(rel, alpha, "--scope", "all", "--force")      # even widened (no terminal: refused anyway)
    assert code == 6 and SECRET_Q not in json.dumps(out)


@pytest.mark.parametrize("rel", DERIVED)
def test_derived_files_are_refused_by_the_policy_even_in_a_wide_scope(tree, rel):
    root, _ = tree
    wide = access.Scope(root, wide=True)
    assert access.path_denial(root, os.path.realpath(os.path.join(root, rel)), wide)


@pytest.mark.parametrize("bad", TRAVERSALS)
def test_traversal_and_symlink_escapes_through_get(tree, bad):
    root, alpha = tree
    code, out = get(bad, alpha)
    assert code in (3, 6) and out["ok"] is False and SECRET_Q not in json.dumps(out)


def test_other_projects_files_and_daily_lines_are_hidden(tree):
    root, alpha = tree
    for rel in ("areas/projects/beta/rules.md", "sessions/s-beta.md"):
        code, out = get(rel, alpha)
        assert code == 6 and BETA not in json.dumps(out)
        code, out = get(rel, alpha, session="s")
        assert code == 6 and BETA not in json.dumps(out)
    code, out = get("areas/projects/alpha/rules.md", alpha)
    assert code == 0 and ALPHA in out["text"]
    code, out = get(f"daily/{DAY}.md", alpha)
    assert code == 0 and ALPHA in out["text"] and BETA not in out["text"]
    assert out["hidden_lines"] == 5 and out["total_lines"] == out["lines"]   # line numbers stay true
    res = run_script("memory-search.py", "deploy", "--mode", "bm25", "--top-k", "20", cwd=alpha)
    hits = json.loads(res.stdout)
    assert hits["ok"] and ALPHA in json.dumps(hits) and BETA not in json.dumps(hits)


SERVER = os.path.join(REPO, "scripts", "code-memory-mcp.py")


def _payload(result) -> dict:
    text = result.content[0].text
    return json.loads(text[text.index("{"):])


def test_mcp_get_serves_the_same_policy(tree):
    root, alpha = tree
    env = dict(os.environ, CLAUDE_PROJECT_DIR=alpha, MEMTOOL_DB=os.path.join(os.path.dirname(alpha), "m.db"))

    async def calls(session):
        out = {}
        for rel in DERIVED + TRAVERSALS + ["MEMORY.md\x00.png", "areas/projects/beta/rules.md", "sessions/s-beta.md", f"daily/{DAY}.md",
                                           "kv:/untrusted/web/x"]:
            out[rel] = _payload(await session.call_tool("memory_get", {"path": rel}))
        out["search"] = _payload(await session.call_tool("memory_search", {"query": "deploy", "top_k": 20}))
        return out

    async def run():
        params = StdioServerParameters(command=sys.executable, args=[SERVER], env=env)
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                return await calls(session)

    out = asyncio.run(asyncio.wait_for(run(), timeout=120))
    for rel, answer in out.items():
        text = json.dumps(answer, ensure_ascii=False)
        assert SECRET_Q not in text and BETA not in text, rel
        if rel not in (f"daily/{DAY}.md", "search"):
            assert answer.get("ok") is False, rel
    assert ALPHA in out[f"daily/{DAY}.md"]["text"] and ALPHA in json.dumps(out["search"])


def test_the_session_is_recognised_without_its_variables(monkeypatch):
    for name in access.SESSION_ENV:
        monkeypatch.delenv(name, raising=False)
    assert access.session_evidence({}, ancestor=(4242, "/x")) == ["Claude Code (pid 4242) is an ancestor process"]
    assert access.home_dir("/elsewhere", ancestor=(4242, "/launch")) == "/launch"
    assert access.confirm_on_terminal("? ") is False            # the test runner has no controlling terminal
    with pytest.raises(Exception) as info:
        access.authorize_widening("x", ["$CLAUDECODE is set"], confirm=lambda q: True)   # never asked in a session
    assert info.value.code == "MEMORY_SCOPE_DENIED"


def test_facts_list_keeps_to_the_scope(tree):
    root, alpha = tree
    for name, mark in (("alpha", ALPHA), ("beta", BETA)):
        with open(os.path.join(root, "areas", "projects", name, "facts.json"), "w") as fh:
            json.dump({"facts": [{"id": f"fact-{name}", "fact": f"fact {mark}", "status": "active"}]}, fh)
    res = run_script("code-memory.py", "facts", "list", cwd=alpha, session="s-1")
    out = json.loads(res.stdout)
    assert ALPHA in json.dumps(out) and BETA not in json.dumps(out)
    for args in (("--project", "beta"), ("--area", "projects/beta")):
        res = run_script("code-memory.py", "facts", "list", *args, cwd=alpha, session="s-1", terminal="y")
        out = json.loads(res.stdout)
        assert out["error"] == "MEMORY_SCOPE_DENIED" and BETA not in json.dumps(out)


@pytest.mark.parametrize("area", ["projects/../../../outside", "tools/a/../../../x", "projects/..", "projects/a\x01b"])
def test_area_names_never_lead_outside_the_areas(memory_root, tmp_path, area):
    res = run_script("code-memory.py", "facts", "add", "a fact", "--area", area, "--create", cwd=str(tmp_path))
    out = json.loads(res.stdout)
    areas = os.path.realpath(os.path.join(memory_root, "areas"))
    if out["ok"]:
        written = os.path.realpath(os.path.join(areas, out["area"], "facts.json"))
        assert written.startswith(areas + os.sep) and os.path.exists(written) and "../" not in out["area"]
    assert not os.path.exists(tmp_path / "outside") and not os.path.exists(os.path.join(memory_root, "x"))


def test_facts_written_to_another_project_need_the_users_terminal(initialized_root, tmp_path):
    """A fact written into a project the caller is not in is a widening, like a read: refused
    without a terminal (every command Claude's Bash tool runs), done after a y on the terminal."""
    facts = os.path.join(initialized_root.project_dir("chat"), "facts.json")
    os.makedirs(os.path.dirname(facts), exist_ok=True)
    cwd = str(tmp_path)
    refused = run_script("code-memory.py", "facts", "add", "heartbeat every 20 s", "--project", "chat", cwd=cwd)
    answer = json.loads(refused.stdout)
    assert answer["error"] == "MEMORY_SCOPE_DENIED" and "writing to project 'chat'" in answer["message"]
    assert not os.path.exists(facts)
    refused = run_script("code-memory.py", "facts", "add", "x", "--area", "projects/chat", cwd=cwd)
    assert json.loads(refused.stdout)["error"] == "MEMORY_SCOPE_DENIED"
    done = run_script("code-memory.py", "facts", "add", "heartbeat every 20 s", "--project", "chat", cwd=cwd,
                      terminal="y")
    assert json.loads(done.stdout)["ok"] is True
    fact_id = json.loads(done.stdout)["fact"]["id"]
    refused = run_script("code-memory.py", "facts", "archive", fact_id, "--project", "chat", cwd=cwd)
    assert json.loads(refused.stdout)["error"] == "MEMORY_SCOPE_DENIED"
    with open(facts, encoding="utf-8") as fh:
        assert json.load(fh)["facts"][0]["status"] == "active"
