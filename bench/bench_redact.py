#!/usr/bin/env python3
"""Redaction: recall on secrets we did not write, through the redactor and through every door;
false positives on real code and docs; cost per KB against another checkout (BENCHMARKS.md § Redaction).

  .venv-test/bin/python bench/bench_redact.py                    # everything (the BENCHMARKS.md numbers)
  .venv-test/bin/python bench/bench_redact.py --old /tmp/cm-old  # + cost of that checkout's redact.py, same run
  .venv-test/bin/python bench/bench_redact.py --smoke            # a few seconds on tiny data
  .venv-test/bin/python bench/bench_redact.py --only fp --show 40   # one section, changed lines shown

Recall (a case leaks when its secret, or a 24-character piece of a long one, survives):
  held out   gitleaks v8.30.1's own per-rule samples (the adopted rule set's fixtures) and
             detect-secrets 1.5.0's plugin test payloads (a second library's, not adopted), each in
             the surroundings of tests/support/secrets_heldout.py; detect-secrets is also counted
             without its placeholder values (a run of x, a dictionary word, a repeated or
             alphabetic sequence: see PLACEHOLDER below);
  ours       documented syntax (written from the tools' documentation before the rules for it)
             and the tuning corpus tests/support/secrets_corpus.py (the shapes the rules were
             tuned on: an upper bound, not a measurement).
Doors: every held-out case through each writer of tests/support/secret_doors.py (the servers and
  the summarizer get every ``--slow-every``-th case).
False positives: lines changed by redaction in files of the running interpreter's site-packages
  and of /usr/share/doc, fixed slices of the files by path hash (``--fp-slices``; slices 0, 1, 2 and 4 were
  read to fix false positives and are reported apart, ``--fp-tuned``), test directories left out (they hold
  fixtures of secrets on purpose); and the repository's code and docs, the Chinese design
  documents, LoCoMo's turns and CMRC 2018's paragraphs (../shared/bench-data, read in place).
Cost: µs per KB over the real-text lines and for typical inputs, new and ``--old`` alternating in
  fresh processes; the import plus first call; the daily-note hook's label path.
"""

from __future__ import annotations

import argparse
import glob
import gzip
import hashlib
import json
import os
import re
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(os.path.dirname(REPO), "shared")
if not os.path.isdir(SHARED):
    SHARED = "/work/shared"
# files that spell out secret shapes on purpose
SECRET_SHAPE_FILES = {"redact.py", "secret_rules.py", "bench_redact.py", "gitleaks_rules.json", "secret_triggers.txt"}
SLOW_DOORS = {"session-note", "llm-request", "mcp", "browser-edit"}
# a detect-secrets sample value that is a placeholder, not a secret: runs of x or Z, the word
# "password", an alphabet or a short pattern repeated, or a "be-exactly-40-chars" filler
PLACEHOLDER = re.compile(r"x{5,}|z{5,}|^password$|abcdefghij|(.{2,8})\1{3,}|exactly-\d+-chars", re.IGNORECASE)


def _setup_path(scripts: str) -> None:
    sys.path.insert(0, scripts)
    sys.path.insert(0, os.path.join(REPO, "tests"))


# ---------------------------------------------------------------------------------------- recall

def _rate(cases, leaks) -> dict:
    return {"cases": len(cases), "leaked": len(leaks), "redacted %": round(100 * (1 - len(leaks) / max(len(cases), 1)), 2)}


def _is_placeholder(secrets) -> bool:
    return all(PLACEHOLDER.search(s.strip(" =:\"'")) for s in secrets)


OLD_RECALL_PROBE = r"""
import json, sys
sys.path[:0] = [sys.argv[1], sys.argv[2]]
from code_memory.redact import redact
from support.secrets_heldout import all_cases, gitleaks_false_positive_samples, leaked
step = int(sys.argv[3])
leaks = [cid for cid, text, secrets in all_cases()[::step] if leaked(secrets, redact(text))]
fps = gitleaks_false_positive_samples()
print(json.dumps({"leaks": leaks, "fp changed": sum(redact(t) != t for t in fps), "fp samples": len(fps)}))
"""
SOURCES = (("held out: gitleaks fixtures", "gitleaks:"), ("held out: detect-secrets fixtures", "detect-secrets:"),
           ("ours: documented syntax", "documented:"))


