#!/usr/bin/env python3
"""The todo-check Stop hook on the handover sets: does it ask about the to-dos a session finished, and
what does it cost?

    .venv-test/bin/python bench/bench_todo_check.py --set NAME [--json OUT] [--smoke] [--checkout DIR]
        [--answer-rate P] [--wrong-close-rate Q] [--seed N]
    .venv-test/bin/python bench/bench_todo_check.py --sweep --set NAME[,NAME…] [--answer-rates P,…]
        [--wrong-close-rates Q,…] [--seeds N] [--jobs J] [--runs-dir DIR] [--json OUT]

``--set`` takes any handover set: the names of ``bench_handover_tuning.py`` (tuning, closing,
closing-heldout … closing-heldout6, traps, progress, wrongs, wrongs6, bilingual, lateclose, capture…) or any
``bench/handover_<name>.py`` / ``bench/handover_<name>_set.py`` module with ``SCENARIOS`` (so
closing-heldout9 runs when it exists). Sets written blind and not yet read (closing-heldout7/8/9/10/11/12)
are labelled held-out; the others are TUNING data — the trigger was tuned on them, so their
numbers are upper bounds.

The replay is ``bench_handover_tuning.run``'s (same scenarios, interleaved, the real offline
summarizer building the index from the earlier sessions, a memory root with a user's usual
content). Before each session is summarized, it is replayed turn by turn: at the end of every user
turn, ``hooks/todo-check.sh`` runs as Claude Code runs a Stop hook (``sh -c``, a new process),
with the turn's last assistant text as ``last_assistant_message`` and the transcript written up to
the end of that turn; ``stop_hook_active`` is false (the model's answer is not simulated, so the
hook's own follow-up turn never happens; its answer is written back, see below). Its questions are
recorded (the to-do ids it names, in each part).

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
- the hook's wall time per call (p50, p90: the shim in a new process, as Claude Code runs it);
- **the summarizer's closes asked (assumes the model)** (round 8: the question's second part, the
  summarizer's unconfirmed closes a turn touches): ``wrong_asked`` — closes asked about before the
  to-do's planted finish (or of a to-do no session finishes), which the model reopens;
  ``right_asked`` — closes asked about after it, each one confirm call (``right_asked_again``: asked
  again in a later session, which only happens when nothing is written back, ``--no-answers``, or
  the model stays silent, ``--on-right-close silent``); questions that name only closes (each an
  extra question) per turn. The summarizer's wrong closes and sprung traps left at the end are its
  ``closes``/``traps`` (bench_handover_tuning's judgement of the final index).

Round 9 (the roll call): ``roll_calls`` counts the questions with a roll call part (the project's open
to-dos at a finish-shaped turn), ``todos_named_by_roll_calls`` what it named, and
``max_roll_calls_in_one_session``; ``todos_named_per_question`` all names per question. A set may place a
finish at a turn of a long session (``done_at``, e.g. ``--set lateclose``, written alongside the roll call:
TUNING, an upper bound): a question before that turn is answered "not finished" and does not count as
asked (``asked_before_the_finishing_turn``: the model would close it later only if it remembers).

The model's answers are replayed (unless ``--no-answers``): what it would do, truthfully, is written
as the ``memory_todo`` tool writes it (``by: mcp``, the session it came from, at the replay's time),
so a to-do it closes or reopens is closed or open for the summarizer of the later sessions and for
the next briefs: an asked open to-do that session (or an earlier one) finished is closed — one that
holds several planted to-dos of which only some are finished is closed in part (round 8: ``remaining``
= the unfinished planted phrases joined with "; ", as a model would restate them); an asked
summarizer close is reopened before the planted finish and confirmed after it.

**When the model does not always answer truthfully** (round 9): ``--answer-rate P`` — the model acts on a
question only with probability P (drawn once per question; otherwise it says nothing and nothing is
written back, as a model that ignores the Stop reason); ``--wrong-close-rate Q`` — when it acts, each
named open to-do that neither this session nor an earlier one finished (a trap, work still to do, a
capture nobody planted) is closed anyway with probability Q (written back as memory_todo writes it,
``by: mcp``), and a wrong summarizer close is confirmed instead of reopened with probability Q. The draws
are a hash of (``--seed``, set, session, turn, to-do id or "question"), not global random state: two runs
agree, and one more question moves no other draw. P = 1, Q = 0 (the defaults) is the truthful replay,
number for number. Results add ``final_brief`` (finished still shown, open to-dos shown: the scorer's
counts at each next start), ``model`` (questions answered / silent, wrong closes made, of traps, wrong
confirms) and the wrong closes and sprung traps left in the final index, split by closer:
``wrong_left_by_the_model`` (closes through memory_todo) and ``wrong_left_by_the_summarizer`` (its own
closes, confirmed or not; judged by bench_handover_tuning's ``check_closes``). ``--sweep`` runs every
``--set`` (comma-separated) at each P x Q (default P 1, 0.9, 0.75, 0.5, 0 x Q 0, 0.05, 0.1; ``--seeds``
seeds where chance matters, one run where it does not: P = 0 whatever Q, and P = 1 with Q = 0), each a
replay of its own in a new process (``--jobs`` at once): the answers change what the summarizer of the
later sessions sees, so no summarizer pass can be shared. It prints a table (the sets' counts added, the
mean over seeds, min–max in brackets); ``--runs-dir`` keeps each replay's JSON and reuses it.

Baseline: without the hook, every finish the summarizer misses stays shown (its "finished still
shown"); ``--checkout DIR`` runs another checkout's hook and summarizer. ``--meaning``: the hook
also asks the warm search server which to-dos a turn is about by meaning (op ``related``); the
bench starts that server and the embedding daemon of the test model (or ``--model-path DIR``) in a
private socket directory, warms them up before the first turn and stops them at the end. Without
it: words only, and no model is needed (``--smoke`` runs in seconds).
"""

