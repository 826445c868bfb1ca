#!/usr/bin/env python3
"""Search latency while the embedding model is missing (``auto`` mode, the default), an older
checkout against this one, alternating runs:

* **retry due** — the remembered failure has expired (the old code retried hourly, in the search);
  here every run starts from that state: no failure file, no daemon error;
* **remembered** — the failure is remembered (the searches of the next hour).

  python bench/bench_degraded.py --old DIR [--new DIR] [--runs 10] [--smoke]

``DIR`` is a checkout of the older code (``git archive <rev> scripts | tar -x -C DIR``). The model
is the default hub model, absent from an empty fastembed cache, with ``HF_HUB_OFFLINE=1`` so nothing
is downloaded. Each side has its own small memory root with notes of project ``demo``, searched
from a ``demo`` directory in the default scope, as a session of that project searches (no
``--scope all``, which needs a ``y`` on a terminal). Reports medians and ranges in ms. ``--smoke``: this checkout against itself,
one run (a few seconds; the CI test).
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
QUERY = ["数据库连接池怎么配置"]


def make_root(root: str) -> None:
    os.makedirs(os.path.join(root, "areas", "projects", "demo"), exist_ok=True)
    for i in range(20):
        with open(os.path.join(root, "areas", "projects", "demo", f"note{i}.md"), "w", encoding="utf-8") as fh:
            fh.write(f"# note {i}\n\n## 连接池\n数据库连接池的配置 {i}：最大连接数、超时。\n")


def forget(root: str) -> None:
    """The state of a failure whose hour is over: no failure file, no recent daemon error."""
    for path in glob.glob(os.path.join(root, ".index", "embedding-unavailable-*.json")):
        os.unlink(path)
    for path in glob.glob(f"/tmp/cm-{os.getuid()}/embed-*.sock.error"):
        os.unlink(path)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--old", help="the older checkout (required unless --smoke)")
    ap.add_argument("--new", default=REPO, help="the checkout under test (default: this one)")
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--smoke", action="store_true", help="this checkout against itself, one run")
    args = ap.parse_args(argv)
    if args.smoke:
        args.old, args.runs = args.old or REPO, 1
    elif not args.old:
        ap.error("--old is required")
    work = tempfile.mkdtemp(prefix="cm-bench-degraded-")
    project_dir = os.path.join(work, "demo")      # the project the notes belong to
    os.makedirs(project_dir)
    py = sys.executable
    sides = {}
    for name, checkout in (("old", args.old), ("new", args.new)):
        root = os.path.join(work, name)
        make_root(root)
        subprocess.run([py, "-m", "compileall", "-q", os.path.join(checkout, "scripts")], check=True)
        env = dict(os.environ, CODE_MEMORY_ROOT=root, HF_HUB_OFFLINE="1", HOME=work,
                   FASTEMBED_CACHE_PATH=os.path.join(work, f"empty-cache-{name}"))
        env.pop("CLAUDECODE", None)
        script = os.path.join(checkout, "scripts", "memory-search.py")
        subprocess.run([py, script, "index", "--no-vectors"], env=env, check=True, capture_output=True)
        sides[name] = (script, env, root)
    times = {(name, case): [] for name in sides for case in ("retry due", "remembered")}
    for _ in range(args.runs):
        for case in ("retry due", "remembered"):
            for name, (script, env, root) in sides.items():
                if case == "retry due":
                    forget(root)
                start = time.perf_counter()
                proc = subprocess.run([py, script, *QUERY], env=env, capture_output=True, text=True,
                                      cwd=project_dir)
                times[(name, case)].append((time.perf_counter() - start) * 1000)
                if proc.returncode != 0 or not json.loads(proc.stdout).get("results") or (
                        name == "new" and '"degraded"' not in proc.stdout):
                    print(f"{name}/{case} failed: {proc.stdout[:300]} {proc.stderr[:300]}", file=sys.stderr)
                    return 1
            time.sleep(1.0)     # let detached daemons / background retries finish between rounds
    print(f"{'case':<12} {'old ms':>18} {'new ms':>18}   (median [min–max] of {args.runs})")
    for case in ("retry due", "remembered"):
        cells = []
        for name in ("old", "new"):
            values = times[(name, case)]
            cells.append(f"{statistics.median(values):7.0f} [{min(values):.0f}–{max(values):.0f}]")
        print(f"{case:<12} {cells[0]:>18} {cells[1]:>18}")
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
