"""The transcript heuristic for session outcomes (code_memory/outcome.py), on the reference transcript
recorded from the real Claude Code 2.1.330 binary and on synthetic sessions built in its shapes."""

import json
import os

import pytest

from code_memory.evolution.outcome import assess_lines, assess_transcript, is_correction

SAMPLE = os.path.join(os.path.dirname(__file__), "fixtures", "transcripts", "reference-2.1.330.jsonl")


def prompt(text):
    return {"type": "user", "isSidechain": False, "message": {"role": "user", "content": text}}


def answer(text, mid="m"):
    return {"type": "assistant", "isSidechain": False,
            "message": {"id": mid, "role": "assistant", "content": [{"type": "text", "text": text}]}}


_n = [0]


def tool(name, inp, ok=True, result="done", tool_use_result=None):
    _n[0] += 1
    tid = f"toolu_{_n[0]}"
    use = {"type": "assistant", "isSidechain": False,
           "message": {"id": f"msg_{_n[0]}", "role": "assistant",
                       "content": [{"type": "tool_use", "id": tid, "name": name, "input": inp}]}}
    block = {"type": "tool_result", "tool_use_id": tid, "content": result}
    if not ok:
        block["is_error"] = True
    res = {"type": "user", "isSidechain": False, "message": {"role": "user", "content": [block]}}
    if tool_use_result is not None:
        res["toolUseResult"] = tool_use_result
    return [use, res]


def test_reference_transcript_from_the_real_binary():
    # Read → Edit → Edit denied by a PreToolUse hook → Explore agent → "All done."
    a = assess_transcript(SAMPLE)
    assert a.outcome == "success"
    assert (a.tool_errors, a.user_corrections, a.reverted_edits) == (1, 0, 0)
    assert a.corrections == 1
    assert a.prompts == 1            # the <task-notification> user line is not a human prompt
    assert a.tool_calls == 4         # Read, Edit, Edit (denied), Agent
    assert not a.ended_unresolved


def test_clean_session_is_success():
    lines = [prompt("add a --verbose flag"), *tool("Read", {"file_path": "/p/a.py"}),
             *tool("Edit", {"file_path": "/p/a.py", "old_string": "x", "new_string": "y"}), answer("Done.")]
    a = assess_lines(lines)
    assert (a.outcome, a.corrections) == ("success", 0)


def test_first_prompt_is_never_a_correction():
    a = assess_lines([prompt("Undo the last migration, it is wrong"), answer("ok")])
    assert (a.outcome, a.user_corrections) == (None, 0)      # no correction, and no work done either
    a = assess_lines([prompt("Undo the last migration, it is wrong"), *tool("Bash", {"command": "make down"}),
                      answer("ok")])
    assert (a.outcome, a.user_corrections) == ("success", 0)


@pytest.mark.parametrize("text", [
    "不对，应该用 pathlib", "你搞错了文件", "撤销刚才的修改", "还是报错", "我的意思是只改测试",
    "No, that's not what I asked", "that's wrong, use tabs", "please revert that", "undo it",
    "don't change the public API", "it still fails", "[Request interrupted by user]",
    "[Request interrupted by user for tool use]",
])
def test_correction_phrases(text):
    assert is_correction(text)


@pytest.mark.parametrize("text", [
    "now add tests", "好的，继续下一步", "Nothing else, thanks", "what does this function return?",
    "把错误处理补上", "no need to rush",
])
def test_not_corrections(text):
    assert not is_correction(text)


def test_three_user_corrections_fail_the_session():
    def edit(new):
        return tool("Edit", {"file_path": "/p/a.py", "old_string": "foo", "new_string": new})
    lines = [prompt("rename foo to bar"), *edit("bar"), answer("done"),
             prompt("不对，是 baz"), *edit("baz"), answer("fixed"),
             prompt("错了，只改 a.py"), *edit("qux"), answer("fixed"),
             prompt("No, name it quux"), *edit("quux"), answer("renamed")]
    a = assess_lines(lines)
    assert (a.user_corrections, a.ended_unresolved) == (3, False)
    assert a.outcome == "failed"
    assert a.reasons == ["3 user corrections / reverted edits >= 3"]
    assert assess_lines(lines[:8]).outcome == "success"       # one correction, resolved


