"""Capability generation: the four gates on synthetic histories (each must open and must stay
closed), the Skills written, never overwriting a user's skill, the LLM path against the real
anthropic SDK + loopback stand-in, and the CLI."""

import json
import os

import pytest

from code_memory.config import load_config
from code_memory.evolution import capabilities as cap
from code_memory.evolution import feedback as fb
from code_memory.evolution import signals as sg
from code_memory.fsutil import iter_jsonl
from conftest import run_script
from evolution_support import DAY, HOUR, MODULE, PORT, ROUTINE, SLOW, history, write_summary

NOW = 1_800_000_000.0
OPENING = [[PORT], [MODULE], [PORT, MODULE], [PORT], [MODULE, SLOW], [ROUTINE]]
OK5 = ["success", "success", "failed", "success", "success", "success"]


def settings(tmp_path, **kw):
    return cap.Settings(skills_dir=str(tmp_path / "skills"), use_llm=False, **kw)


def inputs(paths, now=NOW):
    return sg.analyze(paths, sg.Settings(), now=now), fb.session_outcomes(paths)


def gate(result, name):
    return next(g for g in result["gates"] if g["gate"] == name)


def evaluate(paths, st, now=NOW):
    analysis, outcomes = inputs(paths, now)
    return cap.evaluate_gates(paths, st, analysis, outcomes, now)


def test_opening_history_opens_all_four_gates(initialized_root, tmp_path):
    history(initialized_root, NOW, OPENING, outcomes=OK5, start_days_ago=3)
    res = evaluate(initialized_root, settings(tmp_path))
    assert res["open"] is True
    assert [g["value"] for g in res["gates"]] == [True, None, 2, 0.8]
    assert [c["pattern"] for c in res["candidates"]] == ["dependency_issue:missing-module", "environment_issue:port"]


# gate 1 -------------------------------------------------------------------------------------

@pytest.mark.parametrize("value, expected", [("false", False), ("0", False), ("no", False), ("true", True),
                                             ("1", True)])
def test_gate_enabled_follows_the_capability_generation_switch(initialized_root, tmp_path, value, expected):
    history(initialized_root, NOW, OPENING, outcomes=OK5, start_days_ago=3)
    cfg = load_config(env={"CODE_MEMORY_ROOT": initialized_root.root, "CAPABILITY_GENERATION": value})
    st = cap.Settings.from_config(cfg["capabilities"])
    res = evaluate(initialized_root, cap.Settings(**{**st.__dict__, "skills_dir": str(tmp_path)}))
    assert gate(res, "enabled") == {**gate(res, "enabled"), "passed": expected, "value": expected}
    assert res["open"] is expected


# gate 2 -------------------------------------------------------------------------------------

def test_gate_cooldown(initialized_root, tmp_path):
    history(initialized_root, NOW, OPENING, outcomes=OK5, start_days_ago=3)
    from code_memory.fsutil import append_events
    from code_memory.timeutil import now_iso
    append_events(initialized_root.capabilities_log, [{"timestamp": now_iso(NOW - 23.9 * HOUR),
                                                        "event_type": "generation", "capability_name": "x"}])
    res = evaluate(initialized_root, settings(tmp_path))
    assert gate(res, "cooldown")["passed"] is False and gate(res, "cooldown")["value"] == pytest.approx(23.9)
    assert res["open"] is False
    assert evaluate(initialized_root, settings(tmp_path), now=NOW + 0.2 * HOUR)["open"] is True
    # the state file alone also counts (and a deleted state file does not reset the cooldown)
    with open(initialized_root.generator_state, "w") as fh:
        json.dump({"last_generation_at": now_iso(NOW - 1 * HOUR)}, fh)
    assert gate(evaluate(initialized_root, settings(tmp_path)), "cooldown")["value"] == pytest.approx(1.0)
    assert evaluate(initialized_root, settings(tmp_path, cooldown_hours=0.5))["open"] is True


# gate 3 -------------------------------------------------------------------------------------

