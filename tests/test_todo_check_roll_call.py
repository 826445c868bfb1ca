"""todo-check's roll call (issue 20, round 9): at the end of a turn shaped like a finish, the model is
shown the project's open to-dos (at the session's first such turn, again only after new work) and says which its work finished — whatever words
they were written in (docs/hooks.md § todo-check)."""

from __future__ import annotations

import json
import os

import pytest

from code_memory.hooks import todo_check
from code_memory.hooks.runtime import run
from code_memory.memory import recent
from code_memory.memory.todos import todo_id
from support.hook_runner import run_hook
from support.transcripts import TranscriptWriter
from test_todo_check import entry

CANARY = "the canary rollout hasn't happened yet"
CACHE = "feature store reads are not cached"
GRAY = "定价引擎还没灰度"


def stop(project, path, session="s2", message="Done: 5% of users now get the new version.", **fields):
    return {"session_id": session, "transcript_path": path, "cwd": project, "hook_event_name": "Stop",
            "stop_hook_active": False, "last_assistant_message": message, **fields}


def ask(data):
    return run("todo-check", json.dumps(data).encode(), dict(os.environ))


def transcript(path, project, *, prompt="放 5% 的流量给新版本", edit=True, command_ok=True, session="s2"):
    with TranscriptWriter(path, session_id=session, cwd=project) as t:
        t.user(prompt)
        if edit:
            t.tool("Edit", {"file_path": f"{project}/deploy/traffic.yaml", "old_string": "a", "new_string": "b"})
        if command_ok is not None:
            t.tool("Bash", {"command": "kubectl apply -f deploy/traffic.yaml"},
                   "configured" if command_ok else "error: forbidden", is_error=not command_ok)
    return path


@pytest.fixture
def alpha(initialized_root, project):
    for e in (entry("s0", "alpha", [GRAY], hours_ago=30), entry("s1", "alpha", [CANARY, CACHE]),
              entry("b1", "beta", ["beta's own open to-do"])):
        recent.record_session(initialized_root, e, [], lambda a, b: False)
    return project


def test_a_finish_sharing_no_word_gets_the_roll_call_once_per_session(alpha, tmp_path):
    path = transcript(str(tmp_path / "t.jsonl"), alpha)
    message = "配置好了：先放 5% 的流量给新版本，30 分钟没有报警再扩到 100%。"
    todos = [(todo_id("s1", t), t, []) for t in (CANARY, CACHE)] + [(todo_id("s0", GRAY), GRAY, [])]
    assert todo_check.choose(todos, message + "\ndeploy/traffic.yaml", ["traffic.yaml"]) == []   # no word shared
    out = ask(stop(alpha, path, message=message))
    reason = out["reason"]
    assert reason.startswith("[code-memory] Before you stop: memory's open to-dos for this project")
    ids = [todo_id("s1", CANARY), todo_id("s1", CACHE), todo_id("s0", GRAY)]
    assert all(i in reason for i in ids)
    assert reason.index(ids[0]) < reason.index(ids[2])                 # newest session first
    assert "beta" not in reason                                          # only this project's
    assert "memory_todo (action done, its id)" in reason and "If none, just stop without comment" in reason
    assert set(out) == {"decision", "reason"}
    assert ask(stop(alpha, path, message=message)) is None               # no new work: not called again
    assert ask(stop(alpha, path, session="s1", message=message))["reason"].count("“") == 1   # not its own (s1)
    assert ask(stop(alpha, path, message=message, stop_hook_active=True, session="s3")) is None
    assert ask(stop(alpha, path, message=message, agent_id="a1", session="s4")) is None


