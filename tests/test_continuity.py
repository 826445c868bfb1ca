"""Session continuity: what a session did reaches the next one. The deterministic note a person
would keep, the same inputs for the LLM (real anthropic SDK → stand-in), to-dos that later sessions
finish, the recent-work index and the brief the SessionStart shim injects — and the bad input."""

from __future__ import annotations

import json
import os
import threading
import time

import pytest

from code_memory.memory import recent
from code_memory.memory.sessions import parse_note
from code_memory.summary.summarize import SummaryOptions, summarize_session
from code_memory.summary.todos import same_todo
from code_memory.timeutil import now_iso
from code_memory.transcript import read_session
from support.hook_runner import payload, run_hook
from support.standin_api import StandinAPI
from support.transcripts import TranscriptWriter

DENIAL = ("PreToolUse:Edit hook error: [code-memory] This Edit was not applied: project \"proj\" has rules "
          "that are not loaded in this session yet. Read /r/areas/projects/proj/rules.md first, then retry the edit.")
LINT = ("[code-memory avoidance-gate] tools/check.py: this edit introduced 1 known pitfall(s) that the avoidance "
        "rules block. Fix them before going on:\n- tools/check.py:3 [PY001] bare `except:` — catch Exception")
FINAL_1 = ("已把 app.py 里的 POOL_SIZE 改成从 config/db.yaml 读取（决定用 YAML 而不是环境变量，因为其它配置也在 "
           "config/ 下）。下一步：给 load_config 补单元测试；在 README 里说明 pool_size 配置项。")
PROMPT_1 = "把 app.py 里写死的连接池大小改成从 config/db.yaml 读取"


class NoLLM:
    name = "none"


def ago(hours: float) -> str:
    return now_iso(time.time() - hours * 3600)


def lint_attachment(t, text=LINT):
    t.raw({"type": "attachment", "isSidechain": False, "sessionId": t.session_id, "timestamp": "2026-03-01T10:30:00Z",
           "attachment": {"type": "hook_blocking_error", "hookName": "PostToolUse:Write", "hookEvent": "PostToolUse",
                          "blockingError": {"blockingError": text, "command": "avoidance-gate.sh"}}})


def session_one(path: str, cwd: str, sid: str = "s1") -> str:
    """The issue's session 1, in the shapes the real binary writes."""
    with TranscriptWriter(path, session_id=sid, cwd=cwd) as t:
        t.user(PROMPT_1 + "。" + PROMPT_1)                       # pasted twice
        t.tool("Edit", {"file_path": f"{cwd}/app.py", "old_string": "10", "new_string": "cfg"}, DENIAL, is_error=True)
        t.tool("Read", {"file_path": f"{cwd}/app.py"}, "POOL_SIZE = 10")
        t.tool("Edit", {"file_path": f"{cwd}/app.py", "old_string": "10", "new_string": "cfg"})
        t.tool("Write", {"file_path": f"{cwd}/config/db.yaml", "content": "pool_size: 10\n"})
        t.tool("Write", {"file_path": f"{cwd}/tools/check.py", "content": "try:\n    x()\nexcept:\n    pass\n"})
        lint_attachment(t)
        t.tool("Bash", {"command": "python3 -m pytest -q tests/test_db.py"},
               "Exit code 1\nModuleNotFoundError: No module named 'yaml'", is_error=True)
        t.tool("Bash", {"command": "pip install pyyaml && python3 -m pytest -q > pytest.log"}, "3 passed")
        t.user("顺便把 pool 的超时也改成可配置")
        t.tool("Edit", {"file_path": f"{cwd}/app.py", "old_string": "30", "new_string": "cfg['timeout']"})
        t.say(FINAL_1)
    return path


def session_two(path: str, cwd: str, sid: str = "s2") -> str:
    with TranscriptWriter(path, session_id=sid, cwd=cwd) as t:
        t.user("继续昨天的工作：连接池配置还差什么？")
        t.tool("Write", {"file_path": f"{cwd}/tests/test_load_config.py", "content": "def test_x(): pass\n"})
        t.tool("Bash", {"command": "python3 -m pytest -q tests/test_load_config.py"}, "1 passed")
        t.say("已给 load_config 补好单元测试（tests/test_load_config.py），测试通过。README 的 pool_size 说明还没写。")
    return path


