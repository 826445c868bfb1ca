"""The next brief shows what the model (or the person) closed inside a session (issue 20, eighth round):
a to-do closed with memory_todo or with ``code-memory todo done`` from Claude's Bash tool is named on
the closing session's entry — ``- finished earlier to-dos (closed in this session; reopen any that is not): <text> (id …)``
— and that session no longer folds into the short-sessions line; a close the person made at a
terminal, outside any session, just leaves the brief. A rebuilt index keeps it; the line never holds
``[ ]`` and fits the brief's budget."""

from __future__ import annotations

import shutil

from code_memory.hooks import recent_work
from code_memory.memory import recent, todos
from code_memory.summary.todos import same_todo
from conftest import run_script
from test_autoclose import RETRY_LOG, brief
from test_todos import TODO_DOCS, run_cli, session, worked  # noqa: F401  (the fixture)

HEADER = "- finished earlier to-dos (closed in this session; reopen any that is not): "


def test_a_close_made_in_a_session_is_named_on_that_sessions_entry(worked, project, tmp_path, capsys):  # noqa: F811
    paths = worked
    retry_id, docs_id = todos.todo_id("s1", RETRY_LOG), todos.todo_id("s2", TODO_DOCS)
    # session s3 only talks; its model closes the retry-log to-do with memory_todo (its session id)
    todos.decide(paths, retry_id, "done", by="mcp", project=None, in_session="s3")
    session(paths, tmp_path, project, "s3", [("user", "重试日志整理得怎么样了？"), ("say", "整理好了。")], 1)
    text = brief(project)
    lines = text.split("\n")
    assert f"{HEADER}{RETRY_LOG} (id {retry_id})" in lines
    s3 = next(i for i, line in enumerate(lines) if line.startswith("## ") and "重试日志整理得怎么样了" in line)
    assert lines.index(f"{HEADER}{RETRY_LOG} (id {retry_id})") > s3       # under s3's own entry, which is not folded
    assert not any(RETRY_LOG in line for line in lines if "[ ]" in line)
    assert not any("Short sessions" in line and "重试日志" in line for line in lines)

    # the model runs `code-memory todo done <id>` from its Bash tool in session s4: the same
    done = run_script("code-memory.py", "todo", "done", docs_id, session="s4", cwd=project)
    assert done.returncode == 0, done.stdout + done.stderr
    session(paths, tmp_path, project, "s4", [("user", "把错误码表补上"), ("edit", "docs/errors.md"),
                                              ("say", "补好了。")], 0.5)
    assert f"{HEADER}{TODO_DOCS} (id {docs_id})" in brief(project).split("\n")
    assert [t["closed_in"] for t in todos.list_todos(paths, statuses=("done",)) if t.get("closed_in")] == ["s4", "s3"]

    # a rebuilt index keeps both (the marks carry the session)
    shutil.rmtree(recent.recent_dir(paths))
    recent.rebuild(paths, same_todo)
    rebuilt = brief(project).split("\n")
    assert f"{HEADER}{RETRY_LOG} (id {retry_id})" in rebuilt and f"{HEADER}{TODO_DOCS} (id {docs_id})" in rebuilt

    # the person reopens one and closes it at a terminal (no session): it leaves the brief, no line
    assert run_cli(capsys, "todo", "reopen", retry_id)[0] == 0
    assert any(RETRY_LOG in line and "[ ]" in line for line in brief(project).split("\n"))
    assert run_cli(capsys, "todo", "done", retry_id)[0] == 0
    assert RETRY_LOG not in brief(project)


def test_the_line_is_shortened_within_the_budget_and_holds_no_open_box():
    now = 1_700_000_000.0
    earlier = {"id": "e0", "ts": now - 7200, "todos": []}
    closed = [({"text": f"第 {i} 个 [ ] 待办：" + "很长的描述" * 30, "done_by": "user", "closed_in": "s"}, earlier)
              for i in range(4)]
    entry = {"id": "s", "ts": now - 3600, "note": "sessions/s.md", "topic": "t"}
    args = ([entry], [], [], [], 'project "p"', "next", "startup", "p", now, 30.0)
    full = recent_work.render(*args, closed_in={"s": closed})
    line = next(x for x in full.split("\n") if x.startswith(HEADER))
    assert line.count("(id ") == 4 and "[ ]" not in line
    short = recent_work.render(*args, budget=900, closed_in={"s": closed})
    assert len(short) <= 900 and next(x for x in short.split("\n") if x.startswith(HEADER)).count("(id ") == 4
    entries = [{"id": "e0", "todos": [todo for todo, _e in closed] + [
        {"text": "closed by the person at a terminal", "done_by": "user"},
        {"text": "closed by the summarizer", "done_by": "s"}]}]
    assert recent_work.session_closes(entries) == {"s": [(todo, entries[0]) for todo, _e in closed]}
