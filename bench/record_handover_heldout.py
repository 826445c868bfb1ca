#!/usr/bin/env python3
"""Record the handover held-out set (bench/data/handover_heldout/) with the real Claude Code binary.

    CODE_MEMORY_TEST_CLAUDE_BIN=/path/to/claude .venv-test/bin/python bench/record_handover_heldout.py [--only ID ...]
    .venv-test/bin/python bench/record_handover_heldout.py --annotations-only   # rewrite annotations.json

HELD-OUT EVALUATION SET, written before the extractor change of issue 20 (base commit ba21af9).
Do not tune the extractor to it: see bench/data/handover_heldout/README.md.

For every scenario of ``bench/data/handover_heldout/scenarios.py`` it builds the scenario's projects
as real git checkouts in a temp dir, starts the loopback stand-in API (tests/support/standin_api.py)
scripted with the scenario's assistant steps, and runs each session as one ``claude -p
--input-format stream-json`` process: the user's turns are written to its stdin one at a time, each
after the previous turn's ``result`` — several user turns in one real session. The binary really
runs the tools: Read, Edit and Write change the checkout, Bash runs the commands (pytest, git,
grep, node). No code-memory hook is installed while recording, so the transcripts do not depend on
any version of the product.

Checks, per session: the binary exits 0, the stand-in consumed every scripted step, and every tool
result is an error exactly when the scenario says the step fails (a failing test run, a refused
upgrade). Then the transcript is copied into the data folder:
- the temp dir is rewritten to ``/home/dev`` (so the checkout is ``/home/dev/work/<project>``) and the
  interpreter's prefix to ``/usr/local``; nothing of this machine's paths may remain;
- bulky bookkeeping lines that carry no conversation (``DROPPED_TYPES`` and ``DROPPED_ATTACHMENTS``:
  request copies and shapes, the prompt snapshot, the skill and agent listings) are left out — every
  ``user`` / ``assistant`` / ``attachment`` (other kinds) / ``queue-operation`` / ``last-prompt`` /
  ``system`` line is kept verbatim.
``annotations.json`` is written from the scenarios' annotations and validated: every planted fact's
keywords occur in its project's transcripts up to that session, and no keyword set used for a leak
check occurs in the other project's transcripts.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(REPO, "bench", "data", "handover_heldout")
sys.path.insert(0, os.path.join(REPO, "tests"))

from bench_handover_heldout import present  # noqa: E402
from support.standin_api import StandinAPI, claude_env, strings_in  # noqa: E402
from support.standin_api import main as main_step  # noqa: E402

PLACEHOLDER = "/home/dev"
DROPPED_TYPES = {"api-request", "api-request-blob", "api-request-shape"}
DROPPED_ATTACHMENTS = {"prompt_snapshot", "skill_listing", "agent_listing_delta", "deferred_tools_delta"}
KINDS = ("topic", "files", "decisions", "reasons", "todos", "pitfalls")
GIT_ENV = {"GIT_AUTHOR_NAME": "Dev", "GIT_AUTHOR_EMAIL": "dev@example.com", "GIT_COMMITTER_NAME": "Dev",
           "GIT_COMMITTER_EMAIL": "dev@example.com", "GIT_AUTHOR_DATE": "2026-10-01T09:00:00+08:00",
           "GIT_COMMITTER_DATE": "2026-10-01T09:00:00+08:00"}


def load_scenarios() -> list:
    spec = importlib.util.spec_from_file_location("handover_heldout_scenarios", os.path.join(DATA, "scenarios.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.SCENARIOS


# ---------------------------------------------------------------------------------------------
# the checkout and the scripted model

GITIGNORE = "__pycache__/\n.pytest_cache/\nnode_modules/\nout/\n*.db\n"


def make_checkout(path: str, files: dict, env: dict) -> None:
    for rel, content in {".gitignore": GITIGNORE, **files}.items():
        full = os.path.join(path, rel)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as fh:
            fh.write(content)
        if rel.endswith(".sh"):
            os.chmod(full, 0o755)
    git = {**env, **GIT_ENV}
    for argv in (["git", "init", "-q", "-b", "main"], ["git", "add", "-A"], ["git", "commit", "-q", "-m", "initial import"]):
        subprocess.run(argv, cwd=path, env=git, check=True, capture_output=True)


def expand(value, project_dir: str):
    """``@/rel/path`` → the absolute path in the checkout, inside any string of a tool input."""
    if isinstance(value, str):
        return value.replace("@/", project_dir + "/")
    if isinstance(value, dict):
        return {k: expand(v, project_dir) for k, v in value.items()}
    if isinstance(value, list):
        return [expand(v, project_dir) for v in value]
    return value


def stand_in_steps(turns: list, project_dir: str) -> list:
    """The main agent's answers for every turn of a session, in order."""
    steps = []
    for turn in turns:
        for step in turn["steps"]:
            if "text" in step:
                steps.append(main_step({"text": step["text"]}))
                continue
            blocks = [{"text": step["say"]}] if step.get("say") else []
            blocks.append({"tool_use": {"name": step["tool"], "input": expand(step["input"], project_dir)}})
            steps.append(main_step({"blocks": blocks}))
        if "text" not in turn["steps"][-1]:
            raise SystemExit(f"a turn must end with a text answer: {turn['user'][:60]!r}")
    return steps


