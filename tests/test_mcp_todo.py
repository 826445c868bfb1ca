"""The model closes to-dos itself (issue 20, seventh round): the ``memory_todo`` MCP tool through the
real mcp SDK client — list / done / reopen, the next brief without the closed to-do and with it again
after the reopening, the session's project only (another project's to-do is NOT_FOUND, whatever its
id), bad input answered with error codes — and the CLI, the browser and the tool agreeing on ids and
on who closed what. Also the ids where the model reads to-dos: the brief's ``[ ]`` lines and file
recall's ``open to-do:`` lines."""

from __future__ import annotations

import json
import os
import time

import pytest

from code_memory.cli.main import main as cli
from code_memory.memory import recent, todos
from code_memory.timeutil import now_iso
from support.hook_runner import payload, run_hook

pytest.importorskip("mcp")
from test_mcp_contract import _answer  # noqa: E402
from test_mcp_server import _run  # noqa: E402

TODO_TESTS = "给 load_config 补单元测试"
TODO_README = "在 README 里说明 pool_size 配置项"
TODO_LOGS = "Tidy the retry logs before the release"
TODO_BETA = "beta: rotate the deploy key"
SESSION = "sess-mcp-closer-1"


def put_session(paths, project: str, sid: str, texts: list, days: float, files=("src/a.py",)) -> None:
    """One summarized session of ``project`` in the recent-work index, as the summarizer records it."""
    ts = time.time() - days * 86400
    entry = {"id": sid, "note": f"sessions/{sid}.md", "project": project, "workspace": None, "ended": now_iso(ts),
             "ts": ts, "topic": f"work on {project} ({sid})", "files": list(files), "decisions": [],
             "todos": [{"text": t} for t in texts]}
    recent.record_session(paths, entry, [], lambda a, b: a == b)


def twin_prefix_texts(sid: str) -> tuple:
    """Two to-do texts of session ``sid`` whose ids share their first 4 hex digits (found, not typed)."""
    seen = {}
    for n in range(20000):
        text = f"Check shard {n} of the import job"
        prefix = todos.todo_id(sid, text)[:4]
        if prefix in seen:
            return seen[prefix], text
        seen[prefix] = text
    raise AssertionError("no two ids share a 4-digit prefix")


@pytest.fixture
def two_projects(initialized_root, project, tmp_path):
    """alpha (a git checkout): s1 left two to-dos two days ago, s2 one plus two whose ids share a
    prefix yesterday; beta: one to-do."""
    paths = initialized_root
    twins = twin_prefix_texts("s2")
    put_session(paths, "alpha", "s1", [TODO_TESTS, TODO_README], 2, files=("src/a.py", "config/db.yaml"))
    put_session(paths, "alpha", "s2", [TODO_LOGS, *twins], 1, files=("src/b.py",))
    beta = tmp_path / "work" / "beta"
    (beta / ".git").mkdir(parents=True)
    put_session(paths, "beta", "b1", [TODO_BETA], 1)
    return paths, twins, str(beta)


def mcp_env(project_dir: str) -> dict:
    return dict(os.environ, CLAUDE_PROJECT_DIR=project_dir, CLAUDE_CODE_SESSION_ID=SESSION,
                CODE_MEMORY_EMBEDDING__ENABLED="false")


def open_lines(context: str) -> list:
    return [line for line in context.split("\n") if "[ ]" in line]


def brief(project: str, session_id: str = "s-next") -> str:
    return run_hook("session-start", payload("session-start", project, session_id=session_id)).context


