"""todo-check asks about the summarizer's unconfirmed closes too (issue 20, round 8): a close the
summarizer made from a later session's words, that nobody confirmed or reopened, comes back in a
second, separate part of the Stop question when a turn of a later session touches it — with its
evidence — so the model that works there reopens it if it is not finished, or confirms it (docs/hooks.md
§ todo-check). Through the hook, the real mcp SDK client and the CLI."""

from __future__ import annotations

import json
import os
import time

import pytest

from code_memory.cli.main import main as cli
from code_memory.hooks import todo_check
from code_memory.hooks.runtime import run
from code_memory.memory import recent, todos
from code_memory.memory.todos import todo_id

TODO_EXPORT = "CSV export still ignores the date filter"
TODO_RETRY = "the retry queue drops webhook events after a timeout"
TODO_OPEN = "CSV export header row is missing the currency column"
WHY = "the export filter is wired now"
SECOND = "Second, a separate question: "


def entry(sid: str, project: str, todos_=(), hours_ago: float = 2, **fields) -> dict:
    return {"id": sid, "project": project, "ts": time.time() - hours_ago * 3600, "note": f"sessions/{sid}.md",
            "topic": "work", "todos": [t if isinstance(t, dict) else {"text": t} for t in todos_], **fields}


def closed(text: str, by: str = "s2", why: str = WHY, **marks) -> dict:
    return {"text": text, "done_by": by, "closed_why": why, **marks}


def record(paths, *entries) -> None:
    for e in entries:
        recent.record_session(paths, e, [], lambda a, b: False)


def stop(project, session="s3", message="All done.", **fields):
    return {"session_id": session, "transcript_path": "", "cwd": project, "hook_event_name": "Stop",
            "stop_hook_active": False, "last_assistant_message": message, **fields}


def ask(data) -> dict | None:
    return run("todo-check", json.dumps(data).encode(), dict(os.environ))


@pytest.fixture
def alpha(initialized_root, project):
    """alpha: s1 (5 h ago) left two to-dos; s2 (3 h ago) finished the export one, said the summarizer."""
    record(initialized_root, entry("s1", "alpha", [closed(TODO_EXPORT), TODO_RETRY], hours_ago=5),
           entry("s2", "alpha", hours_ago=3))
    return project


def test_an_unconfirmed_close_the_turn_touches_is_asked_with_its_evidence(alpha, initialized_root):
    ref = todo_id("s1", TODO_EXPORT)
    out = ask(stop(alpha, message="Looked at the CSV export again: the date filter is still not applied."))
    reason = out["reason"]
    assert set(out) == {"decision", "reason"} and out["decision"] == "block"
    assert reason.startswith("[code-memory] Before you stop: memory closed this to-do on its own")
    assert f"{ref} “{TODO_EXPORT}” ← “{WHY}”" in reason
    assert "memory_todo (action reopen, its id), or `code-memory todo reopen <id>`" in reason
    assert "confirm it: memory_todo (action done, its id), or `code-memory todo done <id>`" in reason
    assert SECOND not in reason and TODO_RETRY not in reason
    assert ask(stop(alpha, message="CSV export date filter, again.")) is None          # once per session
    assert ref in ask(stop(alpha, session="s4", message="CSV export date filter, again."))["reason"]
    assert ask(stop(alpha, session="s5", message="Renamed a logger variable.")) is None   # unrelated turn
    # the session that made the close, and the to-do's own session, are not asked about it
    assert ask(stop(alpha, session="s2", message="CSV export date filter")) is None
    assert ask(stop(alpha, session="s1", message="CSV export date filter")) is None


