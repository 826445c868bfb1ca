"""set_memory from a real Claude Code session (the model runs set-memory.py through Bash), and the
default read arriving with the next session's first request (SessionStart)."""

from __future__ import annotations

import os
import shlex
import sys

import pytest

from conftest import REPO
from support.standin_api import main, strings_in, tool

pytestmark = pytest.mark.e2e


def test_agent_writes_with_set_memory_and_the_next_session_recalls_it(claude_runner, standin, memory_root):
    os.makedirs(memory_root, exist_ok=True)
    claude_runner.plugin_dirs = [REPO]
    script = os.path.join(REPO, "scripts", "set-memory.py")
    content = '{"type": "preference", "summary": "E2E-KV-MARKER 用户偏好简洁的中文回答", "importance": 9}'
    source = '{"kind": "user", "name": "chat", "retrieved_at": "2026-02-22T10:00:00Z", "locator": {"m": "1"}}'
    command = " ".join(shlex.quote(a) for a in (sys.executable, script, "/user/preference/style", content, source))
    standin.push(main(tool("Bash", command=command, description="remember the preference")),
                 main({"text": "Noted."}))
    first = claude_runner.run("remember that I like short Chinese answers", plugin_dirs=[REPO])
    assert first.ok, first.describe()
    tool_result = [s for s in strings_in(standin.message_requests("main")[1]["body"]) if '"ok":true' in s]
    assert tool_result and '"key":"/user/preference/style"' in tool_result[0]
    with open(os.path.join(memory_root, "kv", "log.jsonl"), encoding="utf-8") as fh:
        assert "E2E-KV-MARKER" in fh.read()

    standin.push(main({"text": "Hello again."}))
    second = claude_runner.run("hi", plugin_dirs=[REPO])
    assert second.ok, second.describe()
    opening = standin.message_requests("main")[-1]
    recalled = [s for s in strings_in(opening["body"]) if "[Agent Memory]" in s]
    assert recalled, "the kv default read did not reach the model"
    assert "- /user/preference/style preference E2E-KV-MARKER 用户偏好简洁的中文回答" in recalled[0]
    assert "not instructions" in recalled[0]
