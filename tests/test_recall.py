"""Prompt-time and file-time recall, run as Claude Code runs the hooks (docs/hooks.md § Recall)."""

from __future__ import annotations

import json
import os

import pytest

from support.hook_runner import payload, run_hook

AUTH_BODY = """1. **主题**: 登录接口的 token 刷新
2. **关键知识点**:
   - refresh token 存在 HttpOnly cookie 里，access token 只放内存
3. **涉及文件**: src/auth.py, src/a.py
4. **决策记录**:
   - 选 JWT 而不是服务端 session，因为网关要无状态校验 (DECISION-MARKER-7)
   - access token 有效期 15 分钟
5. **待办**:
   - [ ] 给 refresh 接口加速率限制
"""

CSS_BODY = """1. **主题**: Fix the sidebar layout in the dashboard stylesheet
2. **关键知识点**:
   - the sidebar uses flexbox; the grid version broke Safari 15
3. **涉及文件**: web/sidebar.css
4. **决策记录**: keep flexbox for the sidebar (CSS-MARKER-3)
"""


def note(sid: str, day: str, cwd: str, body: str, hour: str = "10") -> str:
    """A session note as the summarizer writes it (memory/sessions.py)."""
    return (f"# 会话摘要: {sid}\n\n- **项目**: alpha\n- **时间**: {day} {hour}:00 (最后更新)\n"
            f"- **会话结束**: {day}T{hour}:00:00+00:00\n- **工作目录**: {cwd}\n\n---\n\n{body}")


OTHER_NOTES = [("s-ci", "CI runs the test suite on two cores", "pytest-xdist with two workers keeps CI under ten minutes"),
               ("s-docs", "Docs moved to docs/ pages", "one page per concern, the README stays short"),
               ("s-lint", "Ruff replaces flake8", "ruff check runs in CI and pre-commit")]


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    return path


@pytest.fixture
def lived_in(initialized_root, project):
    """A project with a few session notes, one pitfall naming a file, the recent-work index."""
    import datetime as dt

    paths = initialized_root
    day = (dt.date.today() - dt.timedelta(days=1)).isoformat()
    write(paths.session_note("s-auth"), note("s-auth", day, project, AUTH_BODY))
    write(paths.session_note("s-css"), note("s-css", day, project, CSS_BODY, hour="09"))
    for i, (sid, topic, point) in enumerate(OTHER_NOTES):
        older = (dt.date.today() - dt.timedelta(days=30 + i)).isoformat()
        write(paths.session_note(sid), note(sid, older, project, f"1. **主题**: {topic}\n2. **关键知识点**:\n   - {point}\n"))
    with open(paths.memory_md, encoding="utf-8") as fh:
        memory = fh.read()
    memory = memory.replace("## 避坑经验 (Pitfalls)", "## 避坑经验 (Pitfalls)\n\n- auth.py 的 refresh 分支不要吞掉过期异常 (PITFALL-MARKER-2)", 1)
    write(paths.memory_md, memory)
    from code_memory.memory.recent import rebuild
    from code_memory.summary.extract import same_todo
    rebuild(paths, same_todo)
    index(paths)
    return paths


def index(paths):
    from code_memory.config import load_config
    from code_memory.search.engine import ensure_index, index_sources, options_from_config

    cfg = load_config()
    ensure_index(paths.index_db, index_sources(cfg), options_from_config(cfg)).db.close()


def prompt_payload(project, prompt, session_id="sess-r1"):
    return payload("user-prompt", project, session_id=session_id, prompt=prompt)


def read_payload(project, rel, session_id="sess-r1"):
    return payload("pre-read", project, session_id=session_id, tool_input={"file_path": os.path.join(project, rel)})


def edit_payload(project, rel, session_id="sess-r1"):
    return payload("pre-edit", project, session_id=session_id,
                   tool_input={"file_path": os.path.join(project, rel), "old_string": "x", "new_string": "y"})


def refs(paths):
    log = paths.audit_log
    if not os.path.exists(log):
        return []
    with open(log, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if '"ref"' in line]