def test_the_model_lists_closes_and_reopens_its_projects_todos(two_projects, project, capsys):
    paths, twins, _beta = two_projects
    logs, beta = todos.todo_id("s2", TODO_LOGS), todos.todo_id("b1", TODO_BETA)
    twin_ids = [todos.todo_id("s2", t) for t in twins]

    async def calls(session):
        out = {"list": await session.call_tool("memory_todo", {})}
        out["done"] = await session.call_tool("memory_todo", {"action": "done", "todo": logs})
        out["done again"] = await session.call_tool("memory_todo", {"action": "done", "todo": logs})
        out["listed done"] = await session.call_tool("memory_todo", {"action": "list", "status": "done"})
        out["brief after done"] = brief(project)
        out["reopen by words"] = await session.call_tool("memory_todo", {"action": "reopen", "todo": "retry LOGS"})
        out["reopen again"] = await session.call_tool("memory_todo", {"action": "reopen", "todo": logs})
        out["brief after reopen"] = brief(project)
        # another project's to-do does not exist here, by id or by words
        out["beta by id"] = await session.call_tool("memory_todo", {"action": "done", "todo": beta})
        out["beta by words"] = await session.call_tool("memory_todo", {"action": "done", "todo": "deploy key"})
        out["twin prefix"] = await session.call_tool("memory_todo", {"action": "done", "todo": twin_ids[0][:4]})
        # bad input: the schema's bounds, then the tool's own rules
        out["empty"] = await session.call_tool("memory_todo", {"action": "done", "todo": ""})
        out["too long"] = await session.call_tool("memory_todo", {"action": "done", "todo": "x" * 301})
        out["unknown action"] = await session.call_tool("memory_todo", {"action": "close", "todo": logs})
        out["status on done"] = await session.call_tool("memory_todo", {"action": "done", "todo": logs,
                                                                         "status": "open"})
        out["no todo"] = await session.call_tool("memory_todo", {"action": "done"})
        out["blank"] = await session.call_tool("memory_todo", {"action": "reopen", "todo": "   "})
        out["todo on list"] = await session.call_tool("memory_todo", {"todo": logs})
        out["unknown status"] = await session.call_tool("memory_todo", {"status": "finished"})
        out["all"] = await session.call_tool("memory_todo", {"status": "all"})
        return out

    out = _run(mcp_env(project), calls)
    answers = {name: _answer(result) for name, result in out.items() if not isinstance(result, str)}

    listed = answers["list"]
    assert listed["project"] == "alpha" and listed["status"] == "open" and "omitted" not in listed
    assert listed["count"] == 5 and {t["text"] for t in listed["todos"]} == {TODO_TESTS, TODO_README, TODO_LOGS,
                                                                              *twins}
    first = listed["todos"][0]
    assert first["session"] == "s2" and first["note"] == "sessions/s2.md" and first["ended"] and first["status"] == "open"
    assert all(t["id"] == todos.todo_id(t["session"], t["text"]) for t in listed["todos"])

    done = answers["done"]["todo"]
    assert done["id"] == logs and done["status"] == "done" and done["closed_by"] == "mcp"
    assert done["closed_in"] == SESSION and done["done_by"] == "user"
    assert answers["done again"]["error"] == "CONFLICT" and "already done" in answers["done again"]["message"]
    assert [t["id"] for t in answers["listed done"]["todos"]] == [logs]
    assert answers["listed done"]["todos"][0]["closed_by"] == "mcp"
    assert answers["reopen by words"]["todo"]["status"] == "open" and "closed_by" not in answers["reopen by words"]["todo"]
    assert answers["reopen again"]["error"] == "CONFLICT"

    # the next brief: the closed to-do is gone from the [ ] lines, and back (same id) after the reopening
    after_done, after_reopen = out["brief after done"], out["brief after reopen"]
    assert not any(TODO_LOGS in line for line in open_lines(after_done))
    assert f"  - [ ] {TODO_LOGS} (id {logs})" in after_reopen.split("\n")
    assert "close it: memory_todo (action done, its id), or `code-memory todo done <id>`." in after_reopen
    older = [line for line in open_lines(after_reopen) if TODO_TESTS in line]   # shown with its session's entry
    assert older and older[0].endswith(f"(id {todos.todo_id('s1', TODO_TESTS)})")
    assert TODO_BETA not in after_reopen

    for name in ("beta by id", "beta by words"):
        assert answers[name]["error"] == "NOT_FOUND", answers[name]
    ambiguous = answers["twin prefix"]
    assert ambiguous["error"] == "TODO_AMBIGUOUS" and all(i in ambiguous["hint"] for i in twin_ids)
    for name, field in (("empty", "todo"), ("too long", "todo"), ("unknown action", "action"),
                        ("status on done", "status"), ("no todo", "todo"), ("blank", None),
                        ("todo on list", "todo"), ("unknown status", "status")):
        assert answers[name]["error"] == "INVALID_ARGUMENT", (name, answers[name])
        if field:
            assert answers[name]["fields"][0].split(".")[0] == field, (name, answers[name])
        assert "xxxxxxxxxx" not in answers[name]["message"]
    assert answers["all"]["count"] == 5 and answers["all"]["status"] == "all"

    # nothing the refused calls asked was written; beta's to-do is untouched
    marks = [json.loads(line) for line in open(recent.marks_path(paths), encoding="utf-8")]
    assert [(m["action"], m["id"], m["by"], m.get("in_session")) for m in marks] == [
        ("done", logs, "mcp", SESSION), ("reopen", logs, "mcp", SESSION)]
    assert [t["status"] for t in todos.list_todos(paths, project="beta")] == ["open"]

    # the CLI sees the same to-dos with the same ids, and says who closed one
    assert cli(["todo", "list", "--project", "alpha"]) == 0
    assert [t["id"] for t in json.loads(capsys.readouterr().out)["todos"]] == [t["id"] for t in listed["todos"]]
    assert cli(["todo", "done", "--project", "alpha", logs[:6]]) == 0
    capsys.readouterr()
    assert cli(["todo", "list", "--status", "done", "--project", "alpha", "--format", "text"]) == 0
    assert f"{logs}  [x] {TODO_LOGS}" in capsys.readouterr().out