def summarize(paths, transcript, backend=None, **kw):
    return summarize_session(paths, transcript, backend=backend or NoLLM(), options=SummaryOptions(), **kw)


def note_of(paths, sid):
    with open(paths.session_note(sid), encoding="utf-8") as fh:
        return fh.read()


# -- the deterministic note ---------------------------------------------------------------------

def test_the_deterministic_note_is_one_a_person_would_keep(initialized_root, project, tmp_path):
    paths = initialized_root
    summarize(paths, session_one(str(tmp_path / "s1.jsonl"), project), ended_at=ago(20))
    note = note_of(paths, "s1")
    fields = parse_note(note)
    assert fields["topic"] == PROMPT_1 + "。"                                   # once, not twice
    # every changed file, the first-denied app.py too; a file a command wrote inside the project
    assert fields["files"] == ["app.py", "config/db.yaml", "tools/check.py", "pytest.log"]
    assert fields["todos"] == ["给 load_config 补单元测试", "在 README 里说明 pool_size 配置项"]
    assert fields["decisions"] == ["决定用 YAML 而不是环境变量，因为其它配置也在 config/ 下"]
    assert "### 后续请求 (Later requests)\n\n- 顺便把 pool 的超时也改成可配置" in note
    assert "> " + FINAL_1 in note                                               # the final message kept
    assert "- `python3 -m pytest -q tests/test_db.py` ✗" in note
    assert "ModuleNotFoundError: No module named 'yaml'" in note                  # a real error
    assert "- [block] tools/check.py:3 [PY001] bare" in note                   # the lint finding
    assert "[code-memory]" not in note and "was not applied" not in note        # our gate: nowhere
    assert "0 条失败" not in note


def test_the_digest_of_bad_transcripts(tmp_path):
    """No user text, only tool calls, huge tool output, subagent-only work, a session killed
    while a tool ran (no result, torn last line): no crash, files kept."""
    only_tools = str(tmp_path / "tools.jsonl")
    with TranscriptWriter(only_tools, cwd="/w/p") as t:
        t.tool("Bash", {"command": "ls"}, "x" * 3_000_000)
        t.tool("Edit", {"file_path": "/w/p/a.py", "old_string": "a", "new_string": "b"})
    d = read_session(only_tools)
    assert d.user_requests == [] and d.files_touched == ["/w/p/a.py"] and d.final_message == ""
    killed = str(tmp_path / "killed.jsonl")
    with TranscriptWriter(killed, cwd="/w/p") as t:
        t.user("write the exporter")
        t.assistant([{"type": "tool_use", "id": "toolu_x", "name": "Write",
                      "input": {"file_path": "/w/p/export.py", "content": "x"}}])
        t.raw('{"type": "user", "message": {"role": "user", "content": [{"type": "tool_re')
    d = read_session(killed)
    assert d.files_touched == ["/w/p/export.py"] and d.skipped_lines == 1
    sub_only = str(tmp_path / "proj" / "sub.jsonl")
    with TranscriptWriter(sub_only, session_id="sub", cwd="/w/p") as t:
        t.tool("Agent", {"description": "fix", "prompt": "fix it", "subagent_type": "general-purpose"}, "fixed")
    with TranscriptWriter(str(tmp_path / "proj" / "sub" / "subagents" / "agent-1.jsonl"), session_id="sub") as t:
        t.user("fix it")
        t.tool("Edit", {"file_path": "/w/p/b.py", "old_string": "a", "new_string": "b"})
        t.say("Fixed b.py.")
    d = read_session(sub_only)
    assert d.files_touched == ["/w/p/b.py"] and d.user_requests == []


def test_bad_transcripts_summarize_without_crash_and_enter_the_index_once(initialized_root, project, tmp_path):
    paths = initialized_root
    path = str(tmp_path / "t.jsonl")
    with TranscriptWriter(path, session_id="tools-only", cwd=project) as t:
        t.tool("Edit", {"file_path": f"{project}/a.py", "old_string": "a", "new_string": "b"})
        t.raw('{"type": "assistant", "message": {"content": [{"type": "te')
    for _ in range(2):                                                # re-run: replaced, not added
        report = summarize(paths, path, ended_at=ago(1))
    assert report["mode"] == "deterministic"
    entries = recent.load_entries(recent.index_path(paths, "project", "alpha"))
    assert [e["id"] for e in entries] == ["tools-only"] and entries[0]["files"] == ["a.py"]
    assert entries[0]["topic"] == "(no user request recorded)"


