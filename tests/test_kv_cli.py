import json
import os

from conftest import run_script

USER = json.dumps({"kind": "user", "name": "chat", "retrieved_at": "2026-02-22T10:00:00Z", "locator": {"m": 1}})


def cm(*args, **kw):
    proc = run_script("code-memory.py", *args, **kw)
    out = json.loads(proc.stdout) if proc.stdout.strip().startswith("{") else proc.stdout
    return proc.returncode, out, proc.stderr


def test_set_get_ls_read_compact_check_roundtrip(memory_root):
    code, out, _ = cm("kv", "set", "/user/calendar/2026-02-23_10-00_牙科复诊",
                      '{"type":"reminder","text":"明天10点牙科复诊","importance":8}', "--source", USER)
    assert code == 0 and out["ok"] and out["valid"] is True
    code, out, _ = cm("kv", "set", "/user/preference/style", '{"type":"preference","summary":"简洁"}', "chat")
    assert code == 0
    code, out, _ = cm("kv", "get", "/user/preference/style")
    assert out["content"] == {"type": "preference", "summary": "简洁"} and out["source"] == "chat"
    code, out, _ = cm("kv", "ls", "/user/calendar/")
    assert [k["key"] for k in out["keys"]] == ["/user/calendar/2026-02-23_10-00_牙科复诊"]
    code, text, _ = cm("kv", "ls", "/user", "--format", "text")
    assert "/user/preference/style preference 简洁" in text
    code, out, _ = cm("kv", "read", "--token-limit", "100", "--tags", "health,x", "--now", "2026-02-22T10:00:00Z")
    assert code == 0 and out["text"].startswith("[Agent Memory]\n- /user/") and out["token_count"] <= 100
    code, text, _ = cm("kv", "read", "--format", "text")
    assert text.startswith("[Agent Memory]\n")
    code, out, _ = cm("kv", "compact")
    assert code == 0 and out["keys"] == 2
    code, out, _ = cm("kv", "check")
    assert code == 0 and out["drift"] == 0
    code, out, _ = cm("kv", "set", "/user/preference/style", "null", "chat")
    assert code == 0 and out["valid"] is False
    code, out, _ = cm("kv", "get", "/user/preference/style")
    assert code == 3 and out["error"] == "NOT_FOUND"


def test_content_from_stdin_and_set_memory_script(memory_root):
    proc = run_script("set-memory.py", "/notes/a", "-", "--source", "chat", input='{"summary": "from stdin"}')
    assert proc.returncode == 0, proc.stdout
    proc = run_script("set-memory.py", "/notes/b", '"plain"', "agent")
    assert proc.returncode == 0
    code, out, _ = cm("kv", "ls", "/notes")
    assert [(k["key"], k["summary"]) for k in out["keys"]] == [("/notes/a", "from stdin"), ("/notes/b", "plain")]


def test_errors_are_json_with_exit_codes(memory_root):
    cases = [
        (("kv", "set", "no-slash", "{}", "chat"), 2, "KV_KEY_INVALID"),
        (("kv", "set", "/a/../b", "{}", "chat"), 6, "MEMORY_PATH_TRAVERSAL"),
        (("kv", "set", "/a", "{bad json", "chat"), 2, "KV_CONTENT_INVALID"),
        (("kv", "set", "/a", "{}"), 2, "KV_SOURCE_INVALID"),
        (("kv", "set", "/a", "{}", "{broken", ), 2, "KV_SOURCE_INVALID"),
        (("kv", "set", "/kb/a", "{}", "chat"), 2, "KV_PROVENANCE_REQUIRED"),
        (("kv", "set", "/a", "{}", "chat", "--source", "x"), 2, "INVALID_ARGUMENT"),
        (("kv", "read", "--now", "yesterday"), 2, "INVALID_ARGUMENT"),
        (("kv", "read", "--token-limit", "-1"), 2, "INVALID_ARGUMENT"),
        (("kv", "compact", "--policy", "C"), 2, "INVALID_ARGUMENT"),
    ]
    for args, status, error in cases:
        code, out, stderr = cm(*args)
        assert (code, out["error"]) == (status, error), (args, out)
        assert "Traceback" not in stderr
    proc = run_script("set-memory.py", "/kb/x", "{}", "chat")
    assert proc.returncode == 2 and json.loads(proc.stdout)["error"] == "KV_PROVENANCE_REQUIRED"


def test_config_selects_policy_and_quarantine(memory_root):
    os.makedirs(memory_root, exist_ok=True)
    with open(os.path.join(memory_root, "config.json"), "w") as fh:
        json.dump({"kv": {"history_policy": "B", "quarantine_untrusted": True}}, fh)
    code, out, _ = cm("kv", "set", "/kb/a", '{"summary": "q"}', "https://example.com")
    assert code == 0 and out["key"] == "/untrusted/kb/a" and out["quarantined"] is True
    code, out, _ = cm("kv", "compact")
    assert out["policy"] == "B" and out["rotated_to"]
    code, out, _ = cm("kv", "read")
    assert out["text"] == ""
    code, out, _ = cm("kv", "read", "--include-untrusted")
    assert "/untrusted/kb/a" in out["text"]
