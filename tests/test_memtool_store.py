"""memtool MVP: schema, the three put modes, get, list, search (FTS5 and LIKE), delete,
export/import, tags (docs/stores.md § memtool)."""

from __future__ import annotations

import io
import json
import os
import sqlite3
import subprocess
import sys

import pytest

from code_memory.memtool import schema, transfer
from code_memory.memtool.errors import MemtoolError
from code_memory.memtool.store import ITEM_FIELDS
from memtool_support import REPO, clock, db_path, make_store, store  # noqa: F401 (fixtures)


def _names(conn, kind):
    return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = ?", (kind,))}


def test_init_creates_tables_indexes_triggers_and_wal(store, db_path):
    conn = sqlite3.connect(db_path)
    tables = _names(conn, "table")
    assert {"memory_items", "memory_tags", "memory_fts", "memtool_migrations", "memtool_meta"} <= tables
    indexes = _names(conn, "index")
    assert {"idx_memory_type_key", "idx_memory_task_step", "idx_memory_updated", "idx_memory_confidence",
            "idx_memory_access_count", "idx_memory_consolidation", "idx_memory_tags_item"} <= indexes
    assert {"memory_fts_ai", "memory_fts_ad", "memory_fts_au"} <= _names(conn, "trigger")
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    cols = {r[1] for r in conn.execute("PRAGMA table_info(memory_items)")}
    assert {"id", "type", "task_id", "step_id", "key", "content", "content_search", "tags_json", "source",
            "weight", "version", "created_at", "updated_at", "confidence_level", "access_count",
            "last_accessed_at", "consolidation_score", "context_tags_json", "emotional_weight",
            "related_ids_json", "project"} == cols
    assert store.conn.execute("PRAGMA busy_timeout").fetchone()[0] == 5000
    assert [r[0] for r in conn.execute("SELECT name FROM memtool_migrations ORDER BY name")] == \
        [name for name, _ in schema.MIGRATIONS]


def test_reopening_applies_nothing(make_store, store):
    again = make_store()
    assert again.migration == {"applied": [], "resegmented": 0}


def test_fts_triggers_follow_insert_update_delete(store):
    item = store.put(type="run", content="alpha beta")["item"]
    fts = lambda q: [r[0] for r in store.conn.execute(
        "SELECT id FROM memory_fts WHERE memory_fts MATCH ?", (q,))]
    assert fts("alpha") == [item["id"]]
    store.put(item_id=item["id"], content="gamma delta")
    assert fts("alpha") == [] and fts("gamma") == [item["id"]]
    store.delete(item["id"])
    assert fts("gamma") == []
    assert store.conn.execute("SELECT count(*) FROM memory_fts").fetchone()[0] == 0


def test_put_create_has_every_field(store):
    out = store.put(type="feature", key="contract", task_id="T1", content="POST /login", tags=["auth,login", "auth"],
                    source="PRD", weight="2", confidence="high")
    assert out["action"] == "created" and out["version"] == 1
    item = out["item"]
    assert set(ITEM_FIELDS) <= set(item)
    assert len(item["id"]) == 32 and int(item["id"], 16) >= 0
    assert item["tags"] == ["auth", "login"] and item["weight"] == 2.0 and item["source"] == "PRD"
    assert item["confidence_level"] == "high" and item["created_at"] == item["updated_at"]
    assert item["created_at"].endswith("+00:00")


def test_put_by_id_updates_and_counts_versions(store):
    first = store.put(type="run", key="logs", content="v1", tags=["a"])["item"]
    second = store.put(item_id=first["id"], content="v2")
    assert second["action"] == "updated" and second["version"] == 2
    assert second["item"]["tags"] == ["a"] and second["item"]["key"] == "logs"
    third = store.put(item_id=first["id"], content="v3", tags=["b"], confidence="low")
    assert third["version"] == 3 and third["item"]["tags"] == ["b"] and third["item"]["confidence_level"] == "low"
    assert store.get(first["id"])["content"] == "v3"