# -- to-dos across sessions, both summary backends -----------------------------------------------

def test_a_later_session_finishes_a_todo_deterministically(initialized_root, project, tmp_path):
    paths = initialized_root
    summarize(paths, session_one(str(tmp_path / "s1.jsonl"), project), ended_at=ago(20))
    report = summarize(paths, session_two(str(tmp_path / "s2.jsonl"), project), ended_at=ago(1))
    assert report["todos_done"] == 1
    note = parse_note(note_of(paths, "s2"))
    assert note["done"] == [("给 load_config 补单元测试", "s1")]
    assert note["todos"] == ["在 README 里说明 pool_size 配置项"]      # said again: carried in the words it had
    s2, s1 = recent.load_entries(recent.index_path(paths, "project", "alpha"))
    assert (s2["id"], s1["id"]) == ("s2", "s1")
    assert recent.open_todos(s1) == []            # one done, the other carried into s2's own to-do
    assert [t.get("done_by") for t in s1["todos"]] == ["s2", None]
    assert recent.open_todos(s2) == ["在 README 里说明 pool_size 配置项"]


def sdk(api):
    from code_memory.llm import get_backend
    return get_backend({"backend": "anthropic", "base_url": api.base_url, "timeout_seconds": 10},
                       env={"ANTHROPIC_API_KEY": "k"}, purpose="summary")


def test_the_llm_gets_the_same_inputs_and_marks_todos_done(initialized_root, project, tmp_path):
    pytest.importorskip("anthropic")
    paths = initialized_root
    summarize(paths, session_one(str(tmp_path / "s1.jsonl"), project), ended_at=ago(20))
    answer = {"summary": {"topic": "补 load_config 的单元测试", "key_points": ["测试放在 tests/ 下"],
                          "files": ["tests/test_load_config.py"], "decisions": [],
                          "todos": ["README 里写 pool_size"], "done_todos": ["T1", "T9", 1, "x"]},
              "knowledge": {"has_knowledge": False}}
    with StandinAPI([{"text": json.dumps(answer, ensure_ascii=False)}]) as api:
        path = session_two(str(tmp_path / "s2.jsonl"), project)
        with open(path, "a", encoding="utf-8") as fh:            # long enough for JSON mode
            fh.write(json.dumps({"type": "user", "sessionId": "s2", "timestamp": "2026-03-01T11:00:00Z",
                                 "message": {"role": "user", "content": "补充说明：" + "细节 " * 300}}) + "\n")
        report = summarize(paths, path, backend=sdk(api), ended_at=ago(1))
        (request,) = api.message_requests()
    assert report["mode"] == "json" and report["todos_done"] == 1
    prompt = request["body"]["messages"][0]["content"]
    system = request["body"]["system"]
    assert "done_todos" in system and "[code-memory]" in system
    assert "Earlier open to-dos of this project" in prompt
    assert "[T1] 给 load_config 补单元测试" in prompt and "[T2] 在 README 里说明 pool_size 配置项" in prompt
    assert "Files changed (from tool calls): tests/test_load_config.py" in prompt
    assert "Final assistant message:\n已给 load_config 补好单元测试" in prompt
    assert "User requests, in order:\n  1. 继续昨天的工作" in prompt
    note = parse_note(note_of(paths, "s2"))
    assert note["topic"] == "补 load_config 的单元测试" and note["todos"] == ["README 里写 pool_size"]
    assert note["done"] == [("给 load_config 补单元测试", "s1")]
    s2, s1 = recent.load_entries(recent.index_path(paths, "project", "alpha"))
    assert [t.get("done_by") for t in s1["todos"]] == ["s2", None]
    # the model restated the README to-do: s1's copy is carried into s2, shown once from there
    assert recent.open_todos(s1) == [] and recent.open_todos(s2) == ["README 里写 pool_size"]


