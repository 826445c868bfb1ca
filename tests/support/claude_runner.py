"""Run the real Claude Code binary headless (``claude -p``) against the loopback stand-in API.

A :class:`ClaudeRunner` owns one private HOME and one working directory. Hooks come from
``$HOME/.claude/settings.json`` (write it with :meth:`write_settings`, or let ``install.sh`` write
it) or from a plugin directory (``plugin_dirs=[...]`` → ``--plugin-dir``). What the hooks inject is
asserted on the request bodies the stand-in records; what they write, on files.

    runner = ClaudeRunner(claude_bin, api, home=tmp/"home", cwd=tmp/"proj")
    api.push(main(tool("Read", file_path=str(f))), main({"text": "done"}))
    result = runner.run("read it")
    assert result.ok and api.requests_containing("MARKER")

Environment (what runs the real binary offline): private HOME, ANTHROPIC_BASE_URL = the stand-in,
any API key, no non-essential traffic, no auto-update, IS_SANDBOX=1 with
``--permission-mode bypassPermissions`` (needed when the tests run as root).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import time

from .standin_api import claude_env


class ClaudeResult:
    def __init__(self, returncode: int, stdout: str, stderr: str, seconds: float):
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr
        self.seconds = seconds
        try:
            self.json = json.loads(stdout) if stdout.strip() else None
        except ValueError:
            self.json = None

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and isinstance(self.json, dict) and not self.json.get("is_error")

    @property
    def session_id(self) -> str | None:
        return (self.json or {}).get("session_id")

    @property
    def result_text(self) -> str:
        return str((self.json or {}).get("result", ""))

    def describe(self) -> str:
        """A short diagnostic for assertion messages."""
        return f"rc={self.returncode} stdout={self.stdout[-1500:]!r} stderr={self.stderr[-1500:]!r}"


class ClaudeRunner:
    def __init__(self, claude_bin: str, api, home, cwd, env: dict | None = None):
        self.claude_bin = str(claude_bin)
        self.api = api
        self.home = str(home)
        self.cwd = str(cwd)
        self.extra_env = dict(env or {})
        os.makedirs(os.path.join(self.home, ".claude"), exist_ok=True)
        os.makedirs(self.cwd, exist_ok=True)

    @property
    def settings_path(self) -> str:
        return os.path.join(self.home, ".claude", "settings.json")

    def write_settings(self, settings: dict) -> None:
        with open(self.settings_path, "w", encoding="utf-8") as fh:
            json.dump(settings, fh, indent=2)

    def env(self, extra: dict | None = None) -> dict:
        return claude_env(self.api.base_url, self.home, {**self.extra_env, **(extra or {})})

    def command(self, prompt: str, plugin_dirs=(), extra_args=()) -> list:
        cmd = [self.claude_bin, "-p", prompt, "--output-format", "json",
               "--permission-mode", "bypassPermissions"]
        for plugin_dir in plugin_dirs:
            cmd += ["--plugin-dir", str(plugin_dir)]
        return cmd + list(extra_args)

    def run(self, prompt: str, *, plugin_dirs=(), extra_args=(), env: dict | None = None,
            timeout: float = 180) -> ClaudeResult:
        started = time.monotonic()
        proc = subprocess.run(self.command(prompt, plugin_dirs, extra_args), cwd=self.cwd,
                              env=self.env(env), capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)
        return ClaudeResult(proc.returncode, proc.stdout, proc.stderr, time.monotonic() - started)

    def transcript_path(self, session_id: str) -> str:
        """Where the binary writes a session's transcript (~/.claude/projects/<mangled cwd>/<id>.jsonl)."""
        mangled = re.sub(r"[^A-Za-z0-9]", "-", os.path.realpath(self.cwd))
        return os.path.join(self.home, ".claude", "projects", mangled, f"{session_id}.jsonl")
