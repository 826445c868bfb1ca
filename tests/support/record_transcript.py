"""Record a transcript with the real Claude Code binary for tests/fixtures/transcripts/.

    .venv-test/bin/python tests/support/record_transcript.py tests/fixtures/transcripts/NAME.jsonl

Runs a scripted session (an edit denied by rules-gate, a read that injects the rules, the edit
again, a write blocked by avoidance-gate, an Explore subagent, a final answer) in a
temp HOME with this checkout's hooks installed as a plugin, against the stand-in API, and copies
the transcript with the temp paths rewritten to /home/dev. Needs $CODE_MEMORY_TEST_CLAUDE_BIN.
"""

from __future__ import annotations

import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from support.claude_runner import ClaudeRunner  # noqa: E402
from support.standin_api import StandinAPI, main, subagent, tool  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def record(out_path: str) -> None:
    tmp = os.path.realpath(tempfile.mkdtemp(prefix="cm-transcript-"))
    home, proj = os.path.join(tmp, "home"), os.path.join(tmp, "proj")
    root = os.path.join(home, ".claude", "memory")
    rules_dir = os.path.join(root, "areas", "projects", "proj")
    os.makedirs(rules_dir)
    os.makedirs(proj)
    with open(os.path.join(rules_dir, "rules.md"), "w", encoding="utf-8") as fh:
        fh.write("# proj — rules\n\n## 编码规范\n\n- 金额一律用 Decimal，不要用 float\n")
    with open(os.path.join(proj, "calc.py"), "w", encoding="utf-8") as fh:
        fh.write("def total(items):\n    return sum(i.price for i in items)\n")
    with StandinAPI(default_text="done") as api:
        edit = tool("Edit", file_path=f"{proj}/calc.py", old_string="return sum(i.price for i in items)",
                    new_string="return sum((i.price for i in items), Decimal(0))")
        api.push(
            main(edit),  # denied by rules-gate: the project's rules are not loaded yet
            main({"blocks": [{"text": "I'll read calc.py first."},
                             {"tool_use": {"name": "Read", "input": {"file_path": f"{proj}/calc.py"}}}]}),
            main(edit),
            main(tool("Write", file_path=f"{proj}/report.py",  # blocked by avoidance-gate (PY001)
                      content="def report(items):\n    try:\n        return total(items)\n    except:\n        return None\n")),
            main(tool("Agent", description="find callers", prompt="Find callers of total()",
                      subagent_type="Explore")),
            subagent({"text": "total() is called from report.py only."}),
            main({"text": "Switched total() to Decimal; the only caller is report.py."}),
        )
        runner = ClaudeRunner(os.environ["CODE_MEMORY_TEST_CLAUDE_BIN"], api, home, proj,
                              env={"CODE_MEMORY_ROOT": root, "CODE_MEMORY_PYTHON": sys.executable})
        result = runner.run("Make total() exact for money, and tell me who calls it.",
                            plugin_dirs=[REPO])
        if not result.ok:
            raise SystemExit(result.describe())
        with open(runner.transcript_path(result.session_id), encoding="utf-8") as fh:
            text = fh.read()
    text = text.replace(tmp, "/home/dev").replace(tmp.replace("/", "-"), "-home-dev")
    with open(out_path, "w", encoding="utf-8") as fh:
        fh.write(text)
    print(f"wrote {out_path} ({len(text)} bytes, session {result.session_id})")


if __name__ == "__main__":
    record(sys.argv[1])
