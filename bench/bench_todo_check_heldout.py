#!/usr/bin/env python3
"""The todo-check Stop question on REAL recorded sessions (held-out #1): what it catches, and what it
costs in long sessions.

    .venv-test/bin/python bench/bench_todo_check_heldout.py [--checkout DIR] [--smoke] [--json OUT]

HELD-OUT FOR THE TRIGGER. bench/data/handover_heldout/ (its README) holds transcripts the real
Claude Code binary wrote: 50 multi-turn sessions in 14 scenarios, annotated with the to-dos each
session leaves open and the ones it finished. It was written before issue 20's extractor changes,
and the todo-check trigger (hooks/todo_check.py) was never tuned on it: this bench only measures.

The replay is bench_handover_heldout's (scenarios in order, each in its own temp HOME and memory
root, the offline summarizer after every session, SessionStart before every session). Inside each
session, before it is summarized, the Stop hook runs at the end of EVERY user turn through the real
shim (bench_todo_check.run_stop_hook: ``sh -c hooks/todo-check.sh``, a new process), on the
recorded transcript cut at that turn's end, with the turn's last assistant text as
``last_assistant_message``; the session's ledger lives on across its turns as in a real session
(so a to-do is asked about once per session). ``stop_hook_active`` is false.

Two passes over the same data:

- **no answers**: the model's answer to a question is not simulated (what the summarizer alone
  leaves, and every question the hook asks);
- **truthful answers**: when a question names a to-do the session finished (annotations) and the
  work was finished by the end of the turn it is asked in (:data:`FINISHED_BY_TURN`), the model
  closes it as memory_todo does (``todos.decide(…, "done", by="mcp", in_session=<session>)``); a
  question on any other to-do, or one asked before the work was done, is answered "no" (nothing
  written — and the hook does not ask again in that session).

Reported per pass: every planted finish (15) — captured (an open to-do of the index holds its
keywords before the finishing session), asked in the finishing session (and at or after the turn
that finished it), closed by the summarizer, still shown on a later ``[ ]`` line; the floor
"finished still shown if the model answers truthfully" (captured, not closed by the summarizer, not
asked — and the stricter one, not asked once the work was done); asks on to-dos the turn's session
did NOT finish, by kind (a planted to-do still open / one a later session finishes / one the
project never planted: the summarizer's own capture); questions per turn and per session, the
longest sessions (by tool calls); the hook's wall time p50/p90 with the cut transcript's size. In
the answering pass also: whether the next start context names each close on a ``(closed in this
session)`` line (the brief shows what the model closed).

The hook runs with ``search.server`` off — the word trigger alone, no warm server started — unless
``--meaning``: then the warm search server and the embedding daemon answer ``related`` as in
``bench_todo_check.py --meaning`` (its ``Meaning``: the suite's English test model, or
``--model-path DIR``).

Round 9: per session also ``roll_calls`` (questions with a roll call part — the project's open to-dos at a
finish-shaped turn; at most one per session by the hook's rule) and the longest question
(``question_chars_max``).

Baseline: bench_handover_heldout.py (summarizer alone: finished still shown 2/15).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import bench_handover_heldout as heldout  # noqa: E402
from bench_todo_check import Meaning, roll_call_ids, run_stop_hook  # noqa: E402
from report import emit  # noqa: E402

CLOSED_HERE = "(closed in this session; reopen any that is not)"
# By the end of which user turn a multi-turn session had finished a to-do it finishes (read from the
# transcripts for this bench, not part of the set's annotations; a session not listed here counts as
# finished at its last turn). A question asked before that turn is answered "not finished" by a
# truthful model, and the hook does not ask again in that session.
FINISHED_BY_TURN = {
    ("zh-refund-dedup/02-pay-gateway.jsonl", "预发"): 1,          # the person: "预发那边跑完了"
    ("zh-ledger-long/05-ledger.jsonl", "README"): 1,              # the table is updated in turn 1
    ("zh-weekly-report/02-bi-report.jsonl", "台账"): 1,            # the person: "跟财务台账对上了"
    ("en-invoice-rounding/02-invoicer.jsonl", "March"): 1,        # the person: "re-issued the 214 March invoices"
    ("mixed-i18n-locales/02-i18n-kit.jsonl", "ja.json"): 1,       # the person: "已经放进 locales/ja.json 了"
    ("en-linkstash-sqlite/02-linkstash.jsonl", "tags"): 2,        # turn 1 is the plan, turn 2 the work
    ("en-flaky-clock/02-scheduler.jsonl", "clock"): 2,            # turn 1 offers two fixes, turn 2 does one
}
SMOKE_SCENARIO = "en-flaky-clock"         # 3 sessions, one finish
_NOT_TYPED = ("<command-", "<local-command", "<task-notification")


def _typed_prompt(obj: dict) -> bool:
    """A line of the transcript that is a prompt the person typed (not a tool result, not meta)."""
    if obj.get("type") != "user" or obj.get("isMeta") or obj.get("isSidechain"):
        return False
    content = (obj.get("message") or {}).get("content")
    if isinstance(content, list):
        if any(isinstance(b, dict) and b.get("type") == "tool_result" for b in content):
            return False
        content = " ".join(b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text")
    return isinstance(content, str) and bool(content.strip()) and not content.lstrip().startswith(_NOT_TYPED)


def _said(obj: dict) -> str:
    if obj.get("type") != "assistant" or obj.get("isSidechain"):
        return ""
    content = (obj.get("message") or {}).get("content")
    if not isinstance(content, list):
        return content if isinstance(content, str) else ""
    return "\n".join(b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text").strip()


def turn_cuts(lines: list) -> list:
    """``[(end, last assistant text)]`` of a recorded transcript's lines: each user turn ends right
    before the next typed prompt (or at the end of the file)."""
    parsed = [json.loads(line) if line.strip() else {} for line in lines]
    starts = [i for i, obj in enumerate(parsed) if _typed_prompt(obj)]
    out = []
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(lines)
        said = [text for text in map(_said, parsed[start:end]) if text]
        out.append((end, said[-1] if said else ""))
    return out


def _todos(env: dict, project: str) -> list:
    """The project's to-dos (every status) as ``code-memory todo list`` shows them."""
    from code_memory.memory import todos
    from code_memory.paths import MemoryPaths

    return todos.list_todos(MemoryPaths(env["CODE_MEMORY_ROOT"]), project=project, statuses=todos.STATUSES)