def _recall_rows(cases, leaks: set) -> dict:
    """Recall per source (and detect-secrets per half, with and without placeholders) of ``cases``
    whose ids in ``leaks`` leaked."""
    from support.secrets_heldout import detect_secrets_half

    rows = {}
    for name, prefix in SOURCES:
        mine = [c for c in cases if c[0].startswith(prefix)]
        rows[name] = _rate(mine, [c for c in mine if c[0] in leaks])
        by_where: dict = {}
        for cid, _t, _s in mine:
            if cid in leaks:
                by_where[cid.rsplit("@", 1)[1]] = by_where.get(cid.rsplit("@", 1)[1], 0) + 1
        rows[name]["leaks by surrounding"] = by_where
        if prefix != "detect-secrets:":
            continue
        real = [c for c in mine if not _is_placeholder(c[2])]
        rows[name + ", placeholders left out"] = _rate(real, [c for c in real if c[0] in leaks])
        for half in ("tuning", "held-out"):
            part = [c for c in mine if detect_secrets_half(c[0]) == half]
            rows[f"{name}: {half} half"] = _rate(part, [c for c in part if c[0] in leaks])
            part = [c for c in part if not _is_placeholder(c[2])]
            rows[f"{name}: {half} half, placeholders left out"] = _rate(part, [c for c in part if c[0] in leaks])
    return rows


def old_recall(old: str, smoke: bool) -> dict:
    """The same held-out sources through another checkout's redactor (the baseline)."""
    from support.secrets_heldout import all_cases

    step = 40 if smoke else 1
    done = subprocess.run([sys.executable, "-c", OLD_RECALL_PROBE, os.path.join(old, "scripts"),
                           os.path.join(REPO, "tests"), str(step)], capture_output=True, text=True, check=True)
    found = json.loads(done.stdout)
    rows = _recall_rows(all_cases()[::step], set(found["leaks"]))
    rows["gitleaks' own false-positive samples changed"] = {"samples": found["fp samples"], "changed": found["fp changed"]}
    return rows


def recall(smoke: bool, show: int) -> dict:
    from code_memory.redact import redact
    from support.secrets_corpus import cases as tuning_cases
    from support.secrets_heldout import all_cases, gitleaks_false_positive_samples, leaked

    cases = all_cases()[::40] if smoke else all_cases()
    leaks = [(cid, text) for cid, text, secrets in cases if leaked(secrets, redact(text))]
    for cid, text in leaks[:show]:
        print(f"  leak {cid}: {text[:140]!r}")
    rows = _recall_rows(cases, {cid for cid, _t in leaks})
    fps = gitleaks_false_positive_samples()
    rows["gitleaks' own false-positive samples changed"] = {"samples": len(fps), "changed": sum(redact(t) != t for t in fps)}
    tuning = tuning_cases()[::20] if smoke else tuning_cases()
    rows["ours: tuning corpus (upper bound)"] = _rate(tuning, [cid for cid, text, value in tuning if value in redact(text)])
    return rows


