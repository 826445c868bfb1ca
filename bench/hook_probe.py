#!/usr/bin/env python3
"""What a prompt-time recall hook does on its hot path, for bench/bench_search_scale.py: run as a
hook is registered — ``sh -c "<venv python> -S bench/hook_probe.py" < payload`` — it reads the
UserPromptSubmit payload, loads the config, finds the project, asks the warm search server through
``code_memory.search.client`` (``signals: true``, as the relevance gate will) and prints a fenced
``additionalContext`` with the top hits, or nothing. Fails open like every hook: exit 0, no output.

Environment: ``PROBE_MODE`` (bm25 | hybrid, default bm25), ``PROBE_TIMEOUT`` (seconds, default 1.0).
Not the recall hook itself (that is the recall work of issue 21); the same costs, without a gate.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts"))


def main() -> int:
    from code_memory import jsonlite
    from code_memory.config import load_config
    from code_memory.projects import detect_project
    from code_memory.search.client import call

    event = jsonlite.loads(sys.stdin.buffer.read())
    cfg = load_config()
    project = detect_project(None, event["cwd"], cfg.get("projects") or {})
    answer = call(cfg.root, "search", {"query": event["prompt"], "project": project.name if project else None,
                                       "mode": os.environ.get("PROBE_MODE", "bm25"), "top_k": 5, "signals": True},
                  float(os.environ.get("PROBE_TIMEOUT", "1.0")))
    if not answer or not answer.get("results"):
        return 0
    lines = [f"- [{hit['source']}] {hit['heading']}: {hit['snippet'][:200]}" for hit in answer["results"][:3]]
    text = "<recalled-memory>\n" + "\n".join(lines) + "\n</recalled-memory>"
    sys.stdout.write(jsonlite.dumps({"hookSpecificOutput": {"hookEventName": "UserPromptSubmit",
                                                            "additionalContext": text}}))
    return 0


if __name__ == "__main__":
    try:
        main()
    except Exception:  # noqa: BLE001 — fail open
        pass
    sys.exit(0)