def test_put_by_unknown_id_is_not_found(store):
    with pytest.raises(MemtoolError) as err:
        store.put(item_id="abc123", content="x")
    assert err.value.code == "NOT_FOUND" and err.value.exit_code == 3
    assert err.value.to_dict()["id"] == "abc123"


def test_put_upserts_on_the_logical_key(store):
    a = store.put(type="feature", key="contract", task_id="T1", content="one")
    b = store.put(type="feature", key="contract", task_id="T1", content="two")
    assert b["action"] == "updated" and b["id"] == a["id"] and b["version"] == 2
    # another task_id / step_id / type is another logical key
    c = store.put(type="feature", key="contract", task_id="T2", content="three")
    d = store.put(type="feature", key="contract", content="four")
    e = store.put(type="feature", key="contract", task_id="T1", step_id="S1", content="five")
    f = store.put(type="run", key="contract", task_id="T1", content="six")
    assert len({a["id"], c["id"], d["id"], e["id"], f["id"]}) == 5
    assert all(x["action"] == "created" for x in (c, d, e, f))


def test_put_without_key_always_creates(store):
    a = store.put(type="run", content="note one")
    b = store.put(type="run", content="note one")
    assert a["action"] == b["action"] == "created" and a["id"] != b["id"]
    assert a["item"]["key"] is None


@pytest.mark.parametrize("kwargs,code,fragment", [
    ({"content": "x"}, "PARAM_ERROR", "--type is missing"),
    ({"type": "bogus", "content": "x"}, "PARAM_ERROR", "Invalid type"),
    ({"type": "run", "content": "  "}, "PARAM_ERROR", "Content is empty"),
    ({"type": "run", "content": "x", "weight": "heavy"}, "PARAM_ERROR", "weight"),
    ({"type": "run", "content": "x", "weight": "nan"}, "PARAM_ERROR", "weight"),
    ({"type": "run", "content": "x", "confidence": "sure"}, "PARAM_ERROR", "confidence"),
    ({"type": "run", "content": "x", "emotional_weight": 3}, "PARAM_ERROR", "emotional_weight"),
    ({"item_id": "bad id!", "content": "x"}, "PARAM_ERROR", "Invalid id"),
])
def test_put_rejects_bad_input(store, kwargs, code, fragment):
    with pytest.raises(MemtoolError) as err:
        store.put(**kwargs)
    assert err.value.code == code and fragment in err.value.message
    assert store.conn.execute("SELECT count(*) FROM memory_items").fetchone()[0] == 0


def test_put_redacts_secrets(store):
    out = store.put(type="run", content="deploy with OPENAI_API_KEY=sk-abcdefghijklmnopqrstuvwxyz123456 ok")
    assert out["redacted"] is True
    assert "sk-abcdefghijklmnopqrstuvwxyz123456" not in out["item"]["content"]
    raw = store.conn.execute("SELECT content || content_search FROM memory_items").fetchone()[0]
    assert "sk-abcdefghij" not in raw


def test_get_by_logical_key_matches_what_put_would_update(store, clock):
    store.put(type="feature", key="contract", task_id="T1", content="old")
    clock.advance(minutes=1)
    newer = store.put(type="feature", key="contract", task_id="T2", content="newer")
    clock.advance(minutes=1)
    step = store.put(type="run", key="trace", task_id="T2", step_id="s2", content="step two")
    store.put(type="run", key="trace", task_id="T2", content="the task's own trace")
    assert store.get(type="feature", key="contract", task_id="T2")["id"] == newer["id"]
    assert store.get(type="feature", key="contract", task_id="T1")["content"] == "old"
    assert store.get(type="run", key="trace", task_id="T2")["content"] == "the task's own trace"   # not step s2's
    assert store.get(type="run", key="trace", task_id="T2", step_id="s2")["id"] == step["id"]
    with pytest.raises(MemtoolError) as err:      # put(type, key) without a task would create a new item
        store.get(type="feature", key="contract")
    assert err.value.code == "NOT_FOUND"
    with pytest.raises(MemtoolError) as err:
        store.get(type="feature", key="nope")
    assert err.value.code == "NOT_FOUND"
    with pytest.raises(MemtoolError) as err:
        store.get(key="contract")
    assert err.value.code == "PARAM_ERROR"


