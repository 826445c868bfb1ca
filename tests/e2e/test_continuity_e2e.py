"""Session continuity with the real Claude Code binary: sessions in a row in one project, as a
user runs them, with this checkout loaded as a plugin. Each session ends, the SessionEnd hook
starts the summarizer detached; the next session's first request — what the model really
received, recorded by the stand-in — must carry the last session's topic, files, decision and open
to-dos, and no longer (on a ``[ ]`` line) the to-dos a later session finished — here in other words
than they were stated. Once with the deterministic summary (``llm.backend none``), once with the LLM
summary (the anthropic SDK against the stand-in)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time

import pytest

from code_memory.memory.todos import todo_id
from conftest import REPO
from support.standin_api import main, strings_in, tool

pytestmark = pytest.mark.e2e

PROMPT_1 = "把 app.py 里写死的连接池大小改成从 config/db.yaml 读取"
FINAL_1 = ("已把 app.py 里的 POOL_SIZE 改成从 config/db.yaml 读取（决定用 YAML 而不是环境变量，因为其它配置也在 "
           "config/ 下）。下一步：给 load_config 补单元测试；在 README 里说明 pool_size 配置项。")
PROMPT_2 = "继续昨天的工作：连接池配置还差什么？"
# session 2 finishes "给 load_config 补单元测试" in other words (and names its test file), and says
# the README part is not done yet
FINAL_2 = ("tests/test_load_config.py 写好了，默认值和文件缺失两种情况都覆盖到了，跑过一遍全绿。"
           "README 的 pool_size 说明还没写。")
PROMPT_3 = "README 的说明写了吗？"


def start_context(request) -> str:
    """The SessionStart context inside one recorded request body."""
    for text in strings_in(request["body"]):
        if "[code-memory] Recalled memory" in text:
            start = text.index("[code-memory] Recalled memory")
            return text[start:text.rindex("</recalled-memory>") + len("</recalled-memory>")]
    return ""


def brief_of(context: str) -> str:
    if 'title="recent work' not in context:
        return ""
    return context.split('title="recent work')[1].split("</recalled-memory>")[0]


def open_lines(brief: str) -> list:
    """The lines of the brief that list an open to-do (the handover contract: ``[ ]``)."""
    return [line for line in brief.split("\n") if "[ ]" in line]


def run_session(runner, api, prompt, steps, memory_root):
    """One session; returns (first main request of it, session id) after its summary is written."""
    before = len(api.requests)
    api.push(*steps)
    result = runner.run(prompt, plugin_dirs=[REPO])
    assert result.ok, result.describe()
    note = os.path.join(memory_root, "sessions", f"{result.session_id}.md")
    pending = os.path.join(memory_root, "sessions", ".pending", f"{result.session_id}.json")
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and (not os.path.exists(note) or os.path.exists(pending)):
        time.sleep(0.3)
    assert os.path.exists(note) and not os.path.exists(pending), "the detached summarizer did not finish"
    first = next(r for r in api.requests[before:] if r["role"] == "main")
    return first, result.session_id


def session_one_steps(project_dir):
    app = str(project_dir / "app.py")
    edit = tool("Edit", file_path=app, old_string="POOL_SIZE = 10", new_string="POOL_SIZE = load_config()['pool_size']")
    return [main(edit),                                                  # denied: the rules are not loaded yet
            main(tool("Read", file_path=app)),
            main(edit),
            main(tool("Write", file_path=str(project_dir / "config" / "db.yaml"), content="pool_size: 10\n")),
            main(tool("Write", file_path=str(project_dir / "load.py"),   # the avoidance gate blocks it
                      content="def load_config():\n    try:\n        return {}\n    except:\n        return None\n")),
            main(tool("Bash", command="python3 -c 'import yaml_not_installed_xyz'", description="check yaml")),
            main(tool("Bash", command="python3 -c 'print(1)'", description="check")),
            main({"text": FINAL_1})]


def session_two_steps(project_dir):
    return [main(tool("Write", file_path=str(project_dir / "tests" / "test_load_config.py"),
                      content="def test_load():\n    assert True\n")),
            main(tool("Bash", command="python3 -c 'print(2)'", description="run tests")),
            main({"text": FINAL_2})]


@pytest.fixture
def continuity(claude_runner, standin, project_dir, memory_root):
    (project_dir / ".git").mkdir()
    (project_dir / "app.py").write_text("POOL_SIZE = 10\n")
    rules = os.path.join(memory_root, "areas", "projects", "alpha")
    os.makedirs(rules)
    with open(os.path.join(rules, "rules.md"), "w", encoding="utf-8") as fh:
        fh.write("# alpha — rules\n\n## 编码规范\n\n- 配置放在 config/ 下的 YAML 里\n")
    return claude_runner


def test_the_next_session_knows_what_the_last_one_did(continuity, standin, project_dir, memory_root):
    runner = continuity
    runner.extra_env["CODE_MEMORY_LLM__BACKEND"] = "none"
    first_1, sid1 = run_session(runner, standin, PROMPT_1, session_one_steps(project_dir), memory_root)
    assert 'title="recent work' not in start_context(first_1)           # nothing happened before

    first_2, sid2 = run_session(runner, standin, PROMPT_2, session_two_steps(project_dir), memory_root)
    context = start_context(first_2)
    brief = brief_of(context)
    assert len(context) <= 6000
    for fact in (PROMPT_1, "app.py, config/db.yaml, load.py", "决定用 YAML 而不是环境变量",
                 "- [ ] 给 load_config 补单元测试", "- [ ] 在 README 里说明 pool_size 配置项", f"sessions/{sid1}.md",
                 "- outcome: 已把 app.py 里的 POOL_SIZE"):
        assert fact in brief, fact
    assert "prefix-map.json" not in context and "memory-feedback.py" not in context
    note_1 = open(os.path.join(memory_root, "sessions", f"{sid1}.md"), encoding="utf-8").read()
    assert "[PY001]" in note_1 and "was not applied" not in note_1 and "[code-memory]" not in note_1

    first_3, _sid3 = run_session(runner, standin, PROMPT_3, [main({"text": "还没有。"})], memory_root)
    brief = brief_of(start_context(first_3))
    assert PROMPT_2 in brief and brief.index(PROMPT_2) < brief.index(PROMPT_1)
    assert "- outcome: tests/test_load_config.py 写好了" in brief           # session 2 in its own words
    # finished in other words: shown as the summarizer's close, with its id and the statement behind it …
    todo_ref = todo_id(sid1, "给 load_config 补单元测试")
    closed = [line for line in brief.split("\n") if line.startswith("- finished earlier to-dos (closed by the "
                                                                    "summarizer; reopen any that is not): ")]
    assert len(closed) == 1 and f"给 load_config 补单元测试 (id {todo_ref}) ← “" in closed[0], brief
    assert closed[0].endswith("”") and len(closed[0].split(" ← “")[1]) > 5
    assert not any("load_config" in line for line in open_lines(brief))     # … so no longer open
    readme = [line for line in open_lines(brief) if "README" in line]
    assert len(readme) == 1 and re.fullmatch(r"  - \[ \] 在 README 里说明 pool_size 配置项 \(id [0-9a-f]{8}\)",
                                             readme[0]), readme   # restated: shown once, in the words it had

    # the person says it is not finished: reopened with the real CLI, the next session lists it open again
    reopened = subprocess.run([sys.executable, os.path.join(REPO, "scripts", "code-memory.py"), "todo", "reopen",
                               todo_ref], capture_output=True, text=True, check=False)
    assert reopened.returncode == 0 and json.loads(reopened.stdout)["todo"]["status"] == "open", reopened.stderr
    first_4, _sid4 = run_session(runner, standin, "好的，谢谢", [main({"text": "不客气。"})], memory_root)
    brief = brief_of(start_context(first_4))
    assert any("给 load_config 补单元测试" in line for line in open_lines(brief)), brief
    assert "finished earlier to-dos" not in brief

    # the same three sessions in the memory browser, as the user sees them afterwards
    pytest.importorskip("jinja2")
    httpx = pytest.importorskip("httpx")
    from support.ui_server import UiServer, environment

    with UiServer(environment(os.environ["HOME"])) as ui, \
            httpx.Client(base_url=ui.base, cookies=ui.cookie, timeout=60) as client:
        listed = [s["id"] for d in client.get("/api/timeline").json()["days"] for s in d["sessions"]]
        assert {sid1, sid2, _sid3} <= set(listed)
        page_1 = client.get(f"/api/session/{sid1}").json()
        assert page_1["fields"]["topic"].startswith(PROMPT_1)
        assert "给 load_config 补单元测试" in page_1["fields"]["todos"]
        injected = {r["context"]: r["text"] for r in page_1["injected"]}         # the rule it was given on Read
        assert injected.get("rules-injector") == "配置放在 config/ 下的 YAML 里", page_1["injected"]
        assert client.get("/session/" + sid1).status_code == 200


def test_with_the_llm_summary(continuity, standin, project_dir, memory_root):
    """The summarizer's LLM (anthropic SDK → the stand-in) gets the files, errors, lint findings,
    final message and the earlier open to-dos with ids; its answer marks one done."""
    pytest.importorskip("anthropic")
    runner = continuity
    runner.extra_env["CODE_MEMORY_LLM__BACKEND"] = "anthropic"
    padding = "（说明：" + "连接池的大小现在来自配置文件，默认 10。" * 20 + "）"

    def summary_step(marker: str, answer: dict) -> dict:
        return {"role": "plain", "text": json.dumps(answer, ensure_ascii=False),
                "when": lambda body: "Reply with ONE JSON object" in json.dumps(body.get("system"), ensure_ascii=False)
                and marker in json.dumps(body.get("messages"), ensure_ascii=False)}

    answer_1 = {"summary": {"topic": "连接池大小改为从 config/db.yaml 读取", "key_points": ["POOL_SIZE 来自 YAML"],
                            "files": ["app.py"], "decisions": ["用 YAML 而不是环境变量"],
                            "todos": ["给 load_config 补单元测试", "README 说明 pool_size"], "done_todos": []},
                "knowledge": {"has_knowledge": False}}
    steps = session_one_steps(project_dir)
    steps[-1] = main({"text": FINAL_1 + padding})
    _first, sid1 = run_session(runner, standin, PROMPT_1, steps + [summary_step(PROMPT_1, answer_1)], memory_root)
    request_1 = [r for r in standin.requests if r["role"] == "plain" and PROMPT_1 in r["raw"]][-1]
    prompt_1 = request_1["body"]["messages"][0]["content"]
    assert "Files changed (from tool calls): app.py, config/db.yaml, load.py" in prompt_1
    assert "[block] load.py:4 [PY001]" in prompt_1 and "Final assistant message:\n已把 app.py" in prompt_1
    assert "yaml_not_installed_xyz" in prompt_1 and "(failed)" in prompt_1
    assert "was not applied" not in prompt_1.split("<conversation>")[0]    # our gate's denial is no error

    answer_2 = {"summary": {"topic": "补 load_config 单元测试", "key_points": [], "files": [], "decisions": [],
                            "todos": [], "done_todos": ["T1"]}, "knowledge": {"has_knowledge": False}}
    steps = session_two_steps(project_dir)
    steps[-1] = main({"text": FINAL_2 + padding})
    first_2, _sid2 = run_session(runner, standin, PROMPT_2, steps + [summary_step(PROMPT_2, answer_2)], memory_root)
    brief = brief_of(start_context(first_2))
    assert "连接池大小改为从 config/db.yaml 读取" in brief and "- [ ] 给 load_config 补单元测试" in brief
    request_2 = [r for r in standin.requests if r["role"] == "plain" and PROMPT_2 in r["raw"]][-1]
    assert "[T1] 给 load_config 补单元测试" in request_2["body"]["messages"][0]["content"]

    first_3, _sid3 = run_session(runner, standin, PROMPT_3, [main({"text": "还没有。"})], memory_root)
    brief = brief_of(start_context(first_3))
    assert "补 load_config 单元测试" in brief and "- [ ] 给 load_config 补单元测试" not in brief
    assert "- [ ] README 说明 pool_size" in brief