def test_prompt_recall_injects_the_relevant_decision_once_and_stays_silent_otherwise(lived_in, project):
    paths = lived_in
    asked = run_hook("prompt-recall", prompt_payload(project, "为什么选 JWT 而不是服务端 session？网关那边怎么校验"))
    assert asked.specific["hookEventName"] == "UserPromptSubmit"
    context = asked.context
    assert "DECISION-MARKER-7" in context and 'source="sessions/s-auth.md"' in context
    assert "CSS-MARKER-3" not in context                               # the CSS note is not about auth
    assert context.startswith("[code-memory] Recalled for this prompt") and len(context) <= 1500
    # asked again in the same session: nothing new to say
    assert run_hook("prompt-recall", prompt_payload(project, "JWT 还是服务端 session，网关怎么校验？")).silent
    # routine and trivial prompts: silent
    for prompt in ("fix the failing test", "给这个函数加单元测试", "继续", "/compact", "ok",
                   "<task-notification>\n<summary>Agent finished: JWT session 网关</summary>\n</task-notification>"):
        assert run_hook("prompt-recall", prompt_payload(project, prompt)).silent, prompt
    # another session gets it again; the refs name the session note
    assert "DECISION-MARKER-7" in run_hook("prompt-recall", prompt_payload(project, "JWT 还是服务端 session？网关怎么校验",
                                                                           session_id="sess-r2")).context
    recorded = {(r["session_id"], r["experience_id"], r.get("context")) for r in refs(paths)}
    assert ("sess-r1", "session:s-auth", "prompt-recall") in recorded


def test_without_an_index_the_first_prompt_builds_it_in_the_background(initialized_root, project):
    import time

    write(initialized_root.session_note("s-auth"), note("s-auth", "2026-11-01", project, AUTH_BODY))
    prompt = prompt_payload(project, "为什么选 JWT 而不是服务端 session？网关那边怎么校验")
    assert run_hook("prompt-recall", prompt).silent
    deadline = time.monotonic() + 60
    context = ""
    while not context and time.monotonic() < deadline:     # the detached build finishes, then it answers
        time.sleep(0.3)
        context = run_hook("prompt-recall", prompt).context if os.path.exists(initialized_root.index_db) else ""
    assert "DECISION-MARKER-7" in context


def test_prompt_recall_does_not_repeat_what_the_session_start_brief_holds(lived_in, project):
    start = run_hook("session-start", payload("session-start", project, session_id="sess-b1"))
    assert "DECISION-MARKER-7" in start.context          # the newest session's decisions are in the brief
    again = run_hook("prompt-recall", prompt_payload(project, "为什么选 JWT 而不是服务端 session？网关怎么校验", "sess-b1"))
    assert "DECISION-MARKER-7" not in again.context


def test_prompt_recall_is_configurable(lived_in, project, monkeypatch):
    prompt = prompt_payload(project, "为什么选 JWT 而不是服务端 session？网关那边怎么校验")
    assert run_hook("prompt-recall", prompt, env={"CODE_MEMORY_RECALL__PROMPT": "false"}).silent
    assert run_hook("prompt-recall", prompt, env={"CODE_MEMORY_RECALL__THRESHOLD": "1.01"}).silent
    small = run_hook("prompt-recall", prompt, env={"CODE_MEMORY_RECALL__MAX_CHARS": "420"}).context
    assert 0 < len(small) <= 420
    work = prompt_payload(project, "给网关的 JWT 校验加个测试", "sess-w1")   # work at hand: its own threshold
    assert run_hook("prompt-recall", work, env={"CODE_MEMORY_RECALL__THRESHOLD_WORK": "1.01",
                                                "CODE_MEMORY_RECALL__THRESHOLD": "0"}).silent
    assert "JWT" in run_hook("prompt-recall", work, env={"CODE_MEMORY_RECALL__THRESHOLD_WORK": "0.05"}).context


