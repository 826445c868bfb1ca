#!/usr/bin/env python3
"""Prompt-time recall: the relevance gate's curves, measured (BENCHMARKS.md § Recall).

  python bench/bench_recall.py                  # the curves on the tuning sets, the rule's thresholds
  python bench/bench_recall.py --compare        # + other relevance signals, one threshold vs two by kind
  python bench/bench_recall.py --smoke          # a few seconds on a slice of each
  python bench/bench_recall.py --latency 10000  # instead: the hooks as registered, 10,000 notes
  python bench/bench_recall.py --heldout        # instead: the held-out set through the registered hook

Everything goes through the function the UserPromptSubmit hook calls
(code_memory.search.recall: the one search over every store, BM25, the gate, the lines, in the
hook's budget: ``recall.max_chars`` less its header), and each
set is measured once; the gate is then applied at every pair of thresholds (``recall.threshold``
for questions that point at nothing, ``recall.threshold_work`` for work at hand; text/prompt_kind.py).

* **LoCoMo evidence** — LoCoMo's dev split (../shared/bench-data/locomo, never copied here): each
  conversation is one project of one memory root, each of its sessions one session note in the
  product's format (the summarizer's raw-conversation note, a turn per line tagged ``[D<s>:<t>]``).
  Every answerable question (categories 1–4) is a prompt in its conversation's project; it counts
  when an evidence turn is in the injected text. Split by conversation: the fit half
  (FIT_CONVERSATIONS) and the check half.
* **off-topic** — the same questions asked in the *next* conversation's project (another person's
  life): the share that inject anything. The "CSS note for an authentication prompt".
* **routine** — routine coding prompts (recall_tuning/routine_prompts.json, 62 en + 62 zh, the
  first recall engineer's) and harder ones (routine_more.json, 30 + 30: general questions, prompts
  naming the memory's own parts) in a lived-in memory: project ``code-memory`` from this
  repository's history up to PINNED_COMMIT (one session note per commit; every 5th commit a
  memtool item, every 7th a kv key; "never/always" lines as MEMORY.md pitfalls) and project
  ``msgcode`` from the user's Chinese design documents (../shared/specs, one note per section).
  The share that inject anything; every other prompt is in the fit half.
* **needing** — questions memory answers in that lived-in memory (needing_prompts.json, 40 en +
  40 zh), each with evidence strings: the share whose evidence is injected.
* **CMRC** — CMRC 2018 dev (../shared/bench-data/cmrc2018; Chinese): 300 articles as session notes
  of one project, their questions as prompts; an answer span from the question's own article in
  the injected text.
* **repeats** — one simulated session per project with the hook's ledger: items or lines injected
  twice (must be 0).

The rule (``calibrate``), fixed before measuring, on the fit half: ``threshold_work`` = the lowest
grid value at which routine prompts inject ≤ 5 %; then ``threshold`` = the lowest at which routine
prompts and off-topic questions each inject ≤ 5 %. Every set here is a tuning set, written or chosen
alongside the gate: numbers on it are upper bounds. The held-out numbers come from
bench/heldout_recall.py (another engineer's data), through ``--heldout`` only.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import types

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "scripts"))

DATA = os.environ.get("CODE_MEMORY_BENCH_DATA", os.path.join(os.path.dirname(REPO), "shared", "bench-data"))
if not os.path.isdir(DATA):
    DATA = "/work/shared/bench-data"
SPECS = os.path.join(os.path.dirname(DATA), "specs")
TUNING = os.path.join(REPO, "bench", "data", "recall_tuning")
ROUTINE = os.path.join(TUNING, "routine_prompts.json")
ROUTINE_MORE = os.path.join(TUNING, "routine_more.json")
NEEDING = os.path.join(TUNING, "needing_prompts.json")
PINNED_COMMIT = "ba21af9"          # the repository's history up to here is the lived-in memory
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}


def _item_budget(cfg) -> int:
    """The characters the hook gives the items (``recall.max_chars`` less its header)."""
    from code_memory.hooks.prompt_recall import item_budget

    return item_budget(int(cfg.get_path("recall.max_chars")))


def _config(root: str):
    from code_memory.config import load_config

    env = {"CODE_MEMORY_ROOT": root, "HOME": os.environ.get("HOME", "/tmp")}
    return load_config(env=env)


def _note(paths, sid: str, project: str, when: str, summary: dict, extra: str = "") -> None:
    """A session note as the summarizer renders it (summary.distribute)."""
    import datetime as dt

    from code_memory.summary import distribute

    ended = dt.datetime.fromisoformat(when) if when else dt.datetime(2024, 1, 1)
    digest = types.SimpleNamespace(bytes=len(extra) + 2000, lines=40)
    body = distribute.render_summary_body(summary, f"/work/{project}")
    text = distribute.render_note(session_id=sid, project=project, cwd=f"/work/{project}", digest=digest,
                                  mode_line="raw conversation" if extra else "deterministic (no LLM)", body=body,
                                  extra_sections=[extra] if extra else [], now=ended, ended=ended)
    from code_memory.memory.sessions import write_session_note

    write_session_note(paths, sid, text)


# ---------------------------------------------------------------------------------------------
# LoCoMo: one project per conversation

def _evidence(raw, valid: set) -> list:
    out = []
    for item in raw or []:
        for tok in re.split(r"[;\s]+", str(item)):
            tok = re.sub(r"^D:(\d+):", r"D\1:", tok.strip())
            m = re.fullmatch(r"D(\d+):(\d+)", tok)
            if m and f"D{int(m.group(1))}:{int(m.group(2))}" in valid:
                out.append(f"D{int(m.group(1))}:{int(m.group(2))}")
    return list(dict.fromkeys(out))


def _when(text: str) -> str:
    months = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
              "October", "November", "December"]
    m = re.match(r"(\d+):(\d+)\s*(am|pm) on (\d+) (\w+),? (\d{4})", text or "")
    if not m:
        return ""
    hour = int(m.group(1)) % 12 + (12 if m.group(3) == "pm" else 0)
    month = months.index(m.group(5)) + 1 if m.group(5) in months else 1
    return f"{m.group(6)}-{month:02d}-{int(m.group(4)):02d}T{hour:02d}:{int(m.group(2)):02d}:00"


def build_locomo(paths, conversations: int | None) -> list:
    from code_memory.summary import distribute

    with open(os.path.join(DATA, "locomo", "locomo_dev.json"), encoding="utf-8") as fh:
        samples = json.load(fh)[:conversations]
    questions = []
    for sample in samples:
        conv_id, conv = sample["sample_id"], sample["conversation"]
        valid = set()
        n = 1
        while f"session_{n}" in conv or f"session_{n}_date_time" in conv:
            turns = conv.get(f"session_{n}") or []
            if turns:
                lines = []
                for turn in turns:
                    valid.add(turn["dia_id"])
                    text = turn["text"] + (f" [shares a photo: {turn['blip_caption']}]" if turn.get("blip_caption") else "")
                    lines.append(f"[{turn['dia_id']}] {turn['speaker']}: {text}")
                raw = distribute.raw_conversation_section("\n".join(lines), 20000)
                summary = {"topic": f"{turns[0]['speaker']}: {turns[0]['text']}", "key_points": [], "files": [],
                           "decisions": [], "todos": []}
                _note(paths, f"{conv_id}-s{n:02d}", conv_id, _when(conv.get(f"session_{n}_date_time", "")), summary, raw)
            n += 1
        for i, qa in enumerate(sample["qa"]):
            gold = _evidence(qa.get("evidence"), valid)
            if qa.get("category") in CATEGORIES and gold:
                questions.append({"qid": f"{conv_id}#{i}", "project": conv_id, "home": conv_id, "prompt": qa["question"],
                                  "category": CATEGORIES[qa["category"]], "gold": gold})
    return questions


# ---------------------------------------------------------------------------------------------
# the lived-in coding memory

def _git_history(limit: int | None) -> list:
    try:
        raw = subprocess.run(["git", "-C", REPO, "log", "--reverse", "--name-only", "--format=%x00%H%x01%aI%x01%s%x01%b%x02",
                              PINNED_COMMIT], capture_output=True, text=True, check=True).stdout
    except (subprocess.CalledProcessError, OSError):
        return []
    commits = []
    for record in raw.split("\x00")[1:]:
        head, _, files = record.partition("\x02")
        sha, date, subject, body = (head.split("\x01") + ["", "", "", ""])[:4]
        commits.append({"sha": sha, "date": date[:19], "subject": subject.strip(), "body": body.strip(),
                        "files": [f for f in files.split("\n") if f.strip()]})
    return commits[:limit]


def _spec_sections(limit: int | None) -> list:
    out = []
    for name in sorted(os.listdir(SPECS)) if os.path.isdir(SPECS) else []:
        if not name.endswith(".txt"):
            continue
        with open(os.path.join(SPECS, name), encoding="utf-8") as fh:
            text = fh.read()
        heading, body = None, []
        for line in text.split("\n") + ["## END"]:
            if line.startswith("## ") or line.startswith("### "):
                if heading and any(b.strip() for b in body):
                    out.append((heading, [b.strip() for b in body if b.strip() and not b.startswith("```")]))
                heading, body = line.lstrip("#").strip(), []
            else:
                body.append(line)
    return out[:limit]


def build_lived_in(paths, limit: int | None) -> dict:
    """Projects ``code-memory`` (English, from git history) and ``msgcode`` (Chinese, from the
    design documents), with every store used. Returns what was written, by store."""
    from code_memory.kv.write import set_memory
    from code_memory.memtool.store import MemoryStore

    counts = {"notes": 0, "memtool": 0, "kv": 0, "pitfalls": 0}
    store = MemoryStore(os.path.join(paths.root, "memtool.db"))
    pitfalls = []
    for i, c in enumerate(_git_history(limit)):
        body = [ln.strip("-* ").strip() for ln in c["body"].split("\n") if ln.strip()]
        if i % 5 == 4:
            store.put(type="feature", key=c["subject"][:80], content="\n".join([c["subject"]] + body)[:2000],
                      tags=["code-memory"])
            counts["memtool"] += 1
            continue
        if i % 7 == 6:
            set_memory(paths.root, f"/projects/code-memory/history/{c['sha'][:8]}",
                       {"subject": c["subject"], "details": body[:6]}, source={"kind": "user", "name": "bench"})
            counts["kv"] += 1
            continue
        decisions = [b for b in body if re.search(r"\b(because|instead|so that|rather than)\b", b, re.I)][:2]
        pitfalls += [b for b in body if re.match(r"(never|always|do not|don't)\b", b, re.I)]
        summary = {"topic": c["subject"], "key_points": body[:6], "files": c["files"][:12], "decisions": decisions,
                   "todos": []}
        _note(paths, f"cm-{c['sha'][:10]}", "code-memory", c["date"], summary)
        counts["notes"] += 1
    for i, (heading, body) in enumerate(_spec_sections(limit)):
        decisions = [b.lstrip("-* ") for b in body if re.search(r"(决定|采用|改为|不要|必须|禁止)", b)][:2]
        pitfalls += [b.lstrip("-* ") for b in body if b.lstrip("-* ").startswith(("不要", "禁止", "避免"))]
        summary = {"topic": heading, "key_points": [b.lstrip("-* ") for b in body[:8]], "files": [],
                   "decisions": decisions, "todos": []}
        _note(paths, f"mc-{i:03d}", "msgcode", f"2026-0{1 + i % 9}-{10 + i % 18}T10:00:00", summary)
        counts["notes"] += 1
    store.close()
    if pitfalls:
        from code_memory.memory.tree import update_file

        def add(text):
            return text.rstrip("\n") + "\n" + "\n".join(f"- {p[:200]}" for p in pitfalls[:30]) + "\n"
        update_file(paths.memory_md, add)
        counts["pitfalls"] = min(30, len(pitfalls))
    from code_memory.memory.recent import rebuild
    from code_memory.summary.extract import same_todo

    rebuild(paths, same_todo)
    return counts


def _prompt_file(path: str, limit: int | None) -> list:
    """The prompts of a tuning file (``{"en": [...], "zh": [...]}``, each a string or a dict with
    ``prompt``): English ones in project ``code-memory``, Chinese ones in ``msgcode``."""
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    out = []
    for lang, project in (("en", "code-memory"), ("zh", "msgcode")):
        for p in data[lang][:limit]:
            out.append({**(p if isinstance(p, dict) else {"prompt": p}), "lang": lang, "project": project})
    return out


def routine_prompts(limit: int | None) -> list:
    return _prompt_file(ROUTINE, limit)


def needing_prompts(limit: int | None) -> list:
    """Questions memory answers, in the lived-in memory, each with its ``evidence`` strings."""
    return _prompt_file(NEEDING, limit)


def routine_more(limit: int | None) -> list:
    """Harder routine prompts: general questions, instructions naming the memory's own parts."""
    return _prompt_file(ROUTINE_MORE, limit)


