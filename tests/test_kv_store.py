import datetime as dt
import json
import os

import pytest

from code_memory.errors import CodeMemoryError
from code_memory.fsutil import iter_jsonl
from code_memory.kv.keys import index_relpath
from code_memory.kv.layout import KVLayout, KVOptions
from code_memory.kv.view import get, ls
from code_memory.kv.write import set_memory

USER = {"kind": "user", "name": "chat", "retrieved_at": "2026-02-22T10:00:00Z",
        "locator": {"conversation_id": "c1", "message_id": "m9"}}
WEB = {"kind": "web", "name": "apple.com", "retrieved_at": "2026-02-22T10:05:00Z", "locator": {"url": "https://x"}}


def log_lines(root):
    return list(iter_jsonl(KVLayout.of(root).log))


def index_doc(root, key):
    with open(KVLayout.of(root).index_file(index_relpath(key)), encoding="utf-8") as fh:
        return json.load(fh)


def test_upsert_appends_envelope_and_writes_index(memory_root):
    r = set_memory(memory_root, "/user/preference/style", {"type": "preference", "summary": "简洁"}, USER)
    assert r["valid"] is True and r["key"] == "/user/preference/style"
    [env] = log_lines(memory_root)
    assert list(env) == ["key", "ts", "valid", "source", "content"]
    assert env["content"] == {"type": "preference", "summary": "简洁"} and env["source"] == USER
    assert env["ts"] == r["ts"] and env["ts"].endswith("Z")
    doc = index_doc(memory_root, "/user/preference/style")
    assert doc["key"] == "/user/preference/style" and doc["content"]["summary"] == "简洁" and doc["ts"] == r["ts"]


def test_tombstone_removes_index_file_and_empty_object_is_content(memory_root):
    set_memory(memory_root, "/user/cal/a", {"x": 1}, USER)
    r = set_memory(memory_root, "/user/cal/a", {}, USER)
    assert r["valid"] is True
    assert index_doc(memory_root, "/user/cal/a")["content"] == {}
    assert get(memory_root, "/user/cal/a")["content"] == {}
    r = set_memory(memory_root, "/user/cal/a", None, USER)
    assert r["valid"] is False
    assert not os.path.exists(os.path.join(memory_root, r["path"]))
    assert not os.path.exists(os.path.join(memory_root, "kv", "index", "user"))   # empty dirs pruned
    with pytest.raises(CodeMemoryError) as info:
        get(memory_root, "/user/cal/a")
    assert info.value.code == "NOT_FOUND"
    envs = log_lines(memory_root)
    assert [e["valid"] for e in envs] == [True, True, False] and envs[-1]["content"] is None


def test_last_write_wins_and_ts_is_monotonic_even_if_clock_steps_back(memory_root):
    t = dt.datetime(2026, 2, 22, 10, 0, tzinfo=dt.timezone.utc)
    a = set_memory(memory_root, "/k", {"v": 1}, USER, now=t)
    b = set_memory(memory_root, "/k", {"v": 2}, USER, now=t - dt.timedelta(hours=1))
    c = set_memory(memory_root, "/k2", {"v": 3}, USER, now=t - dt.timedelta(hours=2))
    assert a["ts"] < b["ts"] < c["ts"]
    assert get(memory_root, "/k")["content"] == {"v": 2}
    assert index_doc(memory_root, "/k")["content"] == {"v": 2}


