"""code-memory's hooks in the real Claude Code binary — installed by install.sh into settings.json,
and once more loaded as a plugin (``--plugin-dir`` of this checkout).

Scripted sessions against the loopback stand-in; assertions on the request bodies the stand-in
recorded (what reached the model) and on the files the hooks wrote.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from conftest import REPO
from support.standin_api import main, strings_in, subagent, tool

pytestmark = pytest.mark.e2e

RULE = "金额一律用 Decimal (E2E-RULE-MARKER)"


@pytest.fixture(params=["install.sh", "plugin"])
def hooked(request, claude_runner, isolated_home, memory_root):
    """A runner whose sessions get our hooks: from settings.json written by install.sh, or from
    the plugin. ``hooked.run(prompt)`` runs one session."""
    mode = request.param
    if mode == "install.sh":
        env = dict(os.environ, PYTHON=sys.executable)
        done = subprocess.run([os.path.join(REPO, "install.sh"), "--hooks-only"], capture_output=True,
                              text=True, env=env, timeout=120)
        assert done.returncode == 0, done.stdout + done.stderr
        with open(claude_runner.settings_path, encoding="utf-8") as fh:
            assert "# code-memory" in fh.read()
        claude_runner.plugin_dirs = []
    else:
        claude_runner.plugin_dirs = [REPO]
        os.makedirs(memory_root, exist_ok=True)
    claude_runner.mode = mode
    return claude_runner


def run(runner, prompt):
    result = runner.run(prompt, plugin_dirs=runner.plugin_dirs)
    assert result.ok, result.describe()
    return result


def write(path, text):
    os.makedirs(os.path.dirname(str(path)), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    return str(path)


def texts(request) -> list:
    return strings_in(request["body"])


def count_in(request, marker: str) -> int:
    return sum(s.count(marker) for s in texts(request))


def hook_log(memory_root):
    with open(os.path.join(memory_root, "logs", "hooks.log"), encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


def test_rules_gate_and_injection(hooked, standin, project_dir, memory_root):
    """Edit denied before the rules are loaded → first Read injects them → second Read is silent →
    the same Edit is allowed."""
    (project_dir / ".git").mkdir()
    rules = write(os.path.join(memory_root, "areas", "projects", "alpha", "rules.md"),
                  f"# alpha — rules\n\n## 编码规范\n\n- {RULE}\n")
    target = write(project_dir / "calc.py", "total = 1.5\n")
    write(project_dir / "util.py", "x = 1\n")
    edit = tool("Edit", file_path=target, old_string="total = 1.5", new_string="total = Decimal('1.5')")
    standin.push(main(edit),
                 main(tool("Read", file_path=target)),
                 main(tool("Read", file_path=str(project_dir / "util.py"))),
                 main(edit),
                 main({"text": "Done."}))
    run(hooked, "make calc exact")
    assert standin.pending_steps() == []
    mains = standin.message_requests("main")
    # 1: after the denied Edit the model is told what to read, and the file is unchanged then
    denial = mains[1]
    assert any("was not applied" in s and rules in s for s in texts(denial)), "deny reason did not reach the model"
    assert count_in(denial, "E2E-RULE-MARKER") == 0
    # 2: the first Read brings the rules, exactly once; the second Read adds nothing
    assert count_in(mains[2], "E2E-RULE-MARKER") == 1
    assert count_in(mains[3], "E2E-RULE-MARKER") == 1
    assert count_in(mains[-1], "E2E-RULE-MARKER") == 1
    assert any("recalled memory" in s and "E2E-RULE-MARKER" in s for s in texts(mains[2]))
    # 3: the retried Edit went through
    with open(target, encoding="utf-8") as fh:
        assert fh.read() == "total = Decimal('1.5')\n"
    actions = [r["action"] for r in hook_log(memory_root)]
    assert actions.count("deny") == 1 and actions.count("inject-rules") == 1


def test_lint_block_reaches_the_model_and_daily_note_is_written(hooked, standin, project_dir, memory_root):
    (project_dir / ".git").mkdir()
    bad = str(project_dir / "app" / "load.py")
    source = "def load(path, cache={}):\n    try:\n        return open(path).read()\n    except:\n        return None\n"
    standin.push(main(tool("Write", file_path=bad, content=source)), main({"text": "written"}))
    run(hooked, "write the loader")
    after = standin.message_requests("main")[1]
    reason = [s for s in texts(after) if "avoidance-gate" in s]
    assert reason, "the block reason did not reach the model"
    assert "app/load.py:1 [PY002]" in reason[0] and "app/load.py:4 [PY001]" in reason[0]
    assert "[PY012]" in reason[0]  # warnings ride along with a block
    notes = [n for n in os.listdir(os.path.join(memory_root, "daily")) if n.endswith(".md")]
    with open(os.path.join(memory_root, "daily", notes[0]), encoding="utf-8") as fh:
        assert "[alpha] app/load.py" in fh.read()


def test_memory_md_injected_at_start_and_schema_into_explore(hooked, standin, project_dir, memory_root):
    write(os.path.join(memory_root, "MEMORY.md"),
          "# MEMORY\n\n## 避坑经验 (Pitfalls)\n\n- E2E-MEMORY-MARKER: never trust float money\n")
    write(os.path.join(memory_root, "projects", "shared-db", "schema-index.md"),
          "# schema index\n\n- t_order — orders (E2E-SCHEMA-MARKER)\n")
    standin.push(main(tool("Agent", description="look", prompt="find the order tables", subagent_type="Explore")),
                 subagent({"text": "t_order holds orders"}),
                 main({"text": "All done."}))
    run(hooked, "where are orders stored?")
    mains = standin.message_requests("main")
    assert mains and all(count_in(r, "E2E-MEMORY-MARKER") == 1 for r in mains)
    assert any("not instructions" in s and "E2E-MEMORY-MARKER" in s for s in texts(mains[0]))
    subs = standin.message_requests("subagent")
    assert subs and any(count_in(r, "E2E-SCHEMA-MARKER") for r in subs)
    assert not any(count_in(r, "E2E-SCHEMA-MARKER") for r in mains)


def test_session_end_returns_at_once_and_its_worker_finishes(hooked, standin, project_dir, memory_root):
    """The summarizer's LLM call is held for 6 s; the session is over long before, and the
    detached worker still writes the session note afterwards."""
    pytest.importorskip("anthropic", reason="the summarizer's LLM path needs the optional extra anthropic")
    (project_dir / ".git").mkdir()
    answer = {"summary": {"topic": "E2E-SUMMARY-TOPIC", "key_points": ["k"], "files": [], "decisions": [],
                          "todos": []},
              "knowledge": {"has_knowledge": False, "project": "alpha", "rules": [], "avoidances": []}}
    standin.push(main({"text": "Explained it. " * 40}),
                 {"role": "plain", "delay": 6,
                  "when": lambda body: "Reply with ONE JSON object" in json.dumps(body.get("system")),
                  "text": json.dumps(answer)})
    started = time.monotonic()
    result = run(hooked, "explain the build in detail please " + "and every step of it. " * 30)
    finished = time.monotonic()
    note = os.path.join(memory_root, "sessions", f"{result.session_id}.md")
    assert not os.path.exists(note)  # the worker is still waiting for its (slow) answer
    end = [r for r in hook_log(memory_root) if r["action"] == "session-end"]
    assert end and end[-1]["started"] is True
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and not os.path.exists(note):
        time.sleep(0.5)
    assert os.path.exists(note), "the detached summarizer wrote no note"
    assert time.monotonic() - started > 6 and finished - started < 60
    with open(note, encoding="utf-8") as fh:
        assert "E2E-SUMMARY-TOPIC" in fh.read()
    pending = os.path.join(memory_root, "sessions", ".pending", f"{result.session_id}.json")
    deadline = time.monotonic() + 30  # the worker removes its snapshot right after the note
    while time.monotonic() < deadline and os.path.exists(pending):
        time.sleep(0.2)
    assert not os.path.exists(pending)


def test_install_sh_leaves_a_malformed_settings_file_alone(claude_runner, standin, isolated_home, project_dir):
    settings = isolated_home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    broken = '{"model": "opus", "hooks": {"Stop": [}\n'
    settings.write_text(broken)
    env = dict(os.environ, PYTHON=sys.executable)
    done = subprocess.run([os.path.join(REPO, "install.sh"), "--hooks-only"], capture_output=True, text=True,
                          env=env, timeout=120)
    assert done.returncode != 0 and "SETTINGS_INVALID" in done.stdout + done.stderr
    assert settings.read_text() == broken
    assert [p.name for p in settings.parent.iterdir() if "backup" in p.name] == []