from __future__ import annotations

import argparse
import hashlib
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
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import bench_handover_tuning as handover  # noqa: E402
from code_memory.memory.recent import PERSON_CLOSER as PERSON  # noqa: E402  done_by of a close made through a door
from report import emit  # noqa: E402

BLIND = ("closing-heldout7", "closing-heldout8", "closing-heldout9", "closing-heldout10",
         "closing-heldout11", "closing-heldout12", "closing-heldout13")
ASKED = re.compile(r"\b([0-9a-f]{8}) “")
RECHECK = "memory closed th"     # where the question's part about the summarizer's closes begins (round 8)
ROLL_CALL = ("memory's open to-dos for this project", "memory's other open to-dos for this project")   # round 9


def roll_call_ids(reason: str) -> list:
    """The ids the question's roll call part names (round 9: the project's open to-dos at a finish-shaped
    turn), [] when it has none."""
    cut = max(reason.find(mark) for mark in ROLL_CALL)
    if cut < 0:
        return []
    end = reason.find(RECHECK, cut)
    return ASKED.findall(reason[cut:] if end < 0 else reason[cut:end])
# the replay's clock starts 200 h before now while the hook measures hooks.autoclose_notice_days (7) from
# now: the window is widened by that offset, so it means 7 days after the close in the replay's time
NOTICE_DAYS = 7 + 9


def by_the_model(todo: dict) -> bool:
    """Closed by the model: through the memory_todo MCP tool (``closed_by: mcp``)."""
    return todo.get("done_by") == PERSON and todo.get("closed_by") == "mcp"


def split_question(reason: str) -> tuple:
    """(ids of the open to-dos, ids of the summarizer's closes) a Stop question names."""
    cut = reason.find(RECHECK)
    head, tail = (reason, "") if cut < 0 else (reason[:cut], reason[cut:])
    return ASKED.findall(head), ASKED.findall(tail)


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

    def __init__(self, checkout: str, python: str, model_dir: str | None, tmp: str, thresholds: str | None = None,
                 pooling: str | None = None):
        sys.path.insert(0, os.path.join(handover.REPO, "tests", "support"))
        import testmodel

        self.checkout, self.python = checkout, python
        model = testmodel.model_config(model_dir or testmodel.assemble(os.path.join(tmp, "model")))
        if model_dir:
            model = {"model": "local/" + os.path.basename(os.path.normpath(model_dir)), "model_path": model_dir,
                     **({"pooling": pooling} if pooling else {})}
        self.sockets = tempfile.mkdtemp(prefix="cmb-", dir="/tmp")       # short: a socket path has 108 bytes
        self.env = {"CODE_MEMORY_SOCKET_DIR": self.sockets, "CODE_MEMORY_SEARCH__SERVER": "1",
                    "CODE_MEMORY_EMBEDDING__DAEMON": "1", "HF_HUB_OFFLINE": "1",
                    **{f"CODE_MEMORY_EMBEDDING__{k.upper()}": str(v) for k, v in model.items()}}
        if thresholds:                  # another model than the test model: its thresholds (none are measured)
            join, ask = (float(v) for v in thresholds.split(","))
            self.env.update({"CODE_MEMORY_HOOKS__TODO_CHECK_MEANING_JOIN": str(join),
                             "CODE_MEMORY_HOOKS__TODO_CHECK_MEANING_ASK": str(ask)})
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


