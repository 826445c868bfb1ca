"""To-dos that live as long as the work (issue 20, part 2): captured from how people say them,
closed when a later session did the work (in other words, asked for it, or stated it), by the
person with ``code-memory todo done|reopen`` or the memory browser — decisions that survive a
rebuild of the index and a re-summary — and expired with a visible line."""

from __future__ import annotations

import json
import os
import shutil
import time

import pytest

from code_memory.cli.main import main as cli
from code_memory.memory import recent, todos
from code_memory.summary.summarize import SummaryOptions, summarize_session
from code_memory.summary.todos import same_todo
from code_memory.timeutil import now_iso
from support.hook_runner import payload, run_hook
from support.transcripts import TranscriptWriter

TODO_ZERO = "金额为 0 的订单还没处理，之后得补上"
TODO_DOCS = "下回记得把 AMOUNT_ZERO 写进 docs/errors.md 的错误码表"


class NoLLM:
    name = "none"


def ago(days: float) -> str:
    return now_iso(time.time() - days * 86400)


def session(paths, tmp_path, cwd, sid, steps, days):
    path = str(tmp_path / f"{sid}.jsonl")
    with TranscriptWriter(path, session_id=sid, cwd=cwd) as t:
        for kind, *rest in steps:
            if kind == "user":
                t.user(rest[0])
            elif kind == "say":
                t.say(rest[0])
            elif kind == "edit":
                t.tool("Edit", {"file_path": f"{cwd}/{rest[0]}", "old_string": "a", "new_string": "b"})
            else:
                t.tool("Bash", {"command": rest[0]}, "ok")
    return summarize_session(paths, path, backend=NoLLM(), options=SummaryOptions(), ended_at=ago(days))


@pytest.fixture
def worked(initialized_root, project, tmp_path):
    """s1 leaves two to-dos; s2, asked for one of them in other words, does it and leaves another."""
    paths = initialized_root
    session(paths, tmp_path, project, "s1", [
        ("user", "下单接口偶尔会重复扣款，帮我看看"), ("edit", "orders/service.py"), ("bash", "pytest -q"),
        ("say", f"唯一索引加好了，测试都过了。{TODO_ZERO}。有空的话把重试日志也整理一下。")], 3)
    report = session(paths, tmp_path, project, "s2", [
        ("user", "今天把金额为 0 的订单处理一下吧"), ("edit", "orders/validators.py"), ("bash", "pytest -q"),
        ("say", f"下单时金额为 0 直接拒绝，返回 AMOUNT_ZERO。{TODO_DOCS}。")], 2)
    assert report["todos_done"] == 1
    return paths


def run_cli(capsys, *args):
    status = cli(list(args))
    out = capsys.readouterr().out.strip()
    return status, (json.loads(out) if out.startswith("{") else out)


def test_the_cli_lists_closes_and_reopens_and_the_decision_lasts(worked, project, tmp_path, capsys):
    paths = worked
    status, listed = run_cli(capsys, "todo", "list")
    assert status == 0 and [t["text"] for t in listed["todos"]] == [TODO_DOCS, "有空的话把重试日志也整理一下"]
    status, done = run_cli(capsys, "todo", "list", "--status", "done", "--format", "text")
    assert status == 0 and TODO_ZERO in done and "[x]" in done            # finished by s2, in other words
    first = listed["todos"][0]
    assert first["id"] == todos.todo_id("s2", TODO_DOCS) and first["note"] == "sessions/s2.md"

    status, closed = run_cli(capsys, "todo", "done", "重试日志")          # by words of its text
    assert status == 0 and closed["todo"]["status"] == "done"
    status, again = run_cli(capsys, "todo", "done", "重试日志")
    assert status == 10 and again["error"] == "CONFLICT"
    status, ambiguous = run_cli(capsys, "todo", "reopen", "的")             # in all three: name one by id
    assert status == 2 and ambiguous["error"] == "TODO_AMBIGUOUS" and first["id"] in ambiguous["hint"]
    status, missing = run_cli(capsys, "todo", "done", "没有这个待办")
    assert status == 3 and missing["error"] == "NOT_FOUND"

    brief = run_hook("session-start", payload("session-start", project, session_id="s3")).context
    open_lines = [line for line in brief.split("\n") if "[ ]" in line]
    assert any(TODO_DOCS in line for line in open_lines)
    assert not any("重试日志" in line or TODO_ZERO in line for line in open_lines)

    # the decision is the truth next to the notes: a rebuilt index and a re-summarized session keep it
    shutil.rmtree(recent.recent_dir(paths))
    recent.rebuild(paths, same_todo)
    assert [t["text"] for t in todos.list_todos(paths)] == [TODO_DOCS]
    session(paths, tmp_path, project, "s1", [
        ("user", "下单接口偶尔会重复扣款，帮我看看"), ("edit", "orders/service.py"), ("bash", "pytest -q"),
        ("say", f"唯一索引加好了，测试都过了。{TODO_ZERO}。有空的话把重试日志也整理一下。")], 3)
    assert [t["text"] for t in todos.list_todos(paths)] == [TODO_DOCS]

    status, reopened = run_cli(capsys, "todo", "reopen", todos.todo_id("s1", "有空的话把重试日志也整理一下")[:6])
    assert status == 0 and reopened["todo"]["status"] == "open"
    assert [t["text"] for t in todos.list_todos(paths)][-1] == "有空的话把重试日志也整理一下"
    marks = [json.loads(line) for line in open(recent.marks_path(paths), encoding="utf-8")]
    assert [(m["action"], m["by"]) for m in marks] == [("done", "cli"), ("reopen", "cli")]


