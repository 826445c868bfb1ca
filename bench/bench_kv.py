#!/usr/bin/env python3
"""Benchmark of the agent key-value memory (set_memory / kv read / grep), BENCHMARKS.md § kv.

  .venv-test/bin/python bench/bench_kv.py [--keys 10000] [--runs 15] [--smoke]

Builds a store of --keys keys in a temp root (10 namespaces, Chinese + English summaries, tags,
importance, some expiries), then measures with the running interpreter:
  fs floor      create + rename of a small file per second in the same directory (every new key
                costs one; the file system bounds writes/s)
  writes/s      set_memory in one process, and 4 processes writing at once (aggregate, own root)
  compact       one LWW compaction of the whole log
  read          `code-memory.py kv read --token-limit 400` in a NEW process (the CLI), and the bare
                library call default_read() in a new process (what a hook pays): on the compacted
                store, on a second store with 150 uncompacted writes on top, and cold (digest.bin
                deleted before each run)
  grep          `grep -c` over kv/log.jsonl and `grep -rl` over kv/index (the agent's bash queries)
  set (CLI)     `set-memory.py` in a new process
Prints one JSON object; latencies are medians (p50) with p90 beside them, and the median CPU
time (user + sys) of the process, which a busy shared machine inflates far less than wall time;
the new-process measurements take turns run by run. ``--smoke``: 300 keys, 2 runs (a few seconds;
the CI test).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPTS = os.path.join(REPO, "scripts")
sys.path.insert(0, SCRIPTS)

from code_memory.kv.maintain import compact
from code_memory.kv.write import set_memory

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


def interleaved(variants: dict, runs: int) -> dict:
    """p50/p90 wall time of each ``name: (cmd, env, before)`` in NEW processes, the variants taking
    turns run by run (so a load spike on this shared machine hits all of them alike), after one
    unmeasured warm-up each."""
    times = {name: [] for name in variants}
    cpu = {name: [] for name in variants}
    for cmd, env, before in variants.values():
        if before:
            before()
        subprocess.run(cmd, capture_output=True, env=env)
    for _ in range(runs):
        for name, (cmd, env, before) in variants.items():
            if before:
                before()
            usage = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            proc = subprocess.run(cmd, capture_output=True, env=env)
            times[name].append((time.perf_counter() - start) * 1000)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu[name].append((after.ru_utime - usage.ru_utime + after.ru_stime - usage.ru_stime) * 1000)
            if proc.returncode != 0:
                raise SystemExit(f"command failed: {cmd}: {proc.stdout[:300]!r} {proc.stderr[:300]!r}")
    out = {}
    for name, values in times.items():
        values.sort()
        out[name] = {"p50_ms": round(statistics.median(values), 1), "p90_ms": round(values[int(0.9 * (len(values) - 1))], 1),
                     "cpu_p50_ms": round(statistics.median(cpu[name]), 1)}
    return out


def build_store(root: str, n: int) -> float:
    """Write ``n`` keys with set_memory in this process; returns writes per second."""
    start = time.perf_counter()
    for i in range(n):
        set_memory(root, key(i), content(i), WEB if key(i).startswith("/kb/") else "chat")
    return n / (time.perf_counter() - start)


def fs_create_rename_rate(directory: str, n: int = 2000) -> int:
    """The file system's floor for index writes: create a temp file + rename it, per second."""
    probe = os.path.join(directory, "fs-probe")
    os.makedirs(probe)
    start = time.perf_counter()
    for i in range(n):
        tmp = os.path.join(probe, f".f{i}.tmp")
        with open(tmp, "wb") as fh:
            fh.write(b"{}")
        os.replace(tmp, os.path.join(probe, f"f{i}.json"))
    rate = n / (time.perf_counter() - start)
    shutil.rmtree(probe)
    return round(rate)


_WORKER = """
import sys, time
sys.path.insert(0, {scripts!r})
from code_memory.kv.write import set_memory
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
    parser.add_argument("--smoke", action="store_true", help="300 keys, 2 runs (a few seconds)")
    args = parser.parse_args()
    if args.smoke:
        args.keys, args.runs = 300, 2
    os.makedirs(args.dir, exist_ok=True)
    root = tempfile.mkdtemp(prefix="bench-kv-", dir=args.dir)              # compacted store
    tail_root = tempfile.mkdtemp(prefix="bench-kv-tail-", dir=args.dir)    # + 150 uncompacted writes
    concurrent_root = tempfile.mkdtemp(prefix="bench-kv-concurrent-", dir=args.dir)
    py = sys.executable
    base_env = {k: v for k, v in os.environ.items() if k not in ("CODE_MEMORY_CONFIG", "PYTHONDONTWRITEBYTECODE")}
    env, tail_env, other_env = ({**base_env, "CODE_MEMORY_ROOT": r} for r in (root, tail_root, concurrent_root))
    out = {"keys": args.keys, "python": py, "load_average_before": os.getloadavg()[0]}
    try:
        out["fs_create_rename_per_s"] = fs_create_rename_rate(root)
        out["writes_per_s_one_process"] = round(build_store(root, args.keys))

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
        build_store(tail_root, args.keys)
        compact(tail_root)
        for i in range(150):
            set_memory(tail_root, key(i), content(i + 1), WEB if key(i).startswith("/kb/") else "chat")

        cli_read = [py, os.path.join(SCRIPTS, "code-memory.py"), "kv", "read", "--token-limit", "400"]
        library_read = [py, "-c", "import os, sys; sys.path.insert(0, %r); from code_memory.kv.read import default_read; "
                        "sys.stdout.write(default_read(os.environ['CODE_MEMORY_ROOT'], 400)['text'])" % SCRIPTS]
        digest = os.path.join(root, "kv", "digest.bin")
        probe = min(4242, args.keys * 2 // 5)      # one key's text, looked for by grep
        log = os.path.join(root, "kv", "log.jsonl")
        index = os.path.join(root, "kv", "index")
        out.update(interleaved({
            "python_startup": ([py, "-c", "pass"], base_env, None),
            "read_cli": (cli_read, env, None),
            "read_library_call": (library_read, env, None),
            "read_cli_150_uncompacted_writes": (cli_read, tail_env, None),
            "read_library_call_150_uncompacted_writes": (library_read, tail_env, None),
            "read_cli_cold_no_digest": (cli_read, env, lambda: os.path.exists(digest) and os.unlink(digest)),
            "grep_log": (["grep", "-c", f"牙科复诊 project sync item {probe} ", log], base_env, None),
            "grep_index_recursive": (["grep", "-rl", f"item {probe} ", index], base_env, None),
            "ls_index_folder": (["ls", os.path.join(index, "user", "calendar")], base_env, None),
            "set_cli_new_process": ([py, os.path.join(SCRIPTS, "set-memory.py"), "/bench/cli", '{"summary": "x"}',
                                     "bench"], other_env, None),
        }, args.runs))
    finally:
        if args.keep:
            out["root"] = root
        else:
            shutil.rmtree(root, ignore_errors=True)
        shutil.rmtree(tail_root, ignore_errors=True)
        shutil.rmtree(concurrent_root, ignore_errors=True)
    out["load_average_after"] = os.getloadavg()[0]
    print(json.dumps(out, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