def test_open_todos_come_first_in_one_question_of_at_most_three(initialized_root, project):
    opens = [f"CSV export {w} column is missing" for w in ("currency", "region")]
    shuts = [closed(f"CSV export {w} filter is ignored") for w in ("date", "status", "owner")]
    record(initialized_root, entry("s1", "alpha", [*opens, *shuts], hours_ago=5), entry("s2", "alpha", hours_ago=3))
    out = ask(stop(project, message="CSV export: the currency and region columns, date, status and owner filters."))
    reason = out["reason"]
    first, _sep, second = reason.partition(SECOND)
    assert second and reason.count("“") - reason.count("← “") == todo_check.MAX_ASKED
    assert all(todo_id("s1", t) in first for t in opens)
    assert sum(todo_id("s1", t["text"]) in second for t in shuts) == 1 and "← “" in second
    assert "close it: memory_todo (action done, its id)" in first and "reopen it" in second
    # the next turn of the same session: the closes not named yet, never the ones asked
    again = ask(stop(project, message="CSV export: the date, status and owner filters."))["reason"]
    assert again.startswith("[code-memory] Before you stop: memory closed these to-dos")
    assert not any(todo_id("s1", t) in again for t in opens)
    assert sum(todo_id("s1", t["text"]) in again for t in shuts) == 2


def test_confirmed_reopened_person_closed_other_projects_and_old_closes_are_never_asked(initialized_root, project):
    message = "The CSV export date filter: looked at it again."
    texts = [f"CSV export date filter, case {n}" for n in range(5)]
    record(initialized_root,
           entry("s1", "alpha", [closed(texts[0], confirmed_at=time.time() - 60),      # confirmed
                                 {"text": texts[1], "reopened_at": time.time() - 60},  # reopened: open, see below
                                 {"text": texts[2], "done_by": recent.PERSON_CLOSER, "closed_by": "mcp"},
                                 closed(texts[3], by="s-old"), closed(texts[4], by="s-gone")], hours_ago=300),
           entry("s-old", "alpha", hours_ago=24 * 8),                                   # closed 8 days ago
           entry("s2", "alpha", hours_ago=3),
           entry("b1", "beta", [closed("CSV export date filter of beta", by="b2")], hours_ago=5),
           entry("b2", "beta", hours_ago=3))
    entries = recent.load_entries(recent.index_path(initialized_root, "project", "alpha"))
    assert todo_check.unconfirmed_closes(entries, "alpha", "s3", set(), time.time(), 7) == []
    out = ask(stop(project, message=message))
    assert out is not None and todo_id("s1", texts[1]) in out["reason"]      # the reopened one: as an open to-do
    assert not any(todo_id("s1", t) in out["reason"] for t in texts if t != texts[1])
    assert SECOND not in out["reason"] and "memory closed" not in out["reason"]
    # a workspace index brings in another project's sessions: their closes are never named
    beta = recent.load_entries(recent.index_path(initialized_root, "project", "beta"))
    assert len(todo_check.unconfirmed_closes(beta, "beta", "s3", set(), time.time(), 7)) == 1
    assert todo_check.unconfirmed_closes(beta, "alpha", "s3", set(), time.time(), 7) == []
    # within the window it is asked; hooks.autoclose_notice_days: 0 turns it off
    assert len(todo_check.unconfirmed_closes(entries, "alpha", "s3", set(), time.time(), 9)) == 1


def test_notice_days_zero_turns_it_off(alpha, monkeypatch):
    monkeypatch.setenv("CODE_MEMORY_HOOKS__AUTOCLOSE_NOTICE_DAYS", "0")
    assert ask(stop(alpha, message="CSV export date filter is still not applied.")) is None


pytest.importorskip("mcp")
from test_mcp_contract import _answer  # noqa: E402
from test_mcp_server import _run  # noqa: E402


