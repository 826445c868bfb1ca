"""A to-do finished only in part (issue 20, eighth round): one captured sentence often holds several
to-dos, and a later session finishes one of them. ``memory_todo`` done with ``remaining`` (and
``code-memory todo done <id> --remaining TEXT``) closes it and keeps what is left open as its own to-do
of the same session — listed, in the next brief as ``[ ]`` with its id, asked about by todo-check —
through the real mcp SDK client; bad ``remaining`` is INVALID_ARGUMENT, another project's to-do
NOT_FOUND; the marks log is the truth, so a rebuild from the notes and a re-summary keep it; reopening
the original withdraws the part again and never loses the original's text."""

from __future__ import annotations

import json
import shutil

from code_memory.hooks import todo_check
from code_memory.memory import recent, todos
from code_memory.summary.todos import same_todo
from test_mcp_todo import TODO_BETA, _answer, _run, brief, mcp_env, open_lines, put_session, two_projects  # noqa: F401
from test_todos import TODO_DOCS, run_cli, session, worked  # noqa: F401  (the fixtures)

COMPOUND = ("What's missing: keys never expire, a partner can't rotate a key without downtime, and usage "
            "isn't rate-limited per key")
LEFT = "a partner can't rotate a key without downtime; usage isn't rate-limited per key"
LAST = "usage isn't rate-limited per key"


def test_the_model_closes_a_todo_in_part_and_the_rest_stays_open(two_projects, project, capsys):  # noqa: F811
    paths, _twins, _beta = two_projects
    put_session(paths, "alpha", "s3", [COMPOUND], 0.5, files=("api/keys.py",))
    whole, beta = todos.todo_id("s3", COMPOUND), todos.todo_id("b1", TODO_BETA)
    left_id = todos.todo_id("s3", LEFT)

    async def calls(session):
        out = {"bad blank": await session.call_tool("memory_todo", {"action": "done", "todo": whole, "remaining": "  "}),
               "bad long": await session.call_tool("memory_todo", {"action": "done", "todo": whole,
                                                                   "remaining": "x" * 301}),
               "bad whole": await session.call_tool("memory_todo", {"action": "done", "todo": whole,
                                                                    "remaining": f" {COMPOUND.upper()} "}),
               "bad on list": await session.call_tool("memory_todo", {"remaining": LEFT}),
               "bad on reopen": await session.call_tool("memory_todo", {"action": "reopen", "todo": whole,
                                                                        "remaining": LEFT}),
               "beta": await session.call_tool("memory_todo", {"action": "done", "todo": beta, "remaining": LEFT}),
               "part": await session.call_tool("memory_todo", {"action": "done", "todo": whole,
                                                               "remaining": f" {LEFT}\n"})}
        out["open"] = await session.call_tool("memory_todo", {})
        out["brief"] = brief(project)
        out["question"] = todo_check.question([(left_id, LEFT)])
        return out

    out = _run(mcp_env(project), calls)
    answers = {name: _answer(result) for name, result in out.items() if not isinstance(result, str)}
    for name in ("bad blank", "bad long", "bad whole", "bad on list", "bad on reopen"):
        assert answers[name]["error"] == "INVALID_ARGUMENT", (name, answers[name])
        assert answers[name]["fields"][0].split(".")[0] == "remaining", (name, answers[name])
        assert "xxxxxxxxxx" not in answers[name]["message"]
    assert "whole to-do" in answers["bad whole"]["message"]
    assert answers["beta"]["error"] == "NOT_FOUND"                       # another project's, even closed in part

    part = answers["part"]["todo"]
    assert part["id"] == whole and part["status"] == "done" and part["text"] == COMPOUND
    assert part["remaining"] == LEFT and part["remaining_id"] == left_id and part["closed_by"] == "mcp"
    listed = {t["id"]: t for t in answers["open"]["todos"]}
    assert whole not in listed and listed[left_id]["text"] == LEFT and listed[left_id]["session"] == "s3"
    assert listed[left_id]["split_from"] == whole

    # the next brief: what is left is open with its id on s3's entry, the finished whole is not
    lines = out["brief"].split("\n")
    assert f"  - [ ] {LEFT} (id {left_id})" in lines
    assert not any(COMPOUND in line for line in open_lines(out["brief"]))
    assert TODO_BETA not in out["brief"]
    # … and it is a candidate of todo-check in a later session
    entries = recent.load_entries(recent.index_path(paths, "project", "alpha"))
    assert (left_id, LEFT) in [c[:2] for c in todo_check.candidates(entries, "alpha", "s-next", 0, 0)]
    assert "remaining" in out["question"] and "--remaining" in out["question"]

    # only the valid call was written; beta is untouched
    marks = [json.loads(line) for line in open(recent.marks_path(paths), encoding="utf-8")]
    assert [(m["action"], m["id"], m.get("remaining")) for m in marks] == [("done", whole, LEFT)]
    assert [t["status"] for t in todos.list_todos(paths, project="beta")] == ["open"]

    # the CLI closes what is left in part again; reopening the original withdraws both parts
    status, chained = run_cli(capsys, "todo", "done", "--project", "alpha", left_id, "--remaining", LAST,
                              "--format", "text")
    assert status == 0 and chained.startswith(f"{left_id} done in part: {LEFT}")
    assert f"{todos.todo_id('s3', LAST)}  [ ] {LAST}" in chained
    assert [t["text"] for t in todos.list_todos(paths, project="alpha") if t["session"] == "s3"] == [LAST]
    status, reopened = run_cli(capsys, "todo", "reopen", "--project", "alpha", whole)
    assert status == 0 and reopened["todo"]["status"] == "open" and "remaining" not in reopened["todo"]
    s3 = [t for t in todos.list_todos(paths, project="alpha", statuses=todos.STATUSES) if t["session"] == "s3"]
    assert [(t["text"], t["status"]) for t in s3] == [(COMPOUND, "open")]


def test_a_close_in_part_survives_a_rebuild_and_a_resummary(worked, project, tmp_path):  # noqa: F811
    paths = worked
    docs = todos.todo_id("s2", TODO_DOCS)
    left = "把 AMOUNT_ZERO 的英文说明也补上"
    decided = todos.decide(paths, docs, "done", by="mcp", in_session="s2", remaining=left)     # from inside s2
    assert decided["remaining_id"] == todos.todo_id("s2", left)

    def state():
        return sorted((t["text"], t["status"], t.get("remaining", "")) for t in
                      todos.list_todos(paths, statuses=todos.STATUSES) if t["session"] == "s2")

    expected = [(TODO_DOCS, "done", left), (left, "open", "")]
    assert state() == expected
    shutil.rmtree(recent.recent_dir(paths))                   # the marks log is the truth
    recent.rebuild(paths, same_todo)
    assert state() == expected
    session(paths, tmp_path, project, "s2", [
        ("user", "今天把金额为 0 的订单处理一下吧"), ("edit", "orders/validators.py"), ("bash", "pytest -q"),
        ("say", f"下单时金额为 0 直接拒绝，返回 AMOUNT_ZERO。{TODO_DOCS}。")], 2)
    assert state() == expected
    lines = brief(project).split("\n")
    assert any(line.endswith(f"[ ] {left} (id {todos.todo_id('s2', left)})") for line in lines)
    assert not any(TODO_DOCS in line and "[ ]" in line for line in lines)
    assert (f"- finished earlier to-dos (closed in this session; reopen any that is not): {TODO_DOCS} (id {docs}) — in part, left open: "
            f"id {todos.todo_id('s2', left)}") in lines
