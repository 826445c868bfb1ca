"""Hook payload fuzz for every registered hook (hooks/registry.py), through the real shell shims
(issue 14, deliverable 8): wrong types in every field, NUL, lone surrogates, invalid UTF-8 inside
strings, deep nesting, 5 MB fields, shell metacharacters and traversal in paths. Each run exits 0,
prints nothing or one valid JSON answer, writes nothing outside the memory root (a canary
directory stays as it was, no command in a path ever runs), and never leaves a traceback."""

from __future__ import annotations

import json
import os

import pytest

from code_memory.hooks.registry import HOOKS
from support.hook_runner import payload, run_hook

PAYLOAD_FOR = {"session-start": "session-start", "rules-injector": "pre-read", "rules-gate": "pre-edit",
               "schema-injector": "subagent-start", "subagent-rules": "subagent-start", "pre-compact": "pre-compact",
               "extract-memory": "post-edit", "avoidance-gate": "post-edit", "session-summary": "session-end",
               "prompt-recall": "user-prompt", "todo-check": "stop"}
SHIMS = [row[0] for row in HOOKS]
ANSWER_KEYS = {"hookSpecificOutput", "systemMessage", "decision", "reason"}


def test_every_registered_hook_is_fuzzed():
    assert set(SHIMS) == set(PAYLOAD_FOR)


def mutations(base: dict, project: str, outside: str, canary: str) -> list:
    """(name, raw bytes) for one hook's real payload."""
    out = []
    fields = [k for k in base if k != "hook_event_name"]
    for key in fields:
        for label, value in (("int", 7), ("list", ["a", 1]), ("null", None), ("dict", {"x": {"y": 1}}),
                             ("bool", True), ("nul", "a\x00b")):
            out.append((f"{key}={label}", json.dumps({**base, key: value}).encode()))
        if isinstance(base[key], str):
            out.append((f"{key}=surrogate", json.dumps({**base, key: "x"}).replace('"x"', '"a\\ud800b"', 1).encode()))
            out.append((f"{key}=bad-utf8", json.dumps({**base, key: "MARKER"}).encode().replace(b"MARKER", b"a\xff\xfeb")))
    shell = [f"{project}/$(touch {canary}).py", f"{project}/`touch {canary}`.py", f"{project}/a;touch {canary};.py",
             f"{project}/a|touch {canary}", f"{project}/a&&touch {canary}", f"{project}/'\"$HOME*?.py",
             f"{project}/../../{os.path.basename(outside)}/x.py", f"{outside}/x.py", f"{project}/\n/etc/passwd",
             "../../../../etc/passwd"]
    for n, path in enumerate(shell):
        out.append((f"path-{n}", json.dumps({**base, "cwd": path if n >= 6 else base.get("cwd"),
                                             "tool_input": {"file_path": path, "old_string": "a", "new_string": "b",
                                                            "content": "x", "prompt": "p"},
                                             "tool_response": {"filePath": path}}).encode()))
    nest = "[" * 400 + "]" * 400
    out.append(("deep-nesting", json.dumps({**base, "tool_input": "NEST"}).replace('"NEST"', nest).encode()))
    out.append(("5MB", json.dumps({**base, "tool_response": {"content": "x" * 5_000_000}, "prompt": "y" * 100}).encode()))
    return out


def snapshot(folder):
    seen = {}
    for base, _dirs, files in os.walk(folder):
        for name in files:
            with open(os.path.join(base, name), "rb") as fh:
                seen[os.path.join(base, name)] = fh.read()
    return seen


@pytest.mark.parametrize("shim", SHIMS)
def test_fuzzed_payloads(shim, initialized_root, project, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "x.py").write_text("keep me\n")
    canary = str(tmp_path / "pwned")
    before = snapshot(outside)
    base = payload(PAYLOAD_FOR[shim], project)
    cases = mutations(base, project, str(outside), canary)
    for name, raw in cases:
        result = run_hook(shim, raw)
        assert result.returncode == 0 and "Traceback" not in result.stderr, (shim, name, result.stderr[-400:])
        if result.stdout.strip():
            answer = json.loads(result.stdout)
            assert isinstance(answer, dict) and set(answer) <= ANSWER_KEYS, (shim, name, answer)
        assert not os.path.exists(canary), (shim, name)
    assert snapshot(outside) == before
    assert len(cases) >= 40
