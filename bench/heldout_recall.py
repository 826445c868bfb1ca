#!/usr/bin/env python3
"""Recall held-out set (issue 21): a lived-in memory root and the prompts to measure recall on.

    .venv-test/bin/python bench/heldout_recall.py --build DIR     # build DIR/home (+ its memory root), print the manifest
    .venv-test/bin/python bench/heldout_recall.py --prompts       # the prompts, one JSON object a line
    .venv-test/bin/python bench/heldout_recall.py --smoke         # build in a temp dir, check it, print counts

    from heldout_recall import build_root, prompts, evidence_found

HELD-OUT EVALUATION SET, written before the recall hook of issue 21 existed (base commit ba21af9).
Do not tune the relevance gate, its threshold or its signals to it: no prompt, keyword or memory
item of bench/data/recall_heldout/ may be copied into scripts/code_memory/ or its tests, or into a
tuning set. Calibrate on LoCoMo's dev split and on cases you write yourself; report this set's
numbers separately (BENCHMARKS.md § "Recall — held-out set (issue 21)").

``build_root(root_dir, home_dir)`` builds, deterministically from the seed, the memory a developer
accumulates over six months on four projects (shop-api, web-console, etl-jobs, infra), in Chinese
and English:
- ~200 session notes in the summarizer's format (sessions/<id>.md: 会话摘要 header, numbered
  主题 / 关键知识点 / 涉及文件 / 决策记录 / 待办, the final message) — 26 hand-written sessions
  worth remembering and the routine ones around them (upgrades, flaky tests, reviews, log tweaks);
- the daily notes of those sessions, with a few lines the user added;
- MEMORY.md with preferences, working style, stack and 11 pitfalls; rules.md and summary.md per
  project;
- facts (``code-memory facts add``), kv keys (``code-memory kv set``) and memtool items
  (``memtool import``), written through the product's own command-line entry points (run in one
  process, ``code_memory.cli.*.main(argv)``, from the checkout given — default this one);
- a git checkout directory per project under ``home_dir/work/<project>`` (the prompts' cwd).

It does not build a search index: index the root the way the product does (for example
``code-memory index --full``) before measuring.

``prompts()`` returns 134 routine prompts (62 Chinese, 66 English, 6 mixed; 37 share file names,
libraries or words with the memory; 6 are one-word turns) and 48 needing prompts whose answer, or
a constraint on it, is in the memory — a decision made several sessions ago, a fact the user gave,
a pitfall about the file being worked on, a preference in kv, an item in memtool, a line in a daily
note or rules.md. Each prompt: ``{id, kind: routine|needing, lang, project, cwd (relative to
home_dir), prompt, overlap (routine) | expected + need (needing)}``. ``expected`` lists evidence
items ``{store, ref, keywords}``; :func:`evidence_found` says whether injected text carries one
(all its keywords, see bench_handover_heldout.keyword_pattern, or its unique id / kv key).

For a routine prompt any injection is a false injection. Nothing is injected mid-session today
(ba21af9 has no prompt-time recall), so there is no "before" number beyond 0 on both sides.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import uuid

BENCH = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(BENCH)
DATA = os.path.join(BENCH, "data", "recall_heldout")
sys.path.insert(0, BENCH)

from bench_handover_heldout import present  # noqa: E402

SEED = 20261126
PROJECTS = ("shop-api", "web-console", "etl-jobs", "infra")
FILLER_PER_PROJECT = 44
FIRST_DAY, LAST_DAY = "2026-05-04", "2026-11-20"
RECENT_FILLER = 4             # the newest notes of each project are routine ones: the planted ones are older
_NS = uuid.UUID("6f1c9a52-8d1e-4f3b-9a57-3c2b7d0e1a11")


def _load(name: str):
    with open(os.path.join(DATA, name), encoding="utf-8") as fh:
        return json.load(fh)


def prompts() -> list:
    """Every prompt of the set (see the module docstring), routine first."""
    out = []
    with open(os.path.join(DATA, "prompts.jsonl"), encoding="utf-8") as fh:
        for line in fh:
            p = json.loads(line)
            p["cwd"] = f"work/{p['project']}"
            out.append(p)
    return out


# ---------------------------------------------------------------------------------------------
# the plan: everything the root will hold, as data (deterministic from the seed)

def _session_id(key: str) -> str:
    return str(uuid.uuid5(_NS, key))


def _fill(value, slots: dict):
    """A template string with ``{name}`` / ``{name[0]}`` / ``{name_base}`` taken from ``slots``."""
    if isinstance(value, list):
        return [_fill(v, slots) for v in value]
    fields = {k: v for k, v in slots.items()}
    for k, v in slots.items():
        if isinstance(v, str):
            fields[f"{k}_base"] = os.path.splitext(os.path.basename(v))[0]
    return value.format(**fields)


def _days(rng: random.Random, count: int, first: str, last: str) -> list:
    import datetime as dt

    start, end = dt.date.fromisoformat(first), dt.date.fromisoformat(last)
    span = (end - start).days
    out = []
    for _ in range(count):
        day = start + dt.timedelta(days=rng.randrange(span + 1))
        while day.weekday() >= 5 and rng.random() < 0.8:       # mostly workdays
            day += dt.timedelta(days=1)
        out.append(f"{min(day, end).isoformat()} {rng.randrange(9, 23):02d}:{rng.choice((0, 10, 20, 30, 40, 50)):02d}")
    return sorted(out)


def _filler_notes(rng: random.Random, project: str, spec: dict) -> list:
    notes = []
    dates = _days(rng, FILLER_PER_PROJECT - RECENT_FILLER, FIRST_DAY, "2026-11-09")
    dates += _days(rng, RECENT_FILLER, "2026-11-10", LAST_DAY)
    used = set()
    for i, date in enumerate(dates):
        for _attempt in range(200):     # a one-off session (a bump, a review) is not repeated word for word
            template = spec["templates"][rng.randrange(len(spec["templates"]))]
            slots = {name: rng.choice(values) for name, values in spec["slots"].items()}
            if template.get("repeatable") or _fill(template["topic"], slots) not in used:
                break
        used.add(_fill(template["topic"], slots))
        notes.append({"ref": f"{project}-routine-{i + 1:02d}", "project": project, "date": date,
                      "lang": template["lang"], "topic": _fill(template["topic"], slots),
                      "files": _fill(template.get("files", []), slots), "points": _fill(template.get("points", []), slots),
                      "decisions": _fill(template.get("decisions", []), slots), "todos": [],
                      "final": _fill(template["final"], slots), "mode": "deterministic"})
    return notes


def plan(seed: int = SEED) -> dict:
    rng = random.Random(seed)
    filler = _load("filler.json")
    notes = list(_load("episodes.json"))
    for project in PROJECTS:
        notes += _filler_notes(rng, project, filler[project])
    notes.sort(key=lambda n: (n["date"], n["ref"]))
    for note in notes:
        note["id"] = _session_id(note["ref"])
        note["size"] = f"{rng.randrange(8, 160)}KB ({rng.randrange(20, 900)} 行)"
    stores = _load("stores.json")
    memtool = []
    for item in stores["memtool"]:
        memtool.append(_memtool_item(item["ref"], item["type"], item["key"], item["tags"], item["created"], item["content"]))
    for i, item in enumerate(stores["memtool_notes"]):
        day = _days(rng, 1, FIRST_DAY, LAST_DAY)[0]
        memtool.append(_memtool_item(f"memtool-note-{i + 1:02d}", "project", f"{item['project']}/note/{i + 1:02d}",
                                     [item["project"], *item["tags"]], day.replace(" ", "T") + ":00+08:00", item["content"]))
    return {"seed": seed, "notes": notes, "stores": stores, "memtool": memtool}


def _memtool_item(ref: str, kind: str, key: str, tags: list, created: str, content: str) -> dict:
    return {"id": uuid.uuid5(_NS, "memtool/" + ref).hex, "type": kind, "task_id": None, "step_id": None, "key": key,
            "content": content, "tags": tags, "source": "manual", "weight": 1.0, "version": 1,
            "created_at": created, "updated_at": created, "confidence_level": "medium", "access_count": 0,
            "last_accessed_at": None, "consolidation_score": 0.0, "context_tags": [], "emotional_weight": 0.0,
            "related_ids": [], "_ref": ref}


# ---------------------------------------------------------------------------------------------
# rendering the files

def render_note(note: dict, cwd: str) -> str:
    ended = note["date"].replace(" ", "T") + ":00+08:00"
    lines = [f"# 会话摘要: {note['id']}", "", f"- **项目**: {note['project']}",
             f"- **时间**: {note['date']} (最后更新)", f"- **会话结束**: {ended}", f"- **工作目录**: {cwd}",
             "- **方式**: deterministic (no LLM)", f"- **原始大小**: {note['size']}", "", "---", "",
             f"1. **主题**: {note['topic']}", "2. **关键知识点**:"]
    lines += [f"   - {p}" for p in note["points"]] or ["   - —"]
    lines.append(f"3. **涉及文件**: {', '.join(note['files']) or '—'}")
    if len(note["decisions"]) == 1:
        lines.append(f"4. **决策记录**: {note['decisions'][0]}")
    elif note["decisions"]:
        lines += ["4. **决策记录**:"] + [f"   - {d}" for d in note["decisions"]]
    else:
        lines.append("4. **决策记录**: —")
    if note["todos"]:
        lines += ["5. **待办**:"] + [f"   - [ ] {t}" for t in note["todos"]]
    if note["final"]:
        lines += ["", "### 结果与下一步 (Final message)", "", f"> {note['final']}"]
    return "\n".join(lines) + "\n"


def render_daily(day: str, notes: list, events: list) -> str:
    out = [f"# {day}", ""]
    for note in notes:
        hhmm = note["date"][11:16]
        if note["files"]:
            out.append(f"- {hhmm} [{note['project']}] {', '.join(note['files'])}")
    for note in notes:
        out += ["", f"### 会话 {note['id']}", f"- 时间: {note['date'][11:16]} · [{note['project']}]",
                f"- 主题: {note['topic']}", f"- 要点: {'；'.join(note['points']) or '—'}", "- 知识提取: —",
                f"- 摘要: sessions/{note['id']}.md"]
    if events:
        out += ["", "### 记事 (Notes)", ""] + [f"- 记事 [{e['project']}]: {e['text']}" for e in events]
    return "\n".join(out) + "\n"


def render_rules(project: str, sections: dict) -> str:
    out = [f"# {project} — rules", "", f"Development rules for `{project}`. Injected into Claude's context on the first "
           "Read in this project", "each session; edits are gated until they have been loaded.", ""]
    for title, rules in sections.items():
        out += [f"## {title}", ""] + [f"- {rule}" for rule in rules] + [""]
    return "\n".join(out)


def render_summary(project: str, text: str) -> str:
    return f"# {project} — summary\n\n## Overview\n\n{text}\n"


# ---------------------------------------------------------------------------------------------
# building

_DRIVER = r"""
import contextlib, io, json, os, sys
sys.path.insert(0, os.path.join(sys.argv[1], "scripts"))
from code_memory.cli.main import main as code_memory
from code_memory.cli.memtool import main as memtool
results = []
for job in json.load(sys.stdin):
    os.chdir(job["cwd"])
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = (memtool if job["tool"] == "memtool" else code_memory)(job["argv"])
    results.append({"status": status, "stdout": out.getvalue()})