@pytest.mark.parametrize("plan, expected, count", [
    ([[PORT], [PORT], [MODULE], [ROUTINE], [ROUTINE]], False, 1),          # one pattern with count >= 2
    ([[PORT], [MODULE], [SLOW], [ROUTINE], [ROUTINE]], False, 0),          # three patterns, count 1 each
    ([[PORT], [PORT, MODULE], [MODULE], [ROUTINE], [ROUTINE]], True, 2),   # exactly two with count 2
    ([["构建报错", "又出错了"], ["出错"], ["测试报错"], [ROUTINE], [ROUTINE]], False, 0),  # catch-all only
    ([["用户指出不应该改生成的代码", "又一次报错"], ["User corrected me: wrong file", "same error again"],
      ["搞错了，回滚了迁移"], ["I misunderstood the task"], [ROUTINE]], False, 0),      # corrections, "again": no Skill
])
def test_gate_patterns(initialized_root, tmp_path, plan, expected, count):
    history(initialized_root, NOW, plan, outcomes=["success"] * len(plan), start_days_ago=3)
    res = evaluate(initialized_root, settings(tmp_path))
    assert (gate(res, "patterns")["passed"], gate(res, "patterns")["value"]) == (expected, count)
    assert res["open"] is expected


def test_gate_patterns_ignores_addressed_and_suppressed(initialized_root, tmp_path):
    history(initialized_root, NOW, OPENING, outcomes=OK5, start_days_ago=3)
    sg.set_state(initialized_root, "environment_issue:port", "suppressed", now=NOW - DAY)
    res = evaluate(initialized_root, settings(tmp_path))
    assert gate(res, "patterns")["patterns"] == ["dependency_issue:missing-module"] and not res["open"]
    sg.set_state(initialized_root, "environment_issue:port", "active", now=NOW - DAY)
    sg.set_state(initialized_root, "dependency_issue:missing-module", "addressed", now=NOW - 4 * DAY)
    # addressed before all its sessions: they count again (reopened) only when reopen_after (3) is reached
    res = evaluate(initialized_root, settings(tmp_path))
    assert gate(res, "patterns")["value"] == 2
    sg.set_state(initialized_root, "dependency_issue:missing-module", "addressed", now=NOW - HOUR)
    assert gate(evaluate(initialized_root, settings(tmp_path)), "patterns")["value"] == 1


# gate 4 -------------------------------------------------------------------------------------

@pytest.mark.parametrize("outcomes, expected, rate", [
    (["success"] * 4 + [None, None], False, 1.0),                          # only 4 sessions with an outcome
    (["success", "success", "failed", "failed", "success", "success"], True, 0.6),   # last 5: 3/5, boundary
    (["success", "failed", "failed", "failed", "success", "success"], False, 0.4),   # last 5: 2/5
    (["failed", "failed", "success", "success", "success", "success"], True, 0.8),   # old failure outside
])
def test_gate_stability(initialized_root, tmp_path, outcomes, expected, rate):
    history(initialized_root, NOW, OPENING, outcomes=outcomes, start_days_ago=3)
    res = evaluate(initialized_root, settings(tmp_path))
    stability = gate(res, "stability")
    assert (stability["passed"], stability["value"]) == (expected, rate)
    assert res["open"] is expected


# generation ---------------------------------------------------------------------------------

def generate(paths, st, now=NOW, **kw):
    analysis, outcomes = inputs(paths, now)
    return cap.run(paths, st, analysis, outcomes, now=now, **kw)


def test_generation_writes_valid_skills_and_closes_the_loop(initialized_root, tmp_path):
    paths = initialized_root
    history(paths, NOW, OPENING, outcomes=OK5, start_days_ago=3)
    st = settings(tmp_path)
    dry = generate(paths, st, dry_run=True)
    assert dry["open"] and len(dry["generated"]) == 2 and not os.path.exists(st.skills_path)
    assert not os.path.exists(paths.capabilities_log)

    res = generate(paths, st)
    assert [g["name"] for g in res["generated"]] == ["auto-dep-missing-module", "auto-env-port"]
    for item in res["generated"]:
        text = open(item["path"], encoding="utf-8").read()
        fm = cap.front_matter(text)
        assert fm["name"] == item["name"] == os.path.basename(os.path.dirname(item["path"]))
        assert cap.name_problem(fm["name"]) is None
        assert 20 < len(fm["description"]) <= 1024
        assert fm["description"].startswith("Use when you see")
        assert "## Steps" in text and "\n1. " in text and "\n3. " in text
        assert item["backend"] == "template" and item["fallback_reason"] == "capabilities.use_llm is false"
    port = open(os.path.join(st.skills_path, "auto-env-port", "SKILL.md"), encoding="utf-8").read()
    assert "EADDRINUSE" in cap.front_matter(port)["description"] and "端口被占用" in port
    assert "lsof -nP -iTCP:<port>" in port
    records = list(iter_jsonl(paths.capabilities_log))
    assert [(r["event_type"], r["type"], r["trigger"], r["pattern_count"]) for r in records] == [
        ("generation", "Skill", "dependency_issue", 3), ("generation", "Skill", "environment_issue", 3)]
    states = sg.load_states(paths)
    assert states["environment_issue:port"]["state"] == "addressed"
    assert states["environment_issue:port"]["by"] == "capability-generator"
    index = open(os.path.join(paths.rules, "auto-capabilities.md"), encoding="utf-8").read()
    assert index.startswith("# auto-capabilities") and "**auto-env-port** — triggers: 端口被占用" in index
    assert json.load(open(paths.generator_state))["generated"] == ["auto-dep-missing-module", "auto-env-port"]
    # the loop is closed: cooldown and addressed patterns keep the gates shut
    again = generate(paths, st, now=NOW + HOUR)
    assert not again["open"] and not gate(again, "cooldown")["passed"] and gate(again, "patterns")["value"] == 0
    assert [s["name"] for s in cap.skills(paths)] == ["auto-dep-missing-module", "auto-env-port"]


