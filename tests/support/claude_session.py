"""Run the real Claude Code binary headless against the stand-in (reference Part A) and find the
transcript it wrote. Used to produce real transcripts for the summarizer tests."""

from __future__ import annotations

import glob
import json
import os
import re
import subprocess

from .standin_api import claude_env


def claude_bin_or_skip():
    import pytest
    path = os.environ.get("CODE_MEMORY_TEST_CLAUDE_BIN")
    if not path:
        pytest.skip(os.environ.get("CODE_MEMORY_TEST_CLAUDE_SKIP_REASON", "claude binary not installed"))
    return path


def run_claude(claude_bin: str, api, home: str, cwd: str, prompt: str, *args, env_extra=None,
               timeout: float = 120) -> dict:
    """``claude -p PROMPT --output-format json`` in ``cwd`` with ``HOME=home``; returns the parsed
    result object (raises AssertionError with stderr when the binary fails)."""
    cmd = [claude_bin, "-p", prompt, "--output-format", "json",
           "--permission-mode", "bypassPermissions", *args]
    proc = subprocess.run(cmd, cwd=cwd, env=claude_env(api.base_url, home, env_extra),
                          capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, f"claude exited {proc.returncode}: {proc.stderr[-2000:]}"
    return json.loads(proc.stdout.strip().splitlines()[-1])


def transcript_path(home: str, cwd: str, session_id: str) -> str:
    """``$HOME/.claude/projects/<cwd with non-alphanumerics as '-'>/<session>.jsonl``, found by
    glob so a change in the munging rule does not break the tests."""
    munged = re.sub(r"[^A-Za-z0-9]", "-", os.path.realpath(cwd))
    exact = os.path.join(home, ".claude", "projects", munged, f"{session_id}.jsonl")
    if os.path.exists(exact):
        return exact
    found = glob.glob(os.path.join(home, ".claude", "projects", "*", f"{session_id}.jsonl"))
    assert found, f"no transcript for session {session_id} under {home}/.claude/projects"
    return found[0]


def is_main_agent(body: dict) -> bool:
    """Requests of the main agent carry the Agent tool; a subagent's and side queries do not."""
    return any(t.get("name") in ("Agent", "Task") for t in body.get("tools") or [])


def is_subagent(body: dict) -> bool:
    return bool(body.get("tools")) and not is_main_agent(body)
