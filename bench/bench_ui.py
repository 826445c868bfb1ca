#!/usr/bin/env python3
"""Memory browser speed: the server time of every page with 10,000 session notes and 10,000
memtool items (issue 15: every page ≤ 300 ms).

    python bench/bench_ui.py [--notes 10000] [--items 10000] [--rounds 15] [--home DIR] [--json]
                             [--pythonpath DIR] [--smoke]

The memory root is made by the real writers (tests/support/ui_data.py: three summarized sessions,
rules, pitfalls, facts, proposals, feedback events, then the real note copied to N notes and N
memtool items put through the store). The real `code-memory ui` serves it on 127.0.0.1; each page
is requested `--rounds` times after one warm-up request and the server's own time is read from
its `Server-Timing` header (what the page costs the server, without the HTTP client). The first
(cold) request of each page is reported too: the Timeline's and Effectiveness's first answers
read every note once, which the server does in the background at start. Then a session ends while
the browser is open — a new note is written — and the pages that depend on the notes are timed
again (`after a new note`), once per new note.

``--pythonpath DIR`` serves another checkout's code (its ``scripts/``) from the same root, so two
versions are timed on the same data (the baseline of a change); ``--smoke`` is a few seconds on
20 notes and 20 items.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "tests"))
sys.path.insert(0, os.path.join(REPO, "scripts"))

import httpx  # noqa: E402

from support.ui_server import UiServer, build_root, environment  # noqa: E402

PAGES = ["/search?q=连接池", "/search?q=flaky+checkout", "/timeline", "/timeline?project=beta&page=3",
         "/session/{bulk}", "/daily/{day}", "/file?path=sessions/{bulk}.md", "/area/projects/alpha",
         "/effectiveness", "/map", "/map?topic=redis", "/review", "/review/{kv}", "/review/{rule}",
         "/api/search?q=redis+pool&source=memtool", "/api/timeline"]


CHANGED_PAGES = ["/timeline", "/effectiveness"]


def server_ms(response) -> float:
    return float(response.headers["server-timing"].split("dur=")[1])


def page_names(client, root: str) -> dict:
    """The ids the pages name: a copied session note (bulk-04321 with 10,000), the newest daily
    note, the oldest pending kv and rule proposals."""
    bulk = sorted(n[:-3] for n in os.listdir(os.path.join(root, "sessions")) if n.startswith("bulk-"))
    oldest = {p["kind"]: p["id"] for p in reversed(client.get("/api/review").json()["proposals"])}
    return {"bulk": "bulk-04321" if "bulk-04321" in bulk else bulk[len(bulk) // 2],
            "day": max(os.listdir(os.path.join(root, "daily")))[:-3], "kv": oldest["kv"], "rule": oldest["rule"]}


def memtool_rows(root: str) -> int:
    """The memtool items really stored (what the pages read), not the puts made."""
    import sqlite3
    with sqlite3.connect(os.path.join(root, "memtool.db")) as conn:
        return conn.execute("SELECT count(*) FROM memory_items").fetchone()[0]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--notes", type=int, default=10000)
    ap.add_argument("--items", type=int, default=10000)
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--home", help="reuse (or make) the populated HOME here")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--pythonpath", help="serve the code_memory package found in DIR (another checkout's scripts/)")
    ap.add_argument("--smoke", action="store_true", help="20 notes, 20 memtool items, 2 rounds")
    args = ap.parse_args(argv)
    if args.smoke:
        args.notes, args.items, args.rounds = 20, 20, 2
    home = args.home or tempfile.mkdtemp(prefix="bench-ui-")
    env = environment(home)
    if args.pythonpath:
        env["PYTHONPATH"] = os.path.abspath(args.pythonpath)
    made_at = time.perf_counter()
    if not os.path.isdir(os.path.join(env["CODE_MEMORY_ROOT"], "sessions")):
        build_root(home, memtool_items=args.items, extra_notes=args.notes)
    build_s = time.perf_counter() - made_at
    notes = len(os.listdir(os.path.join(env["CODE_MEMORY_ROOT"], "sessions")))
    items = memtool_rows(env["CODE_MEMORY_ROOT"])
    rows = []
    with UiServer(env) as ui:
        if not ui.answer_json.get("ok"):
            print(ui.first_line, ui.stderr(), file=sys.stderr)
            return 1
        started = time.perf_counter()
        with httpx.Client(base_url=ui.base, cookies=ui.cookie, timeout=300) as client:
            names = page_names(client, env["CODE_MEMORY_ROOT"])
            pages = [page.format(**names) for page in PAGES]
            cold = {}
            for page in pages:
                r = client.get(page)
                assert r.status_code == 200, (page, r.status_code, r.text[:300])
                cold[page] = server_ms(r)
            first_pass_s = time.perf_counter() - started
            for page in pages:
                samples = []
                for _ in range(args.rounds):
                    r = client.get(page)
                    samples.append(server_ms(r))
                samples.sort()
                rows.append({"page": page, "cold_ms": round(cold[page], 1),
                             "median_ms": round(statistics.median(samples), 1),
                             "p95_ms": round(samples[max(0, int(len(samples) * 0.95) - 1)], 1),
                             "max_ms": round(samples[-1], 1)})
            # a session ends while the browser is open: a new note, then the pages that depend on notes
            sessions = os.path.join(env["CODE_MEMORY_ROOT"], "sessions")
            template = open(os.path.join(sessions, "s-zh-1.md"), encoding="utf-8").read()
            changed: dict = {page: [] for page in CHANGED_PAGES}
            for i in range(args.rounds):
                with open(os.path.join(sessions, f"new-{i:03d}.md"), "w", encoding="utf-8") as fh:
                    fh.write(template.replace("s-zh-1", f"new-{i:03d}"))
                for page in CHANGED_PAGES:
                    changed[page].append(server_ms(client.get(page)))
            for page, samples in changed.items():
                samples.sort()
                rows.append({"page": page + "  (after a new note)", "cold_ms": None,
                             "median_ms": round(statistics.median(samples), 1),
                             "p95_ms": round(samples[max(0, int(len(samples) * 0.95) - 1)], 1),
                             "max_ms": round(samples[-1], 1)})
                for i in range(args.rounds):
                    path = os.path.join(sessions, f"new-{i:03d}.md")
                    if os.path.exists(path):
                        os.remove(path)
    result = {"notes": notes, "memtool_items": items, "rounds": args.rounds, "build_s": round(build_s, 1),
              "first_pass_s": round(first_pass_s, 2), "pages": rows,
              "worst_median_ms": max(r["median_ms"] for r in rows), "worst_p95_ms": max(r["p95_ms"] for r in rows)}
    if args.json:
        print(json.dumps(result, ensure_ascii=False, indent=2))
    else:
        print(f"{notes} session notes, {items} memtool items, {args.rounds} rounds per page")
        print(f"{'page':<44} {'cold':>8} {'median':>8} {'p95':>8} {'max':>8}")
        for r in rows:
            cold = "" if r["cold_ms"] is None else r["cold_ms"]
            print(f"{r['page']:<44} {cold:>8} {r['median_ms']:>8} {r['p95_ms']:>8} {r['max_ms']:>8}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
