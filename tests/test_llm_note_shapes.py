"""An LLM summary renders cleanly whichever shape its items take: the system prompt's objects
(``{"text": …, "evidence": …}``, ``{"category", "rule", "evidence"}``, a decision as
``{"decision", "reason"}``) or plain strings — in the session note, in MEMORY.md
and rules.md, in search, and in the memory browser (issue 20, part 3). The real anthropic SDK talks
to the loopback stand-in; the browser's routes run in-process."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from code_memory.llm import get_backend
from code_memory.summary.summarize import SummaryOptions, summarize_session
from support.standin_api import StandinAPI
from support.transcripts import TranscriptWriter

pytest.importorskip("anthropic")

FIELDS = {   # field → (the prompt's object shape, the plain-string shape, the text that must render)
    "topic": ({"text": "给订单导出加流式写入"}, "给订单导出加流式写入", "给订单导出加流式写入"),
    "key_points": ([{"text": "每批 1000 行写一次"}], ["每批 1000 行写一次"], "每批 1000 行写一次"),
    "decisions": ([{"decision": "用 csv.writer 而不是 pandas", "reason": "不引入新依赖"}],
                  ["用 csv.writer 而不是 pandas — 不引入新依赖"], "用 csv.writer 而不是 pandas — 不引入新依赖"),
    "todos": ([{"text": "给大文件导出加进度条"}], ["给大文件导出加进度条"], "给大文件导出加进度条"),
    "rules": ([{"category": "编码规范", "rule": "导出一律流式写入", "evidence": ""}],
              [{"category": "编码规范", "rule": "导出一律流式写入"}], "导出一律流式写入"),
    "avoidances": ([{"text": "pandas 读大 CSV 会占满内存，改用 csv 模块逐行读", "evidence": ""}],
                   ["pandas 读大 CSV 会占满内存，改用 csv 模块逐行读"], "pandas 读大 CSV 会占满内存，改用 csv 模块逐行读"),
}
REPRS = ("{'", "'text'", '{"text"', "'evidence'", "'decision'", "'rule'")


def answer(shape: int, tag: str) -> str:
    pick = {name: value[shape] for name, value in FIELDS.items()}
    topic = f"{FIELDS['topic'][2]} {tag}"
    topic = topic if shape else {"text": topic}
    return json.dumps({"summary": {"topic": topic, "key_points": pick["key_points"], "files": ["exporter.py"],
                                   "decisions": pick["decisions"], "todos": pick["todos"], "done_todos": []},
                       "knowledge": {"has_knowledge": True, "project": "x", "rules": pick["rules"],
                                     "avoidances": pick["avoidances"]}}, ensure_ascii=False)


def transcript(tmp_path, project: str, sid: str, marker: str) -> str:
    path = str(tmp_path / f"{sid}.jsonl")
    with TranscriptWriter(path, session_id=sid, cwd=project) as t:
        t.user(f"{marker} 导出报表太慢，改成流式写 CSV。" + "背景说明。" * 150)
        t.tool("Edit", {"file_path": f"{project}/exporter.py", "old_string": "a", "new_string": "b"})
        t.say("exporter.py 现在流式写 CSV 了。")
    return path


def test_every_field_renders_from_both_shapes(initialized_root, tmp_path):
    paths = initialized_root
    project = tmp_path / "work" / "shop"
    (project / ".git").mkdir(parents=True)
    now = dt.datetime(2026, 3, 1, 18, 0).astimezone()
    with StandinAPI(default_text="unexpected") as api:
        backend = get_backend({"backend": "anthropic", "base_url": api.base_url, "timeout_seconds": 10},
                              paths=paths, env={"ANTHROPIC_API_KEY": "k"}, purpose="summary")
        for shape, sid in ((0, "prompt-shape"), (1, "spec-shape")):
            api.push({"when": f"MARK-{sid}", "text": answer(shape, sid)})
            report = summarize_session(paths, transcript(tmp_path, str(project), sid, f"MARK-{sid}"),
                                       backend=backend, options=SummaryOptions(), now=now)
            assert report["mode"] == "json", report
    for sid in ("prompt-shape", "spec-shape"):
        note = open(paths.session_note(sid), encoding="utf-8").read()
        for name, (_obj, _plain, text) in FIELDS.items():
            assert text in note, (sid, name)
        assert not any(r in note for r in REPRS), note
    memory_md = open(paths.memory_md, encoding="utf-8").read()
    rules_md = open(paths.project_dir("shop") + "/rules.md", encoding="utf-8").read()
    assert FIELDS["avoidances"][2] in memory_md and FIELDS["rules"][2] in rules_md
    assert not any(r in memory_md + rules_md for r in REPRS)

    # search and the memory browser show the same clean text
    pytest.importorskip("jinja2")
    from starlette.applications import Starlette
    from starlette.testclient import TestClient

    from code_memory.config import load_config
    from code_memory.search.access import resolve_scope
    from code_memory.ui.app import App
    from code_memory.ui.views import State

    cfg = load_config()
    scope = resolve_scope(cfg, scope="all", confirm=lambda question: True, ancestor=())
    client = TestClient(Starlette(routes=App(State(cfg, scope), "csrf").routes()))
    found = client.get("/api/search", params={"q": "pandas 内存", "mode": "bm25"}).json()
    assert found["ok"] and found["results"], found
    shown = json.dumps(found["results"], ensure_ascii=False)
    assert "csv 模块逐行读" in shown and not any(r in shown for r in REPRS)
    for sid in ("prompt-shape", "spec-shape"):
        page = client.get(f"/session/{sid}").text
        data = client.get(f"/api/session/{sid}").json()
        assert data["fields"]["decisions"] == [FIELDS["decisions"][2]] and data["fields"]["todos"] == [
            FIELDS["todos"][2]]
        for name, (_obj, _plain, text) in FIELDS.items():
            assert text.replace("<", "&lt;") in page, (sid, name)
        assert not any(r.replace("'", "&#39;").replace('"', "&#34;") in page for r in REPRS)
