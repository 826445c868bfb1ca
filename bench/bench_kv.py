#!/usr/bin/env python3
"""Benchmark of the agent key-value memory (set_memory / kv read / grep), BENCHMARKS.md § kv.

  .venv-test/bin/python bench/bench_kv.py [--keys 10000] [--runs 15]

Builds a store of --keys keys in a temp root (10 namespaces, Chinese + English summaries, tags,
importance, some expiries), then measures with the running interpreter:
  writes/s      set_memory in one process, and 4 processes writing at once (aggregate, own root)
  compact       one LWW compaction of the whole log
  read          `code-memory.py kv read --token-limit 400` in a NEW process: compacted store,
                with 150 uncompacted writes on top, and cold (digest.json deleted before each run);
                and the bare library call default_read() in a new process (what a hook pays)
  grep          `grep -c` over kv/log.jsonl and `grep -rl` over kv/index (the agent's bash queries)
  set (CLI)     `set-memory.py` in a new process
Prints one JSON object; latencies are medians (p50) with p90 beside them.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPTS = os.path.join(REPO, "scripts")
sys.path.insert(0, SCRIPTS)

from code_memory.kv import compact, set_memory  # noqa: E402

NAMESPACES = ["user/calendar", "user/preference", "user/contacts", "kb/product", "kb/docs",
              "agent/state", "project/alpha", "project/beta", "notes/daily", "notes/ideas"]
WEB = {"kind": "web", "name": "example.com", "retrieved_at": "2026-02-22T10:00:00Z",
       "locator": {"url": "https://example.com/doc"}}


def content(i: int) -> dict:
    doc = {"type": ["reminder", "preference", "fact", "kb", "note"][i % 5],
           "summary": f"第{i}条记忆：牙科复诊 project sync item {i} with a few English words",
           "importance": i % 10, "tags": [f"t{i % 7}", "health" if i % 11 == 0 else "misc"]}
    if i % 13 == 0:
        doc["expired_at"] = "2026-01-01T00:00:00Z"
    return doc


def key(i: int) -> str:
    return f"/{NAMESPACES[i % len(NAMESPACES)]}/item-{i:06d}"


def timed_runs(cmd, runs, before=None, env=None):
    """p50/p90 wall time of ``cmd`` in a new process, after one unmeasured warm-up run."""
    times = []
    subprocess.run(cmd, capture_output=True, env=env)
    for _ in range(runs):
        if before:
            before()
        start = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, env=env)
        times.append((time.perf_counter() - start) * 1000)
        if proc.returncode != 0:
            raise SystemExit(f"command failed: {cmd}: {proc.stdout[:300]!r} {proc.stderr[:300]!r}")
    times.sort()
    return {"p50_ms": round(statistics.median(times), 1), "p90_ms": round(times[int(0.9 * (len(times) - 1))], 1)}


_WORKER = """
import sys, time
sys.path.insert(0, {scripts!r})
from code_memory.kv import set_memory
w, n = int(sys.argv[1]), int(sys.argv[2])
for i in range(n):
    set_memory({root!r}, f"/bench/w{{w}}/k{{i}}", {{"summary": "concurrent write", "i": i}}, "bench")
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--keys", type=int, default=10000)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--dir", default=os.path.join(REPO, "bench", "out"),
                        help="where the temporary memory roots are made (default bench/out; on this "
                             "machine /tmp creates files ~50x slower than other directories)")
    parser.add_argument("--keep", action="store_true", help="keep the temp root and print its path")
    args = parser.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    root = tempfile.mkdtemp(prefix="bench-kv-", dir=args.dir)
    concurrent_root = tempfile.mkdtemp(prefix="bench-kv-concurrent-", dir=args.dir)
    env = {**os.environ, "CODE_MEMORY_ROOT": root}
    env.pop("CODE_MEMORY_CONFIG", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)      # measure as installed: with __pycache__
    py = sys.executable
    out = {"keys": args.keys, "python": py}
    try:
        start = time.perf_counter()
        for i in range(args.keys):
            set_memory(root, key(i), content(i), WEB if key(i).startswith("/kb/") else "chat")
        elapsed = time.perf_counter() - start
        out["writes_per_s_one_process"] = round(args.keys / elapsed)

        per, procs = max(1, args.keys // 8), 4
        code = _WORKER.format(scripts=SCRIPTS, root=concurrent_root)
        start = time.perf_counter()
        workers = [subprocess.Popen([py, "-c", code, str(w), str(per)]) for w in range(procs)]
        if any(p.wait() != 0 for p in workers):
            raise SystemExit("a concurrent writer failed")
        out["writes_per_s_4_processes"] = round(procs * per / (time.perf_counter() - start))

        start = time.perf_counter()
        report = compact(root)
        out["compact_s"] = round(time.perf_counter() - start, 2)
        out["live_keys"] = report["keys"]

        read_cmd = [py, os.path.join(SCRIPTS, "code-memory.py"), "kv", "read", "--token-limit", "400"]
        out["python_startup"] = timed_runs([py, "-c", "pass"], args.runs)
        out["read_compacted"] = timed_runs(read_cmd, args.runs, env=env)
        library_read = [py, "-c", "import sys; sys.path.insert(0, %r); from code_memory.kv.read import default_read; "
                        "sys.stdout.write(default_read(%r, 400)['text'])" % (SCRIPTS, root)]
        out["read_compacted_library_call"] = timed_runs(library_read, args.runs, env=env)
        for i in range(150):
            set_memory(root, key(i), content(i + 1), WEB if key(i).startswith("/kb/") else "chat")
        out["read_with_150_uncompacted_writes"] = timed_runs(read_cmd, args.runs, env=env)
        digest = os.path.join(root, "kv", "digest.json")
        out["read_cold_no_digest"] = timed_runs(
            read_cmd, args.runs, before=lambda: os.path.exists(digest) and os.unlink(digest), env=env)

        log = os.path.join(root, "kv", "log.jsonl")
        index = os.path.join(root, "kv", "index")
        out["grep_log"] = timed_runs(["grep", "-c", "牙科复诊 project sync item 4242 ", log], args.runs)
        out["grep_index_recursive"] = timed_runs(["grep", "-rl", "item 4242 ", index], args.runs)
        out["ls_index_folder"] = timed_runs(["ls", os.path.join(index, "user", "calendar")], args.runs)
        out["set_cli_new_process"] = timed_runs(
            [py, os.path.join(SCRIPTS, "set-memory.py"), "/bench/cli", '{"summary": "x"}', "bench"], args.runs, env=env)
    finally:
        if args.keep:
            out["root"] = root
        else:
            shutil.rmtree(root, ignore_errors=True)
        shutil.rmtree(concurrent_root, ignore_errors=True)
    print(json.dumps(out, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
