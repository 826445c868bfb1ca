#!/usr/bin/env python3
"""Handover held-out set: does the next session's start context carry what the last one did,
said the way people really say it?

    .venv-test/bin/python bench/bench_handover_heldout.py [--checkout DIR] [--smoke] [--json OUT] [--misses]

HELD-OUT EVALUATION SET, written before the extractor change of issue 20 (base commit ba21af9).
Do not tune the extractor to it — no phrase, marker word or scenario of
bench/data/handover_heldout/ may be copied into scripts/code_memory/summary/ or its tests. Tune on
bench/bench_continuity.py and on your own cases; report this set's numbers separately.

The data (bench/data/handover_heldout/, see its README.md) are transcripts the real Claude Code
binary wrote for multi-turn sessions (several user turns each, real tool calls that edited a git
checkout and ran commands), recorded by bench/record_handover_heldout.py, and annotations.json: per
session, the facts the next session must see (topic, files, decisions, reasons, open to-dos,
pitfalls — each a set of keywords that must all appear, case-insensitive) and the to-dos it finished.

For every scenario, in a temp HOME and memory root (with the same small MEMORY.md a user has), the
sessions are replayed in order. Before each session, and once more after each project's last one,
the SessionStart hook runs as registered in the checkout's hooks/hooks.json (``sh -c '<command>'``
with ``CLAUDE_PLUGIN_ROOT`` = the checkout, the payload on stdin); its context is scored against the
project's previous session. After each session the summarizer runs as the SessionEnd hook would
start it — a new process, ``scripts/session-summary.py --transcript … --cwd … --session-id …
--ended-at …`` with ``llm.backend none`` — on the transcript placed where the binary writes it
(paths rewritten from ``/home/dev`` to the temp dir, timestamps shifted so sessions are an hour
apart and recent).

Reported: hits / total per kind and overall; finished to-dos still shown as open (a line with
``[ ]`` holding all of the to-do's keywords, in any later start context of the project); leaks (in
the two scenarios with two projects in one memory root, a fact of the other project in a start
context); wrong closes (at each start, a to-do the index shows ``done`` — ``code-memory todo list
--status done``, closed by a session, not by the person — that holds all keywords of an open to-do
the previous session carries; counted once per to-do; "n/a" for a checkout without that command);
spurious to-dos (at each start, a ``[ ]`` line holding the keywords of no to-do the project's
sessions plant, open or finished — a measure of precision, counted against all ``[ ]`` lines);
start-context characters p50 / max; SessionStart wall time p50 / max as registered.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import datetime, timedelta, timezone

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(REPO, "bench", "data", "handover_heldout")
PLACEHOLDER = "/home/dev"
KINDS = ("topic", "files", "decisions", "reasons", "todos", "pitfalls")
SMOKE_SCENARIOS = 2
_TIMESTAMP = re.compile(r'"timestamp":"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z)"')


def load_annotations() -> dict:
    with open(os.path.join(DATA, "annotations.json"), encoding="utf-8") as fh:
        return json.load(fh)


def keyword_pattern(keyword: str) -> re.Pattern:
    """A keyword as a case-insensitive pattern: ``a|b`` are spellings of one keyword; an edge that is
    an ASCII letter or digit must not touch another one (``CI`` is not in "decided"), unless the
    keyword ends with ``*`` (``bookmark*`` also finds "bookmarks")."""
    spellings = []
    for spelling in keyword.split("|"):
        open_end = spelling.endswith("*")
        spelling = spelling.rstrip("*")
        pattern = re.escape(spelling)
        if spelling[:1].isascii() and spelling[:1].isalnum():
            pattern = r"(?<![A-Za-z0-9])" + pattern
        if not open_end and spelling[-1:].isascii() and spelling[-1:].isalnum():
            pattern += r"(?![A-Za-z0-9])"
        spellings.append(pattern)
    return re.compile("|".join(spellings), re.IGNORECASE)


def present(keys: list, text: str) -> bool:
    """Every keyword of a fact occurs in ``text`` (see :func:`keyword_pattern`)."""
    return all(keyword_pattern(k).search(text) for k in keys)


def open_todo_lines(context: str) -> list:
    return [line for line in context.split("\n") if "[ ]" in line]


# ---------------------------------------------------------------------------------------------
# running the checkout's product code

def registered_session_start(checkout: str) -> list:
    """The SessionStart commands of the checkout's plugin hooks (hooks/hooks.json)."""
    with open(os.path.join(checkout, "hooks", "hooks.json"), encoding="utf-8") as fh:
        hooks = json.load(fh)["hooks"]
    return [h["command"] for group in hooks.get("SessionStart", []) for h in group.get("hooks", [])
            if h.get("type") == "command"]


