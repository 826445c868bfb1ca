#!/usr/bin/env python3
"""What the evolution loop learns from real sessions: signals, Skill proposals and experience scores.

    .venv-test/bin/python bench/bench_evolution_inputs.py [--set heldout|tuning|handover|all]
                                                           [--checkout DIR] [--smoke] [--json OUT] [--misses]

Three sets, reported separately:
- ``heldout`` — bench/data/evolution_heldout/: 22 sessions recorded with the real Claude Code binary
  and annotated before the changes of issue 20 part 4 (README.md there). Do not tune to it.
- ``tuning`` — bench/evolution_tuning.py: 15 synthetic sessions written for development (an upper bound).
- ``handover`` — bench/data/handover_heldout/: 50 real sessions written for the handover bench by
  another engineer, never annotated for signals. Only what needs no annotation is reported: error
  signals per failed command, signals per type, Skill proposals, and the scores of its five
  background pitfalls, which no session's work is about.

For every scenario, in a fresh memory root with the scenario's MEMORY.md pitfalls and project
rules, the sessions are replayed in order as the product lives them: the SessionStart hook's refs
(every pitfall), the rules injector's refs (every rule of the project, when the session reads or
edits a file of it), the deterministic summary (``llm.backend none``), then the summarizer's
follow-ups (``summary.jobs.run_followups``: the session's outcome from its transcript, the signals
of its note). Then it scores:
- signals: each extracted signal is matched to one annotated problem (``expect``, or an ``allow``ed
  one); a second signal for one problem counts as a false positive. Precision, recall, and the
  error signals per session with a failed command;
- Skill proposals: the patterns ``capabilities.candidates`` offers (what the generator would turn
  into Skills once its gates open) against the annotated ``skills``;
- scores: every rule and pitfall's success/failed evidence against the annotated ``relevant``
  sessions with an outcome; the status distribution, the experiences scored without any relevant
  session ("unearned"), and the mean |p − p expected| of the Laplace estimate.

``--checkout DIR`` measures another checkout's code (``DIR/scripts``) on the same data — the
"before" numbers come from the branch point. ``--smoke`` runs the first tuning scenario only.
Prints one JSON object (and writes it to ``--json``); ``--misses`` lists every false positive and
miss (use it on the tuning set).
"""

from __future__ import annotations

import argparse
import fnmatch
import inspect
import json
import os
import shutil
import sys
import tempfile
from datetime import datetime, timedelta, timezone

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HELDOUT = os.path.join(REPO, "bench", "data", "evolution_heldout")
HANDOVER = os.path.join(REPO, "bench", "data", "handover_heldout")
sys.path.insert(0, os.path.join(REPO, "bench"))

EDIT_TOOLS = ("Edit", "Write", "MultiEdit", "NotebookEdit")
START = datetime(2026, 10, 1, 9, 0, tzinfo=timezone.utc)


class NoLLM:
    name = "none"


def load_code(checkout: str):
    """Import code_memory from ``checkout``/scripts (before anything else imports it)."""
    sys.path.insert(0, os.path.join(checkout, "scripts"))
    import code_memory

    if not os.path.realpath(code_memory.__file__).startswith(os.path.realpath(checkout)):
        raise SystemExit(f"code_memory was imported from {code_memory.__file__}, not {checkout}")
    return code_memory


# ---------------------------------------------------------------------------------------------
# the data sets, in one shape: {"pitfalls": {key: line}, "scenarios": [...], "dir": transcripts dir}

def heldout_set() -> dict:
    with open(os.path.join(HELDOUT, "annotations.json"), encoding="utf-8") as fh:
        data = json.load(fh)
    return {**data, "dir": HELDOUT, "annotated": True}


def tuning_set(tmp: str, limit: int | None) -> dict:
    import evolution_tuning

    out = os.path.join(tmp, "tuning-data")
    return {**evolution_tuning.build(out, limit), "dir": out, "annotated": True}


