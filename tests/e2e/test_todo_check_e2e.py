"""todo-check with the real Claude Code binary (docs/hooks.md § todo-check): session 1 leaves two
to-dos; in session 2 the model writes the README part and ends its turn saying so in other words; the
Stop hook's question must reach the model in the next request body (with the roll call naming the other
open to-do: the turn wrote a file); the scripted model closes the
to-do with ``code-memory todo done <id>`` (Bash) and stops — the question is not asked again; session
3's brief no longer lists the to-do on a ``[ ]`` line, while the other stays open, and names it on session 2's
entry as closed in that session (the CLI recorded the session from Claude's Bash tool)."""

from __future__ import annotations

import json
import os
import sys

import pytest

from conftest import REPO
from e2e.test_continuity_e2e import (  # noqa: F401 — the fixture
    PROMPT_1,
    brief_of,
    continuity,
    open_lines,
    run_session,
    session_one_steps,
    start_context,
)
from support.standin_api import main, strings_in, tool

pytestmark = pytest.mark.e2e

README_TODO = "在 README 里说明 pool_size 配置项"
PROMPT_2 = "文档补一下"
FINAL_2 = "README.md 加了一节，讲清楚连接池大小怎么配置，默认是 10。"
QUESTION = "[code-memory] Before you stop:"


def test_the_model_is_asked_and_closes_the_todo_it_finished(continuity, standin, project_dir, memory_root):
    runner = continuity                 # the project of test_continuity_e2e: app.py, rules, session 1's steps
    runner.extra_env["CODE_MEMORY_LLM__BACKEND"] = "none"
    run_session(runner, standin, PROMPT_1, session_one_steps(project_dir), memory_root)

    from code_memory.memory.todos import list_todos
    from code_memory.paths import MemoryPaths

    todo = next(t for t in list_todos(MemoryPaths(memory_root), project="alpha") if README_TODO in t["text"])
    close = f"{sys.executable} {os.path.join(REPO, 'scripts', 'code-memory.py')} todo done {todo['id']}"
    readme = str(project_dir / "README.md")
    before = len(standin.requests)
    _first, sid2 = run_session(runner, standin, PROMPT_2, [
        main(tool("Read", file_path=str(project_dir / "app.py"))),
        main(tool("Write", file_path=readme, content="# alpha\n\n## pool_size\n\n连接池大小，默认 10。\n")),
        main({"text": FINAL_2}),                                            # Stop: the hook asks
        main(tool("Bash", command=close, description="close the finished to-do")),
        main({"text": "已关闭。"})], memory_root)                             # Stop again: silent
    asked = [r for r in standin.requests[before:] if r["role"] == "main"
             and any(QUESTION in s for s in strings_in(r["body"]))]
    assert asked, "the Stop hook's question never reached the model"
    question = next(s for s in strings_in(asked[0]["body"]) if QUESTION in s)
    words_part, _, roll_call = question.partition("Also, memory's other open to-dos for this project: ")
    assert f"{todo['id']} “{todo['text']}”" in words_part and "load_config" not in words_part
    # round 9: the turn wrote a file, so the roll call names the project's other open to-do — one the turn
    # shares no word with — in the same question
    other = next(t for t in list_todos(MemoryPaths(memory_root), project="alpha") if "load_config" in t["text"])
    assert f"{other['id']} “" in roll_call and todo["id"] not in roll_call
    assert "code-memory todo done <id>" in question
    # asked once: the requests after the close carry that question as history, never a second one
    feedback = [[s for s in strings_in(r["body"]) if s.startswith("Stop hook feedback:") and QUESTION in s]
                for r in asked]
    assert all(len(f) == 1 for f in feedback), feedback
    marks = [json.loads(line) for line in open(os.path.join(memory_root, "sessions", "todo-marks.jsonl"),
                                               encoding="utf-8")]
    assert [(m["id"], m["action"], m["by"]) for m in marks] == [(todo["id"], "done", "cli")]
    assert marks[0].get("in_session") == sid2          # run from Claude's Bash tool: the session is recorded
    note_2 = open(os.path.join(memory_root, "sessions", f"{sid2}.md"), encoding="utf-8").read()
    assert QUESTION not in note_2 and "Before you stop" not in note_2    # memory's question is not the person's
    assert "README.md 加了一节" in note_2 and "已关闭" not in note_2           # nor is the answer the session's report

    first_3, _sid3 = run_session(runner, standin, "连接池还有什么要做的？", [main({"text": "还差单元测试。"})],
                                 memory_root)
    brief_3 = brief_of(start_context(first_3))
    lines = open_lines(brief_3)
    assert not any("README" in line for line in lines), lines
    assert f"- finished earlier to-dos (closed in this session; reopen any that is not): {todo['text']} (id {todo['id']})" in brief_3
    assert any("load_config" in line for line in lines), lines           # the other to-do is still open