def start_context(commands: list, env: dict, payload: dict) -> tuple:
    """(additional context, wall seconds) of the SessionStart hook(s), run as registered."""
    data = json.dumps(payload).encode()
    parts, started = [], time.perf_counter()
    for command in commands:
        out = subprocess.run(["sh", "-c", command], input=data, capture_output=True, env=env, check=False).stdout
        text = out.decode("utf-8", errors="replace").strip()
        if text.startswith("{"):
            try:
                text = json.loads(text).get("hookSpecificOutput", {}).get("additionalContext", "")
            except ValueError:
                text = ""
        if text:
            parts.append(text)
    return "\n".join(parts), time.perf_counter() - started


def place_transcript(source: str, tmp: str, home: str, cwd: str, session_id: str, ended: datetime) -> str:
    """The recorded transcript where the binary writes it, paths and times moved to this run."""
    with open(source, encoding="utf-8") as fh:
        text = fh.read()
    text = text.replace(PLACEHOLDER, tmp).replace("-home-dev", re.sub(r"[^A-Za-z0-9]", "-", tmp))
    stamps = [_parse(m) for m in _TIMESTAMP.findall(text)]
    shift = ended - max(stamps) if stamps else timedelta(0)
    text = _TIMESTAMP.sub(lambda m: f'"timestamp":"{_iso(_parse(m.group(1)) + shift)}"', text)
    path = os.path.join(home, ".claude", "projects", re.sub(r"[^A-Za-z0-9]", "-", cwd), f"{session_id}.jsonl")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    return path