# ---------------------------------------------------------------------------------------------
# one session: several user turns in one process

def run_session(claude_bin: str, env: dict, cwd: str, prompts: list, timeout: float = 300) -> str:
    cmd = [claude_bin, "-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose",
           "--permission-mode", "bypassPermissions"]
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, encoding="utf-8")
    killer = threading.Timer(timeout, proc.kill)
    killer.start()
    session_id = None
    try:
        for prompt in prompts:
            proc.stdin.write(json.dumps({"type": "user", "message": {"role": "user", "content": prompt}},
                                        ensure_ascii=False) + "\n")
            proc.stdin.flush()
            while True:
                line = proc.stdout.readline()
                if not line:
                    raise SystemExit(f"claude ended before answering {prompt[:60]!r}: {proc.stderr.read()[-2000:]}")
                event = json.loads(line)
                session_id = event.get("session_id") or session_id
                if event.get("type") == "result":
                    if event.get("is_error"):
                        raise SystemExit(f"turn failed: {line[:2000]}")
                    break
        proc.stdin.close()
        if proc.wait() != 0:
            raise SystemExit(f"claude exited {proc.returncode}: {proc.stderr.read()[-2000:]}")
    finally:
        killer.cancel()
        if proc.poll() is None:
            proc.kill()
    return session_id