def test_reverted_edits_are_counted():
    edit = {"file_path": "/p/a.py", "old_string": "x = 1", "new_string": "x = 2"}
    back = {"file_path": "/p/a.py", "old_string": "x = 2", "new_string": "x = 1"}
    lines = [prompt("try x = 2"),
             *tool("Edit", edit, tool_use_result={"filePath": "/p/a.py", "originalFile": "x = 1\n"}),
             *tool("Edit", back), answer("reverted")]
    a = assess_lines(lines)
    assert (a.reverted_edits, a.outcome) == (1, "success")
    lines = [prompt("write it"),
             *tool("Edit", edit, tool_use_result={"filePath": "/p/a.py", "originalFile": "x = 1\n"}),
             *tool("Write", {"file_path": "/p/a.py", "content": "x = 1\n"}),
             *tool("Bash", {"command": "git checkout -- b.py"}),
             *tool("Bash", {"command": "git restore --staged c.py && git status"}),
             answer("back to the start")]
    a = assess_lines(lines)
    assert a.reverted_edits == 3
    assert a.outcome == "failed"              # 3 reverts ≥ max_corrections
    assert assess_lines(lines, max_corrections=4).outcome == "success"


def test_ending_on_an_error_is_unresolved():
    lines = [prompt("run the tests"), *tool("Bash", {"command": "pytest"}, ok=False, result="1 failed")]
    a = assess_lines(lines)
    assert (a.outcome, a.ended_unresolved, a.tool_errors) == ("failed", True, 1)
    assert assess_lines(lines + [answer("I could not make the tests pass")]).outcome == "failed"
    lines += tool("Bash", {"command": "pytest"}, result="5 passed") + [answer("all green")]
    assert assess_lines(lines).outcome == "success"


def test_ending_on_a_correction_or_api_error_is_unresolved():
    a = assess_lines([prompt("fix it"), answer("done"), prompt("还是不行")])
    assert (a.outcome, a.ended_unresolved) == ("failed", True)
    assert assess_lines([prompt("fix it"), answer("done"), prompt("还是不行"), answer("sorry")]).outcome == "failed"
    fixed = [prompt("fix it"), answer("done"), prompt("还是不行"), *tool("Edit", {"file_path": "/p/a", "old_string": "a",
                                                                            "new_string": "b"}), answer("now fixed")]
    assert assess_lines(fixed).outcome == "success"
    moved_on = [prompt("fix it"), answer("done"), prompt("还是不行"), answer("sorry"), prompt("ok, now add docs"),
                answer("added")]
    assert assess_lines(moved_on).outcome == "success"
    api = answer("API Error: 529 overloaded")
    api["isApiErrorMessage"] = True
    assert assess_lines([prompt("fix it"), api]).outcome == "failed"
    retried = [prompt("fix it"), api, *tool("Edit", {"file_path": "/p/a", "old_string": "a", "new_string": "b"}),
               answer("done after retry")]
    assert assess_lines(retried).outcome == "success"


def test_rejected_tool_use_is_a_user_correction():
    lines = [prompt("clean up"),
             *tool("Bash", {"command": "rm -rf build"}, ok=False,
                   result="The user doesn't want to proceed with this tool use."),
             answer("ok, leaving it")]
    a = assess_lines(lines)
    assert (a.user_corrections, a.tool_errors, a.outcome) == (1, 0, "success")


def test_many_tool_errors_fail_the_session():
    lines = [prompt("build it")]
    for _ in range(10):
        lines += tool("Bash", {"command": "make"}, ok=False, result="error")
        lines += tool("Bash", {"command": "make -k"}, result="ok")
    lines.append(answer("built"))
    a = assess_lines(lines)
    assert (a.tool_errors, a.outcome) == (10, "failed")
    assert assess_lines(lines, max_tool_errors=11).outcome == "success"


def test_sidechain_meta_wrappers_and_junk_are_ignored(tmp_path):
    side = prompt("wrong wrong wrong")
    side["isSidechain"] = True
    meta = prompt("<command-name>/clear</command-name>")
    wrapped = prompt("<system-reminder>you are wrong</system-reminder>")
    path = tmp_path / "t.jsonl"
    with open(path, "w") as fh:
        for rec in [prompt("hello"), side, meta, wrapped, answer("hi"), {"type": "summary"}]:
            fh.write(json.dumps(rec) + "\n")
        fh.write("not json\n")
        fh.write('{"type": "assistant", "message": {"content": [{"type": "te')     # torn last line
    a = assess_transcript(str(path))
    assert (a.prompts, a.user_corrections, a.outcome) == (1, 0, None)          # a greeting: no evidence


def test_empty_transcript_has_no_outcome(tmp_path):
    path = tmp_path / "empty.jsonl"
    path.write_text('{"type":"queue-operation"}\n')
    assert assess_transcript(str(path)).outcome is None
