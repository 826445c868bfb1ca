"""Self-evolution end to end with the real Claude Code binary and the loopback stand-in:

- a Skill generated from a synthetic history shows up in the next session's skill listing (the
  request body the model receives), as the real binary lists hand-written skills;
- the session-outcome heuristic on transcripts the binary itself writes.
"""

from __future__ import annotations

import json
import time

import pytest

from code_memory.evolution import feedback as fb
from code_memory.evolution.capabilities import front_matter
from code_memory.evolution.outcome import assess_transcript
from conftest import REPO, run_script
from evolution_support import MODULE, PORT, ROUTINE, history
from support.standin_api import main, strings_in, tool

pytestmark = pytest.mark.e2e


def test_generated_skill_is_listed_in_the_next_session(claude_runner, standin, initialized_root, isolated_home):
    history(initialized_root, time.time(), [[PORT], [MODULE], [PORT, MODULE], [PORT], [MODULE], [ROUTINE]],
            outcomes=["success", "success", "failed", "success", "success", "success"], start_days_ago=2)
    user_skill = isolated_home / ".claude" / "skills" / "auto-env-port" / "SKILL.md"
    user_skill.parent.mkdir(parents=True)
    user_skill.write_text("---\nname: auto-env-port\ndescription: USER-OWNED-SKILL-77 for ports\n---\nmine\n")

    proc = run_script("capability-generator.py", "--no-llm")
    out = json.loads(proc.stdout)
    assert out["open"], out
    # review.mode.skills defaults to queue: nothing is written until the user approves
    assert out["generated"] == [] and len(out["queued"]) == 2
    queued = {q["pattern"]: q for q in out["queued"]}
    approved = json.loads(run_script("code-memory.py", "review", "approve",
                                     queued["environment_issue:port"]["proposal"], terminal="y").stdout)
    assert approved["ok"] and approved["name"] == "auto-env-port-2"   # the user's skill keeps its name and text
    assert user_skill.read_text().endswith("mine\n")
    waiting = next(q for p, q in queued.items() if p != "environment_issue:port")

    standin.push(main({"text": "hello"}))
    result = claude_runner.run("hi", plugin_dirs=[REPO])          # with our hooks: SessionStart speaks
    assert result.ok, result.describe()
    description = front_matter(open(approved["written_to"], encoding="utf-8").read())["description"]
    assert standin.requests_containing(approved["name"], role="main"), "the approved Skill is not listed"
    assert standin.requests_containing(description[:60], role="main"), "the description is not listed"
    # the one still waiting is not a Skill yet, and the model is told that a proposal waits
    assert not standin.requests_containing(f"{waiting['name']}:", role="main")
    assert standin.requests_containing("1 memory proposal waits for the user's review", role="main")
    assert standin.requests_containing("code-memory review list", role="main")
    assert standin.requests_containing("USER-OWNED-SKILL-77", role="main")


def test_outcome_heuristic_on_transcripts_of_the_real_binary(claude_runner, standin, project_dir, initialized_root):
    target = project_dir / "a.py"
    target.write_text("x = 1\n")
    # 1. a clean session
    standin.push(main(tool("Read", file_path=str(target))),
                 main(tool("Edit", file_path=str(target), old_string="x = 1", new_string="x = 5")),
                 main({"text": "done"}))
    clean = claude_runner.run("set x to 5")
    assert clean.ok, clean.describe()
    a = assess_transcript(claude_runner.transcript_path(clean.session_id))
    assert (a.outcome, a.corrections, a.prompts, a.tool_calls) == ("success", 0, 1, 2)

    # 2. an edit, then a failing command, then only words: ended unresolved
    standin.push(main(tool("Edit", file_path=str(target), old_string="x = 5", new_string="x = 6")),
                 main(tool("Bash", command="python3 -c 'import sys; sys.exit(3)'", description="check")),
                 main({"text": "the check failed"}))
    broken = claude_runner.run("set x to 6 and check it")
    assert broken.ok, broken.describe()
    path = claude_runner.transcript_path(broken.session_id)
    a = assess_transcript(path)
    assert (a.outcome, a.tool_errors, a.ended_unresolved) == ("failed", 1, True)

    # 3. the user corrects, Claude reverts its edit (same transcript, --resume): resolved
    standin.push(main(tool("Edit", file_path=str(target), old_string="x = 6", new_string="x = 5")),
                 main({"text": "reverted"}))
    resumed = claude_runner.run("不对，撤销刚才的修改", extra_args=["--resume", broken.session_id])
    assert resumed.ok and resumed.session_id == broken.session_id, resumed.describe()
    assert target.read_text() == "x = 5\n"
    a = assess_transcript(path)
    assert (a.user_corrections, a.reverted_edits, a.tool_errors) == (1, 1, 1)
    assert (a.corrections, a.outcome) == (3, "success")

    # recorded through the CLI, as the summarizer's worker does
    proc = run_script("memory-feedback.py", "outcome", "--session-id", broken.session_id, "--transcript", path)
    out = json.loads(proc.stdout)
    assert out["recorded"] and out["assessment"]["corrections"] == 3
    (last,) = [o for o in fb.session_outcomes(initialized_root) if o["session_id"] == broken.session_id]
    assert (last["outcome"], last["corrections"], last["source"]) == ("success", 3, "transcript")


