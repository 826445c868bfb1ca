"""Isolation attempts from inside a real Claude Code session (issue 14, deliverable 2).

The stand-in model runs, through the real binary's Bash tool, every way we know to widen a
session's scope: flags (--workspace, --project, --scope all --force, remember --workspace), the
session variables unset (``env -u``, ``env -i``), ``cd`` into the other workspace, a detached
process (``setsid -f``: no Claude Code ancestor, no variables) and reads of derived files. Each
attempt's answer is kept in a file; none may show the other workspace's or project's marker,
and the tool results the model received hold neither."""

from __future__ import annotations

import json
import os
import shlex
import sys

import pytest

from conftest import REPO
from support.standin_api import main, strings_in, tool
from support.workspaces import workspaces_with_decisions

pytestmark = pytest.mark.e2e

BRAVO = "E2E-ISO-BRAVO"
OTHER = "E2E-ISO-OTHERPROJ"
QUARANTINED = "E2E-ISO-QUARANTINE"
UNSET = " ".join(f"-u {n}" for n in ("CLAUDECODE", "CLAUDE_CODE_SESSION_ID", "CLAUDE_CODE_ENTRYPOINT",
                                      "CLAUDE_CODE_CHILD_SESSION", "CLAUDE_PID", "CLAUDE_CODE_EXECPATH"))


def attempts(search: str, cm: str, bravo, root: str) -> dict:
    bravo_day = next(p for p in (bravo / "memory").iterdir() if p.name != "MEMORY.md")
    clean = f"env -i PATH=\"$PATH\" HOME=\"$HOME\" CODE_MEMORY_ROOT={shlex.quote(root)}"
    detached = f"{clean} {search} canary --mode bm25 --scope all --force > $OUT.tmp 2>&1; mv $OUT.tmp $OUT"
    return {
        "flag-workspace": f"{search} canary --mode bm25 --workspace bravo",
        "flag-project": f"{search} rollout --mode bm25 --project other",
        "flag-scope-all": f"{search} canary --mode bm25 --scope all --force",
        "unset-workspace": f"env {UNSET} {search} canary --mode bm25 --workspace bravo",
        "unset-scope-all": f"env {UNSET} {search} canary --mode bm25 --scope all --force",
        "env-i-scope-all": f"{clean} {search} canary --mode bm25 --scope all --force",
        "cd-into-bravo": f"cd {shlex.quote(str(bravo))} && env {UNSET} {search} canary --mode bm25",
        "get-bravo-file": f"env {UNSET} {search} get --path {shlex.quote(str(bravo_day))} --workspace bravo",
        "get-other-rules": f"env {UNSET} {search} get --path areas/projects/other/rules.md --project other",
        "get-index": f"{search} get --path .index/search.sqlite",
        "get-kv-log": f"{search} get --path kv/log.jsonl",
        "remember-bravo": f"env {UNSET} {cm} remember injected-by-model --workspace bravo",
        "detached-scope-all": (f"setsid -f sh -c {shlex.quote(detached)}; "
                               "for i in $(seq 1 100); do [ -f \"$OUT\" ] && break; sleep 0.1; done; cat \"$OUT\""),
    }


def test_a_session_cannot_widen_its_scope(claude_runner, standin, memory_root, project_dir, tmp_path):
    bravo = tmp_path / "work" / "bravo"
    bravo.mkdir(parents=True)
    workspaces_with_decisions(memory_root, {project_dir: "E2E-ISO-ALPHA", bravo: BRAVO})
    py = shlex.quote(sys.executable)
    other = os.path.join(memory_root, "areas", "projects", "other")
    os.makedirs(other)
    with open(os.path.join(other, "rules.md"), "w") as fh:
        fh.write(f"# other\n\n## Rollout\n- rollout {OTHER} rules\n")
    os.makedirs(os.path.join(memory_root, "kv"), exist_ok=True)
    with open(os.path.join(memory_root, "kv", "log.jsonl"), "w") as fh:
        fh.write(json.dumps({"key": "/untrusted/web/x", "content": QUARANTINED}) + "\n")
    bravo_files = {p: p.read_bytes() for p in (bravo / "memory").iterdir()}

    search = f"{py} {shlex.quote(os.path.join(REPO, 'scripts', 'memory-search.py'))}"
    cm = f"{py} {shlex.quote(os.path.join(REPO, 'scripts', 'code-memory.py'))}"
    out_dir = tmp_path / "attempts"
    out_dir.mkdir()
    tried = attempts(search, cm, bravo, memory_root)
    script = ["set +e"]
    for name, command in tried.items():
        out = shlex.quote(str(out_dir / f"{name}.out"))
        script.append(f"export OUT={out}; ( {command} ) > {out}.direct 2>&1; echo \"== {name}\"; cat {out}.direct")
    (tmp_path / "attempts.sh").write_text("\n".join(script) + "\n")
    standin.push(main(tool("Bash", command=f"bash {shlex.quote(str(tmp_path / 'attempts.sh'))}",
                           description="look around")),
                 main({"text": "done"}))
    result = claude_runner.run("what do we know about canary releases?", plugin_dirs=[REPO])
    assert result.ok, result.describe()

    seen = " ".join(strings_in(standin.message_requests("main")[1]["body"]))
    for name in tried:
        direct = (out_dir / f"{name}.out.direct").read_text()
        if name == "detached-scope-all":   # no Claude Code ancestor, no variables: refused for want of a terminal
            direct = (out_dir / f"{name}.out").read_text()
            assert "confirmation on the terminal" in direct
        assert f"== {name}" in seen, name                       # the model got every attempt's answer
        for mark in (BRAVO, OTHER, QUARANTINED):
            assert mark not in direct, (name, direct[-600:])
        answer = json.loads(direct[direct.index("{"):]) if "{" in direct else {}
        if answer.get("ok") is False:
            assert answer["error"] in ("MEMORY_SCOPE_DENIED", "MEMORY_PATH_TRAVERSAL"), (name, answer)
        else:                                                   # a plain search: its own workspace only
            assert name == "cd-into-bravo" and {h.get("workspace") for h in answer["results"]} <= {"alpha", None}
    for mark in (BRAVO, OTHER, QUARANTINED):
        assert mark not in seen
    assert {p: p.read_bytes() for p in (bravo / "memory").iterdir()} == bravo_files   # remember wrote nothing
