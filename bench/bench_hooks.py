#!/usr/bin/env python3
"""Hook latency: wall time of each hook shim as Claude Code runs it (``sh -c '<shim>'`` with the
payload on stdin), next to bare interpreter starts measured in the same run.

    .venv-test/bin/python bench/bench_hooks.py [--rounds 40] [--python PATH] [--json OUT] [--smoke]
    .venv-test/bin/python bench/bench_hooks.py --compare DIR    # another checkout, same run

The baseline is the interpreter the hooks run (``--python``, default the test venv's; install.sh's
venv in a real install): each case's p50 is divided by that interpreter's bare start
(``python -c pass``) and by its start with ``-S`` (what the shims run), measured in the same rounds.
The system ``python3`` is timed too, for reference only: the hooks never run it when a venv exists.
``--smoke``: 2 rounds over 30 notes (a few seconds; the CI test).

Everything happens in a temp HOME / memory root / project (a git checkout with rules, a
MEMORY.md, a schema index, and ``--notes`` session notes — 10,000 by default, the last
three of the bench project — with the recent-work index the summarizer keeps). Cases run interleaved, one of each per round, so load from other
processes hits all of them alike; the table gives p50 / p90 / min in milliseconds. With
``--compare DIR`` (e.g. ``git worktree add --detach /tmp/old <rev>``) every hook case also runs
against that checkout's shims in the same rounds, each side in its own temp tree, and the table
gives both medians and their ratio.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOOKS = os.path.join(REPO, "hooks")

VENV_BARE = "hook python -c pass (the baseline)"
VENV_S = "hook python -S -c pass (as the shims start it)"
CLEAN_PY = "".join(f"def f{i}(items=None):\n    return [x * {i} for x in (items or [])]\n\n\n" for i in range(50))


def payload(event, session, cwd, **fields):
    return json.dumps({"session_id": session, "transcript_path": f"{cwd}/t.jsonl", "cwd": cwd,
                       "hook_event_name": event, **fields}).encode()


class Bench:
    def __init__(self, python: str, tmp: str, hooks_dir: str = HOOKS, notes: int = 10_000):
        self.tmp = tmp
        self.hooks_dir = hooks_dir
        self.home = os.path.join(tmp, "home")
        self.root = os.path.join(self.home, ".claude", "memory")
        self.project = os.path.join(tmp, "work", "shop")
        os.makedirs(os.path.join(self.project, ".git"))
        os.makedirs(os.path.join(self.project, "src", "sub"))
        os.makedirs(os.path.join(self.root, "areas", "projects", "shop"))
        os.makedirs(os.path.join(self.root, "projects", "shared-db"))
        with open(os.path.join(self.root, "areas", "projects", "shop", "rules.md"), "w", encoding="utf-8") as fh:
            fh.write("# shop — rules\n\n## 编码规范\n\n" + "".join(f"- rule {i}: 金额用 Decimal\n" for i in range(40)))
        with open(os.path.join(self.root, "MEMORY.md"), "w", encoding="utf-8") as fh:
            fh.write("# MEMORY\n\n## 避坑经验 (Pitfalls)\n\n" + "".join(f"- pitfall {i}\n" for i in range(60)))
        with open(os.path.join(self.root, "projects", "shared-db", "schema-index.md"), "w") as fh:
            fh.write("# schema\n\n- t_order\n")
        self.py_file = os.path.join(self.project, "src", "calc.py")
        with open(self.py_file, "w") as fh:
            fh.write(CLEAN_PY)
        self.sh_file = os.path.join(self.project, "deploy.sh")
        with open(self.sh_file, "w") as fh:
            fh.write("#!/bin/bash\nset -euo pipefail\n" + "".join(f'echo "step {i}"\n' for i in range(80)))
        self.notes = notes
        self._write_notes(notes)
        noop = os.path.join(tmp, "noop-summary.py")
        with open(noop, "w") as fh:
            fh.write("pass\n")
        self.python = python
        self.env = {k: v for k, v in os.environ.items() if not k.startswith(("CODE_MEMORY_", "CLAUDE_"))}
        self.env.update({"HOME": self.home, "CODE_MEMORY_ROOT": self.root, "TMPDIR": tmp,
                         "CODE_MEMORY_PYTHON": python, "CODE_MEMORY_HOOKS__SUMMARIZER": noop})
        self.n = 0

    def _write_notes(self, count: int) -> None:
        """``count`` session notes (the last three of project "shop", the others of 50 other
        projects, a few days apart) and the recent-work index built from them, as the summarizer
        leaves it. A checkout without the index (``--compare`` with an older one) ignores both."""
        sessions = os.path.join(self.root, "sessions")
        os.makedirs(sessions, exist_ok=True)
        now = time.time()
        for i in range(count):
            project = "shop" if i >= count - 3 else f"p{i % 50}"
            ended = time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(now - (count - i) * 600))
            with open(os.path.join(sessions, f"s{i:05d}.md"), "w", encoding="utf-8") as fh:
                fh.write(f"# 会话摘要: s{i:05d}\n\n- **项目**: {project}\n- **时间**: {ended[:16].replace('T', ' ')} (最后更新)\n"
                         f"- **会话结束**: {ended}\n\n---\n\n1. **主题**: 第 {i} 次会话：重构订单导出\n"
                         "2. **关键知识点**:\n   - 导出改为流式\n3. **涉及文件**: src/export.py, tests/test_export.py\n"
                         "4. **决策记录**: 用 csv.writer 而不是 pandas\n5. **待办**:\n   - [ ] 给大文件导出加进度条\n")
        if count:
            sys.path.insert(0, os.path.join(REPO, "scripts"))
            from code_memory.memory import recent
            from code_memory.paths import MemoryPaths
            from code_memory.summary.todos import same_todo
            recent.rebuild(MemoryPaths(self.root), same_todo)

    def shim(self, name: str, data: bytes) -> float:
        return self.command(["sh", "-c", f'"{self.hooks_dir}/{name}.sh"'], data)

    def command(self, argv: list, data: bytes | None = None) -> float:
        """Wall milliseconds of one run; its CPU milliseconds (user + system of the process and
        its children: what the load of other processes does not inflate as much) go to ``self.cpu``."""
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        subprocess.run(argv, input=data, stdout=subprocess.DEVNULL, env=self.env, check=False)
        wall = (time.perf_counter() - started) * 1000
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        self.cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
        return wall

    def session(self) -> str:
        self.n += 1
        return f"bench-{os.getpid()}-{self.n}"

    def read(self, session, path):
        return payload("PreToolUse", session, self.project, tool_name="Read", tool_input={"file_path": path})

    def edit(self, session, path, event="PreToolUse"):
        return payload(event, session, self.project, tool_name="Edit",
                       tool_input={"file_path": path, "old_string": "a", "new_string": "b"},
                       **({"tool_response": {"filePath": path, "structuredPatch": [
                           {"oldStart": 2, "oldLines": 1, "newStart": 2, "newLines": 1,
                            "lines": ["-    return []", "+    return [x * 0 for x in (items or [])]"]}]}}
                          if event == "PostToolUse" else {}))

    def stop(self, session, message, stop_hook_active=False):
        return payload("Stop", session, self.project, stop_hook_active=stop_hook_active,
                       last_assistant_message=message, background_tasks=[], session_crons=[])

    def cases(self):
        """(name, callable) in table order; each call measures one run on fresh state."""
        warm = self.session()
        self.shim("rules-injector", self.read(warm, self.py_file))  # loads the rules for `warm`
        other_dirs = iter(range(10 ** 6))

        def later_read_new_dir():
            d = os.path.join(self.project, "src", f"d{next(other_dirs)}")
            return self.shim("rules-injector", self.read(warm, os.path.join(d, "x.py")))

        return [
            ("bash -c : (reference)", lambda: self.command(["bash", "-c", ":"])),
            ("system python3 -c pass (reference only: not the hooks' interpreter)",
             lambda: self.command(["python3", "-c", "pass"])),
            (VENV_BARE, lambda: self.command([self.python, "-c", "pass"])),
            (VENV_S, lambda: self.command([self.python, "-S", "-c", "pass"])),
            ("PreToolUse Read, first in project (rules injected)",
             lambda: self.shim("rules-injector", self.read(self.session(), self.py_file))),
            ("PreToolUse Read, later (silent, shell fast path)",
             lambda: self.shim("rules-injector", self.read(warm, self.py_file))),
            ("PreToolUse Read, later, new directory (silent, Python)", later_read_new_dir),
            ("PreToolUse Edit, gate allows (shell fast path)",
             lambda: self.shim("rules-gate", self.edit(warm, self.py_file))),
            ("PreToolUse Edit, gate denies (Python)",
             lambda: self.shim("rules-gate", self.edit(self.session(), self.py_file))),
            ("PostToolUse daily note (extract-memory)",
             lambda: self.shim("extract-memory", self.edit(warm, self.py_file, "PostToolUse"))),
            ("PostToolUse lint, Python file, clean (avoidance-gate)",
             lambda: self.shim("avoidance-gate", self.edit(warm, self.py_file, "PostToolUse"))),
            ("PostToolUse lint, shell file, clean (+ bash -n)",
             lambda: self.shim("avoidance-gate", payload("PostToolUse", warm, self.project, tool_name="Write",
                                                         tool_input={"file_path": self.sh_file}))),
            ("SubagentStart, schema already injected (shell fast path)",
             lambda: self.shim("schema-injector", payload("SubagentStart", warm, self.project, agent_type="Explore"))),
            (f"SessionStart ({self.notes:,} session notes: recent work + MEMORY.md + routing)",
             lambda: self.shim("session-start", payload("SessionStart", self.session(), self.project, source="startup"))),
            ("Stop, Claude already continuing for a Stop hook (silent, shell fast path)",
             lambda: self.shim("todo-check", self.stop(warm, "大文件导出现在有进度条了", stop_hook_active=True))),
            ("Stop, a turn about nothing open (silent, Python: todo-check)",
             lambda: self.shim("todo-check", self.stop(warm, "Renamed a variable in utils; lint is clean."))),
            ("Stop, a turn about an open to-do (todo-check asks)",
             lambda: self.shim("todo-check", self.stop(self.session(), "大文件导出现在有进度条了，测试通过。"))),
            ("SessionEnd (pending snapshot + detached summarizer)",
             lambda: self.shim("session-summary", payload("SessionEnd", self.session(), self.project, reason="other"))),
        ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--python", default=os.path.join(REPO, ".venv-test", "bin", "python"),
                        help="the python the hooks run (default: .venv-test)")
    parser.add_argument("--json", help="also write the numbers here")
    parser.add_argument("--notes", type=int, default=10_000, help="session notes in the memory root (default 10,000)")
    parser.add_argument("--compare", metavar="DIR", help="another checkout whose hooks run in the same rounds")
    parser.add_argument("--smoke", action="store_true", help="2 rounds over 30 notes (a few seconds)")
    parser.add_argument("--only", metavar="TEXT", help="only the hook cases whose name holds TEXT (e.g. SessionStart); "
                                                       "the interpreter baselines always run")
    args = parser.parse_args()
    if args.smoke:
        args.rounds, args.notes = 2, 30
    if args.compare:
        return compare(args)
    # what install.sh does: hooks should never pay for compiling the package (PYTHONDONTWRITEBYTECODE
    # or a read-only checkout would make every hook compile it again)
    import compileall
    compileall.compile_dir(os.path.join(REPO, "scripts", "code_memory"), quiet=1)
    tmp = tempfile.mkdtemp(prefix="bench-hooks-")
    try:
        bench = Bench(os.path.abspath(args.python), tmp, notes=args.notes)
        cases = [c for c in bench.cases() if not args.only or args.only in c[0] or "python" in c[0] or "bash -c" in c[0]]
        bench.shim("schema-injector", payload("SubagentStart", "bench-warm-schema", bench.project, agent_type="Explore"))
        for _name, run in cases:  # warm the page cache and .pyc files
            run()
        samples = {name: [] for name, _ in cases}
        cpu = {name: [] for name, _ in cases}
        load_before = os.getloadavg()[0]
        for _ in range(args.rounds):
            for name, run in cases:
                samples[name].append(run())
                cpu[name].append(bench.cpu)
        load_after = os.getloadavg()[0]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    rows = []
    for name, values in samples.items():
        values.sort()
        rows.append({"case": name, "p50": statistics.median(values), "p90": values[math.ceil(len(values) * 0.9) - 1],
                     "min": values[0], "runs": len(values), "cpu_p50": statistics.median(cpu[name])})
    bare = next(r["p50"] for r in rows if r["case"] == VENV_BARE)
    bare_s = next(r["p50"] for r in rows if r["case"] == VENV_S)
    for r in rows:
        r["ratio"], r["ratio_s"] = r["p50"] / bare, r["p50"] / bare_s
    print(f"rounds: {args.rounds}; load average {load_before:.1f} → {load_after:.1f} "
          f"on {os.cpu_count()} cores; hook python: {args.python}\n")
    print("| case | p50 ms | p90 ms | min ms | p50 / hook python | p50 / hook python -S | CPU p50 ms |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['case']} | {r['p50']:.1f} | {r['p90']:.1f} | {r['min']:.1f} | {r['ratio']:.2f} | "
              f"{r['ratio_s']:.2f} | {r['cpu_p50']:.1f} |")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"rounds": args.rounds, "load": [load_before, load_after], "python": args.python,
                       "baseline": {"python -c pass": bare, "python -S -c pass": bare_s}, "rows": rows}, fh, indent=2)
    return 0


def compare(args) -> int:
    """The hook cases of this checkout and of ``args.compare``, interleaved round by round."""
    import compileall

    other = os.path.abspath(args.compare)
    for checkout in (REPO, other):
        compileall.compile_dir(os.path.join(checkout, "scripts", "code_memory"), quiet=1)
    tmp = tempfile.mkdtemp(prefix="bench-hooks-compare-")
    sides, benches = {}, {}
    try:
        for label, checkout in (("old", other), ("new", REPO)):
            side_tmp = os.path.join(tmp, label)
            os.makedirs(side_tmp)
            bench = benches[label] = Bench(os.path.abspath(args.python), side_tmp, os.path.join(checkout, "hooks"),
                                           notes=args.notes)
            bench.shim("schema-injector", payload("SubagentStart", "bench-warm-schema", bench.project,
                                                  agent_type="Explore"))
            sides[label] = [(name, run) for name, run in bench.cases() if "python" not in name and "bash -c" not in name
                            and (not args.only or args.only in name)]
        for cases in sides.values():
            for _name, run in cases:
                run()
        samples = {(label, name): [] for label, cases in sides.items() for name, _ in cases}
        cpu = {key: [] for key in samples}
        for _ in range(args.rounds):
            for label, cases in sides.items():
                for name, run in cases:
                    samples[(label, name)].append(run())
                    cpu[(label, name)].append(benches[label].cpu)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"rounds: {args.rounds}; old: {other}; new: {REPO}; hook python: {args.python}; "
          f"load average {os.getloadavg()[0]:.1f}\n")
    print("| case | old p50 ms | new p50 ms | new / old | old CPU p50 ms | new CPU p50 ms | new / old CPU |")
    print("|---|---|---|---|---|---|---|")
    rows = []
    for name, _run in sides["new"]:
        old, new = statistics.median(samples[("old", name)]), statistics.median(samples[("new", name)])
        old_cpu, new_cpu = statistics.median(cpu[("old", name)]), statistics.median(cpu[("new", name)])
        rows.append({"case": name, "old_p50": old, "new_p50": new, "ratio": new / old, "old_cpu_p50": old_cpu,
                     "new_cpu_p50": new_cpu})
        print(f"| {name} | {old:.1f} | {new:.1f} | {new / old:.2f} | {old_cpu:.1f} | {new_cpu:.1f} | "
              f"{new_cpu / old_cpu if old_cpu else float('nan'):.2f} |")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"rounds": args.rounds, "old": other, "rows": rows}, fh, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