def doors(smoke: bool, slow_every: int, chunk: int = 300) -> dict:
    """Each door gets the held-out cases one surrounding at a time (a fixture's secret appears in
    all of them) in chunks of ``chunk`` (a fresh memory root each: the review queue compares a
    proposal with every pending one); a case leaks when its secret occurs in no other case of
    its chunk, or where it follows that case's marker (see secret_doors.Stored.leaks)."""
    from code_memory.redact import redact
    from support.secret_doors import DOORS, by_surrounding, run_door
    from support.secrets_heldout import detect_secrets_cases, documented_cases, gitleaks_cases, leaked

    held_out = gitleaks_cases() + detect_secrets_cases() + documented_cases()
    alone = {cid for cid, text, secrets in held_out if leaked(secrets, redact(text))}
    rows = {}
    with tempfile.TemporaryDirectory() as tmp:
        for door in DOORS:
            if smoke and door in ("mcp", "browser-edit"):
                continue
            step = 300 if smoke else slow_every if door in SLOW_DOORS else 1
            started, counted, delivered, leaks, errors, real = time.perf_counter(), 0, 0, [], [], []
            cases_by_source: dict = {}
            for g, group in enumerate(by_surrounding(held_out)):
                group = group[::step]
                for n in range(0, len(group), chunk):
                    part = group[n:n + chunk]
                    stored = run_door(door, part, os.path.join(tmp, f"{door}-{g}-{n}"))
                    counted += len(part)
                    delivered += len(stored.delivered(part))
                    leaks += stored.leaks(part)
                    errors += stored.errors
                    for cid, _t, secrets in part:
                        cases_by_source[cid.split(":")[0]] = cases_by_source.get(cid.split(":")[0], 0) + 1
                        if not _is_placeholder(secrets):
                            real.append(cid)
            by_source: dict = {}
            for cid in leaks:
                by_source[cid.split(":")[0]] = by_source.get(cid.split(":")[0], 0) + 1
            real_leaks = set(leaks) & set(real)
            rows[door] = {**_rate(range(counted), leaks), "delivered": delivered, "errors": len(errors),
                          "placeholders left out": _rate(real, real_leaks),
                          "leaks the redactor alone does not have": len(set(leaks) - alone),
                          "by source": {src: _rate(range(n), range(by_source.get(src, 0)))
                                        for src, n in cases_by_source.items()},
                          "seconds": round(time.perf_counter() - started, 1)}
            print(f"  door {door}: {rows[door]}", flush=True)
    return rows


# ------------------------------------------------------------------------------------ false positives

def _slice_of(path: str, slices: int) -> int:
    return int(hashlib.md5(path.encode()).hexdigest(), 16) % slices


def _lines(path: str) -> list:
    opener = gzip.open if path.endswith(".gz") else open
    try:
        with opener(path, "rt", encoding="utf-8", errors="replace") as fh:
            return [line for line in fh.read().splitlines() if line.strip()]
    except (OSError, EOFError, ValueError):
        return []


def _walk(root: str, suffixes: tuple) -> list:
    out = []
    for dirpath, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith("test") and d != "__pycache__")
        out += [os.path.join(dirpath, f) for f in sorted(files)
                if f.endswith(suffixes) and f not in SECRET_SHAPE_FILES]
    return out


def real_text_sources() -> dict:
    """{name: [file paths]} of third-party text (sliced by path hash)."""
    site = sysconfig.get_paths()["purelib"]
    return {"site-packages code (.py lines)": _walk(site, (".py",)),
            "site-packages docs (lines)": _walk(site, (".md", ".rst", ".txt", "METADATA")),
            "/usr/share/doc (lines)": _walk("/usr/share/doc", (".txt", ".md", "README", ".gz", "NEWS", "changelog", ".html"))}


def own_corpora() -> dict:
    """{name: [units]}: this repository, the design documents, LoCoMo, CMRC 2018."""
    out = {"repo code (lines)": [], "repo docs (lines)": [], "design docs zh (lines)": [],
           "LoCoMo turns": [], "CMRC 2018 paragraphs": []}
    for pattern in ("scripts/**/*.py", "bench/*.py", "hooks/*.sh", "*.sh"):
        for path in sorted(glob.glob(os.path.join(REPO, pattern), recursive=True)):
            if os.path.basename(path) not in SECRET_SHAPE_FILES:
                out["repo code (lines)"] += _lines(path)
    for pattern in ("*.md", "docs/*.md", "scripts/code_memory/templates/**/*.md"):
        for path in sorted(glob.glob(os.path.join(REPO, pattern), recursive=True)):
            out["repo docs (lines)"] += _lines(path)
    for path in sorted(glob.glob(os.path.join(SHARED, "specs", "*"))):
        out["design docs zh (lines)"] += _lines(path)
    locomo = os.path.join(SHARED, "bench-data", "locomo", "locomo_dev.json")
    if os.path.exists(locomo):
        with open(locomo, encoding="utf-8") as fh:
            for sample in json.load(fh):
                for key, turns in sample["conversation"].items():
                    if key.startswith("session_") and isinstance(turns, list):
                        out["LoCoMo turns"] += [t["text"] for t in turns]
    cmrc = os.path.join(SHARED, "bench-data", "cmrc2018", "cmrc2018_dev.json")
    if os.path.exists(cmrc):
        with open(cmrc, encoding="utf-8") as fh:
            for article in json.load(fh)["data"]:
                out["CMRC 2018 paragraphs"] += [p["context"] for p in article["paragraphs"]]
    return out


