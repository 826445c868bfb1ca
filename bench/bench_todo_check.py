#!/usr/bin/env python3
"""The todo-check Stop hook on the handover sets: does it ask about the to-dos a session finished, and
what does it cost?

    .venv-test/bin/python bench/bench_todo_check.py --set NAME [--json OUT] [--smoke] [--checkout DIR]

``--set`` takes any handover set: the names of ``bench_handover_tuning.py`` (tuning, closing,
closing-heldout … closing-heldout6, traps, progress, wrongs, wrongs6, bilingual, capture…) or any
``bench/handover_<name>.py`` / ``bench/handover_<name>_set.py`` module with ``SCENARIOS`` (so
closing-heldout9 runs when it exists). Sets written blind and not yet read (closing-heldout7/8/9/10)
are labelled held-out; the others are TUNING data — the trigger was tuned on them, so their
numbers are upper bounds.

The replay is ``bench_handover_tuning.run``'s (same scenarios, interleaved, the real offline
summarizer building the index from the earlier sessions, a memory root with a user's usual
content). Before each session is summarized, it is replayed turn by turn: at the end of every user
turn, ``hooks/todo-check.sh`` runs as Claude Code runs a Stop hook (``sh -c``, a new process),
with the turn's last assistant text as ``last_assistant_message`` and the transcript written up to
the end of that turn; ``stop_hook_active`` is false (the model's answer is not simulated, so the
hook's own follow-up turn never happens). Its questions are recorded (the to-do ids it names).

Scored per set, with the to-do index after each project's last session:

- **finishes**: planted ``done`` phrases (a session finished an earlier to-do); **captured**: its
  to-do is in the index (the summarizer wrote it down; only those can be asked about); **asked**:
  the hook named it in the finishing session; **closed by the summarizer**: the index shows it done
  by that session (or earlier);
- **ask recall** = asked / captured, and on the finishes the summarizer misses (captured, not
  closed) — the hook's reason to exist;
- **finished still shown, floor (assumes the model answers every ask truthfully)** = captured,
  neither closed by the summarizer nor asked: what no truthful answer can fix;
- **cost**: asks on traps (``traps``: an open to-do a session works near without finishing — a
  question the model must answer "no" to), questions per work session and per turn, the share of
  turns with a question, to-dos named per question — next to the least share any trigger needs to
  ask every finish (one question per session that finishes a captured to-do);
- the hook's wall time per call (p50, p90: the shim in a new process, as Claude Code runs it).

Baseline: without the hook, every finish the summarizer misses stays shown (its "finished still
shown"); ``--checkout DIR`` runs another checkout's hook and summarizer. ``--meaning``: the hook
also asks the warm search server which to-dos a turn is about by meaning (op ``related``); the
bench starts that server and the embedding daemon of the test model (or ``--model-path DIR``) in a
private socket directory, warms them up before the first turn and stops them at the end. Without
it: words only, and no model is needed (``--smoke`` runs in seconds).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import bench_handover_tuning as handover  # noqa: E402
from report import emit  # noqa: E402

BLIND = ("closing-heldout7", "closing-heldout8", "closing-heldout9", "closing-heldout10")
ASKED = re.compile(r"\b([0-9a-f]{8}) “")


def scenarios_of(name: str):
    """The SCENARIOS of set ``name``: bench_handover_tuning's sets, else bench/handover_<name>.py or
    bench/handover_<name>_set.py (``-`` read as ``_``)."""
    if name in handover.SETS:
        return handover.SETS[name]
    stem = name.replace("-", "_")
    for module in (f"handover_{stem}", f"handover_{stem}_set"):
        if os.path.exists(os.path.join(HERE, module + ".py")):
            return importlib.import_module(module).SCENARIOS
    raise SystemExit(f"no handover set named {name!r} (bench/handover_{stem}.py or handover_{stem}_set.py)")


def turns(steps: list) -> list:
    """``[(end, last assistant text)]``: each user turn's end (index after its last step) and the
    last thing the assistant said in it (what Stop's ``last_assistant_message`` holds)."""
    out, start = [], None
    for i, step in enumerate(steps + [("user", None)]):
        if step[0] == "user":
            if start is not None:
                said = [s[1] for s in steps[start:i] if s[0] == "say"]
                out.append((i, said[-1] if said else ""))
            start = i
    return out


class Meaning:
    """``--meaning``: the hook also asks the warm search server (op ``related``) which to-dos a turn
    is about by meaning — the server and the embedding daemon of ``model_dir`` run in a private
    socket directory, started and warmed up here before the first turn and stopped at the end."""

    def __init__(self, checkout: str, python: str, model_dir: str | None, tmp: str):
        sys.path.insert(0, os.path.join(handover.REPO, "tests", "support"))
        import testmodel

        self.checkout, self.python = checkout, python
        model = testmodel.model_config(model_dir or testmodel.assemble(os.path.join(tmp, "model")))
        if model_dir:
            model = {"model": "local/" + os.path.basename(os.path.normpath(model_dir)), "model_path": model_dir}
        self.sockets = tempfile.mkdtemp(prefix="cmb-", dir="/tmp")       # short: a socket path has 108 bytes
        self.env = {"CODE_MEMORY_SOCKET_DIR": self.sockets, "CODE_MEMORY_SEARCH__SERVER": "1",
                    "CODE_MEMORY_EMBEDDING__DAEMON": "1", "HF_HUB_OFFLINE": "1",
                    **{f"CODE_MEMORY_EMBEDDING__{k.upper()}": str(v) for k, v in model.items()}}
        self.warm_roots: set = set()

    def _client(self, env: dict, code: str, *args: str, timeout: float = 60) -> str:
        """Run ``code`` with the checkout's search client (its code version is the hook's)."""
        return subprocess.run([self.python, "-c", "import sys, time\nfrom code_memory.search import client, daemon, embed\n"
                               + code, *args], env={**env, "PYTHONPATH": os.path.join(self.checkout, "scripts")},
                              capture_output=True, text=True, timeout=timeout, check=False).stdout.strip()

    def warm_up(self, env: dict) -> None:
        """The root's server answers ``related`` with vectors (started by the first call)."""
        root = env["CODE_MEMORY_ROOT"]
        if root in self.warm_roots:
            return
        by = self._client(env, "end = time.monotonic() + 180\n"
                               "while time.monotonic() < end:\n"
                               "    a = client.call(sys.argv[1], 'related', {'text': 'warm up', "
                               "'todos': [{'id': 'w', 'text': 'warm'}]}, 5)\n"
                               "    if a and a.get('by'): print(a['by']); break\n"
                               "    time.sleep(0.2)\n", root, timeout=200)
        if not by:
            raise SystemExit("--meaning: the warm server answered no vectors within 180 s")
        self.warm_roots.add(root)

    def stop(self, env: dict) -> None:
        """Stop the servers and the embedding daemon this run started."""
        if env:
            self._client(env, "for r in sys.argv[1:]: client.call(r, 'shutdown', {}, 5, start_server=False)\n"
                              "from code_memory.config import load_config\n"
                              "daemon.stop(embed.spec_from_config(load_config()['embedding']))\n", *self.warm_roots)
        shutil.rmtree(self.sockets, ignore_errors=True)


def run_stop_hook(shim: str, env: dict, sid: str, transcript: str, cwd: str, message: str) -> tuple:
    """Run the Stop hook as Claude Code does (``sh -c``, a new process, the payload on stdin):
    ``([the to-do ids its question names], wall seconds)``."""
    data = json.dumps({"session_id": sid, "transcript_path": transcript, "cwd": cwd, "hook_event_name": "Stop",
                       "stop_hook_active": False, "last_assistant_message": message, "background_tasks": [],
                       "session_crons": []}).encode()
    began = time.perf_counter()
    out = subprocess.run(["sh", "-c", f'"{shim}"'], input=data, capture_output=True, env=env, check=False).stdout
    seconds = time.perf_counter() - began
    return (ASKED.findall(json.loads(out).get("reason", "")) if out.strip() else []), seconds


class StopReplay:
    """The bench_handover_tuning observer: runs the Stop hook at the end of every turn."""

    def __init__(self, checkout: str, dump: bool = False, meaning: Meaning | None = None):
        self.meaning = meaning
        self.last_env: dict = {}
        self.dump = [] if dump else None     # every turn's text and open to-dos, for tuning the trigger
        self.shim = os.path.join(checkout, "hooks", "todo-check.sh")
        self.asked: dict = {}        # session id -> set of to-do ids named
        self.questions = 0
        self.named = 0
        self.turns = 0
        self.turns_asked = 0
        self.work_sessions = 0
        self.seconds: list = []
        self.indexes: dict = {}      # project -> (sessions, sids, index)
        self.closed: dict = {}       # session id -> the finishes (phrases) the summarizer closed

    def session(self, env, project_dir, sids, k, session, tmp):
        self.work_sessions += 1
        sid = sids[k]
        if self.meaning is not None:
            env = {**env, **self.meaning.env}
            self.meaning.warm_up(env)
            self.last_env = env
        path = os.path.join(tmp, "turns", f"{sid}.jsonl")
        for end, message in turns(session["steps"]):
            handover.write_transcript(path, sid, project_dir, os.path.basename(project_dir),
                                      {"steps": session["steps"][:end]})
            ids, seconds = run_stop_hook(self.shim, env, sid, path, project_dir, message)
            self.seconds.append(seconds)
            self.turns += 1
            if self.dump is not None:
                self.dump.append(self._turn(env, project_dir, sid, session, path, message, ids))
            if not ids:
                continue
            self.questions += 1
            self.turns_asked += 1
            self.named += len(ids)
            self.asked.setdefault(sid, set()).update(ids)

    @staticmethod
    def _turn(env, project_dir, sid, session, path, message, ids) -> dict:
        """What the hook saw at the end of one turn (its own functions, in this process)."""
        from code_memory.hooks import todo_check
        from code_memory.memory import recent
        from code_memory.paths import MemoryPaths

        project = os.path.basename(project_dir)
        entries = recent.load_entries(recent.index_path(MemoryPaths(env["CODE_MEMORY_ROOT"]), "project", project))
        prompt, actions = todo_check.turn_tail(path)
        return {"session": sid, "project": project, "message": message, "prompt": prompt, "actions": actions,
                "open": todo_check.candidates(entries or [], project, sid, set(), time.time(), 30),
                "asked": ids, "done": session["done"], "traps": session.get("traps", [])}

    def project_done(self, name, sessions, sids, index):
        self.indexes[name] = (sessions, sids, index)

    def result(self) -> dict:
        finishes = {"finishes": 0, "captured": 0, "asked": 0, "closed_by_summarizer": 0, "missed_by_summarizer": 0,
                    "asked_of_missed": 0, "floor": 0}
        traps = {"traps": 0, "asked": 0}
        misses = []
        finishing = 0                # sessions that finish a captured to-do: each needs one question
        for _name, (sessions, sids, index) in sorted(self.indexes.items()):
            for k, session in enumerate(sessions):
                asked = self.asked.get(sids[k], set())
                finishing += any(phrase.lower() in t["text"].lower() and t["session"] in sids[:k]
                                 for phrase in session["done"] for t in index)
                for phrase in session["done"]:
                    copies = [t for t in index if phrase.lower() in t["text"].lower()
                              and t["session"] in sids[:k]]
                    finishes["finishes"] += 1
                    if not copies:
                        continue
                    finishes["captured"] += 1
                    was_asked = any(t["id"] in asked for t in copies)
                    closed = any(t["status"] == "done" and t.get("done_by") in sids[:k + 1] for t in copies)
                    finishes["asked"] += was_asked
                    finishes["closed_by_summarizer"] += closed
                    if closed:
                        self.closed.setdefault(sids[k], []).append(phrase)
                    if not closed:
                        finishes["missed_by_summarizer"] += 1
                        finishes["asked_of_missed"] += was_asked
                        if not was_asked:
                            finishes["floor"] += 1
                            misses.append(f"{sids[k]} not asked: {phrase}")
                for phrase in session.get("traps", ()):
                    copies = [t for t in index if phrase.lower() in t["text"].lower()]
                    if not copies:
                        continue
                    traps["traps"] += 1
                    if any(t["id"] in asked for t in copies):
                        traps["asked"] += 1
                        misses.append(f"{sids[k]} asked on a trap: {phrase}")
        share = lambda a, b: round(a / b, 3) if b else None  # noqa: E731
        ms = sorted(s * 1000 for s in self.seconds)
        return {"finishes": finishes,
                "ask_recall": share(finishes["asked"], finishes["captured"]),
                "ask_recall_of_summarizer_misses": share(finishes["asked_of_missed"], finishes["missed_by_summarizer"]),
                "finished_still_shown_floor_assumes_the_model": f"{finishes['floor']}/{finishes['finishes']}",
                "traps": traps, "questions": self.questions, "todos_named": self.named,
                "work_sessions": self.work_sessions, "turns": self.turns,
                "questions_per_work_session": share(self.questions, self.work_sessions),
                "questions_per_turn": share(self.questions, self.turns),
                "share_of_turns_asked": share(self.turns_asked, self.turns),
                "least_share_of_turns_asked_for_full_recall": share(finishing, self.turns),
                "hook_ms_p50": round(statistics.median(ms), 1) if ms else None,
                "hook_ms_p90": round(ms[int(len(ms) * 0.9)], 1) if ms else None,
                "misses": misses}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", default="traps", help="a handover set name (see above)")
    parser.add_argument("--python", default=sys.executable, help="the interpreter the hooks and summarizer run with")
    parser.add_argument("--checkout", default=handover.REPO, help="run the hook and the summarizer of this checkout")
    parser.add_argument("--json", help="also write the result here")
    parser.add_argument("--smoke", action="store_true", help="one scenario only (a few seconds)")
    parser.add_argument("--meaning", action="store_true", help="warm server + embedding: the hook also asks the "
                        "warm search server which to-dos a turn is about by meaning (the test model, or --model-path); "
                        "without it, words only")
    parser.add_argument("--model-path", help="with --meaning: a local ONNX model directory instead of the test model")
    parser.add_argument("--dump", metavar="JSONL", help="write every turn (its text, the open to-dos, what was "
                        "asked, the session's planted finishes and traps) here, for tuning the trigger")
    args = parser.parse_args()
    began = time.time()
    scenarios = scenarios_of(args.set)
    scenarios = scenarios[:1] if args.smoke else scenarios
    checkout = os.path.abspath(args.checkout)
    model_tmp = tempfile.mkdtemp(prefix="bench-model-")
    meaning = Meaning(checkout, args.python, args.model_path, model_tmp) if args.meaning else None
    replay = StopReplay(checkout, dump=bool(args.dump), meaning=meaning)
    try:
        handover_score = handover.run(args.python, checkout, scenarios, observer=replay)
    finally:
        if meaning is not None:
            meaning.stop(replay.last_env)
        shutil.rmtree(model_tmp, ignore_errors=True)
    label = "held-out: written blind, never tuned to" if args.set in BLIND else \
        "TUNING: the trigger was tuned on it (upper bound)"
    out = {"set": f"{args.set} ({label})", "checkout": checkout, "uptime": os.getloadavg()[0],
           "trigger": "words + meaning (warm server, " + (args.model_path or "the test model") + ")"
           if args.meaning else "words only", **replay.result(),
           "summarizer": {"finished_still_shown": f"{handover_score['finished_still_open']}/"
                                                  f"{handover_score['finished']}",
                          "closes": handover_score["closes"], "traps": handover_score["traps"]},
           "seconds": round(time.time() - began, 1)}
    emit(out, args.json)
    if args.dump:
        with open(args.dump, "w", encoding="utf-8") as fh:
            fh.writelines(json.dumps({**turn, "closed": replay.closed.get(turn["session"], [])}, ensure_ascii=False)
                          + "\n" for turn in replay.dump)
    return 0


if __name__ == "__main__":
    sys.exit(main())