def tool_outcomes(transcript: str) -> list:
    """``(tool name, is_error)`` of every tool call of a transcript, in order."""
    uses, results = [], {}
    with open(transcript, encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            content = (rec.get("message") or {}).get("content")
            if not isinstance(content, list):
                continue
            for block in content:
                if block.get("type") == "tool_use":
                    uses.append((block["id"], block["name"]))
                elif block.get("type") == "tool_result":
                    results[block["tool_use_id"]] = (bool(block.get("is_error")), str(block.get("content"))[:300])
    return [(name, *results.get(tool_id, (True, "no result"))) for tool_id, name in uses]


def check_outcomes(transcript: str, turns: list, label: str) -> None:
    expected = [(s["tool"], bool(s.get("fails"))) for t in turns for s in t["steps"] if "tool" in s]
    seen = tool_outcomes(transcript)
    if len(seen) != len(expected):
        raise SystemExit(f"{label}: {len(seen)} tool calls recorded, {len(expected)} scripted")
    for i, ((name, fails), (got_name, is_error, text)) in enumerate(zip(expected, seen)):
        if name != got_name or fails != is_error:
            raise SystemExit(f"{label}: tool call {i + 1} {name} expected {'failure' if fails else 'success'}, "
                             f"got {got_name} error={is_error}: {text}")


# ---------------------------------------------------------------------------------------------
# normalising a transcript into data

def normalise(text: str, tmp: str, prefixes: dict) -> str:
    text = text.replace(tmp, PLACEHOLDER).replace(re.sub(r"[^A-Za-z0-9]", "-", tmp), "-home-dev")
    for old, new in prefixes.items():
        text = text.replace(old, new)
    kept = []
    for line in text.splitlines():
        rec = json.loads(line)
        if rec.get("type") in DROPPED_TYPES:
            continue
        if rec.get("type") == "attachment" and (rec.get("attachment") or {}).get("type") in DROPPED_ATTACHMENTS:
            continue
        kept.append(line)
    out = "\n".join(kept) + "\n"
    host = os.uname().nodename
    leftovers = [r"(?<!/home/dev)/tmp/", re.escape("/root"), re.escape(REPO), re.escape("standin-key")]
    if len(host) >= 4:     # a short host name ("vm") would match ordinary words
        leftovers.append(r"(?<![A-Za-z0-9])" + re.escape(host) + r"(?![A-Za-z0-9])")
    for leftover in leftovers:
        found = re.search(leftover, out)
        if found:
            at = found.start()
            raise SystemExit(f"a machine path or secret is left in a transcript: {leftover!r} in "
                             f"{out[max(0, at - 200):at + 100]!r}")
    return out


def command_python() -> tuple:
    """(bin directory, prefix) of the ``python3`` the recorded commands run: the first on PATH, with
    shims (pyenv) resolved to the real interpreter. It needs pytest."""
    found = subprocess.run(["python3", "-c", "import sys, pytest; print(sys.executable); print(sys.prefix)"],
                           capture_output=True, text=True, check=False)
    if found.returncode != 0:
        raise SystemExit(f"python3 on PATH must have pytest: {found.stderr.strip()}")
    executable, prefix = found.stdout.split()
    return os.path.dirname(executable), prefix


def interpreter_prefixes(prefix: str) -> dict:
    """The interpreter's prefix → ``/usr/local`` in the data (tracebacks name its files)."""
    return {prefix: "/usr/local"}


# ---------------------------------------------------------------------------------------------
# annotations

def session_file(scenario: dict, index: int) -> str:
    return f"{scenario['id']}/{index + 1:02d}-{scenario['sessions'][index]['project']}.jsonl"


def transcript_text(path: str) -> str:
    """Every string of the user and assistant messages of a transcript (tool inputs and results too)."""
    parts = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            if rec.get("type") in ("user", "assistant"):
                parts += strings_in(rec.get("message", {}).get("content"))
    return "\n".join(parts)


def annotations(scenarios: list) -> dict:
    out = []
    for sc in scenarios:
        texts = {}
        sessions = []
        for i, sess in enumerate(sc["sessions"]):
            path = os.path.join(DATA, session_file(sc, i))
            text = transcript_text(path) if os.path.exists(path) else ""
            texts.setdefault(sess["project"], []).append(text)
            so_far = "\n".join(texts[sess["project"]])
            for fact in sess.get("carry", []) + sess.get("finished", []):
                if fact["kind"] not in KINDS:
                    raise SystemExit(f"{sc['id']} session {i + 1}: unknown kind {fact['kind']}")
                if text and not present(fact["keys"], so_far):
                    raise SystemExit(f"{sc['id']} session {i + 1}: keywords {fact['keys']} are in no transcript "
                                     "of the project so far")
            sessions.append({"index": i + 1, "project": sess["project"], "transcript": session_file(sc, i),
                             "what": sess["what"], "user_turns": [t["user"] for t in sess["turns"]],
                             "tool_calls": sum(1 for t in sess["turns"] for s in t["steps"] if "tool" in s),
                             "carry": sess.get("carry", []), "finished": sess.get("finished", [])})
        leaks = {}
        projects = sorted(texts)
        for project in projects:
            facts = [f for s in sc["sessions"] if s["project"] == project for f in s.get("carry", [])
                     if f.get("leak", True)]
            unique = []
            for fact in facts:
                if fact["keys"] not in [u["keys"] for u in unique]:
                    unique.append({"kind": fact["kind"], "keys": fact["keys"]})
            for other in projects:
                if other != project:
                    clash = [f["keys"] for f in unique if any(present(f["keys"], t) for t in texts[other])]
                    if clash and all(texts[other]):
                        raise SystemExit(f"{sc['id']}: leak keywords of {project} occur in {other}'s own "
                                         f"transcripts: {clash}")
            if len(projects) > 1:
                leaks[project] = unique
        out.append({"id": sc["id"], "lang": sc["lang"], "kinds": sc["kinds"], "about": sc["about"],
                    "projects": projects, "sessions": sessions, "leak_facts": leaks})
    return {"held_out": True, "written_before": "ba21af9", "binary": "Claude Code 2.1.330",
            "note": "Held-out evaluation set for issue 20. Do not tune the extractor to it (README.md).",
            "scenarios": out}


def write_annotations(scenarios: list) -> str:
    path = os.path.join(DATA, "annotations.json")
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(annotations(scenarios), fh, ensure_ascii=False, indent=1)
        fh.write("\n")
    return path


# ---------------------------------------------------------------------------------------------

def record_scenario(claude_bin: str, scenario: dict, data_dir: str = DATA) -> None:
    """Record one scenario's sessions into ``data_dir`` (bench/record_evolution_heldout.py records
    its own set with this too)."""
    tmp = os.path.realpath(tempfile.mkdtemp(prefix="cm-heldout-"))
    try:
        home = os.path.join(tmp, "home")
        os.makedirs(os.path.join(home, ".claude"))
        python_bin, python_prefix = command_python()
        base_env = {"PATH": os.pathsep.join([python_bin, "/usr/local/bin", "/usr/bin", "/bin"]),
                    "LANG": "C.UTF-8", "TZ": "Asia/Shanghai", "NPM_CONFIG_UPDATE_NOTIFIER": "false",
                    "TMPDIR": os.path.join(tmp, "tmp"), **GIT_ENV}
        os.makedirs(base_env["TMPDIR"])
        for project, files in scenario["projects"].items():
            make_checkout(os.path.join(tmp, "work", project), files, base_env)
        out_dir = os.path.join(data_dir, scenario["id"])
        shutil.rmtree(out_dir, ignore_errors=True)
        os.makedirs(out_dir)
        prefixes = interpreter_prefixes(python_prefix)
        with StandinAPI(default_text="ok") as api:
            for i, session in enumerate(scenario["sessions"]):
                cwd = os.path.join(tmp, "work", session["project"])
                for rel, content in session.get("files_before", {}).items():   # the user's own work in between
                    with open(os.path.join(cwd, rel), "w", encoding="utf-8") as fh:
                        fh.write(content)
                api.push(*stand_in_steps(session["turns"], cwd))
                env = claude_env(api.base_url, home, base_env)
                sid = run_session(claude_bin, env, cwd, [t["user"] for t in session["turns"]])
                label = f"{scenario['id']} session {i + 1}"
                if api.pending_steps():
                    raise SystemExit(f"{label}: {len(api.pending_steps())} scripted steps were not used")
                transcript = os.path.join(home, ".claude", "projects", re.sub(r"[^A-Za-z0-9]", "-", cwd),
                                          f"{sid}.jsonl")
                check_outcomes(transcript, session["turns"], label)
                with open(transcript, encoding="utf-8") as fh:
                    text = normalise(fh.read(), tmp, prefixes)
                with open(os.path.join(data_dir, session_file(scenario, i)), "w", encoding="utf-8") as fh:
                    fh.write(text)
                print(f"{label}: {len(text):,} bytes, {sid}", flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def recording_args(description: str):
    """The recorders' command line: ``--only ID …``, ``--annotations-only``, ``--claude BIN``."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--only", nargs="*", help="record these scenario ids only")
    parser.add_argument("--annotations-only", action="store_true", help="only rewrite annotations.json")
    parser.add_argument("--claude", default=os.environ.get("CODE_MEMORY_TEST_CLAUDE_BIN"),
                        help="the Claude Code binary (default $CODE_MEMORY_TEST_CLAUDE_BIN)")
    args = parser.parse_args()
    if not args.annotations_only and not args.claude:
        raise SystemExit("give --claude or set CODE_MEMORY_TEST_CLAUDE_BIN")
    return args


def main() -> int:
    args = recording_args(__doc__.split("\n\n")[0])
    scenarios = load_scenarios()
    if not args.annotations_only:
        for scenario in scenarios:
            if not args.only or scenario["id"] in args.only:
                record_scenario(args.claude, scenario)
    print(f"wrote {write_annotations(scenarios)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
