"""Automatic feedback signals from the hooks: every experience a hook hands to Claude is recorded
as a reference of that session, and SessionStart puts high-value pitfalls first."""

from __future__ import annotations

import json
import os

from code_memory.evolution import feedback as fb
from code_memory.fsutil import iter_jsonl
from code_memory.memory import experience as exp
from support.hook_runner import payload, run_hook

PITFALLS = ["- PIT-A 别在 bash 3 用 declare -A", "- PIT-B 金额用 Decimal", "- PIT-C 测试前先激活 venv",
            "- PIT-D 端口 3000 常被占用"]


def refs(paths, session="sess-test-1"):
    return [(e["experience_id"], e.get("context")) for e in iter_jsonl(paths.audit_log)
            if e.get("event_type") == "ref" and e["session_id"] == session]


def with_pitfalls(paths, lines=PITFALLS):
    text = open(paths.memory_md, encoding="utf-8").read()
    with open(paths.memory_md, "w", encoding="utf-8") as fh:
        fh.write(text.replace("## 避坑经验 (Pitfalls)\n", "## 避坑经验 (Pitfalls)\n\n" + "\n".join(lines) + "\n"))


def score(paths, line, outcomes):
    """Give the pitfall ``line`` a history: one session per outcome that referenced it."""
    for i, outcome in enumerate(outcomes):
        sid = f"hist-{exp.line_digest(line)}-{i}"
        fb.record_refs(paths, sid, [exp.pitfall_id(line)])
        fb.record_outcome(paths, sid, outcome, evidence=[exp.pitfall_id(line)])


def test_session_start_ranks_high_value_first_and_records_refs(initialized_root, project):
    paths = initialized_root
    with_pitfalls(paths)
    score(paths, PITFALLS[0], ["failed", "failed"])               # 0.25: archive candidate → last
    score(paths, PITFALLS[2], ["success", "success", "success"])  # 0.8: high value → first
    fb.refresh_score_cache(paths, fb.Settings())
    context = run_hook("session-start", payload("session-start", project)).context
    order = [context.index(m) for m in ("PIT-C", "PIT-B", "PIT-D", "PIT-A")]
    assert order == sorted(order), context
    assert open(paths.memory_md, encoding="utf-8").read().index("PIT-A") < \
        open(paths.memory_md, encoding="utf-8").read().index("PIT-C")   # the file keeps its order
    got = refs(paths)
    assert sorted(e for e, _ in got) == sorted(exp.pitfall_id(line) for line in PITFALLS)
    assert {c for _, c in got} == {"session-start"}


def test_only_what_fits_the_cap_counts_and_refs_can_be_switched_off(initialized_root, project):
    paths = initialized_root
    many = [f"- PIT-{i:03d} {'坑' * 60}" for i in range(200)]
    with_pitfalls(paths, many)
    context = run_hook("session-start", payload("session-start", project)).context
    got = {e for e, _ in refs(paths)}
    shown = [line for line in many if line in context]
    assert 0 < len(got) == len(shown) < len(many)
    assert got == {exp.pitfall_id(line) for line in shown}
    run_hook("session-start", payload("session-start", project, session_id="sess-off"),
             env={"CODE_MEMORY_FEEDBACK__RECORD_REFS": "false"})
    assert refs(paths, "sess-off") == []


def rules(paths, name, lines):
    path = os.path.join(paths.project_dir(name), "rules.md")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(f"# {name} — rules\n\n## 编码规范\n\n" + "\n".join(lines) + "\n")
    return path


