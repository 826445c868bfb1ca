"""Run the real hook shims (hooks/*.sh) as Claude Code does: payload on stdin, JSON on stdout.

Payloads come from tests/fixtures/payloads/ (shapes of the real 2.1.330 binary); ``payload()``
rewrites their ``/home/dev/proj`` paths and session id to the test's own.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HOOKS_DIR = os.path.join(REPO, "hooks")
PAYLOADS = os.path.join(REPO, "tests", "fixtures", "payloads")
SAMPLE_PROJECT = "/home/dev/proj"


class HookResult:
    def __init__(self, returncode: int, stdout: bytes, stderr: bytes):
        self.returncode = returncode
        self.stdout = stdout.decode("utf-8", "replace")
        self.stderr = stderr.decode("utf-8", "replace")
        self.json = json.loads(self.stdout) if self.stdout.strip() else None

    @property
    def silent(self) -> bool:
        return self.returncode == 0 and not self.stdout.strip()

    @property
    def specific(self) -> dict:
        return (self.json or {}).get("hookSpecificOutput") or {}

    @property
    def context(self) -> str:
        return self.specific.get("additionalContext", "")

    @property
    def decision(self) -> str | None:
        return self.specific.get("permissionDecision")


def _rewrite(value, project: str, session_id: str | None):
    if isinstance(value, str):
        return value.replace(SAMPLE_PROJECT, project)
    if isinstance(value, dict):
        out = {k: _rewrite(v, project, session_id) for k, v in value.items()}
        if session_id is not None and "session_id" in out:
            out["session_id"] = session_id
        return out
    if isinstance(value, list):
        return [_rewrite(v, project, session_id) for v in value]
    return value


def payload(name: str, project: str, session_id: str | None = "sess-test-1", **fields) -> dict:
    """Fixture ``name`` (e.g. "pre-read") with paths under ``project``; ``fields`` override keys
    (``tool_input=...`` replaces the whole object)."""
    with open(os.path.join(PAYLOADS, f"{name}.json"), encoding="utf-8") as fh:
        data = _rewrite(json.load(fh), project, session_id)
    data.update(fields)
    return data


def hook_env(extra: dict | None = None) -> dict:
    env = dict(os.environ)
    env["CODE_MEMORY_PYTHON"] = sys.executable
    env.update(extra or {})
    return env


def run_hook(shim: str, data, env: dict | None = None, timeout: float = 60) -> HookResult:
    """Run ``hooks/<shim>.sh`` with ``data`` (dict → JSON; str/bytes as given) on stdin."""
    if isinstance(data, (dict, list)):
        raw = json.dumps(data).encode("utf-8")
    elif isinstance(data, str):
        raw = data.encode("utf-8")
    else:
        raw = data
    proc = subprocess.run([os.path.join(HOOKS_DIR, f"{shim}.sh")], input=raw, capture_output=True,
                          env=hook_env(env), timeout=timeout)
    return HookResult(proc.returncode, proc.stdout, proc.stderr)
