"""todo-check with the real Claude Code binary (docs/hooks.md § todo-check): session 1 leaves two
to-dos; in session 2 the model writes the README part and ends its turn saying so in other words; the
Stop hook's question must reach the model in the next request body; the scripted model closes the
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
    assert f"{todo['id']} “{todo['text']}”" in question and "load_config" not in question
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
    assert f"- finished earlier to-dos (closed in this session): {todo['text']} (id {todo['id']})" in brief_3
    assert any("load_config" in line for line in lines), lines           # the other to-do is still open
