"""The feedback loop and the signals read clean inputs (issue: session continuity): code-memory's
own gate denials and lint findings are not errors, corrections or signals; headings and counts of
zero are not signals; memories injected into sessions that did nothing do not gain score."""

from __future__ import annotations

import os
import shutil

import pytest

from code_memory.evolution import feedback as fb
from code_memory.evolution import signals
from code_memory.evolution.outcome import assess_transcript
from code_memory.memory import experience as exp
from code_memory.summary.jobs import run_followups
from code_memory.summary.summarize import SummaryOptions, summarize_session
from support.hook_runner import REPO, payload, run_hook
from support.transcripts import TranscriptWriter

HOOKS_FIXTURE = os.path.join(REPO, "tests", "fixtures", "transcripts", "hooks-2.1.330.jsonl")
PITFALLS = ["- PIT-1 别在 bash 3 用 declare -A", "- PIT-2 金额用 Decimal（`calc.py`）"]


class NoLLM:
    name = "none"


def with_pitfalls(paths):
    text = open(paths.memory_md, encoding="utf-8").read()
    with open(paths.memory_md, "w", encoding="utf-8") as fh:
        fh.write(text.replace("## 避坑经验 (Pitfalls)\n", "## 避坑经验 (Pitfalls)\n\n" + "\n".join(PITFALLS) + "\n"))


def test_our_gate_denial_is_no_correction_in_the_outcome():
    """The recorded real session: an Edit denied by rules-gate, then read, edited, a Write the
    avoidance gate blocked. Nothing in it was the user correcting Claude."""
    a = assess_transcript(HOOKS_FIXTURE)
    assert (a.gate_denials, a.tool_errors, a.user_corrections, a.corrections) == (1, 0, 0, 0)
    assert a.outcome == "success" and not a.ended_unresolved


def test_a_note_with_gate_messages_zero_counts_and_headings_yields_no_signals(initialized_root, tmp_path):
    paths = initialized_root
    shutil.copy(HOOKS_FIXTURE, tmp_path / "s.jsonl")
    summarize_session(paths, str(tmp_path / "s.jsonl"), backend=NoLLM(), options=SummaryOptions(),
                      session_id="gate-1")
    note = open(paths.session_note("gate-1"), encoding="utf-8").read()
    assert "was not applied" not in note and "遇到的错误" not in note       # the denial is no error
    assert "[PY001]" in note                                               # the lint finding is kept
    # an older-style note: error heading, a count of zero, our own denial quoted
    with open(os.path.join(paths.sessions, "old-1.md"), "w", encoding="utf-8") as fh:
        fh.write("# 会话摘要: old-1\n\n- **项目**: p\n- **时间**: 2026-03-01 10:00 (最后更新)\n\n---\n\n"
                 "1. **主题**: 读代码\n2. **关键知识点**:\n   - 执行 2 条命令 (0 条失败)\n   - no errors, 0 failed\n"
                 "3. **涉及文件**: —\n4. **决策记录**: —\n\n### 遇到的错误 (Errors)\n\n"
                 "- Edit: PreToolUse:Edit hook error: [code-memory] This Edit was not applied: read the rules\n")
    result = signals.extract(paths, signals.Settings())
    found = {item["session_id"]: item["signals"] for item in result["extracted"]}
    assert found == {"gate-1": 0, "old-1": 0}
    # a real failure still is one
    with open(os.path.join(paths.sessions, "real-1.md"), "w", encoding="utf-8") as fh:
        fh.write("# 会话摘要: real-1\n\n- **项目**: p\n\n---\n\n1. **主题**: 修测试\n2. **关键知识点**:\n"
                 "   - 测试失败: AssertionError in test_pool\n")
    assert signals.extract(paths, signals.Settings(), session_id="real-1")["extracted"][0]["signals"] >= 1


def trivial_session(path: str, sid: str, cwd: str) -> str:
    with TranscriptWriter(path, session_id=sid, cwd=cwd) as t:
        t.user("你好，今天周几？")
        t.tool("Read", {"file_path": f"{cwd}/README.md"}, "# readme")
        t.say("今天是周一。")
    return path