def handover_set() -> dict:
    with open(os.path.join(HANDOVER, "annotations.json"), encoding="utf-8") as fh:
        data = json.load(fh)
    with open(os.path.join(HANDOVER, "background", "MEMORY.md"), encoding="utf-8") as fh:
        memory = fh.read()
    section = memory.split("## 避坑经验 (Pitfalls)", 1)[1].split("\n## ", 1)[0]
    pitfalls = {f"background-{i + 1}": line for i, line in
                enumerate(x for x in section.split("\n") if x.startswith("- "))}
    scenarios = [{"id": sc["id"], "lang": sc["lang"], "projects": {p: {"rules": {}} for p in sc["projects"]},
                  "skills": None,
                  "sessions": [{"index": s["index"], "project": s["project"], "transcript": s["transcript"],
                                "signals": None, "relevant": []} for s in sc["sessions"]]}
                 for sc in data["scenarios"]]
    return {"pitfalls": pitfalls, "scenarios": scenarios, "dir": HANDOVER, "annotated": False}


# ---------------------------------------------------------------------------------------------
# replay

def transcript_facts(path: str) -> dict:
    """The files the session read or edited, and its failed Bash commands (distinct)."""
    uses, failed, files = {}, [], []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            content = (rec.get("message") or {}).get("content")
            if rec.get("isSidechain") or not isinstance(content, list):
                continue
            for block in content:
                if not isinstance(block, dict):
                    continue
                if block.get("type") == "tool_use":
                    uses[block.get("id")] = block
                    path_ = (block.get("input") or {}).get("file_path")
                    if block.get("name") in EDIT_TOOLS + ("Read",) and isinstance(path_, str):
                        files.append(path_)
                elif block.get("type") == "tool_result" and block.get("is_error"):
                    use = uses.get(block.get("tool_use_id")) or {}
                    command = (use.get("input") or {}).get("command")
                    if use.get("name") == "Bash" and command and command not in failed:
                        failed.append(command)
    return {"files": files, "failed_commands": failed}


def replay(cm, data: dict, scenario: dict, root: str) -> dict:
    """Replay one scenario in a fresh memory root; return what the loop learnt."""
    from code_memory.evolution import capabilities, signals
    from code_memory.evolution import feedback as fb
    from code_memory.memory import experience as exp
    from code_memory.memory.tree import PITFALLS_HEADING, ensure_area, init_root
    from code_memory.paths import MemoryPaths
    from code_memory.summary.jobs import run_followups
    from code_memory.summary.summarize import SummaryOptions, summarize_session

    paths = MemoryPaths(root)
    init_root(paths)
    text = open(paths.memory_md, encoding="utf-8").read()
    pitfall_lines = "\n".join(data["pitfalls"].values())
    with open(paths.memory_md, "w", encoding="utf-8") as fh:
        fh.write(text.replace(PITFALLS_HEADING + "\n", PITFALLS_HEADING + "\n\n" + pitfall_lines + "\n", 1))
    ids = {exp.pitfall_id(line): key for key, line in data["pitfalls"].items()}
    rule_ids: dict = {}
    for project, spec in scenario["projects"].items():
        ensure_area(paths, "projects", project)
        if spec["rules"]:
            with open(os.path.join(paths.project_dir(project), "rules.md"), "a", encoding="utf-8") as fh:
                fh.write("\n## 约定 (Conventions)\n\n" + "\n".join(spec["rules"].values()) + "\n")
        rule_ids[project] = {exp.rule_id(project, line): key for key, line in spec["rules"].items()}
        ids.update(rule_ids[project])
    sessions = []
    for sess in scenario["sessions"]:
        transcript = os.path.join(data["dir"], sess["transcript"])
        sid = f"{scenario['id']}-{sess['index']:02d}"
        cwd = f"/home/dev/work/{sess['project']}"
        facts = transcript_facts(transcript)
        when = START + timedelta(hours=sess["index"])
        fb.record_refs(paths, sid, [i for i in ids if i.startswith("pitfall:")], context="session-start",
                       now=when.timestamp())
        if any(f.startswith(cwd + "/") for f in facts["files"]) and rule_ids[sess["project"]]:
            fb.record_refs(paths, sid, list(rule_ids[sess["project"]]), context="rules-injector",
                           now=when.timestamp())
        summarize_session(paths, transcript, backend=NoLLM(), options=SummaryOptions(), session_id=sid,
                          project=sess["project"], cwd=cwd, ended_at=when.isoformat(),
                          now=when.replace(tzinfo=None))
        if "project" in inspect.signature(run_followups).parameters:     # the session's project (this code)
            run_followups({}, paths, sid, transcript, sess["project"])
        else:
            run_followups({}, paths, sid, transcript)
        sessions.append({"session_id": sid, "annotation": sess, **facts})
    extractions = signals.load_extractions(paths)
    outcomes = {o["session_id"]: o["outcome"] for o in fb.session_outcomes(paths)}
    analysis = signals.analyze(paths, signals.Settings(), outcomes=fb.session_outcomes(paths),
                               now=(START + timedelta(hours=len(sessions) + 1)).timestamp())
    proposals = [p["pattern"] for p in capabilities.candidates(analysis, capabilities.Settings())]
    scored = {s["experience_id"]: s for s in fb.scores(paths, fb.Settings(),
                                                       now=(START + timedelta(days=1)).timestamp())}
    for sess in sessions:
        sess["signals"] = [s["pattern"] for s in extractions.get(sess["session_id"], {}).get("signals", [])]
        sess["outcome"] = outcomes.get(sess["session_id"])
    return {"sessions": sessions, "proposals": proposals, "scores": scored, "ids": ids}