def test_the_loop_closes_in_a_real_session(claude_runner, standin, project_dir, initialized_root, memory_root):
    """SessionStart injects pitfalls (high-value first) and records refs under the real session id;
    SessionEnd detaches the summarizer, whose follow-ups record the session's outcome and its
    signals — after which the injected pitfall whose file the session changed (server.py) carries
    that outcome in its score, and the one that names no file does not (co-occurrence is no evidence)."""
    import os

    pytest.importorskip("anthropic", reason="the summarizer's LLM path needs the optional extra anthropic")

    from code_memory.evolution.signals import load_extractions
    from code_memory.fsutil import iter_jsonl
    from code_memory.memory import experience as exp
    from conftest import REPO

    paths = initialized_root
    (project_dir / ".git").mkdir()
    low, high = "- LOOP-LOW 一个总是帮倒忙的经验", "- LOOP-HIGH 先查端口占用再启动服务（`server.py`）"
    text = open(paths.memory_md, encoding="utf-8").read()
    with open(paths.memory_md, "w", encoding="utf-8") as fh:
        fh.write(text.replace("## 避坑经验 (Pitfalls)\n", f"## 避坑经验 (Pitfalls)\n\n{low}\n{high}\n"))
    for i, outcome in enumerate(["failed", "failed", "success", "success", "success"]):
        line = low if outcome == "failed" else high
        fb.record_refs(paths, f"old-{i}", [exp.pitfall_id(line)])
        fb.record_outcome(paths, f"old-{i}", outcome, evidence=[exp.pitfall_id(line)])
    fb.refresh_score_cache(paths, fb.Settings())

    hook = lambda name: [{"hooks": [{"type": "command", "command": f'bash "{os.path.join(REPO, "hooks", name)}"'}]}]
    claude_runner.write_settings({"hooks": {"SessionStart": hook("session-start.sh"),
                                            "SessionEnd": hook("session-summary.sh")}})
    answer = {"summary": {"topic": "启动服务", "key_points": ["启动 dev server 时端口 3000 被占用 (EADDRINUSE)，改用 3001"],
                          "files": ["server.py"], "decisions": [], "todos": []},
              "knowledge": {"has_knowledge": False, "project": "alpha", "rules": [], "avoidances": []}}
    standin.push(main(tool("Write", file_path=str(project_dir / "server.py"), content="PORT = 3001\n")),
                 main(tool("Bash", command="echo started", description="start")),
                 main({"text": "Started the server on 3001. " * 20}),
                 {"role": "plain", "when": lambda body: "Reply with ONE JSON object" in json.dumps(body.get("system")),
                  "text": json.dumps(answer, ensure_ascii=False)})
    result = claude_runner.run("LOOP-E2E start the dev server " + "and tell me which port. " * 25)
    assert result.ok, result.describe()
    sid = result.session_id

    first = standin.requests_containing("LOOP-HIGH", role="main")
    assert first, "the pitfalls were not injected"
    body = next(s for s in strings_in(first[0]["body"]) if "LOOP-HIGH" in s)
    assert body.index("LOOP-HIGH") < body.index("LOOP-LOW"), "the high-value pitfall should come first"

    deadline = time.monotonic() + 90
    outcome = []
    while time.monotonic() < deadline and not outcome:
        outcome = [e for e in iter_jsonl(paths.audit_log) if e.get("event_type") == "outcome" and e["session_id"] == sid]
        time.sleep(0.5)
    assert outcome and outcome[-1]["outcome"] == "success" and outcome[-1]["source"] == "summary"
    assert outcome[-1]["evidence"] == [exp.pitfall_id(high)]
    refs = {e["experience_id"] for e in iter_jsonl(paths.audit_log)
            if e.get("event_type") == "ref" and e["session_id"] == sid and e.get("context") == "session-start"}
    assert refs == {exp.pitfall_id(low), exp.pitfall_id(high)}
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and sid not in load_extractions(paths):
        time.sleep(0.5)
    patterns = {s["pattern"] for s in load_extractions(paths)[sid]["signals"]}
    assert "environment_issue:port" in patterns
    scored = {s["experience_id"]: s for s in fb.scores(paths, fb.Settings())}
    assert scored[exp.pitfall_id(high)]["success"] == 4 and scored[exp.pitfall_id(low)]["success"] == 0