def working_session(path: str, sid: str, cwd: str) -> str:
    with TranscriptWriter(path, session_id=sid, cwd=cwd) as t:
        t.user("把金额改成 Decimal")
        t.tool("Edit", {"file_path": f"{cwd}/calc.py", "old_string": "float", "new_string": "Decimal"})
        t.tool("Bash", {"command": "pytest -q"}, "3 passed")
        t.say("改好了，测试通过。")
    return path


def test_memories_injected_into_trivial_sessions_do_not_gain_score(initialized_root, project, tmp_path):
    """Four sessions that only chat and read: SessionStart hands them the pitfalls (refs are
    recorded), the summarizer's follow-ups run — and no score rises. Before, each such session
    counted as a success and the pitfalls were "high value" (0.83) after four of them."""
    paths = initialized_root
    with_pitfalls(paths)
    cfg = {"feedback": {}, "signals": {}}
    ids = [exp.pitfall_id(line) for line in PITFALLS]
    for i in range(4):
        sid = f"trivial-{i}"
        run_hook("session-start", payload("session-start", project, session_id=sid))
        transcript = trivial_session(str(tmp_path / f"{sid}.jsonl"), sid, project)
        assert run_followups(cfg, paths, sid, transcript)["feedback"] == "no outcome"
    scored = {s["experience_id"]: s for s in fb.scores(paths, fb.Settings())}
    assert set(ids) <= set(scored)                                   # they were handed over
    assert all(scored[i]["laplace"] == 0.5 and scored[i]["status"] == "normal" for i in ids)
    # a session that did work is evidence for the pitfall whose file it changed (calc.py), not for
    # one that names no file: being handed over alongside is co-occurrence, not evidence
    run_hook("session-start", payload("session-start", project, session_id="work-1"))
    transcript = working_session(str(tmp_path / "work-1.jsonl"), "work-1", project)
    assert run_followups(cfg, paths, "work-1", transcript)["feedback"] == "success"
    scored = {s["experience_id"]: s for s in fb.scores(paths, fb.Settings())}
    assert [round(scored[i]["laplace"], 3) for i in ids] == [0.5, 0.667]


PYTEST_OUTPUT = "\n".join(
    ["..F.F.F..                                                                [100%]",
     "=================================== FAILURES ==================================="]
    + [f"E       AssertionError: assert {i} == {i + 1}\nFAILED tests/test_cart.py::test_{i} - AssertionError" for i in range(3)]
    + ["3 failed, 6 passed in 0.12s"])


def test_one_failed_command_is_one_error_signal_however_many_lines_say_it(initialized_root, tmp_path):
    """The topic, the failed-command point, the error point, the Errors section and the final
    message all mention one failing pytest (run twice); a second, different command fails too."""
    paths = initialized_root
    transcript = str(tmp_path / "fail.jsonl")
    with TranscriptWriter(transcript, session_id="fail-1", cwd="/home/dev/shop") as t:
        t.user("购物车的测试挂了，修一下")
        t.tool("Bash", {"command": "pytest -q"}, PYTEST_OUTPUT, is_error=True)
        t.tool("Edit", {"file_path": "/home/dev/shop/cart.py", "old_string": "a", "new_string": "b"})
        t.tool("Bash", {"command": "pytest -q"}, PYTEST_OUTPUT.replace("3 failed", "2 failed"), is_error=True)
        t.tool("Edit", {"file_path": "/home/dev/shop/cart.py", "old_string": "b", "new_string": "c"})
        t.tool("Bash", {"command": "pytest -q"}, "9 passed")
        t.say("三个测试失败的原因是数量没有累加，已修复，测试全部通过。Redis 超时设为 2 秒没有变。")
    summarize_session(paths, transcript, backend=NoLLM(), options=SummaryOptions(), session_id="fail-1")
    found = [s["pattern"] for s in signals.extract(paths, signals.Settings(), session_id="fail-1") and
             signals.load_extractions(paths)["fail-1"]["signals"]]
    assert found == ["error:test-failure"]                       # no timeout: the setting is no problem
    with TranscriptWriter(transcript, session_id="fail-2", cwd="/home/dev/shop") as t:
        t.user("pytest 和 npm run build 都报错了")
        t.tool("Bash", {"command": "pytest -q"}, PYTEST_OUTPUT, is_error=True)
        t.tool("Bash", {"command": "npm run build"}, "src/a.ts(3,1): error TS2304: Cannot find name 'x'.\n"
                                                      "Found 1 error.", is_error=True)
        t.say("测试失败和构建失败都还没修。")
    summarize_session(paths, transcript, backend=NoLLM(), options=SummaryOptions(), session_id="fail-2")
    signals.extract(paths, signals.Settings(), session_id="fail-2")
    errors = [s["pattern"] for s in signals.load_extractions(paths)["fail-2"]["signals"] if s["type"] == "error"]
    assert sorted(errors) == ["error:build-failure", "error:test-failure"]