# ---------------------------------------------------------------------------------------------
# CMRC 2018: Chinese evidence

def build_cmrc(paths, articles: int | None) -> list:
    """CMRC 2018 dev (../shared/bench-data/cmrc2018, never copied here) as one Chinese project
    (``cmrc``): each article a session note in the product's format — its title the topic, its
    sentences the key points. Every question is a prompt; it counts when an answer span is in the
    injected text of its own article's note."""
    with open(os.path.join(DATA, "cmrc2018", "cmrc2018_dev.json"), encoding="utf-8") as fh:
        data = json.load(fh)["data"][:articles]
    questions = []
    for n, article in enumerate(data):
        para = article["paragraphs"][0]
        sentences = [s.strip() for s in re.split(r"(?<=[。！？])", para["context"]) if s.strip()]
        sid = f"cmrc-{n:04d}"
        summary = {"topic": article["title"], "key_points": sentences, "files": [], "decisions": [], "todos": []}
        _note(paths, sid, "cmrc", f"2025-{1 + n % 12:02d}-{1 + n % 27:02d}T10:00:00", summary)
        for qa in para["qas"]:
            answers = list(dict.fromkeys(a["text"].strip() for a in qa["answers"] if len(a["text"].strip()) >= 2))
            if answers:
                questions.append({"qid": qa["id"], "project": "cmrc", "prompt": qa["question"], "lang": "zh",
                                  "note": f"sessions/{sid}.md", "answers": answers})
    return questions


