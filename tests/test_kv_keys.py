import os

import pytest

from code_memory.errors import CodeMemoryError
from code_memory.kv.keys import (
    MAX_SEGMENT_BYTES,
    decode_segment,
    encode_segment,
    index_relpath,
    key_from_relpath,
    normalize_key,
    physical_segment,
)
from code_memory.kv.layout import KVLayout
from code_memory.kv.write import set_memory


@pytest.mark.parametrize("raw,canonical", [
    ("/user/preference/style", "/user/preference/style"),
    ("//user///calendar//x/", "/user/calendar/x"),
    ("/kb/产品/iPhone 16", "/kb/产品/iPhone 16"),
    ("/a/caf\u0065\u0301", "/a/caf\u00e9"),          # NFC
])
def test_normalize_key_canonical_forms(raw, canonical):
    assert normalize_key(raw) == canonical


@pytest.mark.parametrize("raw,code", [
    ("user/x", "KV_KEY_INVALID"),
    ("", "KV_KEY_INVALID"),
    ("/", "KV_KEY_INVALID"),
    ("///", "KV_KEY_INVALID"),
    ("/a\x00b", "KV_KEY_INVALID"),
    ("/a\nb", "KV_KEY_INVALID"),
    ("/a\rb", "KV_KEY_INVALID"),
    ("/a/../b", "MEMORY_PATH_TRAVERSAL"),
    ("/..", "MEMORY_PATH_TRAVERSAL"),
    ("/a/./b", "MEMORY_PATH_TRAVERSAL"),
    ("/" + "/".join(["s"] * 40), "KV_KEY_INVALID"),
    ("/" + "x" * 2000, "KV_KEY_INVALID"),
    (None, "KV_KEY_INVALID"),
])
def test_normalize_key_rejects(raw, code):
    with pytest.raises(CodeMemoryError) as info:
        normalize_key(raw)
    assert info.value.code == code


@pytest.mark.parametrize("segment", [
    "plain", "牙科复诊", "2026-02-23_10-00", "with space", "a%2e%2e", "x@y", ".hidden", ". .x",
    "back\\slash", "tab\there", "quote\"'", "é", "emoji😀", "C:", "*?<>|", "%41", "%", "~tilde+plus,comma=eq",
])
def test_encode_segment_is_safe_and_reversible(segment):
    encoded = encode_segment(segment)
    assert decode_segment(encoded) == segment
    assert "/" not in encoded and "\\" not in encoded and "\x00" not in encoded
    assert not encoded.startswith(".")
    assert "@" not in encoded


def test_long_segments_are_truncated_and_hashed_distinctly():
    a, b = "长" * 200, "长" * 199 + "短"
    pa, pb = physical_segment(a), physical_segment(b)
    assert len(pa.encode()) <= MAX_SEGMENT_BYTES and len(pb.encode()) <= MAX_SEGMENT_BYTES
    assert pa != pb and "~" in pa


def test_index_relpath_is_predictable_and_case_distinct():
    path = index_relpath("/user/calendar/2026-02-23_10-00_牙科复诊")
    assert path.startswith("user/calendar/2026-02-23_10-00_牙科复诊@") and path.endswith(".json")
    assert index_relpath("/user/calendar/2026-02-23_10-00_牙科复诊") == path
    assert index_relpath("/User/X").lower() != index_relpath("/user/x").lower()
    assert key_from_relpath(path) == "/user/calendar/2026-02-23_10-00_牙科复诊"
    assert key_from_relpath(index_relpath("/a/x@y/%2e%2e/.z")) == "/a/x@y/%2e%2e/.z"


SRC = {"kind": "agent", "name": "test", "retrieved_at": "2026-02-22T10:00:00Z", "locator": "t"}


@pytest.mark.parametrize("key", ["/%2e%2e/%2e%2e/etc/passwd", "/..%2f..%2fetc", "/a/%2F..%2F", "/etc/passwd",
                                 "/" + "a" * 300, "/.ssh/authorized_keys", "/\\..\\..\\x"])
def test_physical_path_always_inside_index(memory_root, key):
    try:
        result = set_memory(memory_root, key, {"v": 1}, SRC)
    except CodeMemoryError as exc:
        assert exc.code in ("MEMORY_PATH_TRAVERSAL", "KV_KEY_INVALID")
        return
    index = os.path.realpath(KVLayout.of(memory_root).index)
    real = os.path.realpath(os.path.join(memory_root, result["path"]))
    assert real.startswith(index + os.sep)
    assert os.path.isfile(real)


def test_absolute_and_dotdot_keys_are_refused(memory_root):
    for key in ("/../../../tmp/evil", "../x", "/a/..", "/tmp/../../x"):
        with pytest.raises(CodeMemoryError) as info:
            set_memory(memory_root, key, {"v": 1}, SRC)
        assert info.value.code in ("MEMORY_PATH_TRAVERSAL", "KV_KEY_INVALID")
    assert not os.path.exists(os.path.join(memory_root, "kv", "log.jsonl"))


def test_symlinked_directory_inside_index_is_refused(memory_root, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    index = KVLayout.of(memory_root).index
    os.makedirs(index)
    os.symlink(outside, os.path.join(index, "user"))
    with pytest.raises(CodeMemoryError) as info:
        set_memory(memory_root, "/user/x", {"v": 1}, SRC)
    assert info.value.code == "MEMORY_PATH_TRAVERSAL"
    assert list(outside.iterdir()) == []
    # nothing was logged for the refused write
    assert not os.path.exists(KVLayout.of(memory_root).log)


def test_symlinked_leaf_is_replaced_not_followed(memory_root, tmp_path):
    target = tmp_path / "victim.txt"
    target.write_text("keep me")
    set_memory(memory_root, "/user/x", {"v": 1}, SRC)
    layout = KVLayout.of(memory_root)
    leaf = layout.index_file(index_relpath("/user/x"))
    os.unlink(leaf)
    os.symlink(target, leaf)
    set_memory(memory_root, "/user/x", {"v": 2}, SRC)
    assert target.read_text() == "keep me"
    assert not os.path.islink(leaf)
    set_memory(memory_root, "/user/x", {"v": 3}, SRC)
    os.unlink(leaf)
    os.symlink(target, leaf)
    set_memory(memory_root, "/user/x", None, SRC)
    assert target.read_text() == "keep me" and not os.path.lexists(leaf)