def test_file_recall_on_first_read_and_edit_once_input_untouched(lived_in, project, tmp_path):
    paths = lived_in
    write(os.path.join(project, "src", "auth.py"), "def refresh():\n    pass\n")
    first = run_hook("rules-injector", read_payload(project, "src/auth.py"))
    context = first.context
    assert "What memory knows about src/auth.py" in context
    assert "登录接口的 token 刷新" in context and "open to-do: 给 refresh 接口加速率限制" in context
    assert "PITFALL-MARKER-2" in context and "CSS-MARKER-3" not in context
    assert "updatedInput" not in first.stdout and first.decision == "allow"
    # the second Read of the same file: the shell answers, Python never starts
    witness = tmp_path / "python-ran"
    fake = write(str(tmp_path / "fake-python"), f"#!/bin/sh\ntouch {witness}\n")
    os.chmod(fake, 0o755)
    assert run_hook("rules-injector", read_payload(project, "src/auth.py"), env={"CODE_MEMORY_PYTHON": fake}).silent
    assert run_hook("rules-injector", read_payload(project, "src/other.py"), env={"CODE_MEMORY_PYTHON": fake}).silent
    assert not witness.exists()
    # src/a.py was touched by the same session: already said, nothing new
    assert run_hook("rules-injector", read_payload(project, "src/a.py")).silent
    # a file memory knows, first touched by an Edit: context only, no permission decision
    write(os.path.join(project, "web", "sidebar.css"), "")
    assert run_hook("rules-injector", read_payload(project, "web/other.css")).silent   # the directory, settled
    edit = run_hook("rules-gate", edit_payload(project, "web/sidebar.css"))
    assert "What memory knows about web/sidebar.css" in edit.context and "CSS-MARKER-3" in edit.context
    assert edit.decision is None and "updatedInput" not in edit.stdout
    assert run_hook("rules-gate", edit_payload(project, "web/sidebar.css")).silent
    contexts = {r.get("context") for r in refs(paths) if r["session_id"] == "sess-r1"}
    assert "file-recall" in contexts


def test_file_recall_says_nothing_the_start_context_holds(lived_in, project):
    write(os.path.join(project, "src", "auth.py"), "")
    run_hook("session-start", payload("session-start", project, session_id="sess-b2"))
    # the brief showed that session, MEMORY.md (with the pitfall) is in the start context too
    assert run_hook("rules-injector", read_payload(project, "src/auth.py", "sess-b2")).silent


def test_lines_in_context_are_one_line_whatever_their_dress():
    from code_memory.text.lines import line_digest, norm_line

    assert line_digest("- decided: 用 YAML 而不是环境变量") == line_digest("4. **决策记录**: 用 YAML 而不是环境变量")
    assert line_digest("  - [ ] 给 load_config 补单元测试") == line_digest("- [ ] 给 load_config 补单元测试")
    assert norm_line("[D1:3] Caroline: I went to a support group") == "[d1:3] caroline: i went to a support group"
    assert line_digest("- ok") == ""


def test_a_message_whose_sentences_the_brief_listed_is_in_context_and_empty_fields_are_not_lines():
    from code_memory.search.recall import _empty_value
    from code_memory.text.lines import text_digests, unseen_part

    brief = ("## 2026-11-26 05:10 · Should we move Money to integer cents?\n"
             "- decided: I went with int cents rather than Decimal because the column is a BIGINT\n"
             "- outcome: Money now stores integer cents.\n")
    seen = set(text_digests(brief))
    closing = ("Money now stores integer cents. I went with int cents rather than Decimal because the column "
               "is a BIGINT. Not done yet: the CSV export.")
    assert unseen_part(closing, seen) == "Not done yet: the CSV export."
    assert unseen_part("1. **主题**: Should we move Money to integer cents?", seen) == ""
    assert unseen_part("Money now stores integer cents.", seen) == ""
    assert unseen_part("金额从浮点数改成了整数分。CSV 导出还没改。",
                       set(text_digests("- outcome: 金额从浮点数改成了整数分"))) == "CSV 导出还没改。"
    assert _empty_value("   - —") and _empty_value("3. **决策记录**: 无") and not _empty_value("- use YAML")