@pytest.mark.parametrize("bogus", ["9999-99-99", "9999-12-31T23:59:59.999999Z", "2099-01-01T00:00:00.000000Z", "", "x"])
def test_log_order_decides_the_last_write_for_reads_and_compaction_alike(memory_root, bogus):
    """One rule for "last write": the later log line, whatever ts a writer put in it."""
    from code_memory.kv.maintain import compact
    from code_memory.kv.read import default_read
    from code_memory.kv.view import materialize
    layout = KVLayout.of(memory_root)
    set_memory(memory_root, "/a", {"summary": "first"}, USER)
    with open(layout.log, "a") as fh:       # a foreign or buggy writer with a clock of its own
        fh.write(json.dumps({"key": "/a", "ts": bogus, "valid": True, "source": "s", "content": {"summary": "bogus"}}) + "\n")
        fh.write(json.dumps({"key": "/b", "ts": bogus, "valid": True, "source": "s", "content": {"summary": "b"}}) + "\n")
    later = set_memory(memory_root, "/a", {"summary": "legit later"}, USER)
    assert later["ts"].startswith(str(dt.datetime.now(dt.timezone.utc).year))    # the bogus clock is not followed
    assert get(memory_root, "/a")["content"] == {"summary": "legit later"}
    assert materialize(layout)[0]["/a"]["content"] == {"summary": "legit later"}
    assert "- /a legit later" in default_read(memory_root, 400)["text"]
    compact(memory_root)
    assert get(memory_root, "/a")["content"] == {"summary": "legit later"}
    assert get(memory_root, "/b")["content"] == {"summary": "b"}
    assert materialize(layout, full=True)[0]["/a"]["content"] == {"summary": "legit later"}
    set_memory(memory_root, "/a", {"summary": "after compaction"}, USER)
    assert get(memory_root, "/a")["content"] == {"summary": "after compaction"}


def test_source_is_required(memory_root):
    for source in (None, "", {}, 5, ["x"]):
        with pytest.raises(CodeMemoryError) as info:
            set_memory(memory_root, "/user/x", {"v": 1}, source)
        assert info.value.code == "KV_SOURCE_INVALID"
    with pytest.raises(CodeMemoryError) as info:
        set_memory(memory_root, "/user/x", {"v": 1}, {"kind": "martian"})
    assert info.value.code == "KV_SOURCE_INVALID"
    assert not os.path.exists(KVLayout.of(memory_root).log)


@pytest.mark.parametrize("key,source,missing", [
    ("/kb/product/spec", "chat", ["kind", "name", "retrieved_at", "locator"]),
    ("/kb/product/spec", {"kind": "user", "name": "chat"}, ["retrieved_at", "locator"]),
    ("/user/news", {"kind": "web", "name": "site", "retrieved_at": "2026-02-22T10:00:00Z"}, ["locator"]),
    ("/user/news", {"kind": "tool", "name": "search", "locator": {"q": "x"}}, ["retrieved_at"]),
    ("/user/news", {"kind": "file", "name": "a.pdf", "retrieved_at": "yesterday", "locator": "/a.pdf"}, ["retrieved_at"]),
    ("/user/news", "https://example.com/page", ["kind", "name", "retrieved_at", "locator"]),
    ("/user/news", "tool:search", ["kind", "name", "retrieved_at", "locator"]),
])
def test_provenance_required_for_external_and_kb(memory_root, key, source, missing):
    with pytest.raises(CodeMemoryError) as info:
        set_memory(memory_root, key, {"v": 1}, source)
    assert info.value.code == "KV_PROVENANCE_REQUIRED"
    assert info.value.extra["missing"] == missing
    assert "retrieved_at" in info.value.hint
    assert not os.path.exists(KVLayout.of(memory_root).log)


def test_provenance_complete_is_accepted(memory_root):
    set_memory(memory_root, "/kb/product/iphone16/spec", {"type": "kb", "summary": "规格"}, WEB)
    set_memory(memory_root, "/user/pref", {"v": 1}, "chat")                  # plain string source
    set_memory(memory_root, "/user/pref2", {"v": 1}, {"kind": "user"})       # user kind, not external
    assert len(log_lines(memory_root)) == 3


def test_quarantine_when_configured(memory_root):
    opts = KVOptions(quarantine_untrusted=True)
    r = set_memory(memory_root, "/kb/x", {"summary": "unverified"}, "https://rumour.example", options=opts)
    assert r["quarantined"] is True and r["key"] == "/untrusted/kb/x"
    env = log_lines(memory_root)[-1]
    assert env["quarantine"]["from"] == "/kb/x"
    assert get(memory_root, "/untrusted/kb/x")["content"] == {"summary": "unverified"}
    with pytest.raises(CodeMemoryError):
        get(memory_root, "/kb/x")
    with pytest.raises(CodeMemoryError) as info:       # tombstones are never quarantined
        set_memory(memory_root, "/kb/x", None, "chat", options=opts)
    assert info.value.code == "KV_PROVENANCE_REQUIRED"