def test_list_filters_and_limit(store, clock):
    for i in range(5):
        clock.advance(seconds=1)
        store.put(type="run", task_id="T1", step_id=f"S{i % 2}", key=f"log{i}", content=f"log {i}", tags=[f"t{i % 2}", "all"])
    store.put(type="feature", task_id="T2", key="contract", content="c", tags=["all"])
    assert len(store.list()) == 6
    assert [it["content"] for it in store.list(type="run", limit=2)] == ["log 4", "log 3"]
    assert {it["content"] for it in store.list(task_id="T1", step_id="S0")} == {"log 0", "log 2", "log 4"}
    assert {it["content"] for it in store.list(tags=["t1"])} == {"log 1", "log 3"}
    assert len(store.list(tags=["t1", "all"])) == 2 and len(store.list(tags=["all"])) == 6
    assert store.list(key="contract")[0]["type"] == "feature"
    assert store.list(key_prefix="con")[0]["key"] == "contract"
    with pytest.raises(MemtoolError):
        store.list(limit=0)


def test_tags_are_exact_not_substring(store):
    store.put(type="run", content="a", tags=["auth"])
    store.put(type="run", content="b", tags=["oauth2"])
    assert [it["content"] for it in store.list(tags=["auth"])] == ["a"]
    rows = store.conn.execute("SELECT tag, item_id FROM memory_tags ORDER BY tag").fetchall()
    assert [r[0] for r in rows] == ["auth", "oauth2"]


def test_search_fts_english_and_filters(store):
    a = store.put(type="feature", task_id="T1", key="contract", content="JWT refresh token rotation")
    store.put(type="feature", task_id="T2", key="contract", content="JWT signing keys")
    store.put(type="run", content="nothing relevant")
    out = store.search("jwt refresh")
    assert out["fts5"] is True and out["items"][0]["id"] == a["id"]
    assert out["items"][0]["match"] == "all" and out["items"][0]["search_rank"] == 1
    assert {it["task_id"] for it in store.search("jwt")["items"]} == {"T1", "T2"}
    assert [it["task_id"] for it in store.search("jwt", task_id="T2")["items"]] == ["T2"]
    assert store.search("jwt", type="run")["items"] == []


def test_search_falls_back_to_any_word(store):
    a = store.put(type="run", content="redis timeout in production")
    b = store.put(type="run", content="redis pool sizing")
    items = store.search("redis timeout")["items"]
    assert [it["id"] for it in items] == [a["id"], b["id"]]
    assert [it["match"] for it in items] == ["all", "any"]


def test_search_chinese_short_words(store):
    a = store.put(type="project", key="glossary", content="画布是核心运行机制的载体，负责渲染")
    store.put(type="project", key="other", content="数据库连接池配置")
    for query in ("画布", "核心", "运行机制", "渲染"):
        assert [it["id"] for it in store.search(query)["items"]] == [a["id"]], query
    assert store.search("连接池")["items"][0]["key"] == "other"


def test_search_single_han_character_uses_like(store):
    a = store.put(type="project", content="数据库连接池配置")
    out = store.search("库")
    assert out["fts5"] is False and [it["id"] for it in out["items"]] == [a["id"]]
    # combined with words, FTS still ranks and LIKE filters
    out = store.search("库 连接")
    assert out["fts5"] is True and [it["id"] for it in out["items"]] == [a["id"]]


def test_search_like_mode_when_fts_is_off(make_store):
    store = make_store(use_fts=False)
    a = store.put(type="run", content="Redis timeout 数据库超时")
    store.put(type="run", content="other 100% thing_x")
    out = store.search("redis 超时")
    assert out["fts5"] is False and [it["id"] for it in out["items"]] == [a["id"]]
    assert [it["content"] for it in store.search("100%")["items"]] == ["other 100% thing_x"]
    assert store.search("thing_")["items"][0]["content"].startswith("other")
    assert store.search("ing%x")["items"] == []