def test_an_outcome_counts_only_for_experiences_whose_files_the_session_changed(initialized_root):
    from code_memory.evolution.evidence import file_matches, scope_of, touched

    paths = initialized_root
    rules = {"billing": "- 金额一律用 Decimal（`billing/`）", "anywhere": "- 提交前跑测试",
             "sql": "- 迁移脚本 `migrations/*.sql` 要能回滚"}
    os.makedirs(paths.project_dir("shop"), exist_ok=True)
    os.makedirs(paths.project_dir("blog"), exist_ok=True)
    with open(os.path.join(paths.project_dir("shop"), "rules.md"), "w", encoding="utf-8") as fh:
        fh.write("# rules\n\n" + "\n".join(rules.values()) + "\n")
    with open(os.path.join(paths.project_dir("blog"), "rules.md"), "w", encoding="utf-8") as fh:
        fh.write("# rules\n\n- 提交前跑测试\n")
    text = open(paths.memory_md, encoding="utf-8").read()
    pitfalls = ["- bash 3 没有 `declare -A`：`*.sh` 里别用", "- 别在周五发版"]
    with open(paths.memory_md, "w", encoding="utf-8") as fh:
        fh.write(text.replace("## 避坑经验 (Pitfalls)\n", "## 避坑经验 (Pitfalls)\n\n" + "\n".join(pitfalls) + "\n"))
    ids = {k: exp.rule_id("shop", line) for k, line in rules.items()}
    ids.update(blog=exp.rule_id("blog", "- 提交前跑测试"), sh=exp.pitfall_id(pitfalls[0]), friday=exp.pitfall_id(pitfalls[1]))
    handed = list(ids.values())

    def hit(files, project="shop"):
        found = touched(paths, handed, files, cwd=f"/home/dev/{project}", project=project)
        return sorted(k for k, v in ids.items() if v in found)

    assert hit(["/home/dev/shop/billing/invoice.py"]) == ["anywhere", "billing"]
    assert hit(["/home/dev/shop/migrations/0004_index.sql", "/home/dev/shop/deploy.sh"]) == ["anywhere", "sh", "sql"]
    assert hit(["/home/dev/blog/post.md"], "blog") == ["blog"]      # another project's rules stay untouched
    assert hit([]) == []                                           # a session that changed nothing
    assert scope_of("改 `src/pay/` 和 package.json，别碰 *.lock；见 https://x.io/a/b") == ["src/pay/", "package.json",
                                                                                          "*.lock"]
    assert file_matches("/r/shop/src/pay/a.py", "src/pay/") and not file_matches("/r/shop/src/payment.py", "src/pay/")
    assert file_matches("/r/mail/promo.html", "mail/*.html") and file_matches("/r/a/config.py", "config.py")
    # the outcome event carries the evidence; only those experiences move
    fb.record_refs(paths, "s1", handed)
    fb.record_outcome(paths, "s1", "success", evidence=[ids["billing"]])
    scored = {s["experience_id"]: s["laplace"] for s in fb.scores(paths, fb.Settings())}
    assert scored[ids["billing"]] == pytest.approx(2 / 3, abs=1e-4) and scored[ids["friday"]] == 0.5
