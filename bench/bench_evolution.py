#!/usr/bin/env python3
"""Benchmark the self-evolution parts on a synthetic history, in a temp memory root:

- what feedback adds to the hooks: the SessionStart shim and the first-Read rules-injector shim,
  wall time per run (new process, as Claude Code runs them) with ``feedback.record_refs`` on and off
  (refs recorded + pitfalls ranked from the score cache) — medians of alternating runs;
- ``record_refs`` in-process per call;
- the derived feedback tables: full rebuild from audit.jsonl, an incremental sync, and
  ``memory-feedback.py report`` / ``score`` as new processes;
- signals: first extraction of every summary, then ``signal-analyzer.py recurring``;
- ``capability-generator.py --status`` and ``code-memory consolidate --dry-run`` as new processes.

    python bench/bench_evolution.py [--refs 20000] [--sessions 300] [--runs 15] [--smoke]

``--smoke``: 500 refs, 20 sessions, 2 runs — a few seconds, to check the bench still runs.

Writes nothing outside a temp dir. Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "scripts"))
sys.path.insert(0, os.path.join(REPO, "tests"))

from code_memory.evolution import feedback as fb
from code_memory.fsutil import append_events
from code_memory.memory import experience as exp
from code_memory.memory.tree import ensure_area, init_root
from code_memory.paths import MemoryPaths
from code_memory.timeutil import now_iso
from evolution_support import MODULE, PORT, ROUTINE, SLOW, write_summary  # noqa: E402

DAY = 86400.0


def median_ms(samples: list) -> float:
    return round(statistics.median(samples) * 1000, 1)


def timed(cmd: list, env: dict, stdin: bytes | None = None) -> float:
    started = time.perf_counter()
    proc = subprocess.run(cmd, input=stdin, capture_output=True, env=env, timeout=600)
    elapsed = time.perf_counter() - started
    if proc.returncode != 0:
        raise SystemExit(f"{cmd[:3]} failed: {proc.stdout[-300:]!r} {proc.stderr[-300:]!r}")
    return elapsed


def seed(paths: MemoryPaths, refs: int, sessions: int, rng: random.Random) -> dict:
    init_root(paths)
    pitfalls = [f"- 坑 {i}: {'检查配置再启动服务 ' * 3}" for i in range(60)]
    text = open(paths.memory_md, encoding="utf-8").read()
    with open(paths.memory_md, "w", encoding="utf-8") as fh:
        fh.write(text.replace("## 避坑经验 (Pitfalls)\n", "## 避坑经验 (Pitfalls)\n\n" + "\n".join(pitfalls) + "\n"))
    ensure_area(paths, "projects", "alpha")
    rules = [f"- 规则 {i}: 金额一律用 Decimal，日志不打印手机号" for i in range(40)]
    with open(os.path.join(paths.project_dir("alpha"), "rules.md"), "a", encoding="utf-8") as fh:
        fh.write("\n## 编码规范\n\n" + "\n".join(rules) + "\n")
    ids = [exp.pitfall_id(p) for p in pitfalls] + [exp.rule_id("alpha", r) for r in rules] + \
        [f"fact:fact-{i:04d}" for i in range(400)]
    now = time.time()
    records = []
    for i in range(refs):
        sid = f"s{i % sessions:04d}"
        records.append({"timestamp": now_iso(now - (sessions - i % sessions) * DAY / 10), "event_type": "ref",
                        "experience_id": rng.choice(ids), "session_id": sid, "context": "bench"})
    for s in range(sessions):
        records.append({"timestamp": now_iso(now - (sessions - s) * DAY / 10), "event_type": "outcome",
                        "session_id": f"s{s:04d}", "outcome": "success" if rng.random() < 0.7 else "failed",
                        "corrections": rng.randint(0, 4), "source": "bench"})
    for start in range(0, len(records), 2000):
        append_events(paths.audit_log, records[start:start + 2000])
    lines = [[PORT], [MODULE], [SLOW], [ROUTINE], [PORT, MODULE]]
    for s in range(sessions):
        write_summary(paths, f"s{s:04d}", now - (sessions - s) * DAY / 10, rng.choice(lines) + [ROUTINE] * 5)
    return {"pitfalls": len(pitfalls), "rules": len(rules), "experiences": len(ids)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--refs", type=int, default=20000)
    ap.add_argument("--sessions", type=int, default=300)
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--smoke", action="store_true", help="tiny sizes: check that the bench runs")
    args = ap.parse_args()
    if args.smoke:
        args.refs, args.sessions, args.runs = 500, 20, 2
    rng = random.Random(7)
    py = sys.executable
    with tempfile.TemporaryDirectory(prefix="bench-evolution-") as tmp:
        paths = MemoryPaths(os.path.join(tmp, "memory"))
        home = os.path.join(tmp, "home")
        project = os.path.join(tmp, "work", "alpha")
        os.makedirs(os.path.join(project, ".git"))
        os.makedirs(home)
        sizes = seed(paths, args.refs, args.sessions, rng)
        env = {"PATH": os.environ["PATH"], "HOME": home, "CODE_MEMORY_ROOT": paths.root,
               "CODE_MEMORY_PYTHON": py, "TMPDIR": tmp, "CODE_MEMORY_LLM__BACKEND": "none",
               "CODE_MEMORY_EMBEDDING__ENABLED": "false"}
        out = {"python": sys.version.split()[0], "refs": args.refs, "sessions": args.sessions, **sizes}

        started = time.perf_counter()
        fb.sync(paths, rebuild=True)
        out["feedback_rebuild_ms"] = round((time.perf_counter() - started) * 1000, 1)
        fb.refresh_score_cache(paths, fb.Settings())
        fb.record_refs(paths, "s-new", [exp.pitfall_id("- x")] * 1)
        append_events(paths.audit_log, [{"timestamp": now_iso(), "event_type": "ref", "experience_id": f"fact:n{i}",
                                          "session_id": "s-new"} for i in range(100)])
        started = time.perf_counter()
        fb.sync(paths)
        out["feedback_incremental_sync_100_events_ms"] = round((time.perf_counter() - started) * 1000, 1)
        samples = []
        for _ in range(1000):
            t = time.perf_counter()
            fb.record_refs(paths, "s-bench", ["pitfall:0000000000", "rule:alpha:1111111111"], context="bench")
            samples.append(time.perf_counter() - t)
        out["record_refs_per_call_us"] = round(statistics.median(samples) * 1e6, 1)

        # the work the SessionStart hook adds, in-process: score cache, ranking, ids, one append
        memory_text = open(paths.memory_md, encoding="utf-8").read()
        samples = []
        for _ in range(200):
            t = time.perf_counter()
            cache = fb.load_score_cache(paths)
            shown = fb.rank_pitfalls(memory_text, cache)
            ids = exp.ids_in(shown, exp.candidates(exp.pitfall_lines(memory_text)))
            fb.record_refs(paths, "s-hook", ids, context="session-start")
            samples.append(time.perf_counter() - t)
        out["session_start_feedback_work_ms"] = round(statistics.median(samples) * 1000, 2)
        scripts = os.path.join(REPO, "scripts")
        base = "import sys; sys.path.insert(0, sys.argv[1]); import code_memory.hooks.runtime"
        with_fb = base + "; import code_memory.evolution.feedback, code_memory.memory.experience"
        imports = {"runtime": [], "runtime+feedback": []}
        for _ in range(args.runs):
            imports["runtime"].append(timed([py, "-S", "-c", base, scripts], env))
            imports["runtime+feedback"].append(timed([py, "-S", "-c", with_fb, scripts], env))
        out["hook_import_ms"] = {k: median_ms(v) for k, v in imports.items()}

        cm = os.path.join(REPO, "scripts")
        out["feedback_report_process_ms"] = median_ms(
            [timed([py, os.path.join(cm, "memory-feedback.py"), "report"], env) for _ in range(min(5, args.runs))])
        out["feedback_score_one_process_ms"] = median_ms(
            [timed([py, os.path.join(cm, "memory-feedback.py"), "score", "--id", "pitfall:0000000000"], env)
             for _ in range(min(5, args.runs))])

        # hooks: alternate on/off so load drift hits both alike
        start_payload = json.dumps({"session_id": "b", "transcript_path": "", "cwd": project,
                                    "hook_event_name": "SessionStart", "source": "startup"}).encode()
        shim = os.path.join(REPO, "hooks", "session-start.sh")
        read_shim = os.path.join(REPO, "hooks", "rules-injector.sh")
        target = os.path.join(project, "a.py")
        open(target, "w").write("x = 1\n")
        on, off, read_on, read_off = [], [], [], []
        for i in range(args.runs):
            for flag, bucket, read_bucket in (("true", on, read_on), ("false", off, read_off)):
                e = {**env, "CODE_MEMORY_FEEDBACK__RECORD_REFS": flag}
                bucket.append(timed(["bash", shim], e, start_payload))
                read = json.dumps({"session_id": f"r-{flag}-{i}", "transcript_path": "", "cwd": project,
                                   "hook_event_name": "PreToolUse", "tool_name": "Read",
                                   "tool_input": {"file_path": target}}).encode()
                read_bucket.append(timed(["bash", read_shim], e, read))
        out["session_start_hook_ms"] = {"refs_and_ranking": median_ms(on), "off": median_ms(off)}
        out["rules_injector_first_read_ms"] = {"refs": median_ms(read_on), "off": median_ms(read_off)}

        started = time.perf_counter()
        timed([py, os.path.join(cm, "signal-analyzer.py"), "extract", "--all"], env)
        out["signals_extract_all_ms"] = round((time.perf_counter() - started) * 1000, 1)
        out["signals_recurring_process_ms"] = median_ms(
            [timed([py, os.path.join(cm, "signal-analyzer.py"), "recurring"], env) for _ in range(min(5, args.runs))])
        out["capabilities_status_process_ms"] = median_ms(
            [timed([py, os.path.join(cm, "capability-generator.py"), "--status"], env) for _ in range(min(5, args.runs))])
        out["consolidate_dry_run_process_ms"] = median_ms(
            [timed([py, os.path.join(cm, "code-memory.py"), "consolidate", "--dry-run"], env) for _ in range(min(3, args.runs))])
        out["bare_python_ms"] = median_ms([timed([py, "-c", "pass"], env) for _ in range(args.runs)])
    print(json.dumps(out, ensure_ascii=False))


if __name__ == "__main__":
    main()
