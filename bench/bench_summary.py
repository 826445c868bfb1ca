#!/usr/bin/env python3
"""Benchmark the summarizer's offline parts: reading a large transcript (time, traced peak memory)
and a whole deterministic summary run (new process, as the SessionEnd hook starts it).

    python bench/bench_summary.py [--mb 50] [--runs 5] [--smoke]

``--smoke``: a 1 MB transcript, one run of each (a few seconds; the CI test).

Writes nothing outside a temp dir. Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "scripts"))
sys.path.insert(0, os.path.join(REPO, "tests"))

from code_memory.transcript import read_session
from support.standin_api import StandinAPI  # noqa: E402
from support.transcripts import TranscriptWriter  # noqa: E402

ANSWER = json.dumps({"summary": {"topic": "bench", "key_points": ["a"], "files": [], "decisions": [], "todos": []},
                     "knowledge": {"has_knowledge": False, "project": "", "rules": [], "avoidances": []}})


def make_transcript(path: str, megabytes: int) -> None:
    """Realistic bulk: Read results and api-request copies of ~44 KB, conversation every few steps."""
    blob = "def handler(event):\n    return process(event)\n" * 1000
    with TranscriptWriter(path, cwd="/home/dev/shop") as t:
        t.user("Refactor the order pipeline and keep the tests green")
        i = 0
        while t.fh.tell() < megabytes * 1024 * 1024:
            t.tool("Read", {"file_path": f"/home/dev/shop/m{i}.py"}, blob)
            t.raw({"type": "api-request", "body": {"messages": [{"role": "user", "content": blob}]}})
            if i % 5 == 0:
                t.tool("Edit", {"file_path": f"/home/dev/shop/m{i}.py", "old_string": "a", "new_string": "b"})
                t.tool("Bash", {"command": f"pytest -q tests/test_m{i}.py"}, "1 passed")
                t.say(f"Step {i}: moved the validation into its own function. " * 3)
            i += 1
        t.say("All done.")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=int, default=50)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--smoke", action="store_true", help="a 1 MB transcript, one run (a few seconds)")
    args = parser.parse_args()
    if args.smoke:
        args.mb, args.runs = 1, 1
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "big.jsonl")
        make_transcript(path, args.mb)
        size = os.path.getsize(path)
        read_times = []
        for _ in range(args.runs):
            started = time.perf_counter()
            digest = read_session(path)
            read_times.append(time.perf_counter() - started)
        tracemalloc.start()
        read_session(path)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()

        env = {**os.environ, "CODE_MEMORY_ROOT": os.path.join(tmp, "mem")}
        script = os.path.join(REPO, "scripts", "session-summary.py")
        runs = []
        for i in range(args.runs):
            started = time.perf_counter()
            proc = subprocess.run([sys.executable, script, "--transcript", path, "--backend", "none",
                                   "--session-id", f"bench-{i}", "--no-followups"],
                                  capture_output=True, text=True, env=env)
            runs.append(time.perf_counter() - started)
            assert proc.returncode == 0, proc.stdout + proc.stderr
        # JSON mode through the real anthropic SDK against a loopback stand-in (no network): the
        # summarizer's own overhead, SDK import included; the model's latency is not measured
        sdk_runs = []
        with StandinAPI(default_text=ANSWER) as api:
            env_sdk = {**env, "CODE_MEMORY_LLM__BACKEND": "anthropic", "CODE_MEMORY_LLM__BASE_URL": api.base_url,
                       "ANTHROPIC_API_KEY": "bench"}
            for i in range(args.runs):
                started = time.perf_counter()
                proc = subprocess.run([sys.executable, script, "--transcript", path, "--session-id", f"sdk-{i}",
                                       "--no-followups"], capture_output=True, text=True, env=env_sdk)
                sdk_runs.append(time.perf_counter() - started)
                assert json.loads(proc.stdout).get("mode") == "json", proc.stdout + proc.stderr
        sdk_import = None                      # (not timed in a smoke run)
        if not args.smoke:
            import_started = time.perf_counter()
            subprocess.run([sys.executable, "-c", "import anthropic"], check=True)
            sdk_import = round(time.perf_counter() - import_started, 3)
    print(json.dumps({
        "transcript_mb": round(size / 1024 / 1024, 1), "lines": digest.lines,
        "files_touched": len(digest.files_touched), "commands": len(digest.commands),
        "read_p50_s": round(statistics.median(read_times), 3),
        "read_mb_per_s": round(size / 1024 / 1024 / statistics.median(read_times), 1),
        "read_peak_traced_mb": round(peak / 1024 / 1024, 1),
        "deterministic_summary_process_p50_s": round(statistics.median(runs), 3),
        "json_summary_sdk_standin_process_p50_s": round(statistics.median(sdk_runs), 3),
        "python_import_anthropic_s": sdk_import,
    }, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