def _close_as_the_model(env: dict, project: str, todo_id: str, session_id: str) -> None:
    """What memory_todo (action done) does, in the session's name (mcp/todo_tools.py)."""
    from code_memory.memory import todos
    from code_memory.paths import MemoryPaths

    todos.decide(MemoryPaths(env["CODE_MEMORY_ROOT"]), todo_id, "done", by="mcp", project=project,
                 in_session=session_id)


class RealStop:
    """The bench_handover_heldout observer: the Stop hook at the end of every turn of every session."""

    def __init__(self, checkout: str, answer: bool, meaning: Meaning | None = None):
        self.answer, self.meaning = answer, meaning
        self.last_env: dict = {}
        self.shim = os.path.join(checkout, "hooks", "todo-check.sh")
        self.scenario_sessions: dict = {}    # project -> its sessions (annotations), for kinds of asks
        self.finishes: list = []             # one row per planted finish
        self.sessions: list = []             # one row per session: turns, questions, tool calls
        self.off_target: dict = {"planted_open": 0, "planted_finished_later": 0, "not_planted": 0}
        self.off_target_items: list = []
        self.calls: list = []                # (ms, transcript bytes)
        self.pending: dict = {}              # (project, keys) -> the finish row waiting for the next brief

    def start(self, env, project, label, context) -> None:
        lines = context.split("\n")
        for (where, _keys), row in list(self.pending.items()):
            if where != project:
                continue
            row["named_closed_in_session_next_brief"] = any(
                CLOSED_HERE in line and heldout.present(row["keys"], line) for line in lines)
            del self.pending[(where, _keys)]

    def session(self, env, cwd, session_id, sess, path, tmp) -> None:
        project = sess["project"]
        planted = self.scenario_sessions[project]
        if self.meaning is None:
            hook_env = {**env, "CODE_MEMORY_SEARCH__SERVER": "0"}        # the word trigger alone, no server started
        else:
            hook_env = self.last_env = {**env, **self.meaning.env}
            self.meaning.warm_up(hook_env)
        before = [t for t in _todos(env, project) if t["status"] == "open"]
        finishes = []
        for fact in sess["finished"]:
            copies = [t for t in before if heldout.present(fact["keys"], t["text"])]
            finishes.append({"session": sess["transcript"], "keys": fact["keys"], "captured": bool(copies),
                             "ids": [t["id"] for t in copies], "asked": False, "asked_turn": None,
                             "finished_by_turn": FINISHED_BY_TURN.get((sess["transcript"], fact["keys"][0]),
                                                                      len(sess["user_turns"])),
                             "asked_once_finished": False, "closed_by_model": False})
        finished_ids = {tid: row for row in finishes for tid in row["ids"]}
        with open(path, encoding="utf-8") as fh:
            lines = fh.read().split("\n")
        cut_path = os.path.join(tmp, "turns", f"{session_id}.jsonl")
        os.makedirs(os.path.dirname(cut_path), exist_ok=True)
        cuts = turn_cuts(lines)
        row = {"session": sess["transcript"], "tool_calls": sess.get("tool_calls"), "turns": len(cuts),
               "questions": 0, "roll_calls": 0, "question_chars_max": 0, "todos_named": 0, "closes_named": 0,
               "open_todos_before": [t["text"][:100] for t in before]}
        for turn, (end, message) in enumerate(cuts, 1):
            text = "\n".join(lines[:end]) + "\n"
            with open(cut_path, "w", encoding="utf-8") as fh:
                fh.write(text)
            ids, rechecked, seconds, reason = run_stop_hook(self.shim, hook_env, session_id, cut_path, cwd, message,
                                                            with_reason=True)
            self.calls.append((seconds * 1000, len(text.encode())))
            if not ids and not rechecked:
                continue
            row["questions"] += 1
            row["roll_calls"] += bool(roll_call_ids(reason))          # round 9: the question had a roll call
            row["question_chars_max"] = max(row["question_chars_max"], len(reason))
            row["todos_named"] += len(ids)
            row["closes_named"] += len(rechecked)     # the summarizer's unconfirmed closes (the question's second part)
            for tid in ids:
                hit = finished_ids.get(tid)
                if hit is not None:
                    hit.update(asked=True, asked_turn=f"{turn}/{len(cuts)}",
                               asked_once_finished=turn >= hit["finished_by_turn"])
                    if self.answer and hit["asked_once_finished"]:
                        _close_as_the_model(env, project, tid, session_id)
                        hit["closed_by_model"] = True
                    continue
                text = next((t["text"] for t in before if t["id"] == tid), "")
                kind = self._kind(text, planted, sess["index"])
                self.off_target[kind] += 1
                self.off_target_items.append(f"{sess['transcript']} turn {turn}/{len(cuts)} ({kind}): {text[:100]}")
        self.sessions.append(row)
        self.finishes += finishes
        self.pending.update({(project, tuple(f["keys"])): f for f in finishes})

    @staticmethod
    def _kind(text: str, planted: list, index: int) -> str:
        """What an asked to-do the session did not finish is, by the annotations."""
        later = [f for s in planted if s["index"] > index for f in s["finished"]]
        if any(heldout.present(f["keys"], text) for f in later):
            return "planted_finished_later"
        if any(heldout.present(f["keys"], text) for s in planted for f in s["carry"] + s["finished"]
               if f["kind"] == "todos"):
            return "planted_open"
        return "not_planted"

    def result(self, tally_finished: list) -> dict:
        ms = sorted(c[0] for c in self.calls)
        sizes = sorted(c[1] for c in self.calls)
        turns = sum(s["turns"] for s in self.sessions)
        questions = sum(s["questions"] for s in self.sessions)
        captured = [f for f in self.finishes if f["captured"]]
        longest = sorted(self.sessions, key=lambda s: -(s["tool_calls"] or 0))[:3]
        share = lambda a, b: round(a / b, 3) if b else None  # noqa: E731
        return {
            "finishes": len(self.finishes), "captured": len(captured),
            "asked_in_finishing_session": sum(f["asked"] for f in captured),
            "asked_once_finished": sum(f["asked_once_finished"] for f in captured),
            "closed_by_summarizer": sum(f.get("closed_by_summarizer", False) for f in captured),
            "floor_finished_still_shown_if_the_model_answers_truthfully":
                f"{sum(1 for f in captured if not f['asked'] and not f.get('closed_by_summarizer'))}"
                f"/{len(self.finishes)}",
            "floor_if_the_model_answers_truthfully_for_the_turn_asked":
                f"{sum(1 for f in captured if not f['asked_once_finished'] and not f.get('closed_by_summarizer'))}"
                f"/{len(self.finishes)}",
            "finished_still_shown_in_a_later_brief": f"{tally_finished[0]}/{tally_finished[1]}",
            "asks_on_todos_not_finished_in_that_session": dict(self.off_target, total=sum(self.off_target.values())),
            "turns": turns, "sessions": len(self.sessions), "questions": questions,
            "todos_named": sum(s["todos_named"] for s in self.sessions),
            "summarizer_closes_named": sum(s["closes_named"] for s in self.sessions),
            "questions_per_turn": share(questions, turns),
            "questions_per_session": share(questions, len(self.sessions)),
            "sessions_with_a_question": sum(1 for s in self.sessions if s["questions"]),
            "max_questions_in_one_session": max((s["questions"] for s in self.sessions), default=0),
            "roll_calls": sum(s["roll_calls"] for s in self.sessions),
            "max_roll_calls_in_one_session": max((s["roll_calls"] for s in self.sessions), default=0),
            "question_chars_max": max((s["question_chars_max"] for s in self.sessions), default=0),
            "longest_sessions": longest,
            "hook_ms_p50": round(statistics.median(ms), 1) if ms else None,
            "hook_ms_p90": round(ms[int(len(ms) * 0.9)], 1) if ms else None,
            "transcript_bytes_p50_max": [int(statistics.median(sizes)), max(sizes)] if sizes else None,
            "per_finish": self.finishes,
            "per_session": self.sessions,
            "off_target_asks": self.off_target_items,
        }