def run_stop_hook(shim: str, env: dict, sid: str, transcript: str, cwd: str, message: str,
                  with_reason: bool = False) -> tuple:
    """Run the Stop hook as Claude Code does (``sh -c``, a new process, the payload on stdin):
    ``([ids of the open to-dos its question names], [ids of the summarizer's closes it names], wall seconds)``
    (and the question itself, ``with_reason``)."""
    data = json.dumps({"session_id": sid, "transcript_path": transcript, "cwd": cwd, "hook_event_name": "Stop",
                       "stop_hook_active": False, "last_assistant_message": message, "background_tasks": [],
                       "session_crons": []}).encode()
    began = time.perf_counter()
    out = subprocess.run(["sh", "-c", f'"{shim}"'], input=data, capture_output=True, env=env, check=False).stdout
    seconds = time.perf_counter() - began
    reason = json.loads(out).get("reason", "") if out.strip() else ""
    return (*split_question(reason), seconds) + ((reason,) if with_reason else ())


class Model:
    """How the replayed model answers (round 9): it acts on a question with probability ``answer_rate``
    (else it says nothing), and closes a named to-do it did not finish — or confirms a wrong summarizer
    close — with probability ``wrong_close_rate``. Each draw is a hash of (seed, set, session, turn, what
    is drawn for), not global random state: two runs agree, and adding a question shifts no other draw.
    With the defaults (1, 0) every draw is decided without chance: the truthful replay."""

    def __init__(self, answer_rate: float = 1.0, wrong_close_rate: float = 0.0, seed: int = 0, set_name: str = ""):
        self.answer_rate, self.wrong_close_rate, self.seed, self.set_name = answer_rate, wrong_close_rate, seed, set_name
        self.counts = {"questions_answered": 0, "questions_silent": 0, "wrong_closes": 0,
                       "wrong_closes_of_traps": 0, "wrong_confirms": 0}

    def draw(self, session: str, turn: int, what: str) -> float:
        """A number in [0, 1) fixed by (seed, set, session, turn, what)."""
        key = f"{self.seed}\x1f{self.set_name}\x1f{session}\x1f{turn}\x1f{what}".encode()
        return int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "big") / 2 ** 64

    def acts(self, session: str, turn: int) -> bool:
        return self.draw(session, turn, "question") < self.answer_rate

    def closes_wrongly(self, session: str, turn: int, todo_id: str) -> bool:
        return self.draw(session, turn, todo_id) < self.wrong_close_rate