def test_content_limits(memory_root):
    with pytest.raises(CodeMemoryError) as info:
        set_memory(memory_root, "/a", {"x": "y" * 100}, "chat", options=KVOptions(max_content_bytes=50))
    assert info.value.code == "KV_CONTENT_INVALID"
    for bad in ({"x": float("nan")}, {"x": {1, 2}}, b"bytes"):
        with pytest.raises(CodeMemoryError) as info:
            set_memory(memory_root, "/a", bad, "chat")
        assert info.value.code == "KV_CONTENT_INVALID"
    assert not os.path.exists(KVLayout.of(memory_root).log)


def test_non_object_content_is_allowed(memory_root):
    for i, value in enumerate(["text", 3, [1, 2], True]):
        set_memory(memory_root, f"/v/{i}", value, "chat")
        assert get(memory_root, f"/v/{i}")["content"] == value


def test_secrets_are_redacted_and_secret_keys_refused(memory_root):
    token = "sk-ant-" + "a1b2c3d4e5" * 4
    set_memory(memory_root, "/tools/api", {"note": f"use key {token}"}, {"kind": "user", "note": token})
    raw = open(KVLayout.of(memory_root).log, encoding="utf-8").read()
    assert token not in raw and "[REDACTED:anthropic-key]" in raw
    assert token not in json.dumps(index_doc(memory_root, "/tools/api"))
    with pytest.raises(CodeMemoryError) as info:
        set_memory(memory_root, f"/tools/{token}", {"v": 1}, "chat")
    assert info.value.code == "KV_KEY_INVALID"


def test_torn_tail_line_is_fenced_off(memory_root):
    set_memory(memory_root, "/a", {"v": 1}, "chat")
    layout = KVLayout.of(memory_root)
    with open(layout.log, "ab") as fh:
        fh.write(b'{"key":"/b","ts":"2026-')         # a writer killed mid-line
    set_memory(memory_root, "/c", {"v": 3}, "chat")
    keys = [k["key"] for k in ls(memory_root)["keys"]]
    assert keys == ["/a", "/c"]
    raw = open(layout.log, "rb").read().split(b"\n")
    assert raw[1] == b'{"key":"/b","ts":"2026-' and json.loads(raw[2])["key"] == "/c"


def test_ls_lists_a_folder_and_matches_the_index_directory(memory_root):
    for name in ("2026-02-23_10-00_牙科复诊", "2026-03-01_09-00_review"):
        set_memory(memory_root, f"/user/calendar/{name}", {"type": "reminder", "text": name}, USER)
    set_memory(memory_root, "/user/preference/style", {"summary": "x"}, USER)
    set_memory(memory_root, "/user/calendarish", {"summary": "not in the folder"}, USER)
    listing = ls(memory_root, "/user/calendar/")
    assert [k["key"] for k in listing["keys"]] == ["/user/calendar/2026-02-23_10-00_牙科复诊",
                                                   "/user/calendar/2026-03-01_09-00_review"]
    files = sorted(os.listdir(os.path.join(memory_root, listing["index_dir"])))
    assert len(files) == 2 and files[0].startswith("2026-02-23_10-00_牙科复诊@")
    assert ls(memory_root)["total"] == 4
    assert ls(memory_root, "user/calendar", limit=1)["total"] == 2


def test_operations_log_holds_metadata_only(memory_root):
    marker = "MARKER-7f3a-secret-memory-text"
    set_memory(memory_root, f"/user/{marker}", {"summary": marker}, {"kind": "user", "name": marker})
    set_memory(memory_root, f"/user/{marker}", None, "user")
    oplog = os.path.join(memory_root, "logs", "kv.log")
    text = open(oplog, encoding="utf-8").read()
    assert marker not in text and '"op":"set"' in text
    assert oct(os.stat(oplog).st_mode & 0o777) == "0o600"