def _parse(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


def _iso(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def session_id_of(path: str) -> str:
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            found = json.loads(line).get("sessionId")
            if found:
                return found
    return str(uuid.uuid5(uuid.NAMESPACE_URL, path))


# ---------------------------------------------------------------------------------------------
# one scenario

class Tally:
    def __init__(self):
        self.kinds = {k: [0, 0] for k in KINDS}
        self.langs: dict = {}
        self.finished = [0, 0]          # still shown, total
        self.leaks = [0, 0]             # leaked facts, facts checked
        self.open_lines = [0, 0]        # spurious, all: ``[ ]`` lines at the starts
        self.wrong_closes: set | None = set()    # ids of to-dos closed although still open; None: n/a
        self.chars: list = []
        self.start_ms: list = []
        self.summary_failures = 0
        self.misses: list = []
        self.scenarios: dict = {}


def run_scenario(sc: dict, checkout: str, python: str, tally: Tally, background: str, clock: datetime,
                 dump: str | None = None, observer=None) -> datetime:
    """Replay one scenario. ``observer`` (optional; bench_todo_check_heldout.py) sees every start
    context (``observer.start(env, project, label, context)``) and every session with its
    transcript in place, before it is summarized (``observer.session(env, cwd, session_id, sess,
    path, tmp)``)."""
    commands = registered_session_start(checkout)
    summarizer = os.path.join(checkout, "scripts", "session-summary.py")
    own = tally.scenarios.setdefault(sc["id"], {"hit": 0, "total": 0})
    lang = tally.langs.setdefault(sc["lang"], [0, 0])
    with tempfile.TemporaryDirectory(prefix="cm-handover-heldout-") as tmp:
        tmp = os.path.realpath(tmp)
        home = os.path.join(tmp, "home")
        root = os.path.join(home, ".claude", "memory")
        os.makedirs(root)
        shutil.copy(background, os.path.join(root, "MEMORY.md"))
        env = {k: v for k, v in os.environ.items() if not k.startswith(("CODE_MEMORY_", "CLAUDE_", "ANTHROPIC_"))}
        env.update({"HOME": home, "CODE_MEMORY_ROOT": root, "TMPDIR": tmp, "CODE_MEMORY_PYTHON": python,
                    "CODE_MEMORY_LLM__BACKEND": "none", "CLAUDE_PLUGIN_ROOT": checkout})
        cwds = {}
        for project in sc["projects"]:
            cwds[project] = os.path.join(tmp, "work", project)
            os.makedirs(os.path.join(cwds[project], ".git"))
        sessions = sc["sessions"]
        previous: dict = {}          # project → its last session so far
        finished: dict = {}          # project → finished to-dos so far: [fact, still shown anywhere]

        def start(project: str, session_id: str, label: str) -> None:
            cwd = cwds[project]
            payload = {"session_id": session_id, "cwd": cwd, "hook_event_name": "SessionStart", "source": "startup",
                       "transcript_path": os.path.join(home, ".claude", "projects",
                                                       re.sub(r"[^A-Za-z0-9]", "-", cwd), f"{session_id}.jsonl")}
            context, seconds = start_context(commands, env, payload)
            if dump:
                name = re.sub(r"[^A-Za-z0-9#_-]+", "_", label).strip("_")
                with open(os.path.join(dump, f"{name}.txt"), "w", encoding="utf-8") as fh:
                    fh.write(context.replace(tmp, "<tmp>"))
            tally.chars.append(len(context))
            if observer:
                observer.start(env, project, label, context)
            tally.start_ms.append(seconds * 1000)
            last = previous.get(project)
            if last is not None:
                for fact in last["carry"]:
                    hit = present(fact["keys"], context)
                    for counter in (tally.kinds[fact["kind"]], lang):
                        counter[0] += hit
                        counter[1] += 1
                    own["hit"] += hit
                    own["total"] += 1
                    if not hit:
                        tally.misses.append(f"{label}: {fact['kind']} {fact['keys']} (from session {last['index']})")
            if last is not None:
                check_closes(tally, checkout, python, env, project, last, label)
            open_lines = open_todo_lines(context)
            planted = [f for s in sessions if s["project"] == project for f in s["carry"] + s["finished"]
                       if f["kind"] == "todos"]
            for line in open_lines:
                tally.open_lines[1] += 1
                if not any(present(f["keys"], line) for f in planted):
                    tally.open_lines[0] += 1
                    tally.misses.append(f"{label}: spurious to-do {line.strip()[:120]}")
            for entry in finished.get(project, []):
                if any(present(entry[0]["keys"], line) for line in open_lines) and not entry[1]:
                    entry[1] = True
                    tally.misses.append(f"{label}: finished to-do still open {entry[0]['keys']}")
            for other, facts in sc.get("leak_facts", {}).items():
                if other == project:
                    continue
                for fact in facts:
                    tally.leaks[1] += 1
                    if present(fact["keys"], context):
                        tally.leaks[0] += 1
                        tally.misses.append(f"{label}: leak from {other}: {fact['kind']} {fact['keys']}")

        last_index = {s["project"]: s["index"] for s in sessions}
        for sess in sessions:
            project = sess["project"]
            source = os.path.join(DATA, sess["transcript"])
            session_id = session_id_of(source)
            label = f"{sc['id']} #{sess['index']} ({project})"
            start(project, session_id, label)
            clock += timedelta(hours=1)
            path = place_transcript(source, tmp, home, cwds[project], session_id, clock)
            if observer:
                observer.session(env, cwds[project], session_id, sess, path, tmp)
            done = subprocess.run([python, summarizer, "--transcript", path, "--cwd", cwds[project],
                                   "--session-id", session_id, "--ended-at", clock.isoformat(timespec="seconds")],
                                  capture_output=True, text=True, env=env, check=False)
            if done.returncode != 0:
                tally.summary_failures += 1
                tally.misses.append(f"{label}: summarizer failed rc={done.returncode}: {done.stderr[-300:]}")
            previous[project] = sess
            finished.setdefault(project, []).extend([f, False] for f in sess["finished"])
            if sess["index"] == last_index[project]:
                next_id = str(uuid.uuid5(uuid.NAMESPACE_URL, f"{sc['id']}/{project}/next"))
                start(project, next_id, f"{sc['id']} next ({project})")
        for entries in finished.values():
            tally.finished[0] += sum(1 for _fact, shown in entries if shown)
            tally.finished[1] += len(entries)
    return clock


def check_closes(tally: Tally, checkout: str, python: str, env: dict, project: str, last: dict, label: str) -> None:
    """Count the to-dos a session closed although ``last`` (the project's previous session) carries
    them as still open."""
    if tally.wrong_closes is None:
        return
    done = subprocess.run([python, os.path.join(checkout, "scripts", "code-memory.py"), "todo", "list", "--status",
                           "done", "--project", project, "--format", "json"],
                          capture_output=True, text=True, env=env, check=False)
    try:
        closed = json.loads(done.stdout)["todos"]
    except (ValueError, KeyError, TypeError):
        tally.wrong_closes = None           # a checkout from before `code-memory todo`
        return
    still_open = [f for f in last["carry"] if f["kind"] == "todos"]
    for todo in closed:
        if todo.get("done_by") == "user" or todo["id"] in tally.wrong_closes:
            continue
        if any(present(f["keys"], todo["text"]) for f in still_open):
            tally.wrong_closes.add(todo["id"])
            tally.misses.append(f"{label}: open to-do closed by {todo.get('done_by')}: {todo['text'][:120]}")


# ---------------------------------------------------------------------------------------------

def _rate(hit: int, total: int) -> float | None:
    return round(hit / total, 3) if total else None


def checkout_commit(checkout: str) -> str:
    found = subprocess.run(["git", "-C", checkout, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return found.stdout.strip() if found.returncode == 0 else ""


def run(checkout: str, python: str, ids=None, smoke: bool = False, dump: str | None = None, observer=None) -> dict:
    notes = load_annotations()
    scenarios = notes["scenarios"]
    if ids:
        scenarios = [s for s in scenarios if s["id"] in ids]
    if smoke:
        scenarios = sorted(scenarios, key=lambda s: (len(s["sessions"]), s["id"]))[:SMOKE_SCENARIOS]
    background = os.path.join(DATA, "background", "MEMORY.md")
    with open(background, encoding="utf-8") as fh:
        shared = fh.read()
    clash = sorted({k for s in scenarios for sess in s["sessions"] for f in sess["carry"] + sess["finished"]
                    for k in f["keys"] if present([k], shared)})
    if clash:   # a keyword found in the background would count a fact as carried without the brief
        raise SystemExit(f"keywords of planted facts occur in the background MEMORY.md: {clash}")
    tally = Tally()
    started = time.time()
    sessions = sum(len(s["sessions"]) for s in scenarios)
    clock = datetime.now(timezone.utc).replace(microsecond=0) - timedelta(hours=sessions + 2)
    for sc in scenarios:
        clock = run_scenario(sc, checkout, python, tally, background, clock, dump, observer)
    hit = sum(v[0] for v in tally.kinds.values())
    total = sum(v[1] for v in tally.kinds.values())
    return {
        "set": "handover held-out (issue 20), written before ba21af9's extractor change — do not tune to it",
        "checkout": checkout, "commit": checkout_commit(checkout), "backend": "none",
        "scenarios": len(scenarios), "sessions": sessions,
        "by_kind": {k: {"hit": v[0], "total": v[1], "rate": _rate(*v)} for k, v in tally.kinds.items()},
        "overall": {"hit": hit, "total": total, "rate": _rate(hit, total)},
        "by_language": {k: {"hit": v[0], "total": v[1], "rate": _rate(*v)} for k, v in sorted(tally.langs.items())},
        "finished_still_shown": {"count": tally.finished[0], "total": tally.finished[1]},
        "spurious_todos": {"count": tally.open_lines[0], "open_lines": tally.open_lines[1]},
        "leaks": {"count": tally.leaks[0], "checked": tally.leaks[1]},
        "wrong_closes": "n/a" if tally.wrong_closes is None else len(tally.wrong_closes),
        "start_context_chars": {"p50": statistics.median(tally.chars) if tally.chars else 0,
                                "max": max(tally.chars, default=0)},
        "session_start_ms_as_registered": {"p50": round(statistics.median(tally.start_ms), 1) if tally.start_ms else 0,
                                           "max": round(max(tally.start_ms, default=0), 1)},
        "summarizer_failures": tally.summary_failures,
        "per_scenario": {k: {**v, "rate": _rate(v["hit"], v["total"])} for k, v in tally.scenarios.items()},
        "misses": tally.misses,
        "seconds": round(time.time() - started, 1),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--checkout", default=REPO,
                        help="run the hooks and the summarizer of this checkout (e.g. `git worktree add /tmp/base ba21af9`)")
    parser.add_argument("--python", default=sys.executable, help="the interpreter the hooks and the summarizer run with")
    parser.add_argument("--smoke", action="store_true", help=f"only the {SMOKE_SCENARIOS} shortest scenarios")
    parser.add_argument("--only", nargs="*", help="only these scenario ids")
    parser.add_argument("--json", help="also write the result here")
    parser.add_argument("--misses", action="store_true", help="print the list of misses (they are always in --json)")
    parser.add_argument("--dump", metavar="DIR", help="write every start context to DIR (one file per session start)")
    args = parser.parse_args()
    checkout = os.path.abspath(args.checkout)
    if not os.path.isfile(os.path.join(checkout, "hooks", "hooks.json")):
        print(f"error: {checkout} is not a code-memory checkout (no hooks/hooks.json)", file=sys.stderr)
        return 2
    subprocess.run([args.python, "-m", "compileall", "-q", os.path.join(checkout, "scripts")], check=False)
    if args.dump:
        os.makedirs(args.dump, exist_ok=True)
    result = run(checkout, args.python, args.only, args.smoke, args.dump)
    text = json.dumps(result, ensure_ascii=False, indent=2)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            fh.write(text + "\n")
    shown = result if args.misses else {k: v for k, v in result.items() if k != "misses"}
    print(json.dumps(shown, ensure_ascii=False, indent=2))
    return 1 if result["summarizer_failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
