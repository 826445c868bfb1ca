#!/usr/bin/env python3
"""Two checkouts of code-memory, the same search corpus, alternating runs: did a change make the
per-process search paths faster or slower?

  python bench/compare_search.py --old DIR [--new DIR] [--runs 25] [--smoke]

``DIR`` is a checkout (``git worktree add --detach /tmp/old <rev>``); ``--new`` defaults to this
one. The corpus is bench_search.py's (run that first: it builds ``bench/out/search``); each side
gets its own copy of the memory root, both packages are byte-compiled first, and every round runs
each measurement once per side, so machine load falls on both alike. Reports medians in ms.
Searches run in the default scope (global memory plus the caller's project, where the whole corpus
is), as a session runs them; ``--scope all`` would need a ``y`` on a terminal.

``--memtool-items N`` adds a memtool database of N synthetic items (bench_memtool.py's) to the
corpus, the same on both sides: the search also searches memtool's items.

``--smoke`` compares this checkout with itself on a 60-chunk corpus it builds in a temp directory
(bench_search.py's, from the same data), one run per case: a few seconds, for the CI test.

``--instructions`` runs each case once per side under ``valgrind --tool=callgrind`` instead and
reports the instructions executed: a count that machine load does not change (use it when other
work shares the machine; needs Debian's valgrind).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASES = (
    ("index, no change", ["index", "--no-vectors"]),
    ("bm25, Chinese query", ["数据库连接池怎么配置", "--mode", "bm25"]),
    ("bm25, English query", ["What did Melanie paint recently?", "--mode", "bm25"]),
)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--old", help="the checkout to compare against (required unless --smoke)")
    ap.add_argument("--new", default=REPO, help="the checkout under test (default: this one)")
    ap.add_argument("--runs", type=int, default=25)
    ap.add_argument("--corpus", default=os.path.join(REPO, "bench", "out", "search", "root"))
    ap.add_argument("--out", default=os.path.join(REPO, "bench", "out", "compare"))
    ap.add_argument("--instructions", action="store_true", help="count instructions (callgrind), not time")
    ap.add_argument("--memtool-items", type=int, default=0, help="add a memtool database of N items to the corpus")
    ap.add_argument("--smoke", action="store_true", help="this checkout against itself, a tiny corpus, one run")
    args = ap.parse_args(argv)
    if args.smoke:
        import tempfile

        sys.path.insert(0, os.path.join(REPO, "bench"))
        import bench_search
        import retrieval
        if not os.path.isdir(retrieval.DATA):
            print(f"skipped: bench data not found at {retrieval.DATA}", file=sys.stderr)
            return 0
        args.out = tempfile.mkdtemp(prefix="bench-compare-smoke-")
        args.corpus, args.old, args.runs = os.path.join(args.out, "corpus"), args.old or REPO, 1
        bench_search.build_corpus(args.corpus, 60)
        args.memtool_items = args.memtool_items and 20
    elif not args.old:
        ap.error("--old is required")
    if not os.path.isdir(args.corpus):
        print(f"no corpus at {args.corpus}: run bench/bench_search.py first", file=sys.stderr)
        return 2
    py = sys.executable
    sides = {}
    for name, checkout in (("old", args.old), ("new", args.new)):
        root = os.path.join(args.out, name)
        shutil.rmtree(root, ignore_errors=True)
        shutil.copytree(args.corpus, root)
        if args.memtool_items:
            add_memtool(os.path.join(root, "memtool.db"), args.memtool_items)
        subprocess.run([py, "-m", "compileall", "-q", os.path.join(checkout, "scripts")], check=True)
        sides[name] = (os.path.join(checkout, "scripts", "memory-search.py"),
                       dict(os.environ, CODE_MEMORY_ROOT=root, CODE_MEMORY_EMBEDDING__ENABLED="false"))
        subprocess.run([py, sides[name][0], "index", "--no-vectors"], env=sides[name][1], check=True,
                       capture_output=True)
    try:
        return _measure(args, py, sides)
    finally:
        if args.smoke:
            shutil.rmtree(args.out, ignore_errors=True)


def add_memtool(db_path: str, count: int) -> None:
    """``count`` synthetic memtool items (bench_memtool.py's), the same for every database."""
    import random

    sys.path.insert(0, os.path.join(REPO, "bench"))
    sys.path.insert(0, os.path.join(REPO, "scripts"))
    from bench_memtool import make_content
    from code_memory.memtool.store import MemoryStore
    rng = random.Random(11)
    if os.path.exists(db_path):
        os.unlink(db_path)
    with MemoryStore(db_path) as store:
        for i in range(count):
            store.put(content=make_content(rng), type=("project", "feature", "run")[i % 3], key=f"k{i}",
                      tags=[f"t{i % 20}"])


def _measure(args, py: str, sides: dict) -> int:
    if args.instructions:
        return _instructions(py, sides, args.out)
    times = {(name, case): [] for name in sides for case, _ in CASES}
    for _ in range(args.runs):
        for case, case_args in CASES:
            for name, (script, env) in sides.items():
                start = time.perf_counter()
                proc = subprocess.run([py, script, *case_args], env=env, capture_output=True, cwd=args.out)
                times[(name, case)].append((time.perf_counter() - start) * 1000)
                if proc.returncode != 0:
                    print(f"{name} {case}: exit {proc.returncode}: {proc.stdout[:200]!r}", file=sys.stderr)
                    return 1
    print(f"| case | old p50 ms | new p50 ms | new / old |  ({args.runs} alternating runs)")
    print("|---|---:|---:|---:|")
    for case, _ in CASES:
        old, new = (statistics.median(times[(name, case)]) for name in ("old", "new"))
        print(f"| {case} | {old:.1f} | {new:.1f} | {new / old:.2f} |")
    return 0


def _instructions(py: str, sides: dict, out: str) -> int:
    """Instructions executed by one run of each case per side (callgrind's ``Collected`` total)."""
    import re

    counts = {}
    for case, case_args in CASES:
        for name, (script, env) in sides.items():
            target = os.path.join(out, f"callgrind.{name}.out")
            proc = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={target}", py, script,
                                   *case_args], env=env, capture_output=True, text=True)
            found = re.search(r"Collected : (\d+)", proc.stderr)
            if proc.returncode != 0 or not found:
                print(f"{name} {case}: exit {proc.returncode}: {proc.stderr[-300:]}", file=sys.stderr)
                return 1
            counts[(name, case)] = int(found.group(1))
    print("| case | old instructions (M) | new instructions (M) | new / old |  (callgrind, one run each)")
    print("|---|---:|---:|---:|")
    for case, _ in CASES:
        old, new = counts[("old", case)], counts[("new", case)]
        print(f"| {case} | {old / 1e6:.1f} | {new / 1e6:.1f} | {new / old:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