def test_a_user_skill_is_never_overwritten(initialized_root, tmp_path):
    paths = initialized_root
    history(paths, NOW, OPENING, outcomes=OK5, start_days_ago=3)
    st = settings(tmp_path, max_per_run=1)
    user = tmp_path / "skills" / "auto-dep-missing-module" / "SKILL.md"
    user.parent.mkdir(parents=True)
    user.write_text("---\nname: auto-dep-missing-module\ndescription: mine\n---\nmy own steps\n")
    res = generate(paths, st)
    assert res["generated"][0]["name"] == "auto-dep-missing-module-2"
    assert user.read_text().endswith("my own steps\n")

    # our own unmodified skill is updated in place when its pattern comes back …
    for i in range(3):
        write_summary(paths, f"back-{i}", NOW + (i + 1) * HOUR, [MODULE])
        fb.record_outcome(paths, f"back-{i}", "success", now=NOW + (i + 1) * HOUR)
    later = NOW + 2 * DAY
    res = generate(paths, settings(tmp_path, max_per_run=1, min_patterns=1), now=later)
    assert res["generated"][0]["name"] == "auto-dep-missing-module-2" and res["generated"][0]["replaces_own_file"]
    # … but once the user edits it, it is theirs
    ours = tmp_path / "skills" / "auto-dep-missing-module-2" / "SKILL.md"
    ours.write_text(ours.read_text() + "\n- my note\n")
    for i in range(3):
        write_summary(paths, f"again-{i}", later + (i + 1) * HOUR, [MODULE])
        fb.record_outcome(paths, f"again-{i}", "success", now=later + (i + 1) * HOUR)
    res = generate(paths, settings(tmp_path, max_per_run=1, min_patterns=1), now=later + 2 * DAY)
    assert res["generated"][0]["name"] == "auto-dep-missing-module-3"
    assert ours.read_text().endswith("- my note\n")
    assert [s["modified"] for s in cap.skills(paths) if s["name"] == "auto-dep-missing-module-2"] == [True]


def test_names_and_yaml_are_safe():
    assert cap.sanitize_name("Claude Helper: Fix_PORT!!") == "helper-fix-port"
    assert cap.name_problem("auto-env-port") is None
    for bad in ("", "Auto", "a--b", "x" * 65, "my-claude-skill", "anthropic-x", "-a"):
        assert cap.name_problem(bad)
    long = cap.skill_name_for("error:" + "x" * 100)
    assert len(long) <= 64 and cap.name_problem(long) is None
    assert cap.front_matter('---\nname: a\ndescription: ' + cap.yaml_string('say "hi": {x}\nnext') + '\n---\n') == \
        {"name": "a", "description": 'say "hi": {x} next'}


def test_template_text_is_not_substituted_twice(initialized_root, tmp_path):
    history(initialized_root, NOW, [[PORT + " {name} {pattern}"]] * 3 + [[MODULE]] * 3,
            outcomes=["success"] * 6, start_days_ago=3)
    res = generate(initialized_root, settings(tmp_path))
    text = open(res["generated"][1]["path"], encoding="utf-8").read()
    assert "{name} {pattern}" in text


# the LLM path: real anthropic SDK against the loopback stand-in --------------------------------

@pytest.fixture
def api():
    pytest.importorskip("anthropic")
    from support.standin_api import StandinAPI
    with StandinAPI() as server:
        yield server


def sdk(api, paths):
    from code_memory.llm import get_backend
    return get_backend({"backend": "anthropic", "base_url": api.base_url, "timeout_seconds": 10},
                       paths=paths, env={"ANTHROPIC_API_KEY": "test-key"}, purpose="capability")


