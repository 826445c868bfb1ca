"""The model closes a to-do itself, with the real Claude Code binary (issue 20, seventh round).
Session 1 leaves two to-dos; session 2's model reads the brief in its own request body — each open
to-do on a ``[ ]`` line with its id — and calls ``mcp__code-memory__memory_todo`` (action done) with
the id it read there (the stand-in computes the call's input from the request it answers); session
3's request body no longer lists that to-do on a ``[ ]`` line and still lists the other one, and names
it on session 2's entry as finished in that session (eighth round). The final message of session 2
says nothing about the work, so only the tool can have closed it."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from conftest import SCRIPTS
from support.standin_api import main, strings_in, tool

pytest.importorskip("mcp", reason="the MCP server needs the optional extra mcp (pip install code-memory[mcp])")
from e2e.test_continuity_e2e import FINAL_1, PROMPT_1, brief_of, open_lines, run_session, start_context  # noqa: E402

pytestmark = pytest.mark.e2e

TOOL = "mcp__code-memory__memory_todo"
TESTS_TODO = "给 load_config 补单元测试"
README_TODO = "在 README 里说明 pool_size 配置项"
PROMPT_2 = "看一下连接池配置还有什么没收尾的"


def _connected(body) -> bool:
    return any(TOOL in text for text in strings_in(body)) or \
        any(isinstance(t, dict) and t.get("name") == TOOL for t in body.get("tools") or [])


def id_read_in(body) -> dict:
    """The tool's input as the model would write it: the id on the brief's ``[ ]`` line of the to-do."""
    for text in strings_in(body):
        for line in text.split("\n"):
            if "[ ]" in line and TESTS_TODO in line:
                return {"action": "done", "todo": re.search(r"\(id ([0-9a-f]{8})\)", line).group(1)}
    return {"action": "done", "todo": "no brief in the request"}


def test_the_model_closes_a_todo_with_the_tool_and_the_next_brief_drops_it(claude_runner, claude_bin, standin,
                                                                           project_dir, memory_root):
    runner = claude_runner
    runner.extra_env["CODE_MEMORY_LLM__BACKEND"] = "none"
    (project_dir / ".git").mkdir()
    reg = subprocess.run([sys.executable, os.path.join(SCRIPTS, "code-memory.py"), "mcp", "register",
                          "--claude", claude_bin], capture_output=True, text=True, env=runner.env(), timeout=120)
    assert json.loads(reg.stdout)["registered"] is True, reg.stdout + reg.stderr

    steps_1 = [main(tool("Write", file_path=str(project_dir / "app.py"), content="POOL_SIZE = load_config()\n")),
               main({"text": FINAL_1})]
    _first_1, sid1 = run_session(runner, standin, PROMPT_1, steps_1, memory_root)

    waits = [{**main(tool("Bash", command="sleep 2", description="wait")), "when": lambda b: not _connected(b)}
             for _ in range(15)]
    steps_2 = [*waits, {**main(tool("ToolSearch", query=f"select:{TOOL}", max_results=5)), "when": _connected},
               main({"tool_use": {"name": TOOL, "input": id_read_in}}), main({"text": "好的。"})]
    first_2, sid2 = run_session(runner, standin, PROMPT_2, steps_2, memory_root)
    standin.discard_pending()
    brief_2 = brief_of(start_context(first_2))
    tests_id, readme_id = id_read_in(first_2["body"])["todo"], None
    assert f"  - [ ] {TESTS_TODO} (id {tests_id})" in brief_2.split("\n")
    assert "close it: memory_todo (action done, its id), or `code-memory todo done <id>`." in brief_2
    readme_lines = [line for line in open_lines(brief_2) if README_TODO in line]
    assert len(readme_lines) == 1
    readme_id = re.search(r"\(id ([0-9a-f]{8})\)", readme_lines[0]).group(1)
    # the tool ran in session 2's project, recorded as the model's close, and its answer reached the model
    answered = [t for r in standin.message_requests("main") for t in strings_in(r["body"]) if '"closed_by":"mcp"' in t]
    assert answered and f'"id":"{tests_id}"' in answered[0], "the tool's answer never reached the model"
    marks = [json.loads(line) for line in open(os.path.join(memory_root, "sessions", "todo-marks.jsonl"),
                                               encoding="utf-8")]
    assert [(m["action"], m["id"], m["session"], m["by"]) for m in marks] == [("done", tests_id, sid1, "mcp")]
    assert marks[0].get("in_session") == sid2

    first_3, _sid3 = run_session(runner, standin, "README 的说明写了吗？", [main({"text": "还没有。"})], memory_root)
    brief_3 = brief_of(start_context(first_3))
    assert not any(TESTS_TODO in line for line in open_lines(brief_3))          # closed by the model: gone
    assert any(line.endswith(f"{README_TODO} (id {readme_id})") or f"{README_TODO} (sessions/" in line
               for line in open_lines(brief_3))                                  # the other one stays, same id
    assert f"id {readme_id}" in brief_3
    # … and session 2's entry (not folded as a short session) names it as finished in that session
    lines_3 = brief_3.split("\n")
    closed = f"- finished earlier to-dos (closed in this session; reopen any that is not): {TESTS_TODO} (id {tests_id})"
    assert closed in lines_3, brief_3
    heading = [line for line in lines_3[:lines_3.index(closed)] if line.startswith("## ")][-1]
    assert "连接池配置" in heading and "Short sessions" not in heading