def test_search_handles_fts_syntax_characters(store):
    store.put(type="run", content='error "quoted" AND (parens) NEAR col:value -minus')
    for query in ('"quoted"', "AND", "(parens)", "col:value", "-minus", "*", "NEAR("):
        out = store.search(query)  # never an FTS syntax error
        assert isinstance(out["items"], list)
    assert store.search("col:value")["items"]


def test_search_requires_a_query(store):
    with pytest.raises(MemtoolError) as err:
        store.search("  ")
    assert err.value.code == "PARAM_ERROR"


def test_delete(store):
    a = store.put(type="run", content="x", tags=["t"])
    assert store.delete(a["id"])["deleted"] is True
    assert store.conn.execute("SELECT count(*) FROM memory_tags").fetchone()[0] == 0
    with pytest.raises(MemtoolError) as err:
        store.delete(a["id"])
    assert err.value.code == "NOT_FOUND"


def test_export_import_roundtrip(make_store, store, tmp_path, clock):
    store.put(type="project", key="glossary", content="画布: canvas", tags=["zh"], confidence="high")
    b = store.put(type="feature", key="contract", task_id="T1", content="v1")
    store.put(item_id=b["id"], content="v2 JWT")
    store.get(b["id"])
    store.flush_access()
    exported = [json.dumps(it, ensure_ascii=False) for it in transfer.iter_export(store)]
    other = make_store(str(tmp_path / "copy.db"))
    result = transfer.import_lines(other, exported)
    assert result == {"imported": 2, "created": 2, "updated": 0, "batches": 1}
    assert [json.dumps(it, ensure_ascii=False) for it in transfer.iter_export(other)] == exported
    assert other.search("画布")["items"] and other.list(tags=["zh"])
    # importing again updates in place (upsert by id)
    again = transfer.import_lines(other, exported)
    assert again["updated"] == 2 and len(other.list()) == 2


def test_import_rejects_a_bad_line_atomically(store):
    good = json.dumps({"id": "a1", "type": "run", "content": "ok"})
    for bad, fragment in (("{not json", "invalid JSON"), ("[1]", "not a JSON object"),
                          (json.dumps({"type": "run"}), "content"),
                          (json.dumps({"type": "x", "content": "c"}), "type"),
                          (json.dumps({"type": "run", "content": "c", "version": 0}), "version"),
                          (json.dumps({"type": "run", "content": "c", "updated_at": "yesterday"}), "updated_at"),
                          (json.dumps({"type": "run", "content": "c", "weight": "w"}), "weight")):
        with pytest.raises(MemtoolError) as err:
            transfer.import_lines(store, [good, "", bad])
        assert err.value.code == "PARAM_ERROR" and err.value.extra["line"] == 3, bad
        assert fragment in err.value.message
    assert store.list() == []


def test_import_without_id_creates_and_reports_unknown_fields(store):
    out = transfer.import_lines(store, io.StringIO(json.dumps({"type": "run", "content": "c", "mixed_score": 1})))
    assert out["created"] == 1 and out["ignored_fields"] == ["mixed_score"]


def test_chinese_put_and_search_never_import_jieba(tmp_path):
    """Segmentation reads jieba's dictionary through code_memory.text.segment; queries use bigrams."""
    code = (
        "import sys; sys.path.insert(0, %r)\n"
        "from code_memory.memtool.store import MemoryStore\n"
        "s = MemoryStore(%r)\n"
        "s.put(type='project', content='画布是核心运行机制的载体')\n"
        "hits = s.search('运行机制')['items']\n"
        "print(len(hits), 'jieba' in sys.modules)\n"
    ) % (os.path.join(REPO, "scripts"), str(tmp_path / "m.db"))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.split() == ["1", "False"], out.stderr
