#!/usr/bin/env python3
"""Search latency and indexing speed on a 10k-chunk mixed Chinese/English corpus.

  python bench/bench_search.py [--runs 25] [--out bench/out/search] [--no-hybrid] [--fresh] [--smoke]

The corpus is real text from ../shared/bench-data (skipped with a message when absent): all 3,435
LoCoMo dev dialogue turns (English) and 6,565 CMRC 2018 sentences (Chinese Wikipedia), written as
1,000 Markdown notes of 10 ``##`` sections each. Every search runs ``memory-search.py`` as a new
process, the way a user or Claude runs it; the numbers are medians (p50) and p90 over the runs,
with a bare ``python -c pass`` of the same interpreter measured in the same run for comparison.
Hybrid search is measured with the embedding daemon warm (its first start is reported separately).

Searches run in the default scope, the one a session has (global memory plus the caller's project):
the corpus is global memory, so every chunk is searchable without ``--scope all --force``, which
needs a ``y`` on a terminal. A case fails when none of its searches found anything.
``--smoke``: 60 chunks in a temp directory, 2 runs per BM25 case, no vectors (a few seconds; the CI
test).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "tests", "support"))
sys.path.insert(0, os.path.join(REPO, "bench"))

SEARCH = os.path.join(REPO, "scripts", "memory-search.py")
ZH_QUERIES = ["范廷颂是什么时候被任为主教的", "色林错位于哪里", "截尾鹦嘴鱼吃什么", "雅芳河发源于哪里", "光荣公司的总部在哪里",
              "数据库连接池怎么配置", "奥罗克族居住在什么地方", "尼高·高华以什么著称", "升庵桂湖的地址", "天水围河的起源"]
EN_QUERIES = ["When did Caroline go to the LGBTQ support group?", "What did Melanie paint recently?",
              "adoption agencies", "camping trip with the kids", "What is Jon's dance studio called?",
              "retry with exponential backoff", "pottery class", "Where did Gina get her job?",
              "charity race for mental health", "What books does Tim like?"]


def build_corpus(root: str, total: int = 10000) -> int:
    import retrieval

    notes = os.path.join(root, "notes")
    if os.path.isdir(notes):
        return sum(1 for _ in os.scandir(notes))
    os.makedirs(notes)
    with open(os.path.join(retrieval.DATA, "cmrc2018", "cmrc2018_dev.json"), encoding="utf-8") as fh:
        cmrc = json.load(fh)
    zh = []
    for article in cmrc["data"]:
        for para in article["paragraphs"]:
            for s, e in retrieval._sentences(para["context"]):
                zh.append((article["title"], para["context"][s:e].strip()))
    with open(os.path.join(retrieval.DATA, "locomo", "locomo_dev.json"), encoding="utf-8") as fh:
        locomo = json.load(fh)
    en = []
    for sample in locomo:
        conv = sample["conversation"]
        for key, turns in conv.items():
            if key.startswith("session_") and isinstance(turns, list):
                for t in turns:
                    en.append((f"{sample['sample_id']} {key}", f"{t['speaker']}: {t['text']}", t["dia_id"]))
    en = en[:total // 2]
    units = [("zh", z) for z in zh[:total - len(en)]] + [("en", e) for e in en]
    files = 0
    for i in range(0, len(units), 10):
        group = units[i:i + 10]
        title = group[0][1][0]
        lines = [f"# {title}", ""]
        for j, (lang, u) in enumerate(group):
            heading = u[2] if lang == "en" else f"s{j + 1}"
            lines += [f"## {heading}", u[1], ""]
        with open(os.path.join(notes, f"note_{i // 10:04d}.md"), "w", encoding="utf-8") as fh:
            fh.write("\n".join(lines))
        files += 1
    return files


def timed(cmd: list, env: dict, cwd: str | None = None) -> tuple:
    t = time.perf_counter()
    res = subprocess.run(cmd, capture_output=True, env=env, text=True, cwd=cwd)
    return (time.perf_counter() - t) * 1000, res


def stats(ms: list) -> dict:
    ms = sorted(ms)
    return {"p50_ms": round(statistics.median(ms), 1), "p90_ms": round(ms[int(0.9 * (len(ms) - 1))], 1),
            "runs": len(ms)}


def main(argv=None) -> int:
    import retrieval

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=20, help="searches per query set (new process each)")
    ap.add_argument("--out", default=os.path.join(REPO, "bench", "out", "search"))
    ap.add_argument("--no-hybrid", action="store_true")
    ap.add_argument("--fresh", action="store_true", help="rebuild the corpus and index")
    ap.add_argument("--smoke", action="store_true", help="60 chunks, BM25, 2 runs, a temp directory (seconds)")
    args = ap.parse_args(argv)
    if not os.path.isdir(retrieval.DATA):
        print(f"skipped: bench data not found at {retrieval.DATA}", file=sys.stderr)
        return 0
    total = 10000
    if args.smoke:
        import tempfile
        args.out, args.runs, args.fresh, total = tempfile.mkdtemp(prefix="bench-search-smoke-"), 2, True, 60
        args.no_hybrid = True
    root = os.path.join(args.out, "root")
    if args.fresh and os.path.isdir(args.out):
        shutil.rmtree(args.out)
    files = build_corpus(root, total)
    import testmodel
    model_dir = testmodel.assemble(os.path.join(args.out, "model"))
    cfg = {"embedding": {**testmodel.model_config(model_dir), "daemon": True, "daemon_idle_seconds": 600,
                         "daemon_start_wait_seconds": 60}}
    with open(os.path.join(root, "config.json"), "w") as fh:
        json.dump(cfg, fh)
    env = dict(os.environ, CODE_MEMORY_ROOT=root)
    py = sys.executable
    # what install.sh does: byte-compile once, so no run pays for compiling (PYTHONDONTWRITEBYTECODE may be set)
    subprocess.run([py, "-m", "compileall", "-q", os.path.join(REPO, "scripts")], check=True)
    report = {"corpus": {"files": files}, "python": py}

    base = [timed([py, "-c", "pass"], env)[0] for _ in range(args.runs)]
    report["python -c pass"] = stats(base)
    report["python -S -c pass"] = stats([timed([py, "-S", "-c", "pass"], env)[0] for _ in range(args.runs)])

    # full BM25 index (new process; the jieba dictionary cache already exists)
    ms, res = timed([py, SEARCH, "index", "--full", "--no-vectors"], env)
    out = json.loads(res.stdout)
    report["index --full --no-vectors"] = {"wall_ms": round(ms), "refresh_ms": out.get("refresh", {}).get("elapsed_ms"),
                                           "chunks": out["counts"]["chunks"]}
    # no-change reindex
    walls, inner = [], []
    for _ in range(max(5, args.runs // 4)):
        ms, res = timed([py, SEARCH, "index", "--no-vectors"], env)
        walls.append(ms)
        inner.append(json.loads(res.stdout)["refresh"]["elapsed_ms"])
    report["index (no change)"] = {**stats(walls), "refresh_p50_ms": round(statistics.median(inner), 1)}

    def search_runs(queries, mode):
        ms_all, hits = [], []
        for i in range(args.runs):
            q = queries[i % len(queries)]
            ms, res = timed([py, SEARCH, q, "--mode", mode], env, cwd=args.out)
            ans = json.loads(res.stdout)
            assert ans["ok"] and ans["mode_used"] == mode, ans
            ms_all.append(ms)
            hits.append(len(ans["results"]))
        assert any(hits), f"no {mode} search found anything: is the corpus in the searched scope?"
        return {**stats(ms_all), "hits_p50": statistics.median(hits)}

    report["bm25 search, Chinese queries"] = search_runs(ZH_QUERIES, "bm25")
    report["bm25 search, English queries"] = search_runs(EN_QUERIES, "bm25")
    report["bm25 search, all"] = search_runs(ZH_QUERIES + EN_QUERIES, "bm25")

    if not args.no_hybrid:
        t = time.perf_counter()
        res = subprocess.run([py, SEARCH, "index"], capture_output=True, env=env, text=True)
        report["embedding the corpus"] = {"seconds": round(time.perf_counter() - t, 1),
                                          "vectors": json.loads(res.stdout).get("vectors")}
        ms, res = timed([py, SEARCH, "warm up", "--mode", "hybrid"], env, cwd=args.out)
        report["hybrid search, first (starts the daemon)"] = {"wall_ms": round(ms)}
        report["hybrid search, Chinese queries (daemon warm)"] = search_runs(ZH_QUERIES, "hybrid")
        report["hybrid search, English queries (daemon warm)"] = search_runs(EN_QUERIES, "hybrid")
        report["hybrid search, all (daemon warm)"] = search_runs(ZH_QUERIES + EN_QUERIES, "hybrid")
        from code_memory.search.daemon import stop
        from code_memory.search.embed import spec_from_config
        stop(spec_from_config(cfg["embedding"]))
    print(json.dumps(report, ensure_ascii=False, indent=1))
    if args.smoke:
        shutil.rmtree(args.out, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(REPO, "scripts"))
    sys.exit(main())