def test_rules_injection_and_reading_rules_record_rule_refs(initialized_root, project, tmp_path):
    paths = initialized_root
    rules(paths, "alpha", ["- 金额一律用 Decimal", "- 日志不打印手机号"])
    rules(paths, "java-shared", ["- DAO 方法名以 find/save 开头"])
    env = {}
    cfg = paths.config_json
    with open(cfg, "w") as fh:
        json.dump({"project_groups": {"java-shared": ["alpha"]}}, fh)
    read = payload("pre-read", project, tool_input={"file_path": os.path.join(project, "src", "a.py")})
    assert "金额一律用 Decimal" in run_hook("rules-injector", read, env=env).context
    expected = {exp.rule_id("alpha", "- 金额一律用 Decimal"), exp.rule_id("alpha", "- 日志不打印手机号"),
                exp.rule_id("java-shared", "- DAO 方法名以 find/save 开头")}
    assert {e for e, _ in refs(paths)} == expected
    assert {c for _, c in refs(paths)} == {"rules-injector"}
    run_hook("rules-injector", read, env=env)                     # later reads are silent: no new refs
    assert len(refs(paths)) == 3
    # Claude reading the rules file itself (new session) hands it the whole file
    own = payload("pre-read", project, session_id="sess-2",
                  tool_input={"file_path": os.path.join(paths.project_dir("alpha"), "rules.md")})
    run_hook("rules-injector", own, env=env)
    assert {(e, c) for e, c in refs(paths, "sess-2") if c == "rules-read"} == {
        (exp.rule_id("alpha", "- 金额一律用 Decimal"), "rules-read"), (exp.rule_id("alpha", "- 日志不打印手机号"), "rules-read")}
    # the archive can find the injected rules by their ids
    from code_memory.evolution.archive import locate
    assert locate(paths, exp.rule_id("alpha", "- 日志不打印手机号")).path == "areas/projects/alpha/rules.md"


def test_a_broken_evolution_dir_never_costs_the_injection(initialized_root, project):
    paths = initialized_root
    with_pitfalls(paths)
    os.rmdir(paths.evolution)
    with open(paths.evolution, "w") as fh:                        # a file where the directory should be
        fh.write("x")
    result = run_hook("session-start", payload("session-start", project))
    assert result.returncode == 0 and "PIT-A" in result.context
    log = [json.loads(line) for line in open(os.path.join(paths.logs, "hooks.log"))]
    assert any(r["action"] == "record-refs-failed" for r in log)


def test_rank_pitfalls_keeps_items_whole_and_leaves_odd_sections_alone():
    cache = {"experiences": {exp.pitfall_id("- b"): [0.9, None, 0], exp.pitfall_id("- a"): [0.1, None, 0]},
             "high_value_threshold": 0.7, "archive_threshold": 0.3}
    text = "# M\n\n## 避坑经验 (Pitfalls)\n\n- a\n  more about a\n- b\n- c\n\n## 最佳实践 (Best practices)\n\n- x\n"
    ranked = fb.rank_pitfalls(text, cache)
    assert ranked.split("## 避坑经验 (Pitfalls)\n\n")[1].split("\n\n")[0] == "- b\n- c\n- a\n  more about a"
    assert ranked.endswith("## 最佳实践 (Best practices)\n\n- x\n")
    prose = text.replace("- b\n", "some prose\n- b\n")
    assert fb.rank_pitfalls(prose, cache) == prose
    assert fb.rank_pitfalls(text, {}) == text


def test_what_the_hooks_import_for_feedback_is_stdlib_and_light():
    import subprocess
    import sys

    from support.hook_runner import REPO
    probe = ("import sys; sys.path.insert(0, sys.argv[1]); "
             "from code_memory.evolution.feedback import record_refs, load_score_cache, rank_pitfalls, cached_score; "
             "from code_memory.memory.experience import ids_in, candidates, pitfall_lines, rule_lines; "
             "bad = sorted(n for n in sys.modules if n.split('.')[0] in "
             "('dataclasses','tempfile','shutil','subprocess','copy','inspect','sqlite3')); print(','.join(bad))")
    out = subprocess.run([sys.executable, "-S", "-c", probe, os.path.join(REPO, "scripts")],
                         capture_output=True, text=True, check=True).stdout.strip()
    assert out == "", f"heavy imports on the hook path: {out}"