# ---------------------------------------------------------------------------------------------
# measuring

GRID = [round(x * 0.05, 2) for x in range(0, 21)]
FIT_CONVERSATIONS = ("conv-26", "conv-41", "conv-43")   # LoCoMo: the thresholds are fitted on these
GOAL = 0.05                                             # the share of routine / off-topic prompts allowed to inject


def measure_all(cfg, prompts: list) -> list:
    from code_memory.search.recall import measure

    return [measure(cfg, {"prompt": p["prompt"], "project": p["project"], "mode": "bm25", "refresh": False})
            for p in prompts]


def succeeded(name: str, prompt: dict, items: list) -> bool:
    """Did the injection do its job: an evidence turn (LoCoMo), an evidence string (needing), an
    answer span from the question's own article (CMRC) — or, for the sets that need nothing, did
    it inject anything at all (routine, off-topic)."""
    text = "\n".join(i["text"] for i in items)
    if name == "locomo":
        return any(f"[{g}]" in text for g in prompt["gold"])
    if name == "needing":
        return any(e in text for e in prompt["evidence"])
    if name == "cmrc":
        return any(i["id"] == prompt["note"] and any(a in i["text"] for a in prompt["answers"]) for i in items)
    return bool(items)


def in_fit_half(name: str, prompt: dict, index: int) -> bool:
    """The fit half: LoCoMo's FIT_CONVERSATIONS (and their off-topic questions), every other
    routine prompt; the rest is the check half."""
    if name in ("locomo", "offtopic"):
        return prompt["home"] in FIT_CONVERSATIONS
    return index % 2 == 0


