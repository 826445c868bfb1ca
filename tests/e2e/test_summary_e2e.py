"""End to end: a real Claude Code session (the real binary against the stand-in) is summarized by
session-summary.py with the claude-cli backend — the same real binary as the LLM, its hooks
disabled — and the memory tree fills. Secrets typed into the session reach neither the summary
request nor any file."""

from __future__ import annotations

import glob
import json
import os

import pytest

from conftest import run_script
from support.secrets_corpus import SECRET_VALUES, SECRETS
from support.standin_api import main, tool

pytestmark = pytest.mark.e2e

ANSWER = {
    "summary": {"topic": "修复 calc.add 的减法错误", "key_points": ["add() 原来返回 a - b", "加了 pytest 测试"],
                "files": ["calc.py", "test_calc.py"], "decisions": ["测试放在 tests/ 下"], "todos": []},
    "knowledge": {"has_knowledge": True, "project": "alpha",
                  "rules": [{"category": "测试", "rule": "修 bug 时同时补一个 pytest 回归测试"}],
                  "avoidances": ["断言写错期望值会让正确的修复看起来失败：先核对期望值"]},
}


def test_real_session_summarized_by_the_claude_cli_backend(claude_runner, standin, project_dir, claude_bin,
                                                           memory_root, tmp_path):
    (project_dir / ".git").mkdir()
    (project_dir / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    secrets_text = " ".join(text for _name, text, _value in SECRETS[:12])
    standin.push(
        main(tool("Read", file_path=str(project_dir / "calc.py"))),
        main({"blocks": [{"text": "add() subtracts; fixing it."},
                         {"tool_use": {"name": "Edit", "input": {"file_path": str(project_dir / "calc.py"),
                                                                 "old_string": "return a - b",
                                                                 "new_string": "return a + b"}}}]}),
        main(tool("Bash", command="python3 -c 'import calc; assert calc.add(2, 2) == 5'", description="check")),
        main({"text": "Fixed add(); the check asserted the wrong value. " * 5}),
    )
    result = claude_runner.run("SESSION-E2E fix the bug in calc.py; my credentials: " + secrets_text)
    assert result.ok, result.describe()
    transcript = claude_runner.transcript_path(result.session_id)
    assert os.path.exists(transcript)
    assert (project_dir / "calc.py").read_text().endswith("return a + b\n")  # the binary ran the Edit

    # the summarizer's own LLM call: claude -p, answered by the stand-in with the JSON above
    standin.push({"role": "plain", "when": "SESSION-E2E", "text": json.dumps(ANSWER, ensure_ascii=False)})
    before = len(standin.requests)
    env = {"CODE_MEMORY_ROOT": memory_root, "CODE_MEMORY_LLM__BACKEND": "claude-cli",
           "CODE_MEMORY_LLM__CLAUDE_BIN": claude_bin, **claude_runner.env()}
    env["CODE_MEMORY_ROOT"] = memory_root
    out = run_script("session-summary.py", "--transcript", transcript, env=env, timeout=180)
    assert out.returncode == 0, out.stdout + out.stderr
    report = json.loads(out.stdout)
    assert report["mode"] == "json", report
    assert report["backend"] == "claude-cli" and report["project"] == "alpha"

    summary_requests = [r for r in standin.requests[before:] if "SESSION-E2E" in r["raw"]]
    assert summary_requests, "the summarizer's request never reached the stand-in"
    body = summary_requests[0]["body"]
    assert not body.get("tools"), "the summarizer child must have no tools"
    assert "Reply with ONE JSON object" in json.dumps(body.get("system"), ensure_ascii=False)
    sent = "\n".join(r["raw"] for r in standin.requests[before:])
    assert not [v for v in SECRET_VALUES if v in sent], "a secret reached the summary request"

    paths_root = memory_root
    note = open(os.path.join(paths_root, "sessions", f"{result.session_id}.md"), encoding="utf-8").read()
    assert "1. **主题**: 修复 calc.add 的减法错误" in note and "- **项目**: alpha" in note
    rules = open(os.path.join(paths_root, "areas", "projects", "alpha", "rules.md"), encoding="utf-8").read()
    assert "## 测试\n- 修 bug 时同时补一个 pytest 回归测试" in rules
    memory = open(os.path.join(paths_root, "MEMORY.md"), encoding="utf-8").read()
    assert "- 断言写错期望值会让正确的修复看起来失败" in memory
    daily = glob.glob(os.path.join(paths_root, "daily", "*.md"))
    assert any(f"### 会话 {result.session_id}" in open(p, encoding="utf-8").read() for p in daily)
    written = "\n".join(open(p, encoding="utf-8", errors="replace").read()
                        for p in glob.glob(os.path.join(paths_root, "**", "*.*"), recursive=True) if os.path.isfile(p))
    assert not [v for v in SECRET_VALUES if v in written], "a secret was written to memory"
    # the child ran with our hooks disabled and without session persistence: no transcript of it
    transcripts = glob.glob(os.path.join(claude_runner.home, ".claude", "projects", "**", "*.jsonl"), recursive=True)
    assert transcripts == [transcript]


def test_session_end_hook_starts_the_summarizer(claude_runner, standin, project_dir, memory_root, initialized_root):
    """The whole chain with the real binary: SessionEnd hook → pending snapshot → detached
    session-summary.py (anthropic SDK → the stand-in) → the memory tree; the snapshot is removed."""
    import time

    pytest.importorskip("anthropic", reason="the summarizer's LLM path needs the optional extra anthropic")

    from conftest import REPO

    (project_dir / ".git").mkdir()
    claude_runner.write_settings({"hooks": {"SessionEnd": [{"hooks": [
        {"type": "command", "command": f'bash "{os.path.join(REPO, "hooks", "session-summary.sh")}"'}]}]}})
    standin.push(main(tool("Bash", command="echo building", description="build")),
                 main({"text": "Built it. " * 30}),
                 {"role": "plain", "when": lambda body: "Reply with ONE JSON object" in json.dumps(body.get("system")),
                  "text": json.dumps(ANSWER, ensure_ascii=False)})
    result = claude_runner.run("CHAIN-E2E build the project please " + "and explain each step. " * 25)
    assert result.ok, result.describe()
    note = os.path.join(memory_root, "sessions", f"{result.session_id}.md")
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and not os.path.exists(note):
        time.sleep(0.5)
    assert os.path.exists(note), "the detached summarizer wrote no note"
    deadline = time.monotonic() + 30
    pending = os.path.join(memory_root, "sessions", ".pending", f"{result.session_id}.json")
    while time.monotonic() < deadline and os.path.exists(pending):
        time.sleep(0.5)
    assert not os.path.exists(pending)
    text = open(note, encoding="utf-8").read()
    assert "1. **主题**: 修复 calc.add 的减法错误" in text and "- **项目**: alpha" in text
    assert "json · anthropic/" in text
    summary_requests = [r for r in standin.requests if "Reply with ONE JSON object" in r["raw"]]
    assert len(summary_requests) == 1 and "CHAIN-E2E" in summary_requests[0]["raw"]