# ---------------------------------------------------------------------------------------------
# scoring

def matches(pattern: str, label: str) -> bool:
    return any(fnmatch.fnmatchcase(pattern, alt) for alt in label.split("|"))


def score_signals(found: list, expect: list, allow: list) -> dict:
    """Greedy one-to-one matching: each annotated problem takes at most one signal."""
    open_expect, open_allow = list(expect), list(allow)
    tp, ok, fp = [], [], []
    for pattern in found:
        hit = next((label for label in open_expect if matches(pattern, label)), None)
        if hit is not None:
            open_expect.remove(hit)
            tp.append(pattern)
            continue
        hit = next((label for label in open_allow if matches(pattern, label)), None)
        if hit is not None:
            open_allow.remove(hit)
            ok.append(pattern)
            continue
        fp.append(pattern)
    return {"tp": tp, "allowed": ok, "fp": fp, "fn": open_expect}


def laplace(s: int, f: int) -> float:
    return (s + 1) / (s + f + 2)


def ratio(a: int, b: int):
    return round(a / b, 3) if b else None


def evaluate(set_name: str, data: dict, results: list) -> dict:
    annotated = data["annotated"]
    sig = {"tp": 0, "allowed": 0, "fp": 0, "fn": 0, "extracted": 0}
    misses, by_type = [], {}
    failing = {"sessions": 0, "failed_commands": 0, "error_signals": 0, "over_one_per_command": 0}
    skills = {"tp": 0, "fp": 0, "fn": 0, "proposed": []}
    scores = {"status": {}, "unearned": 0, "unearned_ids": [], "evidence_counted": 0, "evidence_expected": 0,
              "evidence_matched": 0, "abs_error": []}
    for scenario, result in results:
        for sess in result["sessions"]:
            found = sess["signals"]
            sig["extracted"] += len(found)
            for pattern in found:
                t = pattern.split(":")[0]
                by_type[t] = by_type.get(t, 0) + 1
            errors = sum(1 for p in found if p.startswith("error:"))
            if sess["failed_commands"]:
                failing["sessions"] += 1
                failing["failed_commands"] += len(sess["failed_commands"])
                failing["error_signals"] += errors
                failing["over_one_per_command"] += int(errors > len(sess["failed_commands"]))
            if annotated:
                labels = sess["annotation"]["signals"]
                got = score_signals(found, labels["expect"], labels["allow"])
                for k in ("tp", "allowed", "fp", "fn"):
                    sig[k] += len(got[k])
                if got["fp"] or got["fn"]:
                    misses.append({"session": sess["session_id"], "false_positives": got["fp"], "missed": got["fn"]})
        skills["proposed"].append({"scenario": scenario["id"], "patterns": result["proposals"]})
        if annotated:
            wanted = list(scenario["skills"])
            for pattern in result["proposals"]:
                hit = next((label for label in wanted if matches(pattern, label)), None)
                if hit is None:
                    skills["fp"] += 1
                    misses.append({"scenario": scenario["id"], "skill_false_positive": pattern})
                else:
                    wanted.remove(hit)
                    skills["tp"] += 1
            skills["fn"] += len(wanted)
            if wanted:
                misses.append({"scenario": scenario["id"], "skill_missed": wanted})
        for eid, key in result["ids"].items():
            row = result["scores"].get(eid)
            status = row["status"] if row else "unreferenced"
            scores["status"][status] = scores["status"].get(status, 0) + 1
            s = row["success"] if row else 0
            f = row["failed"] if row else 0
            relevant = [x for x in result["sessions"] if key in x["annotation"]["relevant"] and x["outcome"]]
            es = sum(1 for x in relevant if x["outcome"] == "success")
            ef = len(relevant) - es
            scores["evidence_counted"] += s + f
            scores["evidence_expected"] += es + ef
            scores["evidence_matched"] += min(s, es) + min(f, ef)
            if s + f and not es + ef:
                scores["unearned"] += 1
                scores["unearned_ids"].append(f"{scenario['id']}:{key}")
            if annotated and (s, f) != (es, ef):
                misses.append({"scenario": scenario["id"], "experience": key, "counted": [s, f], "expected": [es, ef]})
            scores["abs_error"].append(abs(laplace(s, f) - laplace(es, ef)))
    out = {"set": set_name, "scenarios": len(results), "sessions": sum(len(r["sessions"]) for _, r in results),
           "signals_extracted": sig["extracted"], "signals_by_type": dict(sorted(by_type.items())),
           "failing_sessions": {**failing, "error_signals_per_failed_command":
                                ratio(failing["error_signals"], failing["failed_commands"])},
           "skill_proposals": skills["proposed"],
           "scores": {"status": dict(sorted(scores["status"].items())), "experiences": len(scores["abs_error"]),
                      "unearned": scores["unearned"], "unearned_ids": scores["unearned_ids"]}}
    if annotated:
        correct = sig["tp"] + sig["allowed"]
        out["signals"] = {"precision": ratio(correct, sig["extracted"]), "recall": ratio(sig["tp"], sig["tp"] + sig["fn"]),
                          "true": sig["tp"], "allowed": sig["allowed"], "false_positives": sig["fp"], "missed": sig["fn"]}
        out["skills"] = {"precision": ratio(skills["tp"], skills["tp"] + skills["fp"]),
                         "recall": ratio(skills["tp"], skills["tp"] + skills["fn"]),
                         "true": skills["tp"], "false_positives": skills["fp"], "missed": skills["fn"]}
        out["scores"].update({
            "evidence_precision": ratio(scores["evidence_matched"], scores["evidence_counted"]),
            "evidence_recall": ratio(scores["evidence_matched"], scores["evidence_expected"]),
            "evidence_counted": scores["evidence_counted"], "evidence_expected": scores["evidence_expected"],
            "mean_abs_p_error": round(sum(scores["abs_error"]) / len(scores["abs_error"]), 3)
            if scores["abs_error"] else None})
        out["misses"] = misses
    return out