def rescored(measured: list, relevance) -> list:
    """Copies of ``measured`` whose candidates' relevance is ``relevance(signals)``."""
    import copy

    out = []
    for m in measured:
        c = copy.copy(m)
        c.rows = [(round(relevance(sig), 4), k, h, t, sig) for _r, k, h, t, sig in m.rows]
        out.append(c)
    return out


class Evaluator:
    """Every set's outcomes at a pair of thresholds (``ask``, ``work``; text/prompt_kind.py), through
    search/recall.py's own ``build`` — memoised on what the thresholds change: whether the gate
    passes and which candidates join."""

    def __init__(self, sets: dict, roots: dict, budget: int, max_items: int):
        self.sets, self.roots, self.budget, self.max_items = sets, roots, budget, max_items
        self.memo: dict = {}

    def outcomes(self, name: str, ask: float, work: float, measured: list | None = None) -> list:
        from code_memory.search.recall import ASK, ITEM_FLOOR, build

        prompts, default, root = self.sets[name]
        out = []
        for i, (p, m) in enumerate(zip(prompts, measured or default)):
            th = ask if m.kind == ASK else work
            top = max((r[0] for r in m.rows), default=0.0)
            joined = tuple(k for k, r in enumerate(m.rows) if r[0] >= max(th * ITEM_FLOOR, 1e-9)) if top >= th and top > 0 else ()
            key = (name, i, id(m), joined)
            if key not in self.memo:
                self.memo[key] = succeeded(name, p, build(self.roots[root], m, th, self.budget, self.max_items)["items"])
            out.append(self.memo[key])
        return out

    def rates(self, ask: float, work: float, variant: dict | None = None) -> dict:
        variant = variant or {}
        out = {"threshold": ask, "threshold_work": work}
        for name, (prompts, _m, _root) in self.sets.items():
            if not prompts:
                continue
            got = self.outcomes(name, ask, work, variant.get(name))
            halves = [in_fit_half(name, p, i) for i, p in enumerate(prompts)]
            out[name] = _share(got)
            out[name + "_fit"] = _share([g for g, f in zip(got, halves) if f])
            out[name + "_check"] = _share([g for g, f in zip(got, halves) if not f])
            for lang in ("en", "zh"):
                out[f"{name}_{lang}"] = _share([g for g, p in zip(got, prompts) if p.get("lang", "en") == lang])
            if name == "locomo":
                for cat in CATEGORIES.values():
                    out[f"locomo:{cat}"] = _share([g for g, p in zip(got, prompts) if p["category"] == cat])
            if name in ("routine", "routine_more"):
                out[name + "_work"] = _share([g for g, m in zip(got, self.sets[name][1]) if m.kind != "ask"])
        routine = [(g, in_fit_half(n, p, i)) for n in ("routine", "routine_more") if self.sets.get(n) and self.sets[n][0]
                   for i, (g, p) in enumerate(zip(self.outcomes(n, ask, work, variant.get(n)), self.sets[n][0]))]
        out["routine_all"] = _share([g for g, _f in routine])
        out["routine_all_fit"] = _share([g for g, f in routine if f])
        out["routine_all_check"] = _share([g for g, f in routine if not f])
        return out


def _share(values: list):
    return round(sum(values) / len(values), 3) if values else None


def _within(value) -> bool:
    return value is None or value <= GOAL


def calibrate(ev: Evaluator, variant: dict | None = None, by_kind: bool = True) -> dict:
    """The rule, fixed before measuring, on the fit half only: ``threshold_work`` = the lowest
    grid value at which the fit half of the routine prompts (both files) injects ≤ 5 %;
    ``threshold`` = then the lowest at which the fit conversations' off-topic questions and the
    fit half of the routine prompts each inject ≤ 5 %. ``by_kind=False``: one threshold for
    every prompt (the gate before the kind of prompt was read), by the same rule."""
    if not by_kind:
        for t in GRID:
            r = ev.rates(t, t, variant)
            if _within(r["routine_all_fit"]) and _within(r.get("offtopic_fit")):
                return r
        return ev.rates(GRID[-1], GRID[-1], variant)
    work = next((t for t in GRID if _within(ev.rates(GRID[-1], t, variant)["routine_all_fit"])), GRID[-1])
    for t in GRID:
        r = ev.rates(t, work, variant)
        if _within(r["routine_all_fit"]) and _within(r.get("offtopic_fit")):
            return r
    return ev.rates(GRID[-1], work, variant)


