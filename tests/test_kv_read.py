import datetime as dt
import json
import os

from code_memory.kv.layout import KVLayout, KVOptions
from code_memory.kv.maintain import compact
from code_memory.kv.read import HEADER, count_tokens, default_read
from code_memory.kv.view import DIGEST_SAVE_MIN_LINES
from code_memory.kv.write import set_memory

T0 = dt.datetime(2026, 2, 22, 10, 0, tzinfo=dt.timezone.utc)


def put(root, key, content, at, **kw):
    return set_memory(root, key, content, "chat", now=at, **kw)


def test_example_from_the_spec(memory_root):
    put(memory_root, "/user/preference/style",
        {"type": "preference", "summary": "用户喜欢中文、偏好简洁", "importance": 6, "tags": ["language", "style"]}, T0)
    put(memory_root, "/user/calendar/2026-02-23_10-00_牙科复诊",
        {"type": "reminder", "text": "明天10点牙科复诊（一次性）", "importance": 8, "tags": ["health"]},
        T0 + dt.timedelta(minutes=1))
    out = default_read(memory_root, 200, now=T0 + dt.timedelta(minutes=2))
    assert out["text"].split("\n") == [
        HEADER,
        "- /user/calendar/2026-02-23_10-00_牙科复诊 reminder 明天10点牙科复诊（一次性）",
        "- /user/preference/style preference 用户喜欢中文、偏好简洁",
    ]
    assert out["token_count"] == count_tokens(out["text"]) <= 200


def test_tombstones_and_expired_are_filtered(memory_root):
    put(memory_root, "/a", {"summary": "alive"}, T0)
    put(memory_root, "/b", {"summary": "gone"}, T0)
    put(memory_root, "/b", None, T0)
    put(memory_root, "/c", {"summary": "expired", "expired_at": "2026-02-22T11:00:00Z"}, T0)
    put(memory_root, "/d", {"summary": "expires later", "expired_at": "2026-02-23T11:00:00+08:00"}, T0)
    put(memory_root, "/e", {"summary": "epoch expiry", "expired_at": (T0 + dt.timedelta(minutes=30)).timestamp()}, T0)
    out = default_read(memory_root, 500, now=T0 + dt.timedelta(hours=2))
    keys = [line.split()[1] for line in out["lines"]]
    assert sorted(keys) == ["/a", "/d"]
    assert out["expired"] == 2
    out = default_read(memory_root, 500, now=T0 + dt.timedelta(minutes=10))
    assert sorted(line.split()[1] for line in out["lines"]) == ["/a", "/c", "/d", "/e"]


def test_ordering_recency_then_importance_then_tags(memory_root):
    now = T0 + dt.timedelta(days=30)
    put(memory_root, "/old-important", {"summary": "o", "importance": 10}, T0)
    put(memory_root, "/old-plain", {"summary": "p", "importance": 1}, T0)
    put(memory_root, "/old-tagged", {"summary": "t", "importance": 1, "tags": ["Health"]}, T0)
    put(memory_root, "/new-plain", {"summary": "n", "importance": 1}, now - dt.timedelta(minutes=1))
    keys = [line.split()[1] for line in default_read(memory_root, 500, now=now)["lines"]]
    assert keys[0] == "/new-plain"                      # P0 recency dominates
    assert keys.index("/old-important") < keys.index("/old-plain")   # P1 importance
    tagged = [line.split()[1] for line in default_read(memory_root, 500, now=now, tags=["health"])["lines"]]
    assert tagged.index("/old-tagged") < tagged.index("/old-plain")   # P2 tags
    untagged = [line.split()[1] for line in default_read(memory_root, 500, now=now)["lines"]]
    assert untagged[-2:] == ["/old-tagged", "/old-plain"]         # equal scores: newer ts first


def test_token_limit_is_respected(memory_root):
    for i in range(50):
        put(memory_root, f"/notes/n{i:02d}", {"summary": f"note number {i} " + "词" * 10}, T0 + dt.timedelta(seconds=i))
    for limit in (0, 5, 30, 100, 333):
        out = default_read(memory_root, limit, now=T0 + dt.timedelta(hours=1))
        assert out["token_count"] <= limit
        assert count_tokens(out["text"]) == out["token_count"] if out["text"] else out["token_count"] == 0
        assert out["included"] + out["omitted"] == 50
    assert default_read(memory_root, 0)["text"] == ""
    assert default_read(memory_root, 100000)["included"] == 50