def run_set(cm, set_name: str, data: dict, tmp: str) -> dict:
    results = []
    for i, scenario in enumerate(data["scenarios"]):
        root = os.path.join(tmp, f"{set_name}-{i}")
        results.append((scenario, replay(cm, data, scenario, root)))
        shutil.rmtree(root, ignore_errors=True)
    return evaluate(set_name, data, results)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", choices=("heldout", "tuning", "handover", "all"), default="all")
    parser.add_argument("--checkout", default=REPO, help="measure this checkout's code (default: this one)")
    parser.add_argument("--smoke", action="store_true", help="the first tuning scenario only")
    parser.add_argument("--json", help="also write the result here")
    parser.add_argument("--misses", action="store_true", help="list false positives and misses")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-evolution-inputs-") as tmp:
        os.environ["HOME"] = os.path.join(tmp, "home")
        os.environ["CODE_MEMORY_ROOT"] = os.path.join(tmp, "unused-root")
        os.makedirs(os.environ["HOME"])
        cm = load_code(os.path.realpath(args.checkout))
        sets = ["tuning"] if args.smoke else (["heldout", "tuning", "handover"] if args.set == "all" else [args.set])
        out = {"checkout": os.path.realpath(args.checkout), "sets": {}}
        for name in sets:
            data = (heldout_set() if name == "heldout" else handover_set() if name == "handover"
                    else tuning_set(tmp, 1 if args.smoke else None))
            result = run_set(cm, name, data, tmp)
            if not args.misses:
                result.pop("misses", None)
            out["sets"][name] = result
    text = json.dumps(out, ensure_ascii=False, indent=1)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            fh.write(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
