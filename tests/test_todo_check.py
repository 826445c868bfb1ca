"""todo-check (Stop): at the end of a turn that seems to be about an open to-do, ask the model once
whether it finished it (docs/hooks.md § todo-check; issue 20, round 7)."""

from __future__ import annotations

import json
import os
import time

import pytest

from code_memory.hooks import todo_check
from code_memory.hooks.runtime import run
from code_memory.memory import recent
from code_memory.memory.todos import todo_id
from support.hook_runner import payload, run_hook
from support.transcripts import TranscriptWriter

TODO_EXPORT = "CSV export still ignores the date filter"
TODO_ZH = "商品下架以后缓存也还没清掉"
TODO_OTHER = "Dark mode for the settings page"


def entry(sid: str, project: str, todos, hours_ago: float = 2) -> dict:
    return {"id": sid, "project": project, "ts": time.time() - hours_ago * 3600, "note": f"sessions/{sid}.md",
            "topic": "work", "todos": [{"text": t} for t in todos]}


def record(paths, *entries) -> None:
    for e in entries:
        recent.record_session(paths, e, [], lambda a, b: False)


@pytest.fixture
def alpha(initialized_root, project):
    record(initialized_root, entry("s1", "alpha", [TODO_EXPORT, TODO_ZH, TODO_OTHER]))
    return project


def stop(project, session="s2", message="All done.", **fields):
    return {"session_id": session, "transcript_path": "", "cwd": project, "hook_event_name": "Stop",
            "stop_hook_active": False, "last_assistant_message": message, **fields}


def ask(data, env=None) -> dict | None:
    return run("todo-check", json.dumps(data).encode(), env or dict(os.environ))


def test_a_turn_about_an_open_todo_is_asked_once_per_session(alpha):
    message = "The export now applies the date range filter to the CSV rows; tests pass."
    out = ask(stop(alpha, message=message))
    assert out["decision"] == "block"
    reason = out["reason"]
    assert reason.startswith("[code-memory] Before you stop:")
    assert f"{todo_id('s1', TODO_EXPORT)} “{TODO_EXPORT}”" in reason
    assert "memory_todo (action done, its id)" in reason and "`code-memory todo done <id>`" in reason
    assert "just stop without comment" in reason
    assert TODO_OTHER not in reason and TODO_ZH not in reason
    assert set(out) == {"decision", "reason"}
    assert ask(stop(alpha, message=message)) is None                 # once per to-do per session
    assert ask(stop(alpha, session="s3", message=message))["reason"] == reason   # a new session asks again
    # Chinese in other words: bigrams shared with the to-do
    out = ask(stop(alpha, message="商品下架时会顺手把缓存删掉了，测试通过。"))
    assert todo_id("s1", TODO_ZH) in out["reason"] and TODO_EXPORT not in out["reason"]


def test_silent_on_the_common_turn(alpha, initialized_root, project, monkeypatch):
    assert ask(stop(alpha, message="Renamed the logger variable in utils; lint is clean.")) is None   # unrelated
    assert ask(stop(alpha, message="CSV export date filter done", stop_hook_active=True)) is None
    monkeypatch.setenv("CODE_MEMORY_HOOKS__TODO_CHECK", "false")
    assert ask(stop(alpha, message="CSV export date filter done")) is None                           # config off
    monkeypatch.delenv("CODE_MEMORY_HOOKS__TODO_CHECK")
    # the session's own to-dos (a resumed or compacted session) are not asked about
    assert ask(stop(alpha, session="s1", message="CSV export date filter done")) is None


def test_no_open_todos_and_a_broken_index_are_silent(initialized_root, project):
    record(initialized_root, entry("s1", "alpha", []))
    assert ask(stop(project, message="CSV export date filter done")) is None
    path = recent.index_path(initialized_root, "project", "alpha")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("{not json")
    result = run_hook("todo-check", stop(project, message="CSV export date filter done"))
    assert result.silent


def test_closed_and_other_projects_todos_are_never_named(initialized_root, project):
    done = entry("s0", "alpha", [TODO_EXPORT], hours_ago=5)
    done["todos"][0]["done_by"] = "s1"
    record(initialized_root, done, entry("b1", "beta", ["CSV export of beta ignores the date filter"]),
           entry("w1", "gamma", ["CSV export in gamma ignores the date filter"]))
    assert ask(stop(project, message="The CSV export applies the date filter now.")) is None
    # a workspace index brings in its other projects' sessions: they are never candidates
    entries = [entry("w1", "gamma", ["CSV export in gamma ignores the date filter"])]
    assert todo_check.candidates(entries, "alpha", "s2", time.time(), 30) == []
    assert [c[:2] for c in todo_check.candidates([entry("a1", "alpha", ["x y z"])], "alpha", "s2", time.time(),
                                                 30)] == [(todo_id("a1", "x y z"), "x y z")]


def test_at_most_three_and_the_best_first(initialized_root, project):
    todos = [f"retry queue {w} handler is missing" for w in ("email", "sms", "push", "webhook", "slack")]
    record(initialized_root, entry("s1", "alpha", todos))
    out = ask(stop(project, message="Added the webhook handler to the retry queue; email, sms, push, slack too."))
    assert out["reason"].count("“") == 3