# the relevance of one candidate from its signals, compared (the gate is the first)
VARIANTS = {
    "coverage × specific (the gate)": None,
    "coverage only": lambda s: s["coverage"],
    "specific only": lambda s: s["specific"],
    "best line: coverage × specific": lambda s: s["line_coverage"] * min(1.0, s["line_mass"] / (2 * s["unit"])),
    "gate × (1 + cosine − 0.2)": lambda s: s["coverage"] * s["specific"] * (1 + max(0.0, s["cos"] - 0.2)),
}


def with_cosine(sets: dict) -> None:
    """Add each candidate's cosine to its prompt (the test model, tests/support/testmodel.py)."""
    sys.path.insert(0, os.path.join(REPO, "tests", "support"))
    import testmodel

    from code_memory.search.embed import load_model, spec_from_config

    model = load_model(spec_from_config(testmodel.model_config(testmodel.assemble(tempfile.mkdtemp(prefix="model-")))))
    texts = list(dict.fromkeys(r[3][:1500] for _p, ms, _root in sets.values() for m in ms for r in m.rows))
    docs = dict(zip(texts, model.embed(texts)))
    for prompts, ms, _root in sets.values():
        for p, m in zip(prompts, ms):
            q = model.embed_query(p["prompt"])
            m.rows = [(rel, k, h, t, {**sig, "cos": float(sum(a * b for a, b in zip(q, docs[t[:1500]])))})
                      for rel, k, h, t, sig in m.rows]


def compare(ev: Evaluator, cosine: bool) -> list:
    """For each relevance and for one threshold vs two by kind: the thresholds the rule gives on
    the fit half and every set's numbers there."""
    out = []
    for name, fn in VARIANTS.items():
        if "cosine" in name and not cosine:
            continue
        variant = {n: rescored(ms, fn) for n, (_p, ms, _r) in ev.sets.items()} if fn else None
        for by_kind in (False, True):
            r = calibrate(ev, variant, by_kind)
            out.append({"signal": name, "by_kind": by_kind, **r})
    return out


def repeats(cfg, prompts: list, measured: list, ask: float, work: float) -> dict:
    """One session per project: every prompt in turn, each recall excluding what is in context
    (the hook's ledger: keys and line digests). Counts items and lines injected twice."""
    from code_memory.search.recall import ASK, build

    by_project: dict = {}
    injected = twice_keys = twice_lines = 0
    for p, m in zip(prompts, measured):
        keys, lines = by_project.setdefault(p["project"], (set(), set()))
        got = build(cfg.root, m, ask if m.kind == ASK else work, _item_budget(cfg),
                    int(cfg.get_path("recall.max_items")), keys, lines)["items"]
        for item in got:
            injected += 1
            twice_keys += item["key"] in keys
            twice_lines += len(set(item["lines"]) & lines)
            keys.add(item["key"])
            lines.update(item["lines"])
    return {"items_injected": injected, "repeated_items": twice_keys, "repeated_lines": twice_lines}


# ---------------------------------------------------------------------------------------------
# latency of the hooks, as registered

def build_big(paths, notes: int) -> dict:
    """``notes`` session notes in one project (``big``): the lived-in commits and LoCoMo sessions
    cycled with their own ids, so the words are real and the index is large."""
    commits = _git_history(None) or [{"subject": "fallback note", "body": "", "files": ["app.py"], "date": ""}]
    turns = []
    locomo = os.path.join(DATA, "locomo", "locomo_dev.json")
    if os.path.isfile(locomo):
        with open(locomo, encoding="utf-8") as fh:
            for sample in json.load(fh):
                conv = sample["conversation"]
                turns += [t["text"] for k, v in conv.items() if k.startswith("session_") and isinstance(v, list) for t in v]
    for i in range(notes):
        c = commits[i % len(commits)]
        body = [ln.strip("-* ").strip() for ln in c["body"].split("\n") if ln.strip()][:4]
        extra = [turns[(i * 3 + k) % len(turns)] for k in range(3)] if turns else []
        summary = {"topic": f"{c['subject']} (#{i})", "key_points": body + extra, "files": c["files"][:8],
                   "decisions": [], "todos": []}
        _note(paths, f"big-{i:05d}", "big", "2026-01-01T10:00:00", summary)
    from code_memory.memory.recent import rebuild
    from code_memory.summary.extract import same_todo

    rebuild(paths, same_todo)
    return {"notes": notes}


