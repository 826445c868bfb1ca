"""MEMORY.md stays within its share: pitfalls are bounded (the lowest-valued archived, restorable),
and the weekly distill step fills the best-practices section — deterministic and through the real
anthropic SDK against the stand-in."""

from __future__ import annotations

import json
import os

import pytest

from code_memory.evolution import feedback as fb
from code_memory.evolution.archive import restore
from code_memory.evolution.distill import bound_pitfalls, distill, distilled_log
from code_memory.fsutil import iter_jsonl
from code_memory.markdown import section_lines
from code_memory.memory import experience as exp
from code_memory.memory.tree import BEST_PRACTICES_HEADING, PITFALLS_HEADING
from support.standin_api import StandinAPI

S = fb.Settings()


def write_memory(paths, pitfalls, best=()):
    from code_memory.memory.templates import template
    text = template("MEMORY.md")
    text = text.replace(PITFALLS_HEADING + "\n", PITFALLS_HEADING + "\n\n" + "\n".join(pitfalls) + "\n\n", 1)
    text = text.replace(BEST_PRACTICES_HEADING + "\n", BEST_PRACTICES_HEADING + "\n\n" + "".join(
        line + "\n" for line in best), 1)
    with open(paths.memory_md, "w", encoding="utf-8") as fh:
        fh.write(text)


def history(paths, line, outcomes):
    for i, outcome in enumerate(outcomes):
        sid = f"h-{exp.line_digest(line)}-{i}"
        fb.record_refs(paths, sid, [exp.pitfall_id(line)])
        fb.record_outcome(paths, sid, outcome, evidence=[exp.pitfall_id(line)])


def pitfalls_now(paths):
    return [ln for ln in section_lines(open(paths.memory_md, encoding="utf-8").read(), PITFALLS_HEADING)
            if ln.startswith("- ")]


def test_pitfalls_beyond_the_bound_are_archived_weakest_first_and_restorable(initialized_root):
    paths = initialized_root
    lines = [f"- pitfall {i:02d}: 坑 {i}" for i in range(40)]
    write_memory(paths, lines)
    history(paths, lines[0], ["success"] * 3)          # the oldest, but proven: stays
    history(paths, lines[39], ["failed"] * 3)          # the newest, but harmful: goes first
    dry = bound_pitfalls(paths, S, 30, apply=False)
    assert dry["archived"] == 0 and len(dry["items"]) == 10 and len(pitfalls_now(paths)) == 40
    result = bound_pitfalls(paths, S, 30)
    assert result["archived"] == 10
    kept = pitfalls_now(paths)
    assert len(kept) == 30 and lines[0] in kept and lines[39] not in kept
    gone = {ln for ln in lines if ln not in kept}
    assert gone == {lines[39], *lines[1:10]}            # then the oldest unproven ones
    restore(paths, exp.pitfall_id(lines[5]))
    assert lines[5] in pitfalls_now(paths)
    assert bound_pitfalls(paths, S, 0)["archived"] == 0  # 0 = no bound


def test_distill_moves_proven_pitfalls_and_writes_cross_project_practices(initialized_root):
    paths = initialized_root
    write_memory(paths, ["- PROVEN 金额一律用 Decimal，不要用 float", "- 普通的坑"], best=["- MY-OWN-PRACTICE 先写测试"])
    history(paths, "- PROVEN 金额一律用 Decimal，不要用 float", ["success"] * 4)
    for project in ("shop", "billing"):
        folder = paths.project_dir(project)
        os.makedirs(folder)
        with open(os.path.join(folder, "rules.md"), "w", encoding="utf-8") as fh:
            fh.write(f"# {project}\n\n## 测试\n- 修 bug 时同时补一个回归测试\n- only-{project}\n")
    result = distill(paths, S, max_best_practices=12, since_ts=0)
    assert result["method"] == "deterministic" and result["promoted"] == 1 and result["added"] == 2
    best = section_lines(open(paths.memory_md, encoding="utf-8").read(), BEST_PRACTICES_HEADING)
    assert "- MY-OWN-PRACTICE 先写测试" in best
    assert "- PROVEN 金额一律用 Decimal，不要用 float" in best
    assert any("修 bug 时同时补一个回归测试 (项目 projects: billing, shop)" in ln for ln in best)
    assert not any("only-" in ln for ln in best)
    assert pitfalls_now(paths) == ["- 普通的坑"]                 # moved, not copied
    again = distill(paths, S, max_best_practices=12, since_ts=0)
    assert again["added"] == 0                                  # nothing twice


def test_distilled_lines_are_bounded_and_yours_are_never_removed(initialized_root):
    paths = initialized_root
    write_memory(paths, [], best=["- MINE 1"])
    rules = ["- 数据库迁移脚本必须可重复执行", "- commit messages say why, not only what",
             "- 日志里不打印用户手机号"]
    for round_, rule in enumerate(rules):
        for project in ("a", "b"):
            folder = paths.project_dir(project)
            os.makedirs(folder, exist_ok=True)
            with open(os.path.join(folder, "rules.md"), "a", encoding="utf-8") as fh:
                fh.write(rule + "\n")
        assert distill(paths, S, max_best_practices=2, since_ts=0)["added"] == 1, round_
    best = [ln for ln in section_lines(open(paths.memory_md, encoding="utf-8").read(), BEST_PRACTICES_HEADING)
            if ln.startswith("- ")]
    assert best[0] == "- MINE 1" and len(best) == 3
    assert "迁移脚本" not in "".join(best)                         # the oldest distilled line left
    events = [r["event_type"] for r in iter_jsonl(distilled_log(paths))]
    assert "removed" in events


def test_distill_with_the_llm_condenses_the_candidates(initialized_root):
    pytest.importorskip("anthropic")
    from code_memory.llm import get_backend
    paths = initialized_root
    write_memory(paths, [])
    for project in ("a", "b"):
        folder = paths.project_dir(project)
        os.makedirs(folder)
        with open(os.path.join(folder, "rules.md"), "w", encoding="utf-8") as fh:
            fh.write("- 接口返回的金额字段统一用字符串\n- 提交前跑 ruff\n")
    answer = {"best_practices": ["金额跨服务传输用字符串，不用浮点 (LLM-MARKER)", "提交前跑 ruff"]}
    with StandinAPI([{"text": json.dumps(answer, ensure_ascii=False)}]) as api:
        backend = get_backend({"backend": "anthropic", "base_url": api.base_url, "timeout_seconds": 10},
                              env={"ANTHROPIC_API_KEY": "k"}, purpose="distill")
        result = distill(paths, S, max_best_practices=5, since_ts=0, backend=backend)
        (request,) = api.message_requests()
    assert result["method"] == "llm (anthropic)" and result["added"] == 2
    assert "接口返回的金额字段统一用字符串" in request["raw"] and "best_practices" in request["raw"]
    assert "LLM-MARKER" in open(paths.memory_md, encoding="utf-8").read()


def test_the_summarizer_keeps_the_pitfall_bound(initialized_root, tmp_path):
    from code_memory.summary.jobs import run_followups
    from support.transcripts import TranscriptWriter
    paths = initialized_root
    write_memory(paths, [f"- old pitfall {i}" for i in range(5)])
    path = str(tmp_path / "s.jsonl")
    with TranscriptWriter(path, session_id="s") as t:
        t.user("hi")
        t.say("hello")
    done = run_followups({"summary": {"max_pitfalls": 3}}, paths, "s", path)
    assert done["pitfalls_archived"] == 2 and len(pitfalls_now(paths)) == 3