class StopReplay:
    """The bench_handover_tuning observer: runs the Stop hook at the end of every turn."""

    def __init__(self, checkout: str, dump: bool = False, meaning: Meaning | None = None, answers: bool = True,
                 on_right_close: str = "confirm", model: Model | None = None):
        self.meaning = meaning
        self.model = model or Model()  # how often the replayed model acts, and how often it closes wrongly
        self.last_env: dict = {}
        self.dump = [] if dump else None     # every turn's text and open to-dos, for tuning the trigger
        self.shim = os.path.join(checkout, "hooks", "todo-check.sh")
        self.asked: dict = {}        # session id -> set of to-do ids named
        self.questions = 0
        self.named = 0
        self.roll_calls = 0          # questions with a roll call part (round 9), the to-dos it named,
        self.roll_named = 0          # and per session
        self.roll_calls_of: dict = {}
        self.turns = 0
        self.turns_asked = 0
        self.work_sessions = 0
        self.seconds: list = []
        self.indexes: dict = {}      # project -> (sessions, sids, index)
        self.closed: dict = {}       # session id -> the finishes (phrases) the summarizer closed
        self.answers = answers       # replay the model's truthful answers (closes, reopens, confirms)
        self.on_right_close = on_right_close      # confirm, or silent: what the model does on a right close
        self.clock = 0.0             # set by bench_handover_tuning.run: the replay's time
        self.done_of: dict = {}      # session id -> its planted finishes
        self.todos_of: dict = {}     # session id -> its planted to-dos
        self.done_at: dict = {}      # session id -> {planted finish: the 0-based turn that finishes it} (round 9)
        self.ask_turn: dict = {}     # session id -> {to-do id: the last turn whose question named it}
        self.answered: list = []     # what the replayed model did: "<session> <action> <to-do>"
        self.rechecks = {"questions": 0, "questions_only_about_closes": 0, "named": 0, "wrong_asked": 0,
                         "right_asked": 0, "right_asked_again": 0, "reopened": 0, "confirmed": 0,
                         "model_closes": 0, "model_closes_in_part": 0, "unplanted_asked": 0}
        self.rechecked: dict = {}    # to-do id -> sessions whose turns named it as a summarizer close

    def session(self, env, project_dir, sids, k, session, tmp):
        self.work_sessions += 1
        sid = sids[k]
        if self.meaning is not None:
            env = {**env, **self.meaning.env}
            self.meaning.warm_up(env)
            self.last_env = env
        path = os.path.join(tmp, "turns", f"{sid}.jsonl")
        self.done_of[sid] = list(session["done"])
        self.todos_of[sid] = list(session["todos"])
        self.done_at[sid] = dict(session.get("done_at") or {})
        hook_env = dict(env, CODE_MEMORY_HOOKS__AUTOCLOSE_NOTICE_DAYS=str(NOTICE_DAYS))
        for turn, (end, message) in enumerate(turns(session["steps"])):
            handover.write_transcript(path, sid, project_dir, os.path.basename(project_dir),
                                      {"steps": session["steps"][:end]})
            ids, rechecked, seconds, reason = run_stop_hook(self.shim, hook_env, sid, path, project_dir, message,
                                                            with_reason=True)
            rolled = roll_call_ids(reason)
            self.roll_calls += bool(rolled)
            self.roll_named += len(rolled)
            self.roll_calls_of[sid] = self.roll_calls_of.get(sid, 0) + bool(rolled)
            self.seconds.append(seconds)
            self.turns += 1
            if self.dump is not None:
                self.dump.append(self._turn(env, project_dir, sid, session, path, message, ids + rechecked))
            if not ids and not rechecked:
                continue
            self.questions += 1
            self.turns_asked += 1
            self.named += len(ids) + len(rechecked)
            self.asked.setdefault(sid, set()).update(ids)
            for tid in ids:
                self.ask_turn.setdefault(sid, {})[tid] = turn      # the latest: a roll call again after the finish counts
            if rechecked:
                self.rechecks["questions"] += 1
                self.rechecks["questions_only_about_closes"] += not ids
                self.rechecks["named"] += len(rechecked)
            self.answer(env, project_dir, sids, k, ids, rechecked, turn, session.get("traps", ()))

    def _done(self, sid: str, turn: int | None) -> list:
        """The planted finishes of session ``sid`` by the end of its turn ``turn`` (``None``: the whole
        session). A set's ``done_at`` (round 9: long sessions) places a finish at a turn; without it, a
        session's finishes count at any of its turns."""
        at = self.done_at.get(sid, {})
        return [p for p in self.done_of.get(sid, ()) if turn is None or at.get(p, 0) <= turn]

    def finished_by(self, todo: dict, sids: list, k: int, turn: int | None = None) -> bool:
        """Did the sessions after the to-do's own, up to session ``k`` (its turn ``turn``, when given),
        finish it — every planted to-do its text holds (one captured sentence may hold two: finishing
        one leaves it open)?"""
        if todo["session"] not in sids:
            return False
        j, text = sids.index(todo["session"]), todo["text"].lower()
        done = {p.lower() for i, sid in enumerate(sids[j + 1:k + 1], j + 1)
                for p in self._done(sid, turn if i == k else None)}
        planted = {p.lower() for sid in sids[:k + 1] for p in self.todos_of.get(sid, ())} | done
        held = [p for p in planted if p in text]
        return bool(held) and all(p in done for p in held)

    def left_of(self, todo: dict, sids: list, k: int) -> list:
        """The planted to-dos a captured to-do holds that are not finished by session ``k``, when it
        holds several and some are (finished in part), as said when planted; else ``[]``."""
        if todo["session"] not in sids:
            return []
        j, text = sids.index(todo["session"]), todo["text"].lower()
        done = {p.lower() for sid in sids[j + 1:k + 1] for p in self.done_of.get(sid, ())}
        planted = {p.lower(): p for sid in sids[:k + 1] for p in self.todos_of.get(sid, ())}
        held = [p for low, p in planted.items() if low in text]
        left = [p for p in held if p.lower() not in done]
        return left if len(held) > 1 and 0 < len(left) < len(held) else []

    def answer(self, env, project_dir, sids, k, ids, rechecked, turn, traps=()) -> None:
        """The model's truthful answer, written as the memory_todo tool writes it (``by: mcp``, in this
        session, at the replay's time): an asked open to-do this session (or an earlier one) finished is
        closed; a summarizer close asked before its real finish is reopened (the replay's summarizer
        of the later sessions sees it open again), one asked after it is confirmed (or left alone:
        ``--on-right-close silent``). Session-level: the planted finishes say which session finishes a
        to-do, not which turn, so the model is taken to know at any turn of the finishing session. A
        close of a to-do nobody planted (a spurious capture) has no truth to answer with: counted
        (``unplanted_asked``), not answered.

        Round 9 (:class:`Model`): the model acts on the question only with probability ``answer_rate``
        (drawn per question; otherwise nothing is written back), and when it acts it closes each named open
        to-do not finished by then (a trap, work still to do, a capture nobody planted) with probability
        ``wrong_close_rate`` anyway, and with the same probability confirms a wrong summarizer close instead
        of reopening it."""
        from code_memory.errors import CodeMemoryError
        from code_memory.memory import todos
        from code_memory.paths import MemoryPaths

        paths, project = MemoryPaths(env["CODE_MEMORY_ROOT"]), os.path.basename(project_dir)
        index = {t["id"]: t for t in todos.list_todos(paths, project=project, statuses=todos.STATUSES, expire_days=30)}
        acts = self.model.acts(sids[k], turn)
        self.model.counts["questions_answered" if acts else "questions_silent"] += 1
        for tid in ids + rechecked:
            todo = index.get(tid)
            if todo is None:
                continue
            finished = self.finished_by(todo, sids, k, turn)
            action = None
            if tid in rechecked and not any(p.lower() in todo["text"].lower()
                                            for sid in sids[:k + 1] for p in self.todos_of.get(sid, ())):
                self.rechecks["unplanted_asked"] += tid not in self.rechecked
                self.rechecked.setdefault(tid, set()).add(sids[k])
                continue      # a to-do nobody planted (a spurious capture): no truth to answer with
            if tid in rechecked:
                again = tid in self.rechecked
                self.rechecked.setdefault(tid, set()).add(sids[k])
                self.rechecks["right_asked" if finished else "wrong_asked"] += not again
                self.rechecks["right_asked_again"] += finished and again
                action = ("done" if self.on_right_close == "confirm" else None) if finished else "reopen"
            elif finished:
                action = "done"
            left = self.left_of(todo, sids, k) if tid in ids and not action else []
            action = "done" if left else action          # finished in part: closed, what is left stays open
            wrong = not finished and not left and self.model.closes_wrongly(sids[k], turn, tid)
            action = "done" if wrong else action        # unfinished work closed, or a wrong close confirmed
            if not action or not self.answers or not acts:
                continue
            try:
                decided = todos.decide(paths, tid, action, by="mcp", project=project, expire_days=30,
                                       now=self.clock + 1800 + turn, in_session=sids[k],
                                       remaining="; ".join(left) if left else None)
            except CodeMemoryError:
                continue
            key = {"reopen": "reopened", "confirm": "confirmed"}.get(decided["action"], "model_closes")
            self.rechecks[key] += 1
            if wrong:
                trap = any(p.lower() in todo["text"].lower() for p in traps)
                kind = "wrong_confirms" if tid in rechecked else "wrong_closes_of_traps" if trap else "wrong_closes"
                self.model.counts[kind] += 1
                self.answered.append(f"{sids[k]} {kind.replace('_', ' ')} (the model's draw): {todo['text']}")
            if left:
                self.rechecks["model_closes_in_part"] += 1
                self.answered.append(f"{sids[k]} done in part: {todo['text']} → left: {decided['remaining']}")
            if key != "model_closes":
                self.answered.append(f"{sids[k]} {decided['action']}: {todo['text']}")

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
                "open": todo_check.candidates(entries or [], project, sid, time.time(), 30),
                "asked": ids, "done": session["done"], "traps": session.get("traps", [])}

    def project_done(self, name, sessions, sids, index):
        self.indexes[name] = (sessions, sids, index)

    def wrong_left(self, closer) -> dict:
        """The wrong closes and sprung traps left in the final indexes by one closer (``closer(to-do)``:
        true for its closes), judged as bench_handover_tuning judges every close (the other closers'
        closes are taken as open)."""
        score = handover.Score()
        for _name, (sessions, sids, index) in sorted(self.indexes.items()):
            handover.check_closes(score, [t if t["status"] != "done" or closer(t) else {**t, "status": "open"}
                                          for t in index], sessions, sids)
        return {"wrong_closes": score.closes["wrong"], "traps_sprung": score.traps["sprung"]}

    def result(self) -> dict:
        finishes = {"finishes": 0, "captured": 0, "asked": 0, "closed_by_summarizer": 0, "missed_by_summarizer": 0,
                    "asked_of_missed": 0, "floor": 0, "asked_before_the_finishing_turn": 0}
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
                    at = self.done_at.get(sids[k], {}).get(phrase, 0)
                    was_asked = any(self.ask_turn.get(sids[k], {}).get(t["id"], -1) >= at for t in copies)
                    early = not was_asked and any(t["id"] in self.ask_turn.get(sids[k], {}) for t in copies)
                    finishes["asked_before_the_finishing_turn"] += early   # no question after: a model that
                    # closes it when it finishes later (the roll call asks it to) is not assumed
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
                "roll_calls": self.roll_calls, "todos_named_by_roll_calls": self.roll_named,
                "max_roll_calls_in_one_session": max(self.roll_calls_of.values(), default=0),
                "todos_named_per_question": share(self.named, self.questions),
                "share_of_turns_asked": share(self.turns_asked, self.turns),
                "least_share_of_turns_asked_for_full_recall": share(finishing, self.turns),
                "summarizer_closes_asked_assumes_the_model": self.rechecks,
                "extra_questions_per_turn": share(self.rechecks["questions_only_about_closes"], self.turns),
                "model": {"answer_rate": self.model.answer_rate, "wrong_close_rate": self.model.wrong_close_rate,
                          "seed": self.model.seed, **self.model.counts},
                # left at the end: the model's own closes (memory_todo) that no session had finished by then,
                # and the summarizer's (confirmed or not) — bench_handover_tuning's closes/traps split by closer
                "wrong_left_by_the_model": self.wrong_left(by_the_model),
                "wrong_left_by_the_summarizer": self.wrong_left(lambda t: t.get("done_by") != PERSON),
                "hook_ms_p50": round(statistics.median(ms), 1) if ms else None,
                "hook_ms_p90": round(ms[int(len(ms) * 0.9)], 1) if ms else None,
                "misses": misses + self.answered}


