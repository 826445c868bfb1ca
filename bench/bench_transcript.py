#!/usr/bin/env python3
"""Transcript reading at scale: the deterministic summary of 20, 50, 100 and 200 MB transcripts.

    .venv-test/bin/python bench/bench_transcript.py [--sizes 20,50,100,200] [--checkout DIR] [--smoke]

Each transcript is written in the real binary's line shapes (tests/support/transcripts.py) from
small lines — ~1.2 KB on average, one Bash call every 13 lines (a 200 MB file: ~170k lines, ~12k Bash
calls), with user prompts, assistant texts, Edit/Read/Grep calls and their results, every tenth Bash
call failing. Timed: ``session-summary.py --transcript … --backend none`` in a new process, as the
SessionEnd hook's detached worker runs it (imports, streaming read, digest, note, index), wall
time and CPU time (the child's user + system: what a loaded machine's wall time hides), after one
untimed run on a small file (byte code and the dictionary cache are warm, as on a user's machine). Linear reading means the seconds per MB stay flat across sizes. ``--checkout DIR`` times
another checkout (``git archive <rev> | tar -x -C DIR``) on the same files: the baseline.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "tests"))

from report import emit  # noqa: E402
from support.transcripts import TranscriptWriter  # noqa: E402

LINES_PER_CYCLE = 14


def write(path: str, megabytes: float, cwd: str) -> dict:
    """A transcript of about ``megabytes`` MB; returns its line and Bash-call counts."""
    target = int(megabytes * 1024 * 1024)
    bash = 0
    with TranscriptWriter(path, session_id="big", cwd=cwd) as t:
        t.user("把 services/ 下面的重试逻辑统一成一个装饰器，然后把所有测试跑一遍")
        n = 0
        while t.fh.tell() < target:
            n += 1
            t.say(f"第 {n} 步：检查 services/mod{n % 40}.py 里的重试写法，" + "它用的是手写循环，" * 30)
            t.tool("Read", {"file_path": f"{cwd}/services/mod{n % 40}.py"}, "def call():\n    pass\n" * 60)
            t.tool("Grep", {"pattern": "retry", "path": f"{cwd}/services"}, f"services/mod{n % 40}.py:12: retry\n" * 40)
            t.tool("Read", {"file_path": f"{cwd}/tests/test_mod{n % 40}.py"}, "def test_call():\n    assert call()\n" * 40)
            t.say("把循环换成 @retry(times=3) 装饰器。" + "保持原有的异常类型不变。" * 30)
            t.tool("Edit", {"file_path": f"{cwd}/services/mod{n % 40}.py", "old_string": "for i in range(3):" * 4,
                            "new_string": "@retry(times=3)" * 4}, "The file has been updated.")
            failed = n % 10 == 0
            t.tool("Bash", {"command": f"python -m pytest -q tests/test_mod{n % 40}.py > logs/run{n % 7}.log"},
                   ("Exit code 1\nAssertionError: expected 3 retries\n" if failed else "3 passed in 0.2s\n") * 40,
                   is_error=failed)
            bash += 1
            t.say("这一处改好了，测试" + ("失败，" if failed else "通过，") + "继续下一个文件。" * 30)
            if n % 25 == 0:
                t.user("继续，别停")
        t.say("全部改完了：40 个文件的重试都换成了 @retry 装饰器，测试通过。")
        size = t.fh.tell()
    with open(path, "rb") as fh:
        lines = sum(1 for _ in fh)
    return {"bytes": size, "lines": lines, "bash_calls": bash}


def summarize(checkout: str, python: str, path: str, cwd: str, env: dict) -> tuple:
    """(wall seconds, CPU seconds) of one summary in a new process."""
    cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    done = subprocess.run([python, os.path.join(checkout, "scripts", "session-summary.py"), "--transcript", path,
                           "--cwd", cwd, "--backend", "none", "--no-followups"],
                          capture_output=True, text=True, env=env, check=False)
    seconds = time.perf_counter() - began
    cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"summary failed: {done.stdout}{done.stderr}")
    cpu = (cpu_after.ru_utime - cpu_before.ru_utime) + (cpu_after.ru_stime - cpu_before.ru_stime)
    return seconds, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="20,50,100,200", help="transcript sizes in MB, comma separated")
    parser.add_argument("--checkout", default=REPO, help="time this checkout's summarizer")
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--json", help="also write the result here")
    parser.add_argument("--smoke", action="store_true", help="one 2 MB transcript (a few seconds)")
    args = parser.parse_args()
    sizes = [2.0] if args.smoke else [float(s) for s in args.sizes.split(",") if s.strip()]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        cwd = os.path.join(tmp, "work", "proj")
        os.makedirs(os.path.join(cwd, ".git"))
        env = {k: v for k, v in os.environ.items() if not k.startswith(("CODE_MEMORY_", "CLAUDE_", "ANTHROPIC_"))}
        env.update({"HOME": os.path.join(tmp, "home"), "CODE_MEMORY_ROOT": os.path.join(tmp, "home", "memory"),
                    "CODE_MEMORY_LLM__BACKEND": "none", "TMPDIR": tmp})
        warm = os.path.join(tmp, "warm.jsonl")       # not timed: byte code, the dictionary cache
        write(warm, 0.05, cwd)
        summarize(os.path.abspath(args.checkout), args.python, warm, cwd, env)
        for size in sizes:
            path = os.path.join(tmp, f"t{size:g}.jsonl")
            shape = write(path, size, cwd)
            seconds, cpu = summarize(os.path.abspath(args.checkout), args.python, path, cwd, env)
            rows.append({"mb": round(shape["bytes"] / 1048576, 1), **shape, "seconds": round(seconds, 2),
                         "cpu_seconds": round(cpu, 2),
                         "seconds_per_100mb": round(seconds / (shape["bytes"] / 1048576) * 100, 2)})
            os.unlink(path)
    out = {"checkout": os.path.abspath(args.checkout), "load": os.getloadavg()[0], "rows": rows}
    emit(out, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