def test_the_turns_prompt_and_edited_files_count(alpha, tmp_path):
    path = str(tmp_path / "t.jsonl")
    with TranscriptWriter(path, session_id="s2", cwd=alpha) as t:
        t.user("earlier prompt about the dark mode settings page")
        t.say("ok")
        t.user("Make the CSV export honour the date filter")
        t.tool("Edit", {"file_path": f"{alpha}/export/csv_writer.py", "old_string": "a", "new_string": "b"})
        t.tool("Bash", {"command": "pytest -q tests/test_export.py"}, "3 passed")
    prompt, actions = todo_check.turn_tail(path)
    assert prompt == "Make the CSV export honour the date filter"
    assert f"{alpha}/export/csv_writer.py" in actions and "pytest -q tests/test_export.py" in actions
    out = ask(stop(alpha, message="Done — 3 tests pass.", transcript_path=path))
    words_part = out["reason"].partition("Also, memory's other open to-dos")[0]     # then the roll call (round 9)
    assert todo_id("s1", TODO_EXPORT) in words_part and TODO_OTHER not in words_part


def test_a_huge_final_message_and_transcript_cost_bounded_work(alpha, tmp_path, monkeypatch):
    seen = []
    monkeypatch.setattr(todo_check, "choose", lambda todos, text, edited: seen.append(len(text)) or [])
    path = str(tmp_path / "big.jsonl")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(("x" * 1000 + "\n") * 5000)
    assert ask(stop(alpha, message="CSV export " * 2_000_000, transcript_path=path)) is None
    assert seen and seen[0] <= todo_check.MAX_MESSAGE_CHARS + todo_check.MAX_PROMPT_CHARS + 100
    assert todo_check.turn_tail(path) == ("", [])


def test_words_stem_latin_keep_file_names_and_pair_han():
    got = todo_check.words("The exporter filters dates in csv_writer.py; 缓存还没清掉")
    assert set(todo_check.words("export filter date")) <= set(got)
    assert len(todo_check.words("validated validates validation")) == 1
    assert len(todo_check.words("caching cached cache")) == 1
    assert {"csv_writer.py", "csv", "缓存", "清掉"} <= set(got) and got["csv_writer.py"] == 2.0
    assert "the" not in got and "还没" not in got and "没清" not in got


def test_a_turn_sharing_only_everyday_words_asks_nothing():
    """"updated", "tests pass", "测试通过" are in every report: a to-do sharing only those is not what
    the turn was about (seen with the real binary: every "Done: X updated" turn asked about "remember
    to update the CSV export")."""
    todos = [("6a347ff7", "remember to update the CSV export", []), ("1b2c3d4e", "日志还要加测试", [])]
    assert todo_check.choose(todos, "Done: cleanup.py updated and the tests pass.") == []
    assert todo_check.choose(todos, "配置改成可读环境变量了，测试通过。") == []
    assert todo_check.choose(todos, "Done: export.py updated; the CSV now has a month filter.") == \
        [("6a347ff7", "remember to update the CSV export")]
    assert todo_check.choose(todos, "日志模块的单元测试补上了，测试通过。")[0][0] == "1b2c3d4e"


def test_the_shim_with_the_recorded_payload(alpha):
    data = payload("stop", alpha, session_id="s2",
                   last_assistant_message="CSV export: the date filter is applied to every row now.")
    out = run_hook("todo-check", data)
    assert out.returncode == 0 and out.json["decision"] == "block"
    assert todo_id("s1", TODO_EXPORT) in out.json["reason"]
    data["session_id"] = "s3"
    assert run_hook("todo-check", dict(data, stop_hook_active=True)).silent
    assert run_hook("todo-check", "not json").silent
    assert run_hook("todo-check", dict(data, cwd=12)).silent


def test_a_turn_that_edits_the_todos_own_files_is_asked(initialized_root, project, tmp_path):
    first = entry("s1", "alpha", ["TTL is hard-coded to 300 seconds"])
    first["files"] = ["cache/product_cache.py"]
    record(initialized_root, first)
    path = str(tmp_path / "t.jsonl")
    with TranscriptWriter(path, session_id="s2", cwd=project) as t:
        t.user("read the expiry from settings")
        t.tool("Edit", {"file_path": f"{project}/cache/product_cache.py", "old_string": "a", "new_string": "b"})
    out = ask(stop(project, message="Expiry now comes from settings.yaml.", transcript_path=path))
    assert todo_id("s1", "TTL is hard-coded to 300 seconds") in out["reason"]
    assert ask(stop(project, session="s3", message="Expiry now comes from settings.yaml.")) is None   # no edit


def test_the_answer_to_the_question_is_not_the_sessions_report(tmp_path):
    """Claude Code hands the question back as a meta "Stop hook feedback:" line (seen with the real
    binary); the model's short answer after it must not replace the turn's report as the session's
    final message (the summarizer reads its outcome and to-dos from that)."""
    from code_memory.transcript import read_session

    path = str(tmp_path / "t.jsonl")
    report = "README.md has a pool_size section now. The load_config tests are still missing."
    with TranscriptWriter(path, session_id="s2") as t:
        t.user("document pool_size")
        t.say(report)
        t.user("Stop hook feedback:\n" + todo_check.question([("c78953db", TODO_EXPORT)]), isMeta=True)
        t.tool("Bash", {"command": "code-memory todo done c78953db"}, "closed")
        t.say("Closed it.")
    assert read_session(path).final_message == report
    with TranscriptWriter(path, session_id="s2") as t:          # a real prompt after it: a new report
        t.user("document pool_size")
        t.say(report)
        t.user("Stop hook feedback:\n" + todo_check.question([("c78953db", TODO_EXPORT)]), isMeta=True)
        t.say("Not finished.")
        t.user("now the tests")
        t.say("Tests added.")
    assert read_session(path).final_message == "Tests added."
