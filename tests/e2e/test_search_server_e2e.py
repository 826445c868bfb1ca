"""The warm search server in a real Claude Code session: SessionStart starts it without waiting
(the session is not held up by it, nor by its pipes), and the model's own ``memory-search.py``
in the Bash tool is answered by it — asserted on what the stand-in received."""

from __future__ import annotations

import os
import sys

import pytest

from conftest import REPO, SCRIPTS
from support.standin_api import main, strings_in, tool

pytestmark = pytest.mark.e2e

MARKER = "WARM-E2E-MARKER"
# waits (up to 30 s: a loaded machine) for a server that is already there — it never starts one — and says so
PROBE = ("import sys, time; sys.path.insert(0, sys.argv[1]); from code_memory.search.client import call\n"
         "for _ in range(300):\n"
         "    a = call(sys.argv[2], 'ping', {}, 2.0, start_server=False)\n"
         "    if a: print('PRESTARTED', a['pid']); break\n"
         "    time.sleep(0.1)\n")


def test_session_start_warms_the_server_the_model_search_uses(claude_runner, standin, project_dir, memory_root,
                                                              search_server_env):
    (project_dir / ".git").mkdir()
    rules = os.path.join(memory_root, "areas", "projects", "alpha", "rules.md")
    os.makedirs(os.path.dirname(rules))
    with open(rules, "w", encoding="utf-8") as fh:
        fh.write(f"# alpha — rules\n\n## Retry\n\n- retry with exponential backoff ({MARKER})\n")
    from code_memory.search import client

    env = search_server_env
    probe = os.path.join(env[client.SOCKET_DIR_ENV], "probe.py")
    with open(probe, "w", encoding="utf-8") as fh:
        fh.write(PROBE)
    command = (f"{sys.executable} {probe} {SCRIPTS} {memory_root} && "
               f"{sys.executable} {SCRIPTS}/memory-search.py 'exponential backoff' --mode bm25")
    standin.push(main(tool("Bash", command=command, description="search memory")))
    result = claude_runner.run("how do we retry failed calls?", plugin_dirs=[REPO], env=env)
    assert result.ok, result.describe()
    answered = [s for r in standin.message_requests("main") for s in strings_in(r["body"])
                if "PRESTARTED" in s]
    assert answered, "the server was not running before the model's first search"
    assert MARKER in answered[0] and '"warm":true' in answered[0]