def test_silent_unless_the_turn_is_shaped_like_a_finish(alpha, tmp_path, monkeypatch):
    done = "Done: 5% of users now get the new version."
    qa = transcript(str(tmp_path / "qa.jsonl"), alpha, prompt="how does the traffic shifting work?", edit=False,
                    command_ok=None)
    assert ask(stop(alpha, qa, message="It is configured in traffic.yaml: traffic shifts in steps.")) is None
    failed = transcript(str(tmp_path / "failed.jsonl"), alpha, command_ok=False)
    assert ask(stop(alpha, failed, message=done)) is None                # its last command failed
    worked = transcript(str(tmp_path / "ok.jsonl"), alpha)
    assert ask(stop(alpha, worked, message="Should I also raise it to 25% tomorrow?")) is None   # a question
    monkeypatch.setenv("CODE_MEMORY_HOOKS__TODO_CHECK_ROLL_CALL", "false")
    assert ask(stop(alpha, worked, message=done)) is None                # off: the word trigger only


def test_merged_with_the_word_question_and_bounded(initialized_root, project, tmp_path, monkeypatch):
    todos = ["the csv exporter ignores the date filter"] + [f"open to-do number {n} " + "long words " * 40 for n in range(59)]
    recent.record_session(initialized_root, entry("s1", "alpha", todos), [], lambda a, b: False)
    path = transcript(str(tmp_path / "t.jsonl"), project, prompt="fix the csv exporter")
    out = ask(stop(project, path, message="Fixed: the csv exporter applies the date filter now; tests pass."))
    reason = out["reason"]
    word_part, _, roll_part = reason.partition("Also, memory's other open to-dos for this project: ")
    assert todo_id("s1", todos[0]) in word_part and roll_part                 # one question, the word part first
    assert reason.count("[code-memory]") == 1 and todo_id("s1", todos[0]) not in roll_part
    assert roll_part.count("“") == 8                                          # hooks.todo_check_roll_call_max
    assert len(reason) < 2500
    monkeypatch.setenv("CODE_MEMORY_HOOKS__TODO_CHECK_ROLL_CALL_MAX", "3")
    again = ask(stop(project, path, session="s3", message="Fixed it; tests pass."))["reason"]
    assert again.partition("Also, memory's other open to-dos")[2].count("“") == 3


def test_fails_open_on_a_corrupt_index(alpha, initialized_root, tmp_path):
    path = transcript(str(tmp_path / "t.jsonl"), alpha)
    with open(recent.index_path(initialized_root, "project", "alpha"), "w", encoding="utf-8") as fh:
        fh.write("{not json")
    assert run_hook("todo-check", stop(alpha, path, message="Done: rollout configured.")).silent


def test_finish_shape_and_the_turns_work():
    assert todo_check.finished_work({"edits": 1}, "现在从配置读。") and todo_check.finished_work({"passed": 2}, "好了")
    assert not todo_check.finished_work({"edits": 1, "last_failed": True}, "Done.")
    assert not todo_check.finished_work({"edits": 1}, "Want me to raise it to 25%?")
    assert not todo_check.finished_work({}, "Done.")


def test_called_again_only_after_new_work_and_at_most_three_times(alpha, tmp_path):
    def turn(name, file):
        path = str(tmp_path / f"{name}.jsonl")
        with TranscriptWriter(path, session_id="s2", cwd=alpha) as t:
            t.user(f"now the {name} part")
            t.tool("Edit", {"file_path": f"{alpha}/{file}", "old_string": "a", "new_string": "b"})
        return ask(stop(alpha, path, message=f"Done with the {name} part."))

    first = turn("first", "deploy/traffic.yaml")
    assert first["reason"].startswith("[code-memory] Before you stop: memory's open to-dos")
    assert turn("same files", "deploy/traffic.yaml") is None          # no new work since the roll was called
    second = turn("second", "pricing/engine.py")                        # a file none of its turns edited
    assert second["reason"] == first["reason"]                          # the same open to-dos, asked about new work
    assert turn("third", "pricing/rules.py") is not None
    assert turn("fourth", "pricing/limits.py") is None                  # at most 3 roll calls per session
    assert todo_check.roll_call_due(set(), []) == todo_check.ROLL_CALL_KEY
    assert todo_check.roll_call_due({todo_check.ROLL_CALL_KEY, "todo-roll-file:a.py"}, ["a.py"]) == ""
    assert todo_check.roll_call_due({todo_check.ROLL_CALL_KEY}, ["b.py"]) == todo_check.ROLL_CALL_KEY + ":2"
