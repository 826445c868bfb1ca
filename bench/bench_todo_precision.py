#!/usr/bin/env python3
"""To-do precision on single report sentences: does the offline capture take a sentence that leaves
no open work for a to-do, and does it still take open work said as a state or indirectly?

    .venv-test/bin/python bench/bench_todo_precision.py [--checkout DIR] [--smoke] [--misses] [--json OUT]

Data: ``bench/handover_negatives_set.py`` (67 negatives — how the code works, results, pitfalls
already fixed, intended limits, past causes, choices, requests and questions to the person, summaries
of changes, caveats that are facts — and 34 positives; Chinese, English and mixed), written by the
engineer of the precision rules before changing them. The rules were tuned against it: every number
here is an UPPER BOUND; the handover benches (bench_handover_tuning.py, bench_handover_heldout.py)
measure the same rules on whole sessions.

Each text is the final message of a session that did work (``summary/todos.py`` ``capture``, with
``worked`` true: the state rules apply). Reported: false to-dos (negatives that give any to-do) per
kind and language; positives captured (a to-do line holding the item's key). Baseline:
``--checkout DIR`` runs another checkout's summarizer (``git archive <rev> | tar -x -C DIR``).
Prints one JSON object.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)

from handover_negatives_set import NEGATIVES, POSITIVES  # noqa: E402
from report import emit  # noqa: E402


def run(checkout: str, smoke: bool = False, misses: bool = False) -> dict:
    sys.path.insert(0, os.path.join(checkout, "scripts"))
    from code_memory.summary.todos import capture  # the checkout's rules

    negatives = NEGATIVES[::10] if smoke else NEGATIVES
    positives = POSITIVES[::10] if smoke else POSITIVES
    false, by_kind, by_lang, shown = 0, Counter(), Counter(), []
    for kind, lang, text in negatives:
        todos = capture(text, worked=True)
        if todos:
            false += 1
            by_kind[kind] += 1
            by_lang[lang] += 1
            shown.append(f"false to-do ({kind}): {text} -> {todos}")
    caught, caught_lang, totals = 0, Counter(), Counter()
    for lang, text, key in positives:
        totals[lang] += 1
        todos = capture(text, worked=True)
        if any(key.lower() in todo.lower() for todo in todos):
            caught += 1
            caught_lang[lang] += 1
        else:
            shown.append(f"missed: {text} -> {todos}")
    out = {"checkout": checkout, "negatives": len(negatives), "false_todos": false,
           "false_by_kind": dict(sorted(by_kind.items())), "false_by_lang": dict(sorted(by_lang.items())),
           "positives": len(positives), "captured": caught,
           "captured_by_lang": {lang: f"{caught_lang[lang]}/{n}" for lang, n in sorted(totals.items())},
           "upper_bound": True}
    if misses:
        out["misses"] = shown
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--checkout", default=REPO, help="run the summarizer of this checkout")
    parser.add_argument("--smoke", action="store_true", help="every tenth item only")
    parser.add_argument("--misses", action="store_true", help="list false to-dos and missed positives")
    parser.add_argument("--json", help="also write the result here")
    args = parser.parse_args()
    emit(run(os.path.abspath(args.checkout), args.smoke, args.misses), args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
