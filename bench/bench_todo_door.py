#!/usr/bin/env python3
"""What closing a to-do costs the model: the ``memory_todo`` MCP tool through the real ``mcp`` SDK
client, against the door it had before — a Bash call of ``code-memory todo done|reopen`` (a new
process each time).

    .venv-test/bin/python bench/bench_todo_door.py [--calls 40] [--json OUT] [--smoke]

A temp memory root holds the recent-work index of one project as the summarizer keeps it (40
sessions, the index's most, 3 to-dos each: 120 to-dos) and of 9 other projects. One server is
started (its start is reported apart: Claude Code pays it once per session, before the model's
first call), then ``--calls`` rounds, interleaved so load hits all alike: ``list`` (open to-dos),
``done`` of one to-do by its id and ``reopen`` of it (each a real write: a mark appended, the index
files rewritten), and the same ``done`` / ``reopen`` / ``list`` through the CLI as a process.
Medians and p90 in milliseconds; the ratio MCP / CLI is the number to quote (one run, same load).
``--smoke``: 3 rounds (a few seconds).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "scripts"))

from code_memory.memory import recent  # noqa: E402
from code_memory.memory.todos import todo_id  # noqa: E402
from code_memory.paths import MemoryPaths  # noqa: E402
from report import emit  # noqa: E402

SERVER = os.path.join(REPO, "scripts", "code-memory-mcp.py")
CLI = os.path.join(REPO, "scripts", "code-memory.py")
PROJECT = "alpha"


def build(root: str, work: str) -> tuple:
    """The memory root's recent-work index: 40 sessions of alpha (3 to-dos each) and 9 other
    projects. Returns (alpha's directory, the id of the to-do the rounds close and reopen)."""
    paths = MemoryPaths(root)
    now = time.time()
    for p in range(10):
        name = PROJECT if p == 0 else f"other{p}"
        for s in range(recent.MAX_ENTRIES if p == 0 else 5):
            sid = f"{name}-s{s:02d}"
            ts = now - (s + 1) * 3600
            entry = {"id": sid, "note": f"sessions/{sid}.md", "project": name, "workspace": None,
                     "ended": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ts)), "ts": ts,
                     "topic": f"session {s} of {name}", "files": [f"src/m{s}.py"], "decisions": [],
                     "todos": [{"text": f"Follow-up {k} of session {s}: port module {s * 3 + k} to the new client"}
                               for k in range(3)]}
            recent.record_session(paths, entry, [], lambda a, b: a == b)
    project_dir = os.path.join(work, PROJECT)
    os.makedirs(os.path.join(project_dir, ".git"))
    text = "Follow-up 1 of session 7: port module 22 to the new client"
    return project_dir, todo_id(f"{PROJECT}-s07", text)


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


def _stats(values: list) -> dict:
    values = sorted(values)
    return {"n": len(values), "p50_ms": _ms(statistics.median(values)),
            "p90_ms": _ms(values[min(len(values) - 1, int(len(values) * 0.9))]), "min_ms": _ms(values[0])}


async def _rounds(env: dict, project_dir: str, wanted: str, calls: int) -> dict:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    times = {k: [] for k in ("mcp list", "mcp done", "mcp reopen", "cli list", "cli done", "cli reopen")}
    cli_env = {k: v for k, v in env.items() if k != "CLAUDE_CODE_SESSION_ID"}    # the person's shell
    started = time.perf_counter()
    params = StdioServerParameters(command=sys.executable, args=[SERVER], env=env)
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            await session.list_tools()
            start_s = time.perf_counter() - started
            for _ in range(calls):
                for action in ("list", "done", "reopen"):
                    args = {"action": action} if action == "list" else {"action": action, "todo": wanted}
                    t0 = time.perf_counter()
                    result = await session.call_tool("memory_todo", args)
                    times[f"mcp {action}"].append(time.perf_counter() - t0)
                    answer = json.loads(result.content[0].text)
                    assert answer["ok"], answer
                    if action == "list":
                        assert answer["count"] == 50 and answer["omitted"] == recent.MAX_ENTRIES * 3 - 50, answer
                for action in ("done", "reopen", "list"):
                    argv = [sys.executable, CLI, "todo", action, "--project", PROJECT] + ([] if action == "list" else [wanted])
                    t0 = time.perf_counter()
                    proc = subprocess.run(argv, capture_output=True, text=True, env=cli_env, cwd=project_dir)
                    times[f"cli {action}"].append(time.perf_counter() - t0)
                    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = {"server_start_ms": _ms(start_s), **{k: _stats(v) for k, v in times.items()}}
    out["ratio_mcp_cli_done_p50"] = round(out["mcp done"]["p50_ms"] / out["cli done"]["p50_ms"], 3)
    out["ratio_mcp_cli_list_p50"] = round(out["mcp list"]["p50_ms"] / out["cli list"]["p50_ms"], 3)
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--calls", type=int, default=40, help="rounds of list / done / reopen (default 40)")
    parser.add_argument("--json", help="also write the result here")
    parser.add_argument("--smoke", action="store_true", help="3 rounds (a few seconds)")
    args = parser.parse_args(argv)
    calls = 3 if args.smoke else args.calls
    with tempfile.TemporaryDirectory(prefix="bench-todo-door-") as tmp:
        root, work, home = (os.path.join(tmp, d) for d in ("memory", "work", "home"))
        os.makedirs(home)
        project_dir, wanted = build(root, work)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("CODE_MEMORY_", "CLAUDE_", "MEMTOOL_"))}
        env.update(HOME=home, CODE_MEMORY_ROOT=root, CLAUDE_PROJECT_DIR=project_dir, CLAUDE_CODE_SESSION_ID="bench",
                   CODE_MEMORY_EMBEDDING__ENABLED="false", CODE_MEMORY_SEARCH__SERVER="0",
                   MEMTOOL_DB=os.path.join(tmp, "memtool.db"))
        result = asyncio.run(_rounds(env, project_dir, wanted, calls))
    result = {"bench": "todo_door", "calls": calls, "todos_in_project": recent.MAX_ENTRIES * 3,
              "load": os.getloadavg(), **result}
    emit(result, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