def test_markdown_mode_renders_the_same_fields(initialized_root, project, tmp_path):
    pytest.importorskip("anthropic")
    paths = initialized_root
    summarize(paths, session_one(str(tmp_path / "s1.jsonl"), project), ended_at=ago(20))
    answer = ("1. **主题**: 补单元测试\n2. **关键知识点**:\n   - 测试通过\n3. **涉及文件**: x.py\n"
              "4. **决策记录**: —\n5. **待办**:\n   - 写 README\n6. **已完成的待办**: T1")
    with StandinAPI([{"text": answer}]) as api:
        report = summarize(paths, session_two(str(tmp_path / "s2.jsonl"), project), backend=sdk(api), ended_at=ago(1))
        (request,) = api.message_requests()
    assert report["mode"] == "markdown" and "6. **已完成的待办**" in request["body"]["system"]
    assert "[T1] 给 load_config 补单元测试" in request["body"]["messages"][0]["content"]
    note = parse_note(note_of(paths, "s2"))
    assert note["topic"] == "补单元测试" and note["todos"] == ["写 README"]
    assert note["files"] == ["tests/test_load_config.py"]                     # from the transcript
    assert note["done"] == [("给 load_config 补单元测试", "s1")]


# -- the index: rebuild, concurrency -------------------------------------------------------------

def test_the_index_is_rebuilt_from_the_notes(initialized_root, project, tmp_path):
    paths = initialized_root
    summarize(paths, session_one(str(tmp_path / "s1.jsonl"), project), ended_at=ago(20))
    summarize(paths, session_two(str(tmp_path / "s2.jsonl"), project), ended_at=ago(1))
    before = recent.load_entries(recent.index_path(paths, "project", "alpha"))
    import shutil
    shutil.rmtree(recent.recent_dir(paths))
    result = recent.rebuild(paths, same_todo)
    assert result == {"notes": 2, "files": 1}
    after = recent.load_entries(recent.index_path(paths, "project", "alpha"))
    assert [e["id"] for e in after] == ["s2", "s1"]
    assert [recent.open_todos(e) for e in after] == [recent.open_todos(e) for e in before]


def test_two_sessions_ending_in_the_same_second_both_stay(initialized_root, project, tmp_path):
    paths = initialized_root
    same = ago(2)
    paths_ = [session_one(str(tmp_path / f"p{i}.jsonl"), project, sid=f"par-{i}") for i in range(4)]
    errors = []

    def run(path):
        try:
            summarize(paths, path, ended_at=same)
        except Exception as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(p,)) for p in paths_]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors
    entries = recent.load_entries(recent.index_path(paths, "project", "alpha"))
    assert sorted(e["id"] for e in entries) == [f"par-{i}" for i in range(4)]
    assert [e["id"] for e in entries] == sorted(e["id"] for e in entries)     # a stable order
    assert all(recent.open_todos(e) for e in entries)        # same second: none carries the other's


# -- the brief at SessionStart -------------------------------------------------------------------

def test_session_start_briefs_the_next_session(initialized_root, project, tmp_path):
    paths = initialized_root
    summarize(paths, session_one(str(tmp_path / "s1.jsonl"), project), ended_at=ago(20))
    context = run_hook("session-start", payload("session-start", project, session_id="s2")).context
    brief = context.split('title="recent work')[1].split("</recalled-memory>")[0]
    for fact in (PROMPT_1, "app.py, config/db.yaml", "决定用 YAML 而不是环境变量", "- [ ] 给 load_config 补单元测试",
                 "- [ ] 在 README 里说明 pool_size 配置项", "note: sessions/s1.md"):
        assert fact in brief, fact
    assert context.index("recent work") < context.index("routing table")
    summarize(paths, session_two(str(tmp_path / "s2.jsonl"), project), ended_at=ago(1))
    context = run_hook("session-start", payload("session-start", project, session_id="s3")).context
    brief = context.split('title="recent work')[1].split("</recalled-memory>")[0]
    assert "给 load_config 补单元测试" not in brief.split("## ")[2]       # finished: gone from s1's entry
    # said again in s2 ("README 的 pool_size 说明还没写"): one line, in the words it had
    assert brief.count("在 README 里说明 pool_size 配置项") == 1 and "说明还没写" not in brief
    assert brief.index("继续昨天的工作") < brief.index(PROMPT_1)           # newest first
    # resume: the resumed session's own entry is left out; compact: shown as this session's
    resume = run_hook("session-start", payload("session-start", project, session_id="s2", source="resume")).context
    assert "继续昨天的工作" not in resume and PROMPT_1 in resume
    compact = run_hook("session-start", payload("session-start", project, session_id="s2", source="compact")).context
    assert "(this session, before compaction)" in compact