json.dump(results, sys.stdout)
"""


def _run_cli(jobs: list, env: dict, checkout: str, python: str) -> list:
    """The product's command-line entry points, in one process (the same argparse and handlers)."""
    done = subprocess.run([python, "-c", _DRIVER, checkout], input=json.dumps(jobs), capture_output=True, text=True,
                          env=env, check=False)
    if done.returncode != 0:
        raise SystemExit(f"the product's CLI failed: {done.stderr[-2000:]}")
    results = json.loads(done.stdout)
    for job, result in zip(jobs, results):
        if result["status"] != 0:
            raise SystemExit(f"{' '.join(job['argv'][:3])} … failed: {result['stdout'][-500:]}")
    return results


def build_root(root_dir: str, home_dir: str, *, seed: int = SEED, checkout: str = REPO,
               python: str = sys.executable) -> dict:
    """Build the lived-in memory root at ``root_dir`` with its projects under ``home_dir/work``.
    Returns the manifest: counts, the project directories, and ``refs`` (every evidence ref of the
    prompts → the store, path, id or key it names)."""
    root_dir, home_dir = os.path.abspath(root_dir), os.path.abspath(home_dir)
    the_plan = plan(seed)
    stores = the_plan["stores"]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CODE_MEMORY_", "CLAUDE_", "ANTHROPIC_", "MEMTOOL_"))}
    env.update({"HOME": home_dir, "CODE_MEMORY_ROOT": root_dir, "HF_HUB_OFFLINE": "1", "CODE_MEMORY_LLM__BACKEND": "none"})
    cwds = {}
    for project in PROJECTS:
        cwds[project] = os.path.join(home_dir, "work", project)
        os.makedirs(os.path.join(cwds[project], ".git"), exist_ok=True)
    os.makedirs(root_dir, exist_ok=True)
    _run_cli([{"tool": "code-memory", "cwd": home_dir, "argv": ["init", "--root", root_dir]}], env, checkout, python)

    refs = {}
    sessions = os.path.join(root_dir, "sessions")
    os.makedirs(sessions, exist_ok=True)
    by_day: dict = {}
    for note in the_plan["notes"]:
        _write(os.path.join(sessions, f"{note['id']}.md"), render_note(note, cwds[note["project"]]))
        by_day.setdefault(note["date"][:10], []).append(note)
        refs[note["ref"]] = {"store": "session", "id": note["id"], "path": f"sessions/{note['id']}.md",
                             "project": note["project"], "text": render_note(note, cwds[note["project"]])}
    events: dict = {}
    for event in stores["daily_events"]:
        events.setdefault(event["date"], []).append(event)
    for day in sorted(set(by_day) | set(events)):
        text = render_daily(day, by_day.get(day, []), events.get(day, []))
        _write(os.path.join(root_dir, "daily", f"{day}.md"), text)
        for event in events.get(day, []):
            refs[event["ref"]] = {"store": "daily", "path": f"daily/{day}.md", "text": event["text"]}

    _write(os.path.join(root_dir, "MEMORY.md"), stores["memory_md"])
    for ref, keyword in stores["memory_md_refs"].items():
        line = next(x for x in stores["memory_md"].split("\n") if keyword in x)
        refs[ref] = {"store": "memory_md", "path": "MEMORY.md", "text": line}
    for project in PROJECTS:
        area = os.path.join(root_dir, "areas", "projects", project)
        _write(os.path.join(area, "rules.md"), render_rules(project, stores["rules"][project]))
        _write(os.path.join(area, "summary.md"), render_summary(project, stores["summaries"][project]))
    for ref, (project, keyword) in stores["rules_refs"].items():
        line = next(r for rules in stores["rules"][project].values() for r in rules if keyword in r)
        refs[ref] = {"store": "rules", "path": f"areas/projects/{project}/rules.md", "text": line}

    jobs = [{"tool": "code-memory", "cwd": cwds[f["project"]],
             "argv": ["facts", "add", f["text"], "--project", f["project"], "--category", f["category"],
                      "--evidence", f["evidence"], "--root", root_dir]} for f in stores["facts"]]
    jobs += [{"tool": "code-memory", "cwd": home_dir,
              "argv": ["kv", "set", k["key"], json.dumps(k["content"], ensure_ascii=False), k["source"], "--root", root_dir]}
             for k in stores["kv"]]
    export = os.path.join(home_dir, ".memtool-import.jsonl")
    _write(export, "".join(json.dumps({k: v for k, v in item.items() if k != "_ref"}, ensure_ascii=False) + "\n"
                           for item in the_plan["memtool"]))
    jobs.append({"tool": "memtool", "cwd": home_dir, "argv": ["--root", root_dir, "import", "--input", export]})
    jobs.append({"tool": "memtool", "cwd": home_dir, "argv": ["--root", root_dir, "export"]})
    results = _run_cli(jobs, env, checkout, python)
    os.remove(export)
    for fact, result in zip(stores["facts"], results):
        made = json.loads(result["stdout"])["fact"]
        refs[fact["ref"]] = {"store": "facts", "id": made["id"], "path": f"areas/projects/{fact['project']}/facts.json",
                             "text": fact["text"]}
    for item in stores["kv"]:
        refs[item["ref"]] = {"store": "kv", "key": item["key"], "text": json.dumps(item["content"], ensure_ascii=False)}
    for item in the_plan["memtool"]:
        refs[item["_ref"]] = {"store": "memtool", "id": item["id"], "key": item["key"], "text": item["content"]}

    _check_evidence(refs)
    counts = {"session_notes": len(the_plan["notes"]), "daily_notes": len(set(by_day) | set(events)),
              "facts": len(stores["facts"]), "kv_keys": len(stores["kv"]), "memtool_items": len(the_plan["memtool"]),
              "pitfalls_in_memory_md": sum(1 for line in stores["memory_md"].split("## 避坑经验")[1].split("##")[0]
                                          .split("\n") if line.startswith("- "))}
    manifest = {"held_out": True, "seed": seed, "root": root_dir, "home": home_dir, "checkout": checkout,
                "projects": cwds, "counts": counts,
                "refs": {k: {f: v for f, v in ref.items() if f != "text"} for k, ref in refs.items()}}
    manifest["checksum"] = root_checksum(root_dir, home_dir, results[-1]["stdout"])
    return manifest


