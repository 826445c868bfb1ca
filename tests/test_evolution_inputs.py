"""The feedback loop and the signals read clean inputs (issue: session continuity): code-memory's
own gate denials and lint findings are not errors, corrections or signals; headings and counts of
zero are not signals; memories injected into sessions that did nothing do not gain score."""

from __future__ import annotations

import os
import shutil

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