def test_a_stale_todo_expires_with_a_visible_line(initialized_root, project, tmp_path):
    paths = initialized_root
    session(paths, tmp_path, project, "old", [("user", "导出报表改成流式写入"), ("edit", "exporter.py"),
                                              ("say", "改好了。进度条还没做，之后要加上。")], 33)
    context = run_hook("session-start", payload("session-start", project)).context
    assert "## Expired to-dos (open more than 30 days" in context and "进度条还没做" in context
    assert not any("进度条" in line for line in context.split("\n") if "[ ]" in line)
    assert [t["status"] for t in todos.list_todos(paths, statuses=todos.STATUSES)] == ["expired"]
    later = run_hook("session-start", payload("session-start", project),
                     env={"CODE_MEMORY_HOOKS__TODO_EXPIRE_DAYS": "20"}).context   # 13 days ago: said once, now gone
    assert "recent work" not in later
    kept = run_hook("session-start", payload("session-start", project),
                    env={"CODE_MEMORY_HOOKS__TODO_EXPIRE_DAYS": "60"}).context
    assert "- [ ] 进度条还没做，之后要加上" in kept and "Still open from earlier sessions" in kept


def test_the_browser_closes_and_reopens_behind_csrf_and_read_only(worked):
    pytest.importorskip("jinja2")
    from starlette.testclient import TestClient

    from code_memory.config import load_config
    from code_memory.search.access import resolve_scope
    from code_memory.ui.app import create_app
    from code_memory.ui.views import State

    cfg = load_config()
    scope = resolve_scope(cfg, scope="all", confirm=lambda question: True, ancestor=())
    target = todos.todo_id("s2", TODO_DOCS)

    def browser(read_only=False):
        app = create_app(State(cfg, scope, read_only=read_only), token="t", csrf="c", port=8765)
        client = TestClient(app, base_url="http://127.0.0.1:8765")
        assert client.get("/todos?token=t").status_code == 200       # the one-use token → a session cookie
        return client

    with browser() as client:
        page = client.get("/todos").text
        assert TODO_DOCS in page and f'value="{target}"' in page and "To-dos · 待办" in page
        assert TODO_ZERO in client.get("/todos?status=done").text
        refused = client.post("/api/todo/done", json={"id": target})
        assert refused.status_code == 403 and refused.json()["error"] == "CSRF_REFUSED"
        bad = client.post("/api/todo/done", json={"id": "../../x"}, headers={"x-csrf-token": "c"})
        assert bad.status_code == 400
        form = client.post("/api/todo/done", data={"id": target, "csrf": "c", "next": "/todos"},
                           follow_redirects=False)
        assert form.status_code == 303 and "msg=" in form.headers["location"]
        assert client.get("/api/todos?status=done").json()["counts"]["done"] == 2
        done_page = client.get("/todos?status=done").text         # who closed each: the browser, a later session
        assert "done by the memory browser" in done_page and "done by session s2 (the summarizer)" in done_page
        answer = client.post("/api/todo/reopen", json={"id": target}, headers={"x-csrf-token": "c"}).json()
        assert answer["ok"] and answer["todo"]["status"] == "open"
    with browser(read_only=True) as client:
        assert 'action="/api/todo/done"' not in client.get("/todos").text
        refused = client.post("/api/todo/done", json={"id": target}, headers={"x-csrf-token": "c"})
        assert refused.status_code == 403 and refused.json()["error"] == "READ_ONLY"
    marks = [json.loads(line) for line in open(recent.marks_path(worked), encoding="utf-8")]
    assert [(m["action"], m["by"]) for m in marks] == [("done", "ui"), ("reopen", "ui")]
    assert os.stat(recent.marks_path(worked)).st_mode & 0o077 == 0