def _changed(name: str, units: list, show: int, shown: list) -> dict:
    from code_memory.redact import find_secrets, redact
    changed, kinds = 0, {}
    for unit in units:
        out = redact(unit)
        if out != unit:
            changed += 1
            for kind in find_secrets(unit):
                kinds[kind] = kinds.get(kind, 0) + 1
            if len(shown) < show:
                shown.append(1)
                print(f"  [{name}] {unit[:160]!r}\n      -> {out[:160]!r}")
    return {"lines": len(units), "changed": changed, "rate %": round(100 * changed / max(len(units), 1), 4),
            "kinds": dict(sorted(kinds.items(), key=lambda kv: -kv[1]))}


def false_positives(smoke: bool, show: int, slices: int, report: list, tuned: list) -> dict:
    rows, shown = {}, []
    for name, files in real_text_sources().items():
        for s in report:
            chosen = [f for f in files if _slice_of(f, slices) == s][: 3 if smoke else None]
            units = [line for f in chosen for line in _lines(f)]
            label = f"{name}, slice {s}/{slices}" + (" (looked at: tuning)" if s in tuned else " (held out)")
            rows[label] = {"files": len(chosen), **_changed(label, units, show, shown)}
            print(f"  {label}: {rows[label]}", flush=True)
    for name, units in own_corpora().items():
        rows[name] = _changed(name, units[:200] if smoke else units, show, shown)
    return rows


# ------------------------------------------------------------------------------------------ cost

COST_PROBE = r"""
import json, statistics, sys, time
sys.path.insert(0, sys.argv[1])
inputs = json.load(open(sys.argv[2], encoding="utf-8"))
t = time.perf_counter(); import code_memory.redact as r; r.redact("x=1 token=abc"); first = time.perf_counter() - t
out = {"import + first call (ms)": first * 1000}
for name, text in inputs["typical"].items():
    runs = []
    for _ in range(inputs["repeat"] if len(text) < 10000 else 5):
        t = time.perf_counter(); r.redact(text); runs.append(time.perf_counter() - t)
    out[name + " (µs)"] = statistics.median(runs) * 1e6
units = inputs["lines"]
t = time.perf_counter()
for u in units:
    r.redact(u)
out["real-text lines (µs per KB)"] = (time.perf_counter() - t) * 1e6 / (sum(len(u.encode()) for u in units) / 1024)
n = inputs["worst_bytes"]
for name, text in (("a", "a" * n), ("password=", "password=" * (n // 9)), ("key: ", "key: " * (n // 5)),
                   ("base64", "Ab3+" * (n // 4)), ("BEGIN PRIVATE KEY without END", "-----BEGIN PRIVATE KEY-----\n" + "A" * n),
                   ("<private> without close", "<private>" + "x " * (n // 2)), ("mysql -p lines", "mysql -u root -p\n" * (n // 17)),
                   ("password%3D", "password%3D" * (n // 11)), ("密码：", "密码：" * (n // 9))):
    t = time.perf_counter(); r.redact(text)
    out[f"worst case, {n // 1000} KB of {name!r} (ms)"] = (time.perf_counter() - t) * 1000
print(json.dumps(out))
"""
LABEL_PROBE = (r"import sys, time; sys.path.insert(0, sys.argv[1]); t = time.perf_counter(); "
               r"from code_memory.memory.daily import _clean_label; _clean_label(sys.argv[2]); "
               r"print((time.perf_counter() - t) * 1000)")


