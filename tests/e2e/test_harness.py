"""The e2e harness itself: the real binary, the stand-in and hook outputs, as the binary handles them.

A probe hook answers each event with a canned output; the tests check the binary really runs the
scripted tools and that each output kind reaches the model (or does not) the way the hooks of
code-memory rely on. If Claude Code changes this contract, these fail first.
"""

from __future__ import annotations

import json
import os

import pytest

from support.standin_api import main, subagent, tool

pytestmark = pytest.mark.e2e

PROBE = """#!/bin/bash
# probe EVENT: log stdin, answer with out-EVENT-TOOL.json or out-EVENT.json if present
payload=$(cat)
printf '%s\\n' "$payload" >> "{dir}/events.jsonl"
tool=$(printf '%s' "$payload" | sed -n 's/.*"tool_name":"\\([A-Za-z]*\\)".*/\\1/p')
for f in "{dir}/out-$1-$tool.json" "{dir}/out-$1.json"; do
  if [ -f "$f" ]; then cat "$f"; exit 0; fi
done
"""

EVENTS = ("SessionStart", "PreToolUse", "PostToolUse", "SubagentStart", "PreCompact", "SessionEnd")


def install_probe(runner, tmp_path, outputs: dict) -> str:
    probe_dir = tmp_path / "probe"
    probe_dir.mkdir()
    script = probe_dir / "probe.sh"
    script.write_text(PROBE.replace("{dir}", str(probe_dir)))
    script.chmod(0o755)
    for name, output in outputs.items():
        (probe_dir / f"out-{name}.json").write_text(json.dumps(output))
    runner.write_settings({"hooks": {ev: [{"hooks": [{"type": "command", "command": f'"{script}" {ev}'}]}]
                                     for ev in EVENTS}})
    return str(probe_dir / "events.jsonl")


def read_events(path):
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def test_hook_outputs_reach_the_model_as_observed(claude_runner, standin, project_dir, tmp_path):
    (project_dir / "a.py").write_text("x = 1\n")
    (project_dir / "b.py").write_text("y = 2\n")
    hso = lambda event, **kw: {"hookSpecificOutput": {"hookEventName": event, **kw}}
    events_log = install_probe(claude_runner, tmp_path, {
        "SessionStart": hso("SessionStart", additionalContext="CTX-START-1"),
        "PreToolUse-Read": hso("PreToolUse", permissionDecision="allow", additionalContext="CTX-READ-2"),
        "PreToolUse-Write": hso("PreToolUse", permissionDecision="deny", permissionDecisionReason="DENY-WRITE-3"),
        "PostToolUse-Edit": {"decision": "block", "reason": "BLOCK-EDIT-4"},
        "SubagentStart": hso("SubagentStart", additionalContext="CTX-SUB-5"),
    })
    standin.push(
        main(tool("Read", file_path=str(project_dir / "a.py"))),
        main(tool("Edit", file_path=str(project_dir / "a.py"), old_string="x = 1", new_string="x = 10")),
        main(tool("Write", file_path=str(project_dir / "b.py"), content="y = 99\n")),
        main(tool("Agent", description="look", prompt="look around", subagent_type="Explore")),
        subagent({"text": "sub done"}),
        main({"text": "All done."}),
    )
    result = claude_runner.run("do the edits")
    assert result.ok, result.describe()
    assert standin.pending_steps() == [], "the scripted session did not play out"

    # the tools really ran (Edit) or did not (denied Write)
    assert (project_dir / "a.py").read_text() == "x = 10\n"
    assert (project_dir / "b.py").read_text() == "y = 2\n"

    mains = standin.message_requests("main")
    assert mains and all(any("CTX-START-1" in s for s in _strings(r)) for r in mains)
    assert standin.requests_containing("CTX-READ-2", role="main")
    assert standin.requests_containing("DENY-WRITE-3", role="main")
    assert standin.requests_containing("BLOCK-EDIT-4", role="main")
    assert standin.requests_containing("CTX-SUB-5", role="subagent")
    assert not standin.requests_containing("CTX-SUB-5", role="main")

    seen = [(e["hook_event_name"], e.get("tool_name") or e.get("agent_type") or e.get("reason") or e.get("source"))
            for e in read_events(events_log)]
    assert seen[0] == ("SessionStart", "startup")
    assert ("SubagentStart", "Explore") in seen
    assert seen[-1] == ("SessionEnd", "other")
    assert ("PostToolUse", "Write") not in seen  # a denied tool has no PostToolUse


def test_transcript_is_written_where_the_runner_expects(claude_runner, standin):
    standin.push(main({"text": "hello"}))
    result = claude_runner.run("say hello")
    assert result.ok, result.describe()
    path = claude_runner.transcript_path(result.session_id)
    assert os.path.isfile(path)
    with open(path, encoding="utf-8") as fh:
        types = {json.loads(line).get("type") for line in fh if line.strip()}
    assert {"user", "assistant"} <= types


def _strings(request):
    from support.standin_api import strings_in
    return strings_in(request["body"])