def _write(path: str, text: str) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)


def _check_evidence(refs: dict) -> None:
    """Every needing prompt's evidence exists and holds its keywords (else the set is broken)."""
    for p in prompts():
        for item in p.get("expected", []):
            ref = refs.get(item["ref"])
            if ref is None or ref["store"] != item["store"]:
                raise SystemExit(f"{p['id']}: evidence {item['ref']} ({item['store']}) is not in the root")
            if not present(item["keywords"], ref["text"]):
                raise SystemExit(f"{p['id']}: evidence {item['ref']} lacks the keywords {item['keywords']}")


def evidence_found(prompt: dict, injected: str, manifest: dict) -> bool:
    """Whether ``injected`` (the text a recall hook added for ``prompt``) carries one of the
    prompt's expected evidence items: all of the item's keywords, or the item's own id or kv key."""
    for item in prompt.get("expected", []):
        ref = manifest["refs"].get(item["ref"], {})
        names = [ref[f] for f in ("id", "key") if ref.get(f)]
        if present(item["keywords"], injected) or any(name in injected for name in names):
            return True
    return False


def root_checksum(root_dir: str, home_dir: str, memtool_export: str) -> str:
    """SHA-256 of what the root holds: the bytes of every file the generator writes itself (paths
    under ``home_dir`` normalised), and the content of the stores the product's CLI writes — facts
    (id, text, evidence, category, status), kv (key, source, content), memtool (``memtool export``,
    sorted) — without the times those writers stamp."""
    digest = hashlib.sha256()
    for top in ("sessions", "daily", "areas", "MEMORY.md"):
        base = os.path.join(root_dir, top)
        files = [base] if os.path.isfile(base) else sorted(
            os.path.join(d, f) for d, _dirs, names in os.walk(base) for f in names)
        for path in files:
            rel = os.path.relpath(path, root_dir)
            with open(path, "rb") as fh:
                data = fh.read()
            if rel.endswith("facts.json"):
                facts = json.loads(data)["facts"]
                data = json.dumps([[f["id"], f["fact"], f["evidence"], f["category"], f["status"]] for f in facts],
                                  ensure_ascii=False).encode()
            digest.update(rel.encode() + b"\0" + data.replace(home_dir.encode(), b"<home>") + b"\0")
    index = os.path.join(root_dir, "kv", "index")
    for d, _dirs, names in sorted(os.walk(index)):
        for name in sorted(names):
            with open(os.path.join(d, name), encoding="utf-8") as fh:
                doc = json.load(fh)
            digest.update(json.dumps([doc["key"], doc.get("source"), doc.get("content")], ensure_ascii=False,
                                     sort_keys=True).encode())
    for line in sorted(memtool_export.splitlines()):
        digest.update(line.encode())
    return digest.hexdigest()


