#!/usr/bin/env python3
"""Redaction: recall on the secret corpus, false positives on real text, and cost per call.

  python bench/bench_redact.py                 # everything (the BENCHMARKS.md numbers)
  python bench/bench_redact.py --show 40       # also print the changed units, to review by eye
  python bench/bench_redact.py --smoke         # 200 units per corpus, 10 KB worst cases (CI)

Recall: every shape of tests/support/secrets_corpus.py in every surrounding (the secret part must
be gone). False positives: units of ordinary text that redaction changed — lines of this
repository's code (scripts/, bench/) and docs (*.md, the templates), the design documents in
../shared/specs (Chinese), every LoCoMo dialogue turn and every CMRC 2018 paragraph
(../shared/bench-data, read in place). tests/, redact.py and this file are left out: they spell
out secret shapes on purpose.
Cost: median µs per call for typical inputs (a hook-sized line, a code chunk, a note), throughput
over the whole real-text corpus, worst cases built to make regexes backtrack, and the import.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import statistics
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "scripts"))
sys.path.insert(0, os.path.join(REPO, "tests"))

from code_memory.redact import find_secrets, redact  # noqa: E402
from support.secrets_corpus import SHAPES, cases  # noqa: E402

# files that spell out secret shapes on purpose (the redactor and this bench)
SECRET_SHAPE_FILES = {"redact.py", "bench_redact.py"}
SHARED = os.path.join(os.path.dirname(REPO), "shared")
if not os.path.isdir(SHARED):
    SHARED = "/work/shared"


def corpora(limit: int | None = None) -> dict:
    """{name: [units of text]} (the first ``limit`` units of each with a limit)."""
    out = {"repo code (lines)": [], "repo docs (lines)": [], "design docs zh (lines)": [],
           "LoCoMo turns": [], "CMRC 2018 paragraphs": []}
    for pattern in ("scripts/**/*.py", "bench/*.py", "hooks/*.sh", "*.sh"):
        for path in sorted(glob.glob(os.path.join(REPO, pattern), recursive=True)):
            if os.path.basename(path) in SECRET_SHAPE_FILES:
                continue
            with open(path, encoding="utf-8") as fh:
                out["repo code (lines)"].extend(line for line in fh.read().splitlines() if line.strip())
    for pattern in ("*.md", "scripts/code_memory/templates/**/*.md"):
        for path in sorted(glob.glob(os.path.join(REPO, pattern), recursive=True)):
            with open(path, encoding="utf-8") as fh:
                out["repo docs (lines)"].extend(line for line in fh.read().splitlines() if line.strip())
    for path in sorted(glob.glob(os.path.join(SHARED, "specs", "*"))):
        with open(path, encoding="utf-8", errors="replace") as fh:
            out["design docs zh (lines)"].extend(line for line in fh.read().splitlines() if line.strip())
    with open(os.path.join(SHARED, "bench-data", "locomo", "locomo_dev.json"), encoding="utf-8") as fh:
        for sample in json.load(fh):
            conv = sample["conversation"]
            for key, turns in conv.items():
                if key.startswith("session_") and isinstance(turns, list):
                    out["LoCoMo turns"].extend(t["text"] for t in turns)
    with open(os.path.join(SHARED, "bench-data", "cmrc2018", "cmrc2018_dev.json"), encoding="utf-8") as fh:
        for article in json.load(fh)["data"]:
            out["CMRC 2018 paragraphs"].extend(p["context"] for p in article["paragraphs"])
    return {name: units[:limit] for name, units in out.items()} if limit else out


def recall() -> dict:
    leaks = [cid for cid, text, value in cases() if value in redact(text)]
    return {"shapes": len(SHAPES), "cases": len(cases()), "leaked": len(leaks), "leaks": leaks[:20]}


def false_positives(show: int, limit: int | None = None) -> list:
    rows = []
    shown = 0
    for name, units in corpora(limit).items():
        changed = []
        for unit in units:
            if redact(unit) != unit:
                changed.append(unit)
        kinds: dict = {}
        for unit in changed:
            for kind in find_secrets(unit):
                kinds[kind] = kinds.get(kind, 0) + 1
        chars = sum(len(u) for u in units)
        rows.append({"corpus": name, "units": len(units), "chars": chars, "changed": len(changed),
                     "rate": len(changed) / max(len(units), 1), "kinds": kinds})
        for unit in changed:
            if shown < show:
                print(f"  [{name}] {unit[:160]!r}\n      -> {redact(unit)[:160]!r}")
                shown += 1
    return rows


def _median_us(fn, arg, runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn(arg)
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e6


def costs(limit: int | None = None, worst_bytes: int = 1_000_000, runs: int = 200) -> dict:
    code = open(os.path.join(REPO, "scripts", "code_memory", "kv", "write.py"), encoding="utf-8").read()
    note = open(os.path.join(REPO, "README.md"), encoding="utf-8").read()[:100_000]
    line = "- 14:03 [payments] src/gateway/retry.py: fixed the timeout by retrying with backoff (3 tries)"
    inputs = {"hook-sized line (95 B)": line, "code chunk (2 KB)": code[:2000], "source file (" + f"{len(code) // 1024} KB)": code,
              "note (100 KB of README)": note}
    out = {name: round(_median_us(redact, text, runs if len(text) < 10_000 else max(1, runs // 10)), 1)
           for name, text in inputs.items()}
    units = [u for us in corpora(limit).values() for u in us]
    total = sum(len(u.encode("utf-8")) for u in units)
    t = time.perf_counter()
    for u in units:
        redact(u)
    elapsed = time.perf_counter() - t
    out["throughput over the real-text corpus (MB/s)"] = round(total / elapsed / 1e6, 2)
    worst = {"'a'": "a", "'password=' repeated": "password=", "'key: ' repeated": "key: ", "base64": "Ab3+",
             "'-----BEGIN PRIVATE KEY-----' without END": None, "'<private>' without close": None,
             "'mysql -p' lines": "mysql -u root -p\n"}
    size = f"{worst_bytes / 1e6:g} MB" if worst_bytes >= 100_000 else f"{worst_bytes // 1000} KB"
    for name, unit in list(worst.items()):
        if name.startswith("'-----BEGIN"):
            text = "-----BEGIN PRIVATE KEY-----\n" + "A" * worst_bytes
        elif name.startswith("'<private>'"):
            text = "<private>" + "x " * (worst_bytes // 2)
        else:
            text = unit * (worst_bytes // len(unit))
        worst[f"{size} of {name}"] = text
        del worst[name]
    for name, text in worst.items():
        t = time.perf_counter()
        redact(text)
        out["worst case: " + name + " (ms)"] = round((time.perf_counter() - t) * 1000, 1)
    cmd = [sys.executable, "-c", "import time; t=time.perf_counter(); import code_memory.redact as r; r.redact('x=1 token=abc'); "
           "print((time.perf_counter()-t)*1000)"]
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "scripts"))
    runs = [float(subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout)
            for _ in range(7 if limit is None else 1)]
    out["import + first call in a fresh process (ms)"] = round(statistics.median(runs), 1)
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--show", type=int, default=0, help="print this many changed units")
    parser.add_argument("--smoke", action="store_true", help="200 units per corpus, 10 KB worst cases (seconds)")
    args = parser.parse_args(argv)
    if not os.path.isdir(os.path.join(SHARED, "bench-data")):
        print(f"skipped: bench data not found at {os.path.join(SHARED, 'bench-data')}", file=sys.stderr)
        return 0
    limit = 200 if args.smoke else None
    print(json.dumps({"recall": recall()}, ensure_ascii=False, indent=1))
    rows = false_positives(args.show, limit)
    for r in rows:
        print(f"{r['corpus']:<26} units {r['units']:>7}  chars {r['chars']:>9}  changed {r['changed']:>4}"
              f"  rate {r['rate'] * 100:.3f}%  {r['kinds']}")
    all_units = sum(r["units"] for r in rows)
    all_changed = sum(r["changed"] for r in rows)
    print(f"{'all':<26} units {all_units:>7}  changed {all_changed:>4}  rate {all_changed / all_units * 100:.3f}%")
    cost = costs(limit, 10_000, 5) if args.smoke else costs()
    print(json.dumps({"cost": cost}, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