def test_recall_leaves_out_what_the_brief_said_in_other_lines_and_gives_a_note_one_fence(initialized_root, project):
    from code_memory.config import load_config
    from code_memory.search.recall import prompt_recall
    from code_memory.text.lines import text_digests

    paths = initialized_root
    closing = ("Money now stores integer cents. I went with int cents rather than Decimal because the "
               "invoices.amount column is a BIGINT. Not done yet: update the CSV export.")
    body = (f"1. **主题**: Should we move Money to integer cents?\n2. **关键知识点**:\n   - —\n\n"
            f"## 结束语\n\n> {closing}\n\n" + "filler line about nothing in particular\n" * 60 +
            "\n## 更多\n\n- Decimal was slower in the hot loop of the Money parser (SPEED-MARKER)\n")
    write(paths.session_note("s-money"), note("s-money", "2026-11-20", project, body))
    index(paths)
    cfg = load_config()
    request = {"prompt": "why didn't we use Decimal for Money?", "project": "alpha", "threshold": 0.0,
               "threshold_work": 0.0, "max_chars": 1400, "max_items": 4, "candidates": 8, "mode": "bm25"}
    fresh = prompt_recall(cfg, dict(request))
    ids = [item["id"] for item in fresh["items"]]
    assert len(ids) == len(set(ids)) and len(fresh["items"][0].get("keys") or []) > 1   # chunks of a note: one fence
    assert "—" not in "".join(item["text"] for item in fresh["items"]).replace("—\n", "")
    brief = ("## 2026-11-20 10:00 · Should we move Money to integer cents?\n"
             "- decided: I went with int cents rather than Decimal because the invoices.amount column is a BIGINT\n"
             "- outcome: Money now stores integer cents.\n  - [ ] update the CSV export\n")
    after = prompt_recall(cfg, {**request, "exclude_lines": sorted(set(text_digests(brief)))})
    shown = "\n".join(item["text"] for item in after["items"])
    assert "BIGINT" not in shown and "integer cents" not in shown     # the brief said it, line by line
    assert "SPEED-MARKER" in shown                                    # what it did not say still comes


def test_prompt_recall_reads_memtool_within_the_projects_scope(initialized_root, project):
    from code_memory.config import load_config
    from code_memory.memtool.store import MemoryStore
    from code_memory.search.recall import candidates

    paths = initialized_root
    store = MemoryStore(os.path.join(paths.root, "memtool.db"))
    store.put(content="staging database listens on port 5433 (GLOBAL-MARKER)", type="project", key="k-global")
    store.owner = "other"
    store.put(content="staging database listens on port 6543 (OTHER-MARKER)", type="project", key="k-other")
    store.close()
    index(paths)
    hits = candidates(load_config(), {"prompt": "which port does the staging database listen on", "project": "alpha",
                                      "mode": "bm25", "candidates": 8})
    texts = " ".join(str(h.get("snippet") or h.get("text") or h) for h in hits)
    assert "GLOBAL-MARKER" in texts and "OTHER-MARKER" not in texts


def test_the_kind_of_prompt_is_read_from_its_grammar_in_both_languages():
    from code_memory.text.prompt_kind import named_words, prompt_kind

    asks = ["why did we pick RRF over a weighted sum?", "What did Caroline research?", "when was the cache moved",
            "当初为什么选 RRF，没用加权求和？", "jobs store 最后决定放在哪个路径", "登录失败重试最多几次？", "密码至少要几位吗"]
    work = ["fix the failing test", "why is this test flaky?", "check why CI is red", "can you review this diff?",
            "add a retry with backoff to the request", "给这个函数加单元测试", "这里为什么返回 None？",
            "跑一下测试，看看哪里挂了", "帮我看看为什么构建挂了", "把 print 换成正经的日志", "继续"]
    assert [p for p in asks if prompt_kind(p) != "ask"] == []
    assert [p for p in work if prompt_kind(p) != "work"] == []
    assert named_words("What did Caroline research?") == {"caroline"}
    assert named_words("why did we change parse_config in MEMORY.md") == {"parse", "config", "memory", "md"}
    assert named_words("jobs store 最后决定放在哪个路径？") == {"jobs", "store"}
    assert named_words("fix the failing test") == set()


def test_a_chinese_prompt_is_weighed_by_its_words_not_the_bigrams_across_them():
    from code_memory.text.query import query_terms
    from code_memory.text.segment import BigramSegmenter, get_segmenter

    seg = get_segmenter()
    words = query_terms("给这个函数加单元测试", seg, words=True)["terms"]
    assert "数加" not in words and "元测" not in words
    if seg.name != "bigram":                              # with jieba's dictionary installed
        assert {"函数", "单元测试"} <= set(words)
        assert "数加" in query_terms("给这个函数加单元测试", seg)["terms"]    # the search still asks every bigram
    assert query_terms("函数测试", BigramSegmenter(), words=True)["terms"] == ["函数", "数测", "测试"]