def test_the_model_reopens_or_confirms_a_close_through_the_tool_and_the_cli(alpha, initialized_root, capsys,
                                                                            tmp_path):
    """The real mcp SDK client: reopen of the summarizer's close (it is open again, the next question
    names it as open), confirm of another (never asked again); another project's close is NOT_FOUND."""
    paths = initialized_root
    other = closed("Rotate the deploy key of beta", by="b2")
    record(paths, entry("s1", "alpha", [closed(TODO_EXPORT), closed(TODO_RETRY)], hours_ago=5),
           entry("b1", "beta", [other], hours_ago=5), entry("b2", "beta", hours_ago=3))
    export, retry, beta = todo_id("s1", TODO_EXPORT), todo_id("s1", TODO_RETRY), todo_id("b1", other["text"])
    env = dict(os.environ, CLAUDE_PROJECT_DIR=alpha, CLAUDE_CODE_SESSION_ID="s3",
               CODE_MEMORY_EMBEDDING__ENABLED="false")

    async def calls(session):
        return {"reopen": await session.call_tool("memory_todo", {"action": "reopen", "todo": export}),
                "confirm": await session.call_tool("memory_todo", {"action": "done", "todo": retry}),
                "confirm again": await session.call_tool("memory_todo", {"action": "done", "todo": retry}),
                "beta": await session.call_tool("memory_todo", {"action": "reopen", "todo": beta}),
                "beta words": await session.call_tool("memory_todo", {"action": "done", "todo": "deploy key"})}

    answers = {k: _answer(v) for k, v in _run(env, calls).items()}
    assert answers["reopen"]["todo"]["status"] == "open" and answers["reopen"]["todo"]["action"] == "reopen"
    confirmed = answers["confirm"]["todo"]
    assert confirmed["action"] == "confirm" and confirmed["status"] == "done" and confirmed["done_by"] == "s2"
    assert confirmed.get("confirmed_at")
    assert answers["confirm again"]["error"] == "CONFLICT"
    assert answers["beta"]["error"] == "NOT_FOUND" and answers["beta words"]["error"] == "NOT_FOUND"
    assert [t["status"] for t in todos.list_todos(paths, project="beta", statuses=todos.STATUSES)] == ["done"]
    marks = [json.loads(line) for line in open(recent.marks_path(paths), encoding="utf-8")]
    assert [(m["action"], m["id"], m["by"], m.get("in_session")) for m in marks] == [
        ("reopen", export, "mcp", "s3"), ("confirm", retry, "mcp", "s3")]
    # a new session's turn about both: the reopened one is an open to-do now, the confirmed one is gone
    reason = ask(stop(alpha, session="s4", message="CSV export date filter; retry queue webhook timeout."))["reason"]
    assert f"{export} “{TODO_EXPORT}”" in reason and "memory closed" not in reason and retry not in reason
    # the CLI, scoped to a project, cannot reach another project's close either
    assert cli(["todo", "reopen", "--project", "alpha", beta]) != 0
    assert json.loads(capsys.readouterr().out)["error"] == "NOT_FOUND"
    assert cli(["todo", "reopen", "--project", "beta", beta]) == 0
    assert json.loads(capsys.readouterr().out)["todo"]["status"] == "open"


def test_a_close_joins_by_meaning_like_an_open_todo(alpha, monkeypatch):
    """The same trigger as the open to-dos: a close that shares no word but is close in meaning (the warm
    server's scores, one call for open to-dos and closes) is named; without scores it is not."""
    ref = todo_id("s1", TODO_EXPORT)
    message = "Spreadsheet downloads honour the chosen period now."
    seen = []

    def scores(ctx, todos_, text):
        seen.append([t[0] for t in todos_])
        return {ref: 0.9}, 0.7, 0.2

    monkeypatch.setattr(todo_check, "by_meaning", lambda ctx, todos_, text: ({}, 1.0, 1.0))
    assert ask(stop(alpha, message=message)) is None
    monkeypatch.setattr(todo_check, "by_meaning", scores)
    reason = ask(stop(alpha, session="s4", message=message))["reason"]
    assert reason.startswith("[code-memory] Before you stop: memory closed this to-do") and ref in reason
    assert seen and ref in seen[-1] and todo_id("s1", TODO_RETRY) in seen[-1]
