"""The kv block of SessionStart, through the real session-start shim."""

import json
import os

from code_memory.kv.write import set_memory
from support.hook_runner import payload, run_hook

USER = {"kind": "user", "name": "chat", "retrieved_at": "2026-02-22T10:00:00Z", "locator": {"m": 1}}




def test_session_start_injects_the_kv_default_read(initialized_root, project):
    set_memory(initialized_root, "/user/preference/style",
               {"type": "preference", "summary": "KV-MARKER-1 偏好简洁中文回答", "importance": 8}, USER)
    set_memory(initialized_root, "/project/alpha/deploy", {"type": "fact", "summary": "KV-MARKER-2",
                                                           "tags": ["alpha"]}, USER)
    set_memory(initialized_root, "/user/old", {"summary": "KV-GONE"}, USER)
    set_memory(initialized_root, "/user/old", None, USER)
    context = run_hook("session-start", payload("session-start", project)).context
    assert "[Agent Memory]" in context
    assert "- /user/preference/style preference KV-MARKER-1 偏好简洁中文回答" in context
    assert "KV-MARKER-2" in context and "KV-GONE" not in context
    assert context.count("<recalled-memory ") == 2          # routing table + kv
    with open(os.path.join(initialized_root.logs, "hooks.log"), encoding="utf-8") as fh:
        log = fh.read()
    assert '"kv-read"' in log and "KV-MARKER" not in log


def test_kv_block_respects_the_budget_and_the_block_list(initialized_root, project):
    for i in range(300):
        set_memory(initialized_root, f"/notes/n{i:03d}", {"summary": f"note {i} " + "记忆" * 30}, USER)
    env = {"CODE_MEMORY_HOOKS__SESSION_START_MAX_CHARS": "1500", "CODE_MEMORY_KV__READ_TOKEN_LIMIT": "5000"}
    context = run_hook("session-start", payload("session-start", project), env=env).context
    assert 0 < len(context) <= 1500 and "[Agent Memory]" in context
    without = {"CODE_MEMORY_HOOKS__SESSION_START_BLOCKS": json.dumps(["memory", "routing"])}
    assert "[Agent Memory]" not in run_hook("session-start", payload("session-start", project), env=without).context
    off = {"CODE_MEMORY_KV__READ_TOKEN_LIMIT": "0"}
    assert "[Agent Memory]" not in run_hook("session-start", payload("session-start", project), env=off).context


def test_no_kv_store_no_block(initialized_root, project):
    context = run_hook("session-start", payload("session-start", project)).context
    assert "[Agent Memory]" not in context
    assert not os.path.exists(os.path.join(initialized_root.root, "kv", "digest.bin"))


def test_a_kv_todo_finished_in_the_last_session_is_not_injected_again(initialized_root, project):
    """Session 1 wrote a to-do and later marked it done; session 2's start brings the open one only
    (the finished one stays readable with `kv get`)."""
    from code_memory.kv.read import default_read
    from code_memory.kv.view import get
    set_memory(initialized_root, "/project/alpha/todo/pool-tests",
               {"type": "todo", "summary": "KV-TODO-DONE 补 load_config 单元测试", "status": "open"}, USER)
    set_memory(initialized_root, "/project/alpha/todo/readme",
               {"type": "todo", "summary": "KV-TODO-OPEN README 写 pool_size", "status": "open"}, USER)
    set_memory(initialized_root, "/project/alpha/todo/pool-tests",
               {"type": "todo", "summary": "KV-TODO-DONE 补 load_config 单元测试", "status": "done"}, USER)
    set_memory(initialized_root, "/project/alpha/todo/old", {"summary": "KV-TODO-OLD", "done": True}, USER)
    context = run_hook("session-start", payload("session-start", project)).context
    assert "KV-TODO-OPEN" in context and "KV-TODO-DONE" not in context and "KV-TODO-OLD" not in context
    result = default_read(initialized_root, 400)
    assert result["finished"] == 2 and result["included"] == 1
    assert get(initialized_root, "/project/alpha/todo/pool-tests")["content"]["status"] == "done"
