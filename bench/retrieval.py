#!/usr/bin/env python3
"""Retrieval quality on real third-party data (../shared/bench-data; never copied into the repo).

  python bench/retrieval.py --set locomo --modes bm25,vector,hybrid
  python bench/retrieval.py --set cmrc --modes bm25
  python bench/retrieval.py --set all            # both, every mode (the BENCHMARKS.md numbers)
  python bench/retrieval.py --smoke              # both sets, BM25, 20 questions, a small corpus, temp dir

LoCoMo: each conversation is its own memory root, one note per session, one ``##`` section per turn
(heading ``D<s>:<t> <speaker>``); scored at turn level (recall@k = fraction of gold turns in the top
k, hit@k, MRR), overall, per category (official mapping: 1 multi-hop, 2 temporal, 3 open-domain,
4 single-hop, 5 adversarial) and excluding category 5.
CMRC 2018 dev: one note per article, one ``##`` section per sentence (split at 。！？); a hit is a
retrieved sentence overlapping an answer span (chunker-independent gold); hit@1/5/10 and MRR.

Queries run in-process through the same ranking code as ``memory-search.py --batch``. Vectors use
the test model assembled from PyPI packages (tests/support/testmodel.py) unless --model-path is given.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import time
from collections import defaultdict

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "scripts"))
sys.path.insert(0, os.path.join(REPO, "tests", "support"))

from code_memory.search.engine import InProcessVectors, SearchOptions, ensure_index, run_query
from code_memory.search.index import Source

DATA = os.environ.get("CODE_MEMORY_BENCH_DATA", os.path.join(os.path.dirname(REPO), "shared", "bench-data"))
if not os.path.isdir(DATA):
    DATA = "/work/shared/bench-data"
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
MONTHS = {m: i for i, m in enumerate(["January", "February", "March", "April", "May", "June", "July", "August",
                                      "September", "October", "November", "December"], 1)}


# ---------------------------------------------------------------------------------------------
# LoCoMo

def _norm_evidence(raw, valid: set) -> list:
    out = []
    for item in raw or []:
        for tok in re.split(r"[;\s]+", str(item)):
            tok = tok.strip()
            if not tok:
                continue
            tok = re.sub(r"^D:(\d+):", r"D\1:", tok)
            m = re.fullmatch(r"D(\d+):(\d+)", tok)
            if not m:
                continue
            tok = f"D{int(m.group(1))}:{int(m.group(2))}"
            if tok in valid:
                out.append(tok)
    return list(dict.fromkeys(out))


def _parse_date(text: str) -> str:
    m = re.match(r"(\d+):(\d+)\s*(am|pm) on (\d+) (\w+),? (\d{4})", text or "")
    if not m:
        return ""
    hour = int(m.group(1)) % 12 + (12 if m.group(3) == "pm" else 0)
    return f"{m.group(6)}-{MONTHS.get(m.group(5), 1):02d}-{int(m.group(4)):02d}T{hour:02d}:{int(m.group(2)):02d}"


def build_locomo(out: str, limit: int | None = None) -> list:  # every conversation is its own root
    """Write one memory root per conversation; return the queries."""
    with open(os.path.join(DATA, "locomo", "locomo_dev.json"), encoding="utf-8") as fh:
        samples = json.load(fh)
    queries = []
    for sample in samples:
        conv_id = sample["sample_id"]
        conv = sample["conversation"]
        root = os.path.join(out, "locomo", conv_id)
        notes = os.path.join(root, "notes")
        os.makedirs(notes, exist_ok=True)
        valid = set()
        n = 1
        while f"session_{n}" in conv or f"session_{n}_date_time" in conv:
            turns = conv.get(f"session_{n}")
            if turns:
                when = conv.get(f"session_{n}_date_time", "")
                lines = ["---", f"conversation: {conv_id}", f"session: {n}", f"date: {_parse_date(when)}",
                         f"participants: [{conv['speaker_a']}, {conv['speaker_b']}]", "---",
                         f"# {conv_id} — session {n} — {when}", ""]
                for turn in turns:
                    valid.add(turn["dia_id"])
                    text = turn["text"]
                    if turn.get("blip_caption"):
                        text += f" [shares a photo: {turn['blip_caption']}]"
                    lines += [f"## {turn['dia_id']} {turn['speaker']}", f"{turn['speaker']}: {text}", ""]
                with open(os.path.join(notes, f"session_{n:02d}.md"), "w", encoding="utf-8") as fh:
                    fh.write("\n".join(lines))
            n += 1
        for i, qa in enumerate(sample["qa"]):
            gold = _norm_evidence(qa.get("evidence"), valid)
            if not gold:
                continue
            queries.append({"qid": f"{conv_id}#{i}", "root": root, "question": qa["question"],
                            "category": qa["category"], "gold": gold})
    return queries


def _turn_of(hit) -> str | None:
    m = re.match(r"(D\d+:\d+)\b", hit.get("heading") or "")
    return m.group(1) if m else None


def score_locomo(queries, results, ks=(1, 5, 10)) -> dict:
    per = defaultdict(lambda: defaultdict(list))
    for q, res in zip(queries, results):
        ranked = []
        for hit in res:
            t = _turn_of(hit)
            if t and t not in ranked:
                ranked.append(t)
        gold = set(q["gold"])
        rec = {}
        for k in ks:
            top = set(ranked[:k])
            rec[f"recall@{k}"] = len(gold & top) / len(gold)
            rec[f"hit@{k}"] = 1.0 if gold & top else 0.0
        first = next((i for i, t in enumerate(ranked, 1) if t in gold), None)
        rec["mrr"] = 1.0 / first if first else 0.0
        for group in ("all", CATEGORIES[q["category"]]) + (("excluding adversarial",) if q["category"] != 5 else ()):
            for key, v in rec.items():
                per[group][key].append(v)
    return {g: {"n": len(m["mrr"]), **{k: round(sum(v) / len(v), 4) for k, v in m.items()}} for g, m in per.items()}


# ---------------------------------------------------------------------------------------------
# CMRC 2018

def _sentences(context: str) -> list:
    spans, start = [], 0
    for m in re.finditer(r"[。！？]+”?", context):
        spans.append((start, m.end()))
        start = m.end()
    if start < len(context):
        spans.append((start, len(context)))
    return [(s, e) for s, e in spans if context[s:e].strip()]


def build_cmrc(out: str, limit: int | None = None) -> list:
    """One note per paragraph; the queries. ``limit``: stop after the paragraphs of that many queries
    (a smaller corpus, for quick checks)."""
    with open(os.path.join(DATA, "cmrc2018", "cmrc2018_dev.json"), encoding="utf-8") as fh:
        data = json.load(fh)
    root = os.path.join(out, "cmrc")
    notes = os.path.join(root, "notes")
    os.makedirs(notes, exist_ok=True)
    queries = []
    for article in data["data"]:
        for para in article["paragraphs"]:
            ctx = para["context"]
            sents = _sentences(ctx)
            name = para["id"]
            lines = [f"# {article['title']}", ""]
            for n, (s, e) in enumerate(sents, 1):
                lines += [f"## s{n}", ctx[s:e].strip(), ""]
            with open(os.path.join(notes, f"{name}.md"), "w", encoding="utf-8") as fh:
                fh.write("\n".join(lines))
            for qa in para["qas"]:
                gold = set()
                for ans in qa["answers"]:
                    text, start = ans["text"], ans["answer_start"]
                    if ctx[start:start + len(text)] != text:
                        start = ctx.find(text)
                        if start < 0:
                            continue
                    for n, (s, e) in enumerate(sents, 1):
                        if s < start + len(text) and start < e:
                            gold.add(f"{name}#s{n}")
                if gold:
                    queries.append({"qid": qa["id"], "root": root, "question": qa["question"], "gold": sorted(gold)})
            if limit and len(queries) >= limit:
                return queries
    return queries


def score_cmrc(queries, results, ks=(1, 5, 10)) -> dict:
    agg = defaultdict(list)
    for q, res in zip(queries, results):
        ranked = []
        for hit in res:
            unit = f"{os.path.splitext(os.path.basename(hit['path']))[0]}#{hit['heading']}"
            if unit not in ranked:
                ranked.append(unit)
        gold = set(q["gold"])
        for k in ks:
            agg[f"hit@{k}"].append(1.0 if gold & set(ranked[:k]) else 0.0)
        first = next((i for i, u in enumerate(ranked, 1) if u in gold), None)
        agg["mrr"].append(1.0 / first if first else 0.0)
    return {"all": {"n": len(agg["mrr"]), **{k: round(sum(v) / len(v), 4) for k, v in agg.items()}}}


# ---------------------------------------------------------------------------------------------

def run(set_name: str, modes: list, out: str, opts: SearchOptions, model_cfg: dict | None, limit: int | None,
        rebuild: bool, corpus_limit: int | None = None) -> dict:
    build = {"locomo": build_locomo, "cmrc": build_cmrc}[set_name]
    if rebuild and os.path.isdir(os.path.join(out, set_name)):
        shutil.rmtree(os.path.join(out, set_name))
    queries = build(out, corpus_limit)
    if limit:
        queries = queries[:limit]
    roots = sorted({q["root"] for q in queries})
    vectors = None
    if model_cfg and any(m != "bm25" for m in modes):
        from code_memory.search.embed import spec_from_config
        vectors = InProcessVectors(spec_from_config(model_cfg))
    handles = {}
    t0 = time.monotonic()
    for root in roots:
        handles[root] = ensure_index(os.path.join(root, ".index", "search.sqlite"), [Source(root)], opts)
        if vectors is not None:
            from code_memory.search.embed import update_vectors
            update_vectors(handles[root].db, vectors.embedder)
    build_s = time.monotonic() - t0
    report = {"set": set_name, "queries": len(queries), "roots": len(roots), "index_seconds": round(build_s, 1)}
    for mode in modes:
        t1 = time.monotonic()
        results = []
        for q in queries:
            ans = run_query(handles[q["root"]].db, q["question"], mode, opts, "all", None, None,
                            vectors if mode != "bm25" else None)
            results.append(ans["results"])
        scorer = score_locomo if set_name == "locomo" else score_cmrc
        report[mode] = scorer(queries, results)
        report[mode]["ms_per_query"] = round((time.monotonic() - t1) * 1000 / max(1, len(queries)), 2)
    return report


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--set", choices=("locomo", "cmrc", "all"), default="all")
    ap.add_argument("--modes", default="bm25,vector,hybrid")
    ap.add_argument("--out", default=os.path.join(REPO, "bench", "out", "retrieval"))
    ap.add_argument("--model-path", help="local ONNX model dir (default: the assembled test model)")
    ap.add_argument("--limit", type=int, help="only the first N queries (quick checks)")
    ap.add_argument("--rebuild", action="store_true", help="rebuild the corpora and indexes")
    ap.add_argument("--top-k", type=int, default=10)
    ap.add_argument("--param", action="append", default=[], help="SearchOptions override, e.g. vector_weight=0.3")
    ap.add_argument("--corpus-limit", type=int, help="CMRC: write only the articles of the first N questions")
    ap.add_argument("--smoke", action="store_true", help="both sets, bm25, 20 questions each, in a temp dir")
    args = ap.parse_args(argv)
    if not os.path.isdir(DATA):
        print(f"skipped: bench data not found at {DATA}", file=sys.stderr)
        return 0
    if args.smoke:
        import tempfile
        with tempfile.TemporaryDirectory(prefix="bench-retrieval-smoke-") as out:
            return main(["--set", "all", "--modes", "bm25", "--limit", "20", "--corpus-limit", "20", "--out", out])
    opts = SearchOptions(top_k=args.top_k)
    for p in args.param:
        k, v = p.split("=", 1)
        setattr(opts, k, type(getattr(opts, k))(v))
    modes = args.modes.split(",")
    model_cfg = None
    if any(m != "bm25" for m in modes):
        import testmodel
        model_dir = args.model_path or testmodel.assemble(os.path.join(args.out, "model-minilm-int8"))
        model_cfg = testmodel.model_config(model_dir)
    sets = ["locomo", "cmrc"] if args.set == "all" else [args.set]
    for s in sets:
        report = run(s, modes, args.out, opts, model_cfg, args.limit, args.rebuild, args.corpus_limit)
        print(json.dumps(report, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