def test_the_tool_says_who_closed_it_and_caps_a_long_list(two_projects, project, capsys):
    """Without the SDK's transport: the tool function itself (the SDK round trip is tested above)."""
    from code_memory.mcp import todo_tools
    from code_memory.mcp.server import ServerContext

    paths, _twins, _beta = two_projects
    put_session(paths, "alpha", "s0", [f"Port module {n} to the new client" for n in range(52)], 3)
    ctx = ServerContext.from_environment(env=mcp_env(project))
    memory_todo = todo_tools.tools(ctx)[0]
    listed = memory_todo()
    assert listed["count"] == todo_tools.LIST_CAP and listed["omitted"] == 57 - todo_tools.LIST_CAP
    memory_todo(action="done", todo=todos.todo_id("s1", TODO_TESTS))
    assert cli(["todo", "list", "--status", "done", "--project", "alpha", "--format", "text"]) == 0
    assert f"done by the model (memory_todo) in session {SESSION[:8]}" in capsys.readouterr().out

    nowhere = ServerContext.from_environment(env=mcp_env(project))
    nowhere._project, nowhere._project_known = None, True
    with pytest.raises(Exception) as refused:
        todo_tools.tools(nowhere)[0]()
    assert refused.value.code == "NOT_FOUND" and "no project" in refused.value.message


def test_file_recall_names_the_open_todo_by_its_id_and_not_twice(two_projects, project):
    paths, _twins, _beta = two_projects
    os.makedirs(os.path.join(project, "config"), exist_ok=True)
    target = os.path.join(project, "config", "db.yaml")
    with open(target, "w", encoding="utf-8") as fh:
        fh.write("pool_size: 10\n")
    read = payload("pre-read", project, session_id="s-fresh", tool_input={"file_path": target})
    recalled = run_hook("rules-injector", read).context
    assert f"open to-do: {TODO_README} (id {todos.todo_id('s1', TODO_README)})" in recalled
    # after a brief that listed the to-do (with its id), the first Read of the file does not repeat it
    brief(project, session_id="s-briefed")
    again = run_hook("rules-injector", payload("pre-read", project, session_id="s-briefed",
                                               tool_input={"file_path": target})).context
    assert TODO_README not in again