def test_llm_drafts_the_skill(initialized_root, tmp_path, api):
    paths = initialized_root
    secret = "sk-ant-api03-" + "Z" * 40
    plan = [[PORT + f" (token {secret})"], [MODULE], [PORT, MODULE], [PORT], [MODULE], [ROUTINE]]
    history(paths, NOW, plan, outcomes=OK5, start_days_ago=3)
    answer = {"name": "Fix Port Clash", "title": "Port clash on dev server start",
              "description": "Use when the dev server fails with EADDRINUSE / 端口被占用: find and stop the stale process.",
              "triggers": ["EADDRINUSE", "端口被占用", "address already in use"],
              "steps": ["Run `lsof -nP -iTCP:3000 -sTCP:LISTEN`.", "Kill the stale dev server.", "Restart on 3000."]}
    api.push({"when": "environment_issue:port", "text": "```json\n" + json.dumps(answer, ensure_ascii=False) + "\n```"},
             {"when": "dependency_issue:missing-module", "text": "sorry, I cannot do JSON"})
    st = cap.Settings(skills_dir=str(tmp_path / "skills"))
    res = generate(paths, st, backend=sdk(api, paths))
    by_pattern = {g["pattern"]: g for g in res["generated"]}
    port = by_pattern["environment_issue:port"]
    assert (port["name"], port["backend"]) == ("auto-fix-port-clash", "anthropic")
    text = open(port["path"], encoding="utf-8").read()
    assert cap.front_matter(text)["description"] == answer["description"]
    assert "1. Run `lsof -nP -iTCP:3000 -sTCP:LISTEN`." in text
    module = by_pattern["dependency_issue:missing-module"]
    assert module["backend"] == "template" and module["fallback_reason"] == "LLM answer rejected: answer is not JSON"
    sent = [r["raw"] for r in api.message_requests()]
    assert len(sent) == 2 and any("EADDRINUSE" in raw for raw in sent)
    assert all(secret not in raw for raw in sent)
    usage = [e for e in iter_jsonl(os.path.join(paths.evolution, "audit.jsonl")) if e.get("event_type") == "llm_usage"]
    assert [u["purpose"] for u in usage] == ["capability", "capability"]


def test_llm_failure_falls_back_to_the_template(initialized_root, tmp_path, api):
    history(initialized_root, NOW, OPENING, outcomes=OK5, start_days_ago=3)
    for _ in range(2):
        api.push({"status": 500})
    res = generate(initialized_root, cap.Settings(skills_dir=str(tmp_path / "skills")), backend=sdk(api, initialized_root))
    assert [g["fallback_reason"] for g in res["generated"]] == ["LLM failed: http"] * 2
    assert all(os.path.exists(g["path"]) for g in res["generated"])


# CLI ------------------------------------------------------------------------------------------

def test_cli_status_dry_run_and_generation(initialized_root, isolated_home):
    import time
    now = time.time()
    history(initialized_root, now, OPENING, outcomes=OK5, start_days_ago=3)
    env = {"CODE_MEMORY_LLM__BACKEND": "none"}

    def run(*args, extra=None):
        proc = run_script("capability-generator.py", *args, env={**env, **(extra or {})})
        return proc.returncode, (json.loads(proc.stdout) if proc.stdout.startswith("{") else proc.stdout)

    code, text = run("--status", "--format", "text")
    assert code == 0 and "gates: OPEN" in text and "[x] stability  value=0.8" in text
    code, out = run("--status", extra={"CAPABILITY_GENERATION": "false"})
    assert out["open"] is False and gate(out, "enabled")["value"] is False
    code, out = run("--dry-run")
    assert out["dry_run"] and len(out["generated"]) == 2
    assert not (isolated_home / ".claude" / "skills").exists()
    code, out = run()           # review.mode.skills defaults to queue: proposals, no files
    assert code == 0 and out["generated"] == [] and [q["name"] for q in out["queued"]] == [
        "auto-dep-missing-module", "auto-env-port"]
    assert not (isolated_home / ".claude" / "skills").exists()
    code, out = run(extra={"CODE_MEMORY_REVIEW__MODE__SKILLS": "auto"})
    assert code == 0 and [g["backend"] for g in out["generated"]] == ["template", "template"]
    assert (isolated_home / ".claude" / "skills" / "auto-env-port" / "SKILL.md").exists()
    code, out = run("--status")
    assert not out["open"] and [s["name"] for s in out["skills"]] == ["auto-dep-missing-module", "auto-env-port"]
    code, out = run("--bogus")
    assert code == 2 and out["error"] == "INVALID_ARGUMENT"
    proc = run_script("code-memory.py", "capabilities", "--status")
    assert json.loads(proc.stdout)["ok"] is True