SWEEP_P = (1.0, 0.9, 0.75, 0.5, 0.0)
SWEEP_Q = (0.0, 0.05, 0.1)
# what the sweep's table shows of one run: (column, how it is read from the run's JSON)
SWEEP_COLUMNS = (
    ("finished still shown", lambda r: _count(r["final_brief"]["finished_still_shown"])),
    ("open to-dos shown", lambda r: _count(r["final_brief"]["open_todos_shown"])),
    ("model's wrong closes left", lambda r: (r["wrong_left_by_the_model"]["wrong_closes"], None)),
    ("traps the model closed", lambda r: (r["wrong_left_by_the_model"]["traps_sprung"], None)),
    ("summarizer's wrong closes left", lambda r: (r["wrong_left_by_the_summarizer"]["wrong_closes"], None)),
    ("traps the summarizer closed", lambda r: (r["wrong_left_by_the_summarizer"]["traps_sprung"], None)),
    ("wrong confirms", lambda r: (r["model"]["wrong_confirms"], None)),
    ("questions answered", lambda r: (r["model"]["questions_answered"], r["questions"])),
)


def rate(text: str) -> float:
    value = float(text)
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"{text}: a rate is between 0 and 1")
    return value


def rates(text: str) -> tuple:
    return tuple(rate(v) for v in text.split(","))


