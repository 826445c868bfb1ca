"""Files in other encodings are never rewritten lossily (issue 14, deliverable 5): a GBK MEMORY.md,
daily note, rules.md or facts.json is left byte for byte as it was by the hooks, the summarizer,
distill and the CLI writers — the write answers MEMORY_ENCODING_UNSUPPORTED naming the file, and
``code-memory status`` lists it under ``not_utf8``."""

from __future__ import annotations

import datetime as dt
import json
import os

import pytest

from code_memory.errors import CodeMemoryError
from code_memory.evolution import feedback as fb
from code_memory.evolution.distill import distill
from code_memory.memory.daily import append_daily_edit
from code_memory.summary.summarize import SummaryOptions, summarize_session
from conftest import run_script
from support.hook_runner import payload, run_hook
from support.standin_api import StandinAPI

GBK_TEXT = "# 记忆\n\n## 踩坑记录\n- 金额一律用 Decimal，不要用 float（中文内容，GBK 编码）\n"
DAY = "2026-03-01"


def gbk(path, text=GBK_TEXT, encoding="gbk"):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as fh:
        fh.write(text.encode(encoding))
    with open(path, "rb") as fh:
        return fh.read()


def unchanged(path, before):
    with open(path, "rb") as fh:
        return fh.read() == before


@pytest.mark.parametrize("encoding", ["gbk", "gb18030", "utf-16", "shift_jis"])
def test_a_hook_leaves_a_daily_note_in_another_encoding_untouched(initialized_root, project, encoding):
    note = initialized_root.daily_note(dt.date.today().isoformat())
    before = gbk(note, f"# {DAY}\n\n- 09:00 [alpha] 旧的一行 中文\n", encoding)
    edit = payload("post-edit", project, tool_name="Write",
                   tool_input={"file_path": os.path.join(project, "src", "a.py"), "content": "x"},
                   tool_response={"filePath": os.path.join(project, "src", "a.py")})
    assert run_hook("extract-memory", edit).silent                  # fails open
    assert unchanged(note, before)
    status = json.loads(run_script("code-memory.py", "status").stdout)
    assert os.path.relpath(note, initialized_root.root) in status["not_utf8"]


def test_the_library_writer_says_which_file(initialized_root):
    note = initialized_root.daily_note(DAY)
    before = gbk(note, f"# {DAY}\n\n- 09:00 [alpha] 中文\n")
    with pytest.raises(CodeMemoryError) as info:
        append_daily_edit(initialized_root, dt.datetime(2026, 3, 1, 10, 0), "alpha", "b.py")
    assert info.value.code == "MEMORY_ENCODING_UNSUPPORTED" and note in info.value.message
    assert unchanged(note, before)


def test_the_summarizer_leaves_gbk_memory_and_rules_untouched(initialized_root, tmp_path):
    """The knowledge it would have added stays in the session note; the rest is written; the
    report names the files it left alone."""
    pytest.importorskip("anthropic")
    from test_summarize import good_answer, sdk, write_session

    paths = initialized_root
    project = tmp_path / "work" / "shop"
    (project / ".git").mkdir(parents=True)
    memory_before = gbk(paths.memory_md)
    rules = os.path.join(paths.project_dir("shop"), "rules.md")
    rules_before = gbk(rules, "# shop — 规则\n\n## 测试\n- 旧规则 中文\n")
    transcript = write_session(tmp_path, str(project))
    with StandinAPI([{"text": good_answer()}]) as api:
        report = summarize_session(paths, transcript, backend=sdk(api, paths), options=SummaryOptions(),
                                   now=dt.datetime(2026, 3, 1, 18, 0).astimezone())
    assert report["mode"] == "json" and report["rules_added"] == 0 and report["pitfalls_added"] == 0
    assert {os.path.basename(n["path"]) for n in report["not_written"]} == {"rules.md", "MEMORY.md"}
    assert unchanged(paths.memory_md, memory_before) and unchanged(rules, rules_before)
    with open(paths.session_note("sess-1"), encoding="utf-8") as fh:
        note = fh.read()
    assert "每个缓存函数都要有过期测试" in note and "lru_cache 不能用于带可变参数的函数" in note   # kept here
    with open(paths.daily_note("2026-03-01"), encoding="utf-8") as fh:
        assert "### 会话 sess-1" in fh.read()


def test_distill_leaves_a_gbk_memory_md_untouched(initialized_root):
    before = gbk(initialized_root.memory_md)
    try:
        distill(initialized_root, fb.Settings(), max_best_practices=12, since_ts=0)
    except CodeMemoryError as exc:
        assert exc.code == "MEMORY_ENCODING_UNSUPPORTED"
    assert unchanged(initialized_root.memory_md, before)


def test_cli_writers_refuse_and_say_so(initialized_root, tmp_path):
    facts = os.path.join(initialized_root.project_dir("chat"), "facts.json")
    facts_before = gbk(facts, json.dumps({"facts": [{"id": "fact-1", "fact": "心跳 30 秒", "status": "active"}]},
                                         ensure_ascii=False))
    res = run_script("code-memory.py", "facts", "add", "WebSocket heartbeat every 20 s", "--project", "chat",
                     terminal="y")   # another project than the cwd's: the user confirms the write
    out = json.loads(res.stdout)
    assert out["ok"] is False and out["error"] in ("MEMORY_ENCODING_UNSUPPORTED", "INVALID_ARGUMENT")
    assert unchanged(facts, facts_before)
    ws = tmp_path / "ws" / "alpha"
    (ws / "memory").mkdir(parents=True)
    with open(initialized_root.config_json, "w") as fh:
        json.dump({"workspaces": {"paths": [str(ws)]}}, fh)
    day = ws / "memory" / "2026-03-01.md"
    day_before = gbk(str(day), "## 2026-03-01\n\n## 2026-03-01 09:00 — 事件\n- 发生：中文\n")
    res = run_script("code-memory.py", "remember", "x", "--at", "2026-03-01 10:00", cwd=str(ws))
    out = json.loads(res.stdout)
    assert out["ok"] is False and out["error"] == "MEMORY_ENCODING_UNSUPPORTED" and "2026-03-01.md" in out["message"]
    assert unchanged(str(day), day_before)


def test_session_start_injects_a_gbk_memory_md_readably_and_says_it_is_not_written(initialized_root, project):
    """The GBK MEMORY.md reaches the model as its Chinese text (read as GB18030, not replacement
    characters), and the session — user and model — is told once that code-memory leaves it alone."""
    before = gbk(initialized_root.memory_md)
    result = run_hook("session-start", payload("session-start", project, source="startup"))
    out = json.loads(result.stdout)
    context = out["hookSpecificOutput"]["additionalContext"]
    assert "金额一律用 Decimal" in context and "\ufffd" not in context
    assert "Not UTF-8" in out["systemMessage"] and "MEMORY.md" in out["systemMessage"]
    assert "iconv -f GB18030" in context
    assert unchanged(initialized_root.memory_md, before)


def test_session_start_says_nothing_about_encodings_when_everything_is_utf8(initialized_root, project):
    result = run_hook("session-start", payload("session-start", project, source="startup"))
    assert "Not UTF-8" not in result.stdout