# ---------------------------------------------------------------------------------------------

def _build_into(directory: str, checkout: str) -> dict:
    home = os.path.join(directory, "home")
    return build_root(os.path.join(home, ".claude", "memory"), home, checkout=checkout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--build", metavar="DIR", help="build DIR/home and its memory root DIR/home/.claude/memory")
    action.add_argument("--prompts", action="store_true", help="print the prompts, one JSON object a line")
    action.add_argument("--smoke", action="store_true", help="build in a temp dir twice, check it, print the counts")
    parser.add_argument("--checkout", default=REPO, help="use this checkout's CLI to write facts, kv and memtool")
    args = parser.parse_args()
    if args.prompts:
        for p in prompts():
            print(json.dumps(p, ensure_ascii=False))
        return 0
    if args.build:
        if os.path.exists(os.path.join(args.build, "home")):
            print(f"error: {args.build}/home exists; give an empty directory", file=sys.stderr)
            return 2
        print(json.dumps(_build_into(args.build, os.path.abspath(args.checkout)), ensure_ascii=False, indent=1))
        return 0
    tmp = tempfile.mkdtemp(prefix="cm-recall-heldout-")
    try:
        first = _build_into(os.path.join(tmp, "a"), os.path.abspath(args.checkout))
        second = _build_into(os.path.join(tmp, "b"), os.path.abspath(args.checkout))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    every = prompts()
    summary = {"counts": first["counts"], "checksum": first["checksum"],
               "deterministic": first["checksum"] == second["checksum"],
               "prompts": {kind: {lang: sum(1 for p in every if p["kind"] == kind and p["lang"] == lang)
                                  for lang in ("zh", "en", "mixed")} for kind in ("routine", "needing")}}
    print(json.dumps(summary, ensure_ascii=False, indent=1))
    return 0 if summary["deterministic"] else 1


if __name__ == "__main__":
    sys.exit(main())