def _p50(values: list) -> float:
    values = sorted(values)
    return round(values[len(values) // 2], 1) if values else 0.0


def latency(work: str, notes: int, runs: int) -> dict:
    """Median wall time of each hook case, run as Claude Code runs it: ``sh -c '"…/hooks/x.sh"'``
    with the payload on stdin, a new process each time."""
    import datetime as dt

    from code_memory.memory.tree import init_root
    from code_memory.search.engine import ensure_index, index_sources, options_from_config

    root = os.path.join(work, "big")
    cfg = _config(root)
    init_root(cfg.paths)
    started = time.monotonic()
    build_big(cfg.paths, notes)
    built = time.monotonic() - started
    ensure_index(cfg.paths.index_db, index_sources(cfg), options_from_config(cfg)).db.close()
    indexed = time.monotonic() - started - built
    subprocess.run([sys.executable, "-m", "compileall", "-q", os.path.join(REPO, "scripts")], check=False)
    project = os.path.join(work, "proj", "big")
    os.makedirs(os.path.join(project, ".git"), exist_ok=True)
    known = _git_history(1)[0]["files"][0] if _git_history(1) else "app.py"
    env = dict(os.environ, CODE_MEMORY_ROOT=root, CODE_MEMORY_PYTHON=sys.executable, TMPDIR=os.path.join(work, "tmp"),
               HOME=os.path.join(work, "home"), CODE_MEMORY_EMBEDDING__ENABLED="false")
    os.makedirs(env["TMPDIR"], exist_ok=True)
    os.makedirs(env["HOME"], exist_ok=True)
    env["CODE_MEMORY_SOCKET_DIR"] = os.path.join(env["TMPDIR"], "s")       # this run's warm search server
    warm_s = _warm_server(root, env)

    def run(shim: str, data: dict) -> float:
        t0 = time.perf_counter()
        subprocess.run(["sh", "-c", f'"{REPO}/hooks/{shim}.sh"'], input=json.dumps(data).encode(), env=env,
                       capture_output=True, check=False)
        return (time.perf_counter() - t0) * 1000

    base = {"transcript_path": "/dev/null", "cwd": project, "permission_mode": "default"}
    prompt = lambda n, text: {**base, "session_id": f"lat-{n}", "hook_event_name": "UserPromptSubmit", "prompt": text}
    read = lambda n, rel: {**base, "session_id": f"lat-{n}", "hook_event_name": "PreToolUse", "tool_name": "Read",
                           "tool_input": {"file_path": os.path.join(project, rel)}}
    cases = {
        "UserPromptSubmit, a question memory answers (injects)": lambda n: run("prompt-recall", prompt(n, "why did the redaction move to a maintained detector set?")),
        "UserPromptSubmit, a routine prompt (silent)": lambda n: run("prompt-recall", prompt(n, "fix the failing test")),
        "UserPromptSubmit, a trivial prompt (shell only)": lambda n: run("prompt-recall", prompt(n, "ok")),
        "PreToolUse Read, first in the project (rules + file recall)": lambda n: run("rules-injector", read(n, known)),
    }
    out = {}
    for name, case in cases.items():
        case(-1)                                        # warm the caches once
        out[name] = _p50([case(n) for n in range(runs)])
    # later Reads in one session: the same file again, another file of a settled directory
    run("rules-injector", read("later", known))
    out["PreToolUse Read, the same file again (shell only)"] = _p50([run("rules-injector", read("later", known)) for _ in range(runs)])
    out["PreToolUse Read, another file (shell only)"] = _p50([run("rules-injector", read("later", "no_such_name.xyz")) for _ in range(runs)])
    py = _p50([(lambda t0: (subprocess.run([sys.executable, "-c", "pass"]), (time.perf_counter() - t0) * 1000)[1])(time.perf_counter())
               for _ in range(runs)])
    from code_memory.search import client

    os.environ[client.SOCKET_DIR_ENV] = env["CODE_MEMORY_SOCKET_DIR"]
    client.call(root, "shutdown", {}, 10.0, start_server=False)
    return {"notes": notes, "build_s": round(built, 1), "index_s": round(indexed, 1), "runs": runs,
            "server_warm_s": warm_s, "python_c_pass_ms": py, "p50_ms": out, "load": os.getloadavg()[0],
            "at": dt.datetime.now().isoformat(timespec="minutes")}


def _warm_server(root: str, env: dict) -> float:
    """Start the root's warm search server (what SessionStart does) and wait until it answers a
    recall: the prompt hook is timed as it runs in a session, not while the server starts."""
    code = ("import sys, time; sys.path.insert(0, sys.argv[1]); from code_memory.search.client import call\n"
            "t = time.monotonic()\n"
            "while call(sys.argv[2], 'recall', {'prompt': 'warm up the server', 'mode': 'bm25'}, 30.0) is None:\n"
            "    time.sleep(0.2)\n"
            "print(round(time.monotonic() - t, 1))")
    out = subprocess.run([sys.executable, "-c", code, os.path.join(REPO, "scripts"), root], env=env,
                         capture_output=True, text=True, timeout=900, check=True)
    return float(out.stdout.strip())


# ---------------------------------------------------------------------------------------------
# the held-out set (bench/heldout_recall.py, another engineer's; run only to report)

def heldout(work: str) -> dict:
    """Every held-out prompt through the registered UserPromptSubmit hook (``sh -c``), one session
    per prompt, in the held-out lived-in root; scored by the set's own ``evidence_found``."""
    sys.path.insert(0, os.path.join(REPO, "bench"))
    from code_memory.search.engine import ensure_index, index_sources, options_from_config
    from heldout_recall import build_root, evidence_found, prompts

    home = os.path.join(work, "home")
    root = os.path.join(home, ".claude", "memory")
    manifest = build_root(root, home)
    cfg = _config(root)
    ensure_index(cfg.paths.index_db, index_sources(cfg), options_from_config(cfg), full=True).db.close()
    env = dict(os.environ, CODE_MEMORY_ROOT=root, HOME=home, CODE_MEMORY_PYTHON=sys.executable,
               TMPDIR=os.path.join(work, "tmp"), CODE_MEMORY_EMBEDDING__ENABLED="false")
    os.makedirs(env["TMPDIR"], exist_ok=True)
    rows = []
    for p in prompts():
        data = {"session_id": f"heldout-{p['id']}", "transcript_path": "/dev/null", "cwd": os.path.join(home, p["cwd"]),
                "hook_event_name": "UserPromptSubmit", "prompt": p["prompt"], "permission_mode": "default"}
        done = subprocess.run(["sh", "-c", f'"{REPO}/hooks/prompt-recall.sh"'], input=json.dumps(data).encode(),
                              env=env, capture_output=True, check=False)
        out = json.loads(done.stdout) if done.stdout.strip() else {}
        text = ((out.get("hookSpecificOutput") or {}).get("additionalContext")) or ""
        rows.append({"id": p["id"], "kind": p["kind"], "lang": p["lang"], "overlap": bool(p.get("overlap")),
                     "need": p.get("need"), "chars": len(text),
                     "found": evidence_found(p, text, manifest) if p["kind"] == "needing" and text else False})

    def share(sel, key):
        sel = list(sel)
        return {"n": len(sel), "rate": round(sum(1 for r in sel if key(r)) / len(sel), 3) if sel else None}

    routine = [r for r in rows if r["kind"] == "routine"]
    needing = [r for r in rows if r["kind"] == "needing"]
    chars = sorted(r["chars"] for r in rows if r["chars"])
    return {"routine_inject": {"all": share(routine, lambda r: r["chars"] > 0),
                               **{lang: share((r for r in routine if r["lang"] == lang), lambda r: r["chars"] > 0)
                                  for lang in ("zh", "en", "mixed")},
                               "overlap": share((r for r in routine if r["overlap"]), lambda r: r["chars"] > 0)},
            "needing_evidence": {"all": share(needing, lambda r: r["found"]),
                                 **{lang: share((r for r in needing if r["lang"] == lang), lambda r: r["found"])
                                    for lang in ("zh", "en")},
                                 **{f"need:{k}": share((r for r in needing if r["need"] == k), lambda r: r["found"])
                                    for k in sorted({r["need"] for r in needing if r["need"]})}},
            "needing_inject_anything": share(needing, lambda r: r["chars"] > 0),
            "injected_chars": {"p50": chars[len(chars) // 2] if chars else 0, "max": chars[-1] if chars else 0}}


def _row(r: dict) -> str:
    def f(*keys):
        return " / ".join("—" if r.get(k) is None else f"{r[k]:.3f}" for k in keys)
    return (f"| {r['threshold']:.2f} / {r['threshold_work']:.2f} | {f('locomo_fit', 'locomo_check')} |"
            f" {f('offtopic_fit', 'offtopic_check')} | {f('routine_all_fit', 'routine_all_check')} |"
            f" {f('routine_en', 'routine_zh')} | {f('routine_more_en', 'routine_more_zh')} |"
            f" {f('needing_en', 'needing_zh')} | {f('cmrc_fit', 'cmrc_check')} |")


HEADER = ("| threshold / threshold_work | LoCoMo evidence fit / check | off-topic injects fit / check"
          " | routine injects, both files, fit / check | routine en / zh | harder routine en / zh"
          " | needing evidence en / zh | CMRC evidence fit / check |\n"
          "|---|---:|---:|---:|---:|---:|---:|---:|")


def build_sets(work: str, smoke: bool) -> tuple:
    """The memory roots and every prompt set, measured: ``(sets, roots, counts)``."""
    from code_memory.memory.tree import init_root

    cfgs = {name: _config(os.path.join(work, name)) for name in ("locomo", "coding", "cmrc")}
    for cfg in cfgs.values():
        init_root(cfg.paths)
    questions = build_locomo(cfgs["locomo"].paths, 2 if smoke else None)
    if smoke:
        questions = questions[:15] + [q for q in questions if q["project"] != questions[0]["project"]][:15]
    counts = build_lived_in(cfgs["coding"].paths, 30 if smoke else None)
    cmrc = build_cmrc(cfgs["cmrc"].paths, 5 if smoke else 300) if os.path.isdir(os.path.join(DATA, "cmrc2018")) else []
    from code_memory.search.recall import measure

    for cfg in cfgs.values():
        measure(cfg, {"prompt": "warm up the index", "project": "x"})       # builds each index once
    projects = sorted({q["project"] for q in questions})
    shifted = [dict(q, project=projects[(projects.index(q["project"]) + 1) % len(projects)]) for q in questions] \
        if len(projects) > 1 else []
    plan = {"locomo": (questions, "locomo"), "offtopic": (shifted, "locomo"),
            "routine": (routine_prompts(10 if smoke else None), "coding"),
            "routine_more": (routine_more(5 if smoke else None), "coding"),
            "needing": (needing_prompts(5 if smoke else None), "coding"), "cmrc": (cmrc[:20] if smoke else cmrc, "cmrc")}
    sets = {name: (prompts, measure_all(cfgs[root], prompts), root) for name, (prompts, root) in plan.items()}
    return sets, {name: cfg.root for name, cfg in cfgs.items()}, {**counts, "cmrc_articles": len({q["note"] for q in cmrc})}, cfgs


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--smoke", action="store_true", help="a slice of each set, a few seconds")
    ap.add_argument("--dump", help="write every candidate's signals (JSON lines) to this file")
    ap.add_argument("--out", help="keep the built memory roots here")
    ap.add_argument("--json", action="store_true", help="print the result as JSON")
    ap.add_argument("--latency", type=int, metavar="NOTES", help="instead: hook latency on a root with NOTES notes")
    ap.add_argument("--runs", type=int, default=20, help="runs per latency case (median)")
    ap.add_argument("--compare", action="store_true", help="also compare the signals, one threshold vs two by kind")
    ap.add_argument("--cosine", action="store_true", help="with --compare: the cosine variant too (embeds every "
                                                           "candidate with the test model; minutes)")
    ap.add_argument("--heldout", action="store_true",
                    help="instead: the held-out set (bench/heldout_recall.py) through the registered hook, to report")
    args = ap.parse_args(argv)
    if args.heldout:
        print(json.dumps(heldout(args.out or tempfile.mkdtemp(prefix="bench-recall-heldout-")), indent=1))
        return 0
    if args.latency:
        result = latency(args.out or tempfile.mkdtemp(prefix="bench-recall-lat-"), args.latency, args.runs)
        print(json.dumps(result, indent=1))
        return 0
    if not os.path.isfile(os.path.join(DATA, "locomo", "locomo_dev.json")):
        print(f"skipped: no LoCoMo data under {DATA}")
        return 0
    started = time.monotonic()
    sets, roots, counts, cfgs = build_sets(args.out or tempfile.mkdtemp(prefix="bench-recall-"), args.smoke)
    coding = cfgs["coding"]
    ev = Evaluator(sets, roots, _item_budget(coding), int(coding.get_path("recall.max_items")))
    ask, work = float(coding.get_path("recall.threshold")), float(coding.get_path("recall.threshold_work"))
    rule = calibrate(ev)
    single = calibrate(ev, by_kind=False)
    sweep_ask = [ev.rates(t, work) for t in GRID]
    sweep_work = [ev.rates(ask, t) for t in GRID if t >= 0.3]
    at_default = ev.rates(ask, work)
    questions, q_measured, _root = sets["locomo"]
    in_candidates = _share([any(f"[{g}]" in r[3] for r in m.rows for g in q["gold"]) for q, m in zip(questions, q_measured)])
    routine, r_measured, _root = sets["routine"]
    rep = repeats(coding, routine + routine, r_measured + r_measured, 0.0, 0.0)
    rep_loco = repeats(cfgs["locomo"], questions, q_measured, ask, work)
    compared = []
    if args.compare:
        if args.cosine:
            with_cosine(sets)
        compared = compare(ev, args.cosine)
    if args.dump:
        with open(args.dump, "w", encoding="utf-8") as fh:
            for name, (prompts, measured, _root) in sets.items():
                for p, m in zip(prompts, measured):
                    for rel, rank, hit, text, sig in m.rows:
                        gold = [g for g in p.get("gold", []) if f"[{g}]" in text] if name == "locomo" else []
                        fh.write(json.dumps({"set": name, "prompt": p["prompt"], "kind": m.kind, "rel": rel, "rank": rank,
                                             "gold_in": bool(gold), "source": hit.get("source"), **sig},
                                            ensure_ascii=False) + "\n")
    result = {"sizes": {name: len(prompts) for name, (prompts, _m, _r) in sets.items()}, "memory": counts,
              "default": at_default, "rule": rule, "one_threshold_rule": single, "sweep_threshold": sweep_ask,
              "sweep_threshold_work": sweep_work, "evidence_in_candidates": in_candidates,
              "repeats_routine_twice_threshold0": rep, "repeats_locomo_default": rep_loco, "compared": compared,
              "seconds": round(time.monotonic() - started, 1)}
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    print(f"prompts: {result['sizes']}; memory: {counts}")
    print(f"the rule on the fit half: threshold {rule['threshold']:.2f}, threshold_work {rule['threshold_work']:.2f}"
          f" (one threshold for every prompt: {single['threshold']:.2f}); configured: {ask:.2f} / {work:.2f}")
    print(HEADER)
    for r in sweep_ask:
        print(_row(r))
    print("\nthreshold_work swept (threshold at its default):")
    print(HEADER)
    for r in sweep_work:
        print(_row(r))
    print(f"\nat the default: {_row(at_default)}; LoCoMo by category: "
          + ", ".join(f"{c} {at_default.get('locomo:' + c)}" for c in CATEGORIES.values()))
    print(f"one threshold for every prompt, by the same rule: {_row(single)}")
    print(f"questions whose candidates hold an evidence turn: {in_candidates}")
    print(f"repeats (routine prompts twice per session, threshold 0): {rep}; LoCoMo at default: {rep_loco}")
    if compared:
        head, rule = HEADER.split("\n")
        print("\n| relevance | thresholds | " + head.split("| ", 2)[2] + "\n|---" + rule)
        for c in compared:
            print(f"| {c['signal']}{' (by kind)' if c['by_kind'] else ' (one threshold)'} {_row(c)}")
    print(f"{result['seconds']} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
