#!/usr/bin/env python3
"""Record the evolution-inputs held-out set (bench/data/evolution_heldout/) with the real Claude Code binary.

    CODE_MEMORY_TEST_CLAUDE_BIN=/path/to/claude .venv-test/bin/python bench/record_evolution_heldout.py [--only ID ...]

HELD-OUT EVALUATION SET, written before the signal, Skill and score changes of issue 20 part 4
(branch point cadb3b9). Do not tune scripts/code_memory/evolution/ to it: see
bench/data/evolution_heldout/README.md.

Each scenario of ``bench/data/evolution_heldout/scenarios.py`` is recorded the way
bench/record_handover_heldout.py records its own (one real ``claude -p --input-format stream-json``
process per session, the assistant scripted through the loopback stand-in, every tool call really
run in a temp git checkout, each tool call checked to fail exactly when the script says so, machine
paths rewritten to ``/home/dev``); then ``annotations.json`` is written: per session the user's
turns, the failed tool calls and the annotated signals and relevant rules; per scenario the rules,
the pitfalls and the Skills that should be proposed.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(REPO, "bench", "data", "evolution_heldout")
sys.path.insert(0, os.path.join(REPO, "bench"))

from record_handover_heldout import record_scenario, recording_args, session_file, tool_outcomes  # noqa: E402


def load_scenarios(data_dir: str = DATA):
    spec = importlib.util.spec_from_file_location("evolution_heldout_scenarios", os.path.join(data_dir, "scenarios.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def annotations(module, data_dir: str = DATA) -> dict:
    out = []
    for sc in module.SCENARIOS:
        rule_keys = {k for p in sc["projects"].values() for k in p["rules"]}
        sessions = []
        for i, sess in enumerate(sc["sessions"]):
            unknown = set(sess["relevant"]) - rule_keys - set(module.PITFALLS)
            if unknown:
                raise SystemExit(f"{sc['id']} session {i + 1}: unknown rule or pitfall keys {sorted(unknown)}")
            path = os.path.join(data_dir, session_file(sc, i))
            failed = [name for name, is_error, _ in tool_outcomes(path) if is_error] if os.path.exists(path) else []
            sessions.append({"index": i + 1, "project": sess["project"], "transcript": session_file(sc, i),
                             "what": sess["what"], "user_turns": [t["user"] for t in sess["turns"]],
                             "failed_tool_calls": failed, "signals": sess["signals"],
                             "relevant": sess["relevant"]})
        out.append({"id": sc["id"], "lang": sc["lang"], "about": sc["about"],
                    "projects": {name: {"rules": p["rules"]} for name, p in sc["projects"].items()},
                    "skills": sc["skills"], "sessions": sessions})
    return {"held_out": True, "written_before": "cadb3b9", "binary": "Claude Code 2.1.330",
            "note": "Held-out evaluation set for issue 20 part 4. Do not tune the evolution inputs to it (README.md).",
            "pitfalls": module.PITFALLS, "scenarios": out}


def main() -> int:
    args = recording_args(__doc__.split("\n\n")[0])
    module = load_scenarios()
    if not args.annotations_only:
        for scenario in module.SCENARIOS:
            if not args.only or scenario["id"] in args.only:
                shape = {**scenario, "projects": {n: p["files"] for n, p in scenario["projects"].items()}}
                record_scenario(args.claude, shape, DATA)
    path = os.path.join(DATA, "annotations.json")
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(annotations(module), fh, ensure_ascii=False, indent=1)
        fh.write("\n")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