def test_the_brief_respects_count_age_and_its_switch(initialized_root, project, tmp_path):
    paths = initialized_root
    for i, hours in enumerate((400, 30, 20, 10, 5)):
        summarize(paths, session_one(str(tmp_path / f"c{i}.jsonl"), project, sid=f"c{i}"), ended_at=ago(hours))
    context = run_hook("session-start", payload("session-start", project)).context
    brief = context.split('title="recent work')[1].split("</recalled-memory>")[0]
    assert [line.split("·")[0] for line in brief.split("\n") if line.startswith("## ") and "·" in line].__len__() == 3
    assert "sessions/c4.md" in brief and "sessions/c0.md" not in brief        # 400 h > 14 days
    assert "## Still open from earlier sessions" not in brief                 # c1's to-dos carried on
    off = run_hook("session-start", payload("session-start", project), env={"CODE_MEMORY_HOOKS__RECENT_SESSIONS": "0"})
    assert "recent work" not in off.context
    two = run_hook("session-start", payload("session-start", project), env={"CODE_MEMORY_HOOKS__RECENT_SESSIONS": "1"})
    assert two.context.count("- note: sessions/") == 1


def test_the_start_hook_reads_no_notes_and_fails_open(initialized_root, project, tmp_path):
    """10,000 notes on disk: the hook reads the index, never the notes. A missing index is
    rebuilt from the newest notes only; a corrupt one is rebuilt too; the hook never fails."""
    paths = initialized_root
    summarize(paths, session_one(str(tmp_path / "s1.jsonl"), project), ended_at=ago(3))
    filler = "# 会话摘要: {i}\n\n- **项目**: other\n- **时间**: 2026-01-01 10:00 (最后更新)\n\n---\n\n1. **主题**: old {i}\n"
    for i in range(10_000):
        with open(os.path.join(paths.sessions, f"n{i:05d}.md"), "w", encoding="utf-8") as fh:
            fh.write(filler.format(i=i))
    os.utime(paths.session_note("s1"))                           # the newest note by mtime
    context = run_hook("session-start", payload("session-start", project)).context
    assert PROMPT_1 in context
    log = open(os.path.join(paths.logs, "hooks.log"), encoding="utf-8").read()
    assert "recent-rebuilt" not in log
    import shutil
    shutil.rmtree(recent.recent_dir(paths))                       # deleted .index/: newest notes only
    context = run_hook("session-start", payload("session-start", project)).context
    assert PROMPT_1 in context and '"notes": 64' in open(os.path.join(paths.logs, "hooks.log")).read()
    index = recent.index_path(paths, "project", "alpha")
    with open(index, "w") as fh:
        fh.write('{"entries": [tor')                              # a torn file
    result = run_hook("session-start", payload("session-start", project))
    assert result.returncode == 0 and PROMPT_1 in result.context
    with open(index, "w") as fh:
        fh.write('{"entries": [{"id": 5}, {"id": "x", "ts": "soon", "todos": "no"}, 7]}')
    result = run_hook("session-start", payload("session-start", project))
    assert result.returncode == 0 and "routing table" in result.context


# -- the deterministic extraction, in Chinese and English ------------------------------------------

@pytest.mark.parametrize("requests, topic", [
    (["fix the flaky test " * 10], "fix the flaky test"),
    (["继续", "把导出改成 CSV"], "把导出改成 CSV"),
    (["Refactor the parser. It is too slow and the error messages are bad. " + "More context. " * 30],
     "Refactor the parser. It is too slow and the error messages are bad. More context."),
    (["请把 src/exporter.py 里的导出逻辑改成流式写入，现在一次性把所有行读进内存，导出一百万行时进程会被 OOM 杀掉，"
      "另外顺便看一下 CSV 的转义是不是有问题，有用户反馈逗号会错位。"],
     "请把 src/exporter.py 里的导出逻辑改成流式写入，现在一次性把所有行读进内存…"),
    ([], ""),
])
def test_topic_is_a_concise_line(requests, topic):
    from code_memory.summary.extract import topic_of
    assert topic_of(requests) == topic