def run_pass(checkout: str, python: str, answer: bool, ids, meaning: bool = False, model_path: str | None = None) -> dict:
    model_tmp = tempfile.mkdtemp(prefix="bench-model-")
    observer = RealStop(checkout, answer, Meaning(checkout, python, model_path, model_tmp) if meaning else None)
    for sc in heldout.load_annotations()["scenarios"]:
        for project in sc["projects"]:
            observer.scenario_sessions[project] = [s for s in sc["sessions"] if s["project"] == project]
    try:
        result = heldout.run(checkout, python, ids, observer=_SummarizerCloses(observer))
    finally:
        if observer.meaning is not None:
            observer.meaning.stop(observer.last_env)
        shutil.rmtree(model_tmp, ignore_errors=True)
    return {**observer.result([result["finished_still_shown"]["count"], result["finished_still_shown"]["total"]]),
            "handover": {"overall": result["overall"], "wrong_closes": result["wrong_closes"],
                         "start_context_chars": result["start_context_chars"]}}


class _SummarizerCloses:
    """Wraps :class:`RealStop`: after a session is summarized (seen at the project's next start),
    reads whether the summarizer closed the session's finishes."""

    def __init__(self, inner: RealStop):
        self.inner = inner
        self.waiting: list = []          # (env, project, session id, finish rows)

    def start(self, env, project, label, context) -> None:
        for item in [w for w in self.waiting if w[1] == project]:
            todos = {t["id"]: t for t in _todos(env, project)}
            for row in item[3]:
                row["closed_by_summarizer"] = any(todos.get(tid, {}).get("done_by") == item[2] for tid in row["ids"])
            self.waiting.remove(item)
        self.inner.start(env, project, label, context)

    def session(self, env, cwd, session_id, sess, path, tmp) -> None:
        self.inner.session(env, cwd, session_id, sess, path, tmp)
        self.waiting.append((env, sess["project"], session_id, [f for f in self.inner.finishes
                                                                if f["session"] == sess["transcript"]]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--checkout", default=heldout.REPO, help="run the hooks and the summarizer of this checkout")
    parser.add_argument("--python", default=sys.executable, help="the interpreter the hooks and summarizer run with")
    parser.add_argument("--smoke", action="store_true", help=f"only scenario {SMOKE_SCENARIO}, only the answering pass")
    parser.add_argument("--json", help="also write the result here")
    parser.add_argument("--meaning", action="store_true", help="the hook also asks the warm search server which "
                        "to-dos a turn is about by meaning (bench_todo_check.Meaning: the test model, or --model-path); "
                        "without it the word trigger alone (search.server off for the hook)")
    parser.add_argument("--model-path", help="with --meaning: a local ONNX model directory instead of the test model")
    args = parser.parse_args()
    began = time.time()
    checkout = os.path.abspath(args.checkout)
    sys.path.insert(0, os.path.join(checkout, "scripts"))      # the to-do list and memory_todo's close
    ids = [SMOKE_SCENARIO] if args.smoke else None
    subprocess.run([args.python, "-m", "compileall", "-q", os.path.join(checkout, "scripts")], check=False)
    out = {"set": "handover held-out #1 (real recorded sessions; HELD-OUT for the todo-check trigger, never tuned on)",
           "checkout": checkout, "commit": heldout.checkout_commit(checkout),
           "trigger": "words + meaning (warm server, " + (args.model_path or "the test model") + ")"
           if args.meaning else "words only (search.server off for the hook)",
           "load_average_before": [round(x, 2) for x in os.getloadavg()],
           "no_answers": None if args.smoke else run_pass(checkout, args.python, False, ids, args.meaning, args.model_path),
           "truthful_answers": run_pass(checkout, args.python, True, ids, args.meaning, args.model_path),
           "load_average_after": [round(x, 2) for x in os.getloadavg()],
           "seconds": round(time.time() - began, 1)}
    emit(out, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