def _count(text: str) -> tuple:
    found, total = text.split("/")
    return int(found), int(total)


def sweep_points(answer_rates, wrong_close_rates, seeds: int) -> list:
    """``[(P, Q run, [seeds], Q shown)]``: where no draw is left to chance — P = 0 (nothing is written back,
    whatever Q) and P = 1 with Q = 0 (the truthful replay) — one run; P = 0 is run once (as Q = 0) and read
    for every Q."""
    points = []
    for p in answer_rates:
        for q in wrong_close_rates:
            fixed = p == 0 or (p == 1 and q == 0)
            points.append((p, 0.0 if p == 0 else q, [0] if fixed else list(range(1, seeds + 1)), q))
    return points


def sweep(args) -> int:
    """``--sweep``: each set at each (P, Q), each seed a replay of its own (this script, a new process,
    ``--jobs`` at once: the model's answers change what the summarizer of later sessions sees, so no
    summarizer pass is shared), then the table: per (P, Q) the sets' counts added up, averaged over the
    seeds (min–max of the seeds' totals in brackets)."""
    began = time.time()
    names = args.set.split(",")
    points = sweep_points(args.answer_rates, args.wrong_close_rates, args.seeds)
    runs = list(dict.fromkeys((name, p, q, seed) for p, q, seeds, _asked in points for seed in seeds
                              for name in names))
    out_dir = args.runs_dir or tempfile.mkdtemp(prefix="bench-sweep-")
    os.makedirs(out_dir, exist_ok=True)
    passed = [f"--{k.replace('_', '-')}={v}" for k, v in vars(args).items()
              if k in ("python", "checkout", "model_path", "thresholds", "on_right_close") and v is not None]
    passed += [f"--{k.replace('_', '-')}" for k in ("smoke", "meaning") if getattr(args, k)]

    def one(run) -> dict:
        name, p, q, seed = run
        path = os.path.join(out_dir, f"{name}-{p}-{q}-{seed}.json")
        if args.runs_dir and os.path.exists(path):          # kept from an earlier sweep: not run again
            with open(path, encoding="utf-8") as fh:
                return json.load(fh)
        done = subprocess.run([sys.executable, os.path.abspath(__file__), "--set", name, "--answer-rate", str(p),
                               "--wrong-close-rate", str(q), "--seed", str(seed), "--json", path, *passed],
                              capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise SystemExit(f"{name} P={p} Q={q} seed {seed} failed:\n{done.stderr[-2000:]}")
        with open(path, encoding="utf-8") as fh:
            return json.load(fh)

    try:
        with ThreadPoolExecutor(max(1, args.jobs)) as pool:
            results = dict(zip(runs, pool.map(one, runs)))
    finally:
        if not args.runs_dir:
            shutil.rmtree(out_dir, ignore_errors=True)
    rows, lines = [], ["| P (answers) | Q (wrong closes) | seeds | " + " | ".join(c for c, _ in SWEEP_COLUMNS) + " |",
                       "|---" * (3 + len(SWEEP_COLUMNS)) + "|"]
    for p, q, seeds, asked_q in points:
        cells, row = [], {"answer_rate": p, "wrong_close_rate": asked_q, "seeds": len(seeds), "sets": {}}
        for column, read in SWEEP_COLUMNS:
            totals = [[sum(read(results[(name, p, q, seed)])[i] or 0 for name in names) for seed in seeds]
                      for i in (0, 1)]
            mean = statistics.mean(totals[0])
            spread = f" ({min(totals[0])}–{max(totals[0])})" if len(seeds) > 1 and min(totals[0]) != max(totals[0]) else ""
            of = f"/{statistics.mean(totals[1]):g}" if read(results[(names[0], p, q, seeds[0])])[1] is not None else ""
            cells.append(f"{mean:g}{of}{spread}")
            row[column] = {"mean": mean, "per_seed": totals[0], "of": totals[1] if of else None}
        for name in names:
            row["sets"][name] = {column: [read(results[(name, p, q, seed)]) for seed in seeds]
                                 for column, read in SWEEP_COLUMNS}
        rows.append(row)
        lines.append(f"| {p:g} | {asked_q:g} | {len(seeds)} | " + " | ".join(cells) + " |")
    print("\n".join(lines), file=sys.stderr)
    emit({"sets": names, "checkout": os.path.abspath(args.checkout),
          "trigger": "words + meaning" if args.meaning else "words only", "uptime": os.getloadavg()[0],
          "runs": len(runs), "table": lines, "points": rows, "seconds": round(time.time() - began, 1)}, args.json)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", default="traps", help="a handover set name (see above)")
    parser.add_argument("--python", default=sys.executable, help="the interpreter the hooks and summarizer run with")
    parser.add_argument("--checkout", default=handover.REPO, help="run the hook and the summarizer of this checkout")
    parser.add_argument("--json", help="also write the result here")
    parser.add_argument("--smoke", action="store_true", help="one scenario only (a few seconds)")
    parser.add_argument("--no-answers", action="store_true", help="do not replay the model's answers (the "
                        "round-7 replay: nothing the question asks is written back)")
    parser.add_argument("--on-right-close", choices=("confirm", "silent"), default="confirm",
                        help="what the replayed model does when asked about a summarizer close that is right")
    parser.add_argument("--meaning", action="store_true", help="warm server + embedding: the hook also asks the "
                        "warm search server which to-dos a turn is about by meaning (the test model, or --model-path); "
                        "without it, words only")
    parser.add_argument("--model-path", help="with --meaning: a local ONNX model directory instead of the test model")
    parser.add_argument("--pooling", choices=("cls", "mean"), help="with --model-path: the model's pooling "
                        "(embedding.pooling; mean for multilingual-e5, tests/support/e5model.py)")
    parser.add_argument("--thresholds", metavar="JOIN,ASK", help="with --meaning: the cosine thresholds to use (a "
                        "model other than the test model has none measured, so by meaning is off for it without them)")
    parser.add_argument("--dump", metavar="JSONL", help="write every turn (its text, the open to-dos, what was "
                        "asked, the session's planted finishes and traps) here, for tuning the trigger")
    parser.add_argument("--answer-rate", type=rate, default=1.0, metavar="P", help="the model acts on a question "
                        "with probability P (drawn per question), else says nothing (default 1)")
    parser.add_argument("--wrong-close-rate", type=rate, default=0.0, metavar="Q", help="the model closes a named "
                        "to-do it did not finish, or confirms a wrong summarizer close, with probability Q (default 0)")
    parser.add_argument("--seed", type=int, default=0, help="the seed of the model's draws (a hash, not global state)")
    parser.add_argument("--sweep", action="store_true", help="run every --set (comma-separated) at every answer "
                        "rate x wrong-close rate, --seeds seeds each where chance matters, and print the table")
    parser.add_argument("--answer-rates", type=rates, default=SWEEP_P, metavar="P,…", help="the sweep's answer rates")
    parser.add_argument("--wrong-close-rates", type=rates, default=SWEEP_Q, metavar="Q,…",
                        help="the sweep's wrong-close rates")
    parser.add_argument("--seeds", type=int, default=2, help="the sweep's seeds per point where chance matters")
    parser.add_argument("--runs-dir", help="the sweep keeps each replay's JSON here and reuses those it finds "
                        "(same set, P, Q, seed and options), so an interrupted sweep resumes")
    parser.add_argument("--jobs", type=int, default=1, help="the sweep's replays at once (2 cores: at most 3)")
    args = parser.parse_args()
    if args.sweep:
        return sweep(args)
    began = time.time()
    scenarios = scenarios_of(args.set)
    scenarios = scenarios[:1] if args.smoke else scenarios
    checkout = os.path.abspath(args.checkout)
    model_tmp = tempfile.mkdtemp(prefix="bench-model-")
    meaning = Meaning(checkout, args.python, args.model_path, model_tmp, args.thresholds, args.pooling) if args.meaning else None
    replay = StopReplay(checkout, dump=bool(args.dump), meaning=meaning, answers=not args.no_answers,
                        on_right_close=args.on_right_close,
                        model=Model(args.answer_rate, args.wrong_close_rate, args.seed, args.set))
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
                          "closes": handover_score["closes"], "traps": handover_score["traps"],
                          # which (like ``misses``: read them on tuning sets only, never on a blind one)
                          "misses": [m for m in handover_score["misses"] if " finished still open: " in m
                                     or " closed wrongly " in m]},
           "final_brief": {"finished_still_shown": f"{handover_score['finished_still_open']}/"
                                                   f"{handover_score['finished']}",
                           "open_todos_shown": "{found}/{facts}".format(**handover_score["by_kind"]["todo"])},
           "answers_replayed": not args.no_answers, "on_right_close": args.on_right_close,
           "seconds": round(time.time() - began, 1)}
    emit(out, args.json)
    if args.dump:
        with open(args.dump, "w", encoding="utf-8") as fh:
            fh.writelines(json.dumps({**turn, "closed": replay.closed.get(turn["session"], [])}, ensure_ascii=False)
                          + "\n" for turn in replay.dump)
    return 0


if __name__ == "__main__":
    sys.exit(main())