def costs(smoke: bool, old: str | None, rounds: int) -> dict:
    sides = {"new": os.path.join(REPO, "scripts")}
    if old:
        sides["old"] = os.path.join(old, "scripts")
    code = open(os.path.join(REPO, "scripts", "code_memory", "kv", "write.py"), encoding="utf-8").read()
    note = "\n".join(own_corpora()["repo docs (lines)"])[:100_000]
    site = [f for f in real_text_sources()["site-packages code (.py lines)"] if _slice_of(f, 10) == 1]
    lines = [line for f in site[: 20 if smoke else 400] for line in _lines(f)]
    inputs = {"repeat": 20 if smoke else 200, "lines": lines, "worst_bytes": 20_000 if smoke else 1_000_000,
              "typical": {"hook-sized line (95 B)": "- 14:03 [payments] src/gateway/retry.py: fixed the timeout by "
                                                    "retrying with backoff (3 tries)",
                          "code chunk (2 KB)": code[:2000], "note (100 KB of docs)": note}}
    results: dict = {side: [] for side in sides}
    labels: dict = {side: [] for side in sides}
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, encoding="utf-8") as fh:
        json.dump(inputs, fh)
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    try:
        for _ in range(1 if smoke else rounds):
            for side, scripts in sides.items():            # alternating: load hits both alike
                done = subprocess.run([sys.executable, "-c", COST_PROBE, scripts, fh.name], capture_output=True,
                                      text=True, env=env, check=True)
                results[side].append(json.loads(done.stdout))
                for _ in range(3):
                    done = subprocess.run([sys.executable, "-S", "-c", LABEL_PROBE, scripts, "src/gateway/retry_policy.py"],
                                          capture_output=True, text=True, env=env, check=True)
                    labels[side].append(float(done.stdout))
    finally:
        os.unlink(fh.name)
    out = {}
    for side in sides:
        out[side] = {k: round(statistics.median(r[k] for r in results[side]), 1) for k in results[side][0]}
        out[side]["daily-note label in a fresh process (ms)"] = round(statistics.median(labels[side]), 1)
    if old:
        out["new / old"] = {k: round(out["new"][k] / out["old"][k], 2) for k in out["new"] if out["old"].get(k)}
    out["real-text lines: KB"] = round(sum(len(u.encode()) for u in lines) / 1024)
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--smoke", action="store_true", help="a few seconds on tiny data")
    parser.add_argument("--only", choices=("recall", "doors", "fp", "cost"), action="append",
                        help="run only these sections (repeatable)")
    parser.add_argument("--show", type=int, default=0, help="print this many leaks and changed lines")
    parser.add_argument("--old", metavar="DIR", help="a checkout whose redact.py is timed in the same run")
    parser.add_argument("--rounds", type=int, default=5, help="alternating cost rounds (default 5)")
    parser.add_argument("--fp-slices", type=int, default=10, help="files are split in this many slices by path hash")
    parser.add_argument("--fp-report", default="0,1,2,3,4,5,6", help="the slices to report")
    parser.add_argument("--fp-tuned", default="0,1,2,4",
                        help="the slices whose changed lines were read to fix false positives (reported apart)")
    parser.add_argument("--slow-every", type=int, default=5, help="the slow doors get every n-th held-out case")
    parser.add_argument("--json", help="also write the numbers here")
    args = parser.parse_args(argv)
    _setup_path(os.path.join(REPO, "scripts"))
    tmp_home = tempfile.mkdtemp(prefix="bench-redact-")
    os.environ.update(HOME=tmp_home, CODE_MEMORY_ROOT=os.path.join(tmp_home, ".claude", "memory"))
    sections = args.only or ["recall", "doors", "fp", "cost"]
    load = os.getloadavg()[0]
    out = {"load average at start": round(load, 2)}
    if "recall" in sections:
        out["recall"] = recall(args.smoke, args.show)
        if args.old:
            out["recall"]["--old checkout"] = old_recall(args.old, args.smoke)
        print(json.dumps({"recall": out["recall"]}, ensure_ascii=False, indent=1), flush=True)
    if "doors" in sections:
        out["doors"] = doors(args.smoke, args.slow_every)
    if "fp" in sections:
        out["false positives"] = false_positives(args.smoke, args.show, args.fp_slices,
                                                 [int(s) for s in args.fp_report.split(",")],
                                                 [int(s) for s in args.fp_tuned.split(",")])
        print(json.dumps({"false positives": out["false positives"]}, ensure_ascii=False, indent=1), flush=True)
    if "cost" in sections:
        out["cost"] = costs(args.smoke, args.old, args.rounds)
        print(json.dumps({"cost": out["cost"]}, ensure_ascii=False, indent=1))
    out["load average at end"] = round(os.getloadavg()[0], 2)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(out, fh, ensure_ascii=False, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
