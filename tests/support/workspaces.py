"""Shared by the workspace tests: the CLI as a subprocess, and registering workspace directories."""

from __future__ import annotations

import json
import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLI = os.path.join(REPO, "scripts", "code-memory.py")


def cm(*args, cwd=None, env=None, terminal=None):
    """``(exit status, parsed JSON answer)`` of ``code-memory ARGS``; never a traceback.
    ``terminal``: what the user types on the process's own terminal (conftest.run_script)."""
    from support.terminal import TypingUser

    full_env = dict(os.environ, **(env or {}))
    user = TypingUser(terminal) if terminal is not None else None
    try:
        proc = subprocess.run([sys.executable, CLI, *args], capture_output=True, text=True, cwd=cwd, env=full_env,
                              timeout=120, **(user.popen_kwargs() if user else {}))
    finally:
        if user:
            user.close()
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.returncode, json.loads(proc.stdout)


def register(memory_root: str, tmp_path, names=("alpha", "bravo"), **config) -> dict:
    """Directories ``tmp_path/ws/<name>`` registered in the user config (plus ``config`` sections)."""
    roots = {}
    for name in names:
        roots[name] = tmp_path / "ws" / name
        roots[name].mkdir(parents=True)
    os.makedirs(memory_root, exist_ok=True)
    with open(os.path.join(memory_root, "config.json"), "w") as fh:
        json.dump({"workspaces": {"paths": [str(p) for p in roots.values()]}, **config}, fh)
    return roots


def workspaces_with_decisions(memory_root: str, marks: dict) -> None:
    """Register the directories of ``marks`` ({dir: marker}) as workspaces (no vectors) and remember
    one decision carrying each marker in it — the setup of the session isolation tests."""
    os.makedirs(memory_root, exist_ok=True)
    with open(os.path.join(memory_root, "config.json"), "w") as fh:
        json.dump({"workspaces": {"paths": [str(d) for d in marks]}, "embedding": {"enabled": False}}, fh)
    for where, mark in marks.items():
        done = subprocess.run([sys.executable, CLI, "remember", f"canary release uses {mark}", "--type", "decision"],
                              cwd=str(where), capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr
