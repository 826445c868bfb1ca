"""Recall at the moment of need with the real Claude Code binary (docs/hooks.md § Recall): three
sessions in one project, this checkout loaded as a plugin, the brief set to the last session only
(``hooks.recent_sessions: 1``, so session 1 has dropped out of it by session 3), and the warm search
server on as users run it (the prompt hook gets its hits only from it: with no answer it stays silent).

* session 1 decides something (the deterministic summary records the decision);
* session 2's prompt is routine: nothing is recalled for it (it changes a file, so it is work that
  takes the brief's one slot — a session that changed nothing would fold into one line instead);
* session 3 asks about session 1's decision: the very first request of the session — before the
  model could search — carries it, fenced as recalled memory with the note's id; then the model
  reads app.py twice: the first Read brings what memory knows about the file (a fact naming it), the second Read nothing new, and no Read's input was rewritten.

Asserted on the request bodies the stand-in recorded."""

from __future__ import annotations

import json
import os

import pytest

from e2e.test_continuity_e2e import run_session
from support.standin_api import main, strings_in, tool

pytestmark = pytest.mark.e2e

PROMPT_1 = "把 app.py 里写死的连接池大小改成从 config/db.yaml 读取"
FINAL_1 = ("已把 app.py 里的 POOL_SIZE 改成从 config/db.yaml 读取（决定用 YAML 而不是环境变量，因为其它配置也在 "
           "config/ 下）。下一步：给 load_config 补单元测试。")
PROMPT_2 = "run the tests and fix whatever fails"
PROMPT_3 = "连接池大小当初为什么决定用 YAML 而不是环境变量来配置？"
RECALLED = "[code-memory] Recalled for this prompt"
FILE_RECALL = "What memory knows about app.py"


def count_in(request, marker: str) -> int:
    return sum(s.count(marker) for s in strings_in(request["body"]))


def test_recall_brings_an_old_decision_stays_silent_for_routine_prompts_and_reads(
        claude_runner, standin, project_dir, memory_root, search_server_env):
    runner = claude_runner
    runner.extra_env.update({"CODE_MEMORY_LLM__BACKEND": "none", "CODE_MEMORY_HOOKS__RECENT_SESSIONS": "1",
                             **search_server_env})             # as users run it: the hook asks the warm server
    (project_dir / ".git").mkdir()
    app = project_dir / "app.py"
    app.write_text("POOL_SIZE = 10\n")
    facts = os.path.join(memory_root, "areas", "projects", "alpha", "facts.json")
    os.makedirs(os.path.dirname(facts))
    with open(facts, "w", encoding="utf-8") as fh:
        json.dump({"facts": [{"id": "fact-pool", "fact": "app.py 的连接池上线后按 CPU 核数 ×2 设置 (FACT-MARKER-5)",
                              "category": "config", "status": "active"}]}, fh, ensure_ascii=False)
    edit = tool("Edit", file_path=str(app), old_string="POOL_SIZE = 10", new_string="POOL_SIZE = load_config()['pool_size']")
    _first_1, sid1 = run_session(runner, standin, PROMPT_1, [main(tool("Read", file_path=str(app))), main(edit),
                                                            main({"text": FINAL_1})], memory_root)

    before = len(standin.requests)
    _first_2, _sid2 = run_session(runner, standin, PROMPT_2,        # work (a file changed): it takes the slot
                                  [main(tool("Write", file_path=str(project_dir / "tests" / "test_app.py"),
                                             content="def test_pool():\n    assert True\n")),
                                   main(tool("Bash", command="python3 -c 'print(2)'", description="run tests")),
                                   main({"text": "All tests pass."})], memory_root)
    session_2 = [r for r in standin.requests[before:] if r["role"] == "main"]
    assert session_2 and not any(count_in(r, RECALLED) for r in session_2)        # routine: nothing

    before = len(standin.requests)
    first_3, _sid3 = run_session(runner, standin, PROMPT_3, [main(tool("Read", file_path=str(app))),
                                                             main(tool("Read", file_path=str(app))),
                                                             main({"text": "因为其它配置也在 config/ 下。"})], memory_root)
    recalled = next(s for s in strings_in(first_3["body"]) if RECALLED in s)
    block = recalled[recalled.index(RECALLED):]
    assert "决定用 YAML 而不是环境变量" in block and f'source="sessions/{sid1}.md"' in block
    assert len(block.split("</recalled-memory>")[-2]) < 1500
    brief = next((s for s in strings_in(first_3["body"]) if "[code-memory] Recalled memory for this session" in s), "")
    assert "决定用 YAML" not in brief.split(RECALLED)[0]        # session 1 had left the brief (its to-do stays)
    session_3 = [r for r in standin.requests[before:] if r["role"] == "main"]
    last = session_3[-1]
    assert count_in(last, RECALLED) == 1                                   # one prompt, one recall
    assert count_in(last, FILE_RECALL) == 1                                # first Read only
    file_block = next(s for s in strings_in(last["body"]) if FILE_RECALL in s)
    assert "FACT-MARKER-5" in file_block and file_block.count("给 load_config 补单元测试") <= 1
    reads = [b for r in session_3 for m in r["body"]["messages"] if m["role"] == "assistant"
             and isinstance(m["content"], list) for b in m["content"] if b.get("type") == "tool_use"]
    assert all(b["input"] == {"file_path": str(app)} for b in reads if b["name"] == "Read")
    results = [b for m in last["body"]["messages"] if m["role"] == "user" and isinstance(m["content"], list)
               for b in m["content"] if b.get("type") == "tool_result"]
    assert len(results) == 2 and all("POOL_SIZE" in json.dumps(b["content"]) for b in results)   # whole file, both times