README_SAID = "README 里说明了 pool_size 配置项，写在新的一节里。"
PROMPT_3 = "README 的 pool_size 那一节看一下"
FINAL_3 = "看了 README.md：pool_size 那一节只有标题，配置项的说明其实还没写。"


def test_the_model_reopens_a_wrong_summarizer_close(continuity, standin, project_dir, memory_root):
    """Round 8: session 2 writes only a README heading but says the pool_size part is explained, and the
    summarizer closes the to-do from those words; session 3's turn touches it, its Stop question holds
    the close with its evidence in a second part, the scripted model reopens it with `code-memory todo
    reopen <id>`, and session 4's brief lists it open again (``[ ]``)."""
    runner = continuity
    runner.extra_env.update(CODE_MEMORY_LLM__BACKEND="none", CODE_MEMORY_HOOKS__TODO_CHECK="false")
    run_session(runner, standin, PROMPT_1, session_one_steps(project_dir), memory_root)
    readme = str(project_dir / "README.md")
    run_session(runner, standin, PROMPT_2, [main(tool("Write", file_path=readme, content="# alpha\n\n## pool_size\n")),
                                            main({"text": README_SAID})], memory_root)

    from code_memory.memory.todos import list_todos
    from code_memory.paths import MemoryPaths

    todo = next(t for t in list_todos(MemoryPaths(memory_root), project="alpha", statuses=("done",))
                if README_TODO in t["text"])
    assert todo["by_summarizer"] and not todo.get("confirmed_at"), todo
    reopen = f"{sys.executable} {os.path.join(REPO, 'scripts', 'code-memory.py')} todo reopen {todo['id']}"
    runner.extra_env["CODE_MEMORY_HOOKS__TODO_CHECK"] = "true"
    before = len(standin.requests)
    run_session(runner, standin, PROMPT_3, [
        main(tool("Read", file_path=readme)),
        main({"text": FINAL_3}),                                           # Stop: the hook asks
        main(tool("Bash", command=reopen, description="reopen the unfinished to-do")),
        main({"text": "已重新打开。"})], memory_root)                         # Stop again: silent
    asked = [s for r in standin.requests[before:] if r["role"] == "main" for s in strings_in(r["body"])
             if s.startswith("Stop hook feedback:") and QUESTION in s]
    assert asked, "the Stop hook's question never reached the model"
    assert "memory closed this to-do on its own" in asked[0]
    assert f"{todo['id']} “{todo['text']}” ← “" in asked[0] and "`code-memory todo reopen <id>`" in asked[0]
    assert len(set(asked)) == 1                                            # asked once
    marks = [json.loads(line) for line in open(os.path.join(memory_root, "sessions", "todo-marks.jsonl"),
                                               encoding="utf-8")]
    assert [(m["id"], m["action"], m["by"]) for m in marks] == [(todo["id"], "reopen", "cli")]

    first_4, _sid4 = run_session(runner, standin, "pool_size 还有什么要做的？", [main({"text": "README 的说明还没写。"})],
                                 memory_root)
    lines = open_lines(brief_of(start_context(first_4)))
    assert any(README_TODO in line for line in lines), lines
    # open again: the reopened to-do itself, or the copy session 3 restated it as (then it is "carried")
    now = next(t for t in list_todos(MemoryPaths(memory_root), project="alpha", statuses=("open", "carried", "done"))
               if t["id"] == todo["id"])
    assert now["status"] in ("open", "carried") and not now.get("done_by"), now
    assert not any("closed by the summarizer" in line and README_TODO in line
                   for line in brief_of(start_context(first_4)).split("\n"))