def test_count_tokens_rule():
    assert count_tokens("") == 1
    assert count_tokens("abc") == 2                    # 1 per 3 chars + 1 newline
    assert count_tokens("abcd") == 3
    assert count_tokens("牙科复诊") == 5              # 1 per CJK char + 1
    assert count_tokens("a\nb") == 4


def test_summary_fallbacks_and_untrusted(memory_root):
    put(memory_root, "/s1", {"type": "note", "title": "Title wins"}, T0)
    put(memory_root, "/s2", {"x": 1, "type": "cfg", "tags": ["a"]}, T0)
    put(memory_root, "/s3", "just a string\nwith a newline", T0)
    put(memory_root, "/s4", {"summary": "x" * 500}, T0)
    set_memory(memory_root, "/kb/rumour", {"summary": "q"}, "https://x", options=KVOptions(quarantine_untrusted=True))
    lines = {line.split()[1]: line for line in default_read(memory_root, 5000, now=T0)["lines"]}
    assert lines["/s1"] == "- /s1 note Title wins"
    assert lines["/s2"] == '- /s2 cfg {"x":1}'
    assert lines["/s3"] == "- /s3 just a string with a newline"
    assert len(lines["/s4"]) < 140 and lines["/s4"].endswith("…")
    assert "/untrusted/kb/rumour" not in lines
    assert "/untrusted/kb/rumour" in {line.split()[1] for line in default_read(memory_root, 5000, include_untrusted=True)["lines"]}


def test_digest_cache_is_refreshed_and_survives_compaction(memory_root):
    layout = KVLayout.of(memory_root)
    for i in range(DIGEST_SAVE_MIN_LINES + 5):
        put(memory_root, f"/k/{i}", {"summary": str(i)}, T0)
    out = default_read(memory_root, 10)
    assert os.path.exists(layout.digest) and out["candidates"] == DIGEST_SAVE_MIN_LINES + 5
    with open(layout.digest, "rb") as fh:
        header = json.loads(fh.readline())
    assert header["log"]["offset"] == os.path.getsize(layout.log) and header["count"] == DIGEST_SAVE_MIN_LINES + 5
    put(memory_root, "/k/0", None, T0)
    out = default_read(memory_root, 10)
    assert out["replayed_lines"] == 1 and out["candidates"] == DIGEST_SAVE_MIN_LINES + 4
    compact(memory_root)
    out = default_read(memory_root, 10)
    assert out["replayed_lines"] == 0 and out["candidates"] == DIGEST_SAVE_MIN_LINES + 4
    os.unlink(layout.digest)                               # disposable: rebuilt from state + log
    put(memory_root, "/k/1", None, T0)
    assert default_read(memory_root, 10)["candidates"] == DIGEST_SAVE_MIN_LINES + 3
    with open(layout.digest, "w") as fh:
        fh.write("{not json")
    assert default_read(memory_root, 10)["candidates"] == DIGEST_SAVE_MIN_LINES + 3
    raw = bytearray(open(layout.digest, "rb").read())
    raw[-5] ^= 0xFF                                          # a flipped bit in the body: checksum
    open(layout.digest, "wb").write(bytes(raw))
    out = default_read(memory_root, 10)
    assert out["rebuilt_digest"] is True and out["candidates"] == DIGEST_SAVE_MIN_LINES + 3


def test_empty_store_reads_nothing(memory_root):
    out = default_read(memory_root, 400)
    assert out["text"] == "" and out["candidates"] == 0


def test_drifted_index_files_are_answered_from_the_log(memory_root):
    from code_memory.kv.keys import index_relpath
    from code_memory.kv.view import get
    put(memory_root, "/a", {"type": "note", "summary": "from the log"}, T0)
    put(memory_root, "/b", {"type": "note", "summary": "b"}, T0)
    layout = KVLayout.of(memory_root)
    os.unlink(layout.index_file(index_relpath("/a")))
    lines = default_read(memory_root, 500, now=T0)["lines"]
    assert "- /a note from the log" in lines and "- /b note b" in lines
    got = get(memory_root, "/a")
    assert got["content"]["summary"] == "from the log" and got["index_stale"] is True