@pytest.mark.parametrize("message, todos", [
    ("Done with the parser.\n\nNext steps:\n- add a fuzz test for parse_header\n- document --strict",
     ["add a fuzz test for parse_header", "document --strict"]),
    ("All green. TODO: remove the shim in utils/compat.py", ["remove the shim in utils/compat.py"]),
    ("改好了。接下来要做的是：补迁移脚本；更新 CHANGELOG。", ["补迁移脚本", "更新 CHANGELOG"]),
    ("- [ ] 清理旧的 cron 配置\n- [x] 已完成的事", ["清理旧的 cron 配置"]),
    ("Fixed it. There is nothing left to do.", []),
    ("", []),
])
def test_todos_come_from_the_final_message(message, todos):
    from code_memory.summary.todos import from_message
    assert from_message(message) == todos


def said(*texts, files=(), requests=("继续",), failed=False):
    """The digest of a later session that says ``texts`` (its assistant messages)."""
    from code_memory.transcript import SessionDigest
    commands = [] if failed is None else [{"command": "pytest -q", "failed": failed}]
    return SessionDigest(path="x", assistant_notes=list(texts), final_message=texts[-1] if texts else "",
                         files_touched=list(files), user_requests=list(requests), commands=commands)


def test_done_needs_the_same_names_and_a_completion_word():
    from code_memory.summary.todos import Evidence, finished
    todo = [("s1", "给 load_config 补单元测试")]

    def done(digest, todos=todo, still_open=()):
        return finished(todos, Evidence.from_digest(digest), list(still_open))

    assert done(said("已给 load_config 补好单元测试。")) == todo
    assert done(said("已给 parse_args 补好单元测试。")) == []                       # another function
    assert done(said("load_config 的单元测试还没补。")) == []                       # said, not done
    assert done(said("Added a fuzz test for parse_header; it passes."),
                [("s1", "add a fuzz test for parse_header")]) == [("s1", "add a fuzz test for parse_header")]
    assert same_todo("在 README 里说明 pool_size 配置项", "README 的 pool_size 说明还没写")
    assert not same_todo("给 load_config 补单元测试", "给 parse_args 补单元测试")


def test_the_weekly_cleanup_takes_deleted_notes_out_of_the_index(initialized_root, project, tmp_path):
    paths = initialized_root
    summarize(paths, session_one(str(tmp_path / "s1.jsonl"), project), ended_at=ago(20))
    summarize(paths, session_two(str(tmp_path / "s2.jsonl"), project), ended_at=ago(1))
    os.unlink(paths.session_note("s1"))
    assert recent.forget_missing_notes(paths) == 1
    assert [e["id"] for e in recent.load_entries(recent.index_path(paths, "project", "alpha"))] == ["s2"]
    assert recent.forget_missing_notes(paths) == 0


def test_a_workspace_brief_spans_its_projects(initialized_root, tmp_path):
    """Two repositories inside one registered workspace: a session in one sees the other's recent
    work too (a session outside the workspace does not)."""
    paths = initialized_root
    space = tmp_path / "space"
    for name in ("api", "web"):
        (space / name / ".git").mkdir(parents=True)
    outside = tmp_path / "elsewhere" / "tool"
    (outside / ".git").mkdir(parents=True)
    config = {"workspaces": {"paths": [str(space)]}}
    with open(os.path.join(paths.root, "config.json"), "w", encoding="utf-8") as fh:
        json.dump(config, fh)
    from code_memory.config import load_config
    from code_memory.summary.jobs import summarize_transcript
    cfg = load_config()
    summarize_transcript(cfg, paths, NoLLM(), SummaryOptions(),
                         session_one(str(tmp_path / "w1.jsonl"), str(space / "api"), sid="w1"),
                         ended_at=ago(2), followups=False)
    web = run_hook("session-start", payload("session-start", str(space / "web"))).context
    assert PROMPT_1 in web and 'project "web" and workspace "space"' in web and "[api] · " in web
    assert PROMPT_1 not in run_hook("session-start", payload("session-start", str(outside))).context


def test_an_upgraded_root_gets_its_index_from_the_notes_before_the_next_summary(initialized_root, project, tmp_path):
    """Notes written before the index existed: the next summary builds it from them first, so it
    sees (and can finish) their open to-dos."""
    paths = initialized_root
    summarize(paths, session_one(str(tmp_path / "s1.jsonl"), project), ended_at=ago(20))
    import shutil
    shutil.rmtree(recent.recent_dir(paths))
    report = summarize(paths, session_two(str(tmp_path / "s2.jsonl"), project), ended_at=ago(1))
    assert report["todos_done"] == 1 and os.path.exists(recent.built_marker(paths))
