"""Run the real ``code-memory ui`` for tests and benches: a populated memory root (built in a child
process with its own HOME, so nothing touches the real one) and the server started as a user
would — on a terminal where ``y`` is typed (the widening confirmation), ``--no-browser``."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

from support.terminal import TypingUser

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TESTS = os.path.join(REPO, "tests")

POPULATE = r"""
import json, os, sys
sys.path.insert(0, {tests!r})
from code_memory.memory.tree import init_root
from code_memory.memory.experience import rule_lines
from code_memory.paths import MemoryPaths
from support import ui_data
paths = MemoryPaths(os.environ["CODE_MEMORY_ROOT"])
init_root(paths)
sessions = ui_data.real_sessions(paths, os.path.join(os.environ["HOME"], "work"))
facts = ui_data.knowledge(paths)
proposals = ui_data.proposals(paths)
from code_memory.config import load_config
proposals.append(ui_data.kv_proposal(load_config()))
rules = [e for _i, _l, e in rule_lines("alpha", open(os.path.join(paths.project_dir("alpha"), "rules.md")).read())]
ui_data.feedback_events(paths, sessions, rules + ["fact:" + facts["new_fact"]])
items = ui_data.memtool_items(os.path.join(paths.root, "memtool.db"), {items})
ui_data.many_notes(paths, {notes})
from code_memory.evolution import signals          # what the summarizer's follow-up records per session
signals.extract(paths, signals.Settings())
print(json.dumps({{"sessions": sessions, "facts": facts, "proposals": proposals, "rules": rules,
                  "memtool": items[:5]}}))
"""


def environment(home: str) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CODE_MEMORY_", "CLAUDE"))}
    env.update(HOME=home, CODE_MEMORY_ROOT=os.path.join(home, ".claude", "memory"),
               XDG_CACHE_HOME=os.environ.get("XDG_CACHE_HOME") or os.path.join(home, ".cache"))
    env.pop("MEMTOOL_DB", None)
    return env


def build_root(home: str, *, memtool_items: int = 30, extra_notes: int = 0, timeout: float = 1800) -> dict:
    """Populate ``home``'s memory root; returns what was made (ids)."""
    os.makedirs(home, exist_ok=True)
    code = POPULATE.format(tests=TESTS, items=int(memtool_items), notes=int(extra_notes))
    done = subprocess.run([sys.executable, "-c", code], env=environment(home), capture_output=True, text=True,
                          timeout=timeout)
    if done.returncode != 0:
        raise RuntimeError(f"populating the memory root failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


class UiServer:
    """``with UiServer(env, "--read-only") as ui: ui.base, ui.token, ui.port, ui.url``."""

    def __init__(self, env: dict, *args: str, answer: str | None = "y", command=None):
        self.env = env
        self.args = args
        self.answer = answer
        self.command = command or [os.path.join(os.path.dirname(sys.executable), "code-memory")]
        self.stderr_path = os.path.join(env["HOME"], f"ui-stderr-{time.time_ns()}.txt")

    def start(self):
        kwargs = {}
        self._session = None
        self.user = None
        if self.answer is not None:
            self.user = TypingUser(self.answer)
            kwargs = self.user.popen_kwargs()
        self._stderr = open(self.stderr_path, "w")
        self.proc = subprocess.Popen([*self.command, "ui", "--no-browser", *self.args], env=self.env,
                                     stdout=subprocess.PIPE, stderr=self._stderr, **kwargs)
        if self.user is not None:
            self.user.child_started()
        self.first_line = self.proc.stdout.readline().decode("utf-8", "replace")
        self.answer_json = json.loads(self.first_line) if self.first_line.strip() else {}
        self.url = self.answer_json.get("url", "")
        self.base, _, self.token = self.url.partition("/?token=")
        self.port = int(self.base.rsplit(":", 1)[1]) if self.base else None
        return self

    def stderr(self) -> str:
        self._stderr.flush()
        with open(self.stderr_path, encoding="utf-8", errors="replace") as fh:
            return fh.read()

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.proc.stdout.close()
        self._stderr.close()
        if self.user is not None:
            self.user.close()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    @property
    def session(self) -> str:
        """The session secret the one-use token is traded for (the first call trades it: after
        that, ``url`` opens nothing — ui/security.py)."""
        if self._session is None:
            import urllib.error
            import urllib.request

            class NoRedirect(urllib.request.HTTPRedirectHandler):
                def redirect_request(self, *args, **kwargs):
                    return None

            try:
                urllib.request.build_opener(NoRedirect).open(self.url, timeout=60)
                raise RuntimeError("the token was not traded for a cookie")
            except urllib.error.HTTPError as exc:
                if exc.code != 303:
                    raise
                cookie = exc.headers["set-cookie"]
            self._session = cookie.split(";", 1)[0].split("=", 1)[1]
        return self._session

    @property
    def cookie(self) -> dict:
        return {f"code_memory_ui_{self.port}": self.session}
