"""memtool Phase 2 (docs/stores.md § memtool): access tracking + consolidation, context extraction, related-id
linking, contextual search, assess-knowledge, knowledge map, review-due, and the migration of a
database created by the MVP schema."""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
import time

import pytest

from code_memory.memtool import context, knowledge_map, metacognition, ranking, recall
from code_memory.memtool.access import AccessTracker
from code_memory.memtool.errors import MemtoolError
from memtool_support import MVP_SCHEMA_SQL, clock, db_path, make_store, run_memtool, store  # noqa: F401 (fixtures)


def _row(store, item_id, *cols):
    return store.conn.execute(f"SELECT {', '.join(cols)} FROM memory_items WHERE id = ?", (item_id,)).fetchone()


# --- access tracking & consolidation ---------------------------------------------------------

def test_reads_are_tracked_in_batches(store, clock):
    a = store.put(type="feature", content="jwt refresh flow")["id"]
    b = store.put(type="feature", content="jwt signing")["id"]
    store.get(a)
    store.search("jwt")
    recall.recommend(store, context="jwt")
    # nothing written yet: reads only buffer
    assert _row(store, a, "access_count")[0] == 0
    assert store.tracker.pending == 5
    clock.advance(days=1)
    assert store.flush_access() == 2
    count, last, score = _row(store, a, "access_count", "last_accessed_at", "consolidation_score")
    assert count == 3 and _row(store, b, "access_count")[0] == 2
    assert last == (clock.now - dt.timedelta(days=1)).isoformat(timespec="microseconds")
    expected = ranking.compute_consolidation(3, store.get(a, track=False)["created_at"],
                                             store.get(a, track=False)["updated_at"], clock.now)
    assert score == pytest.approx(expected, abs=1e-6)
    # internal sweeps do not count as recall
    metacognition.assess_knowledge(store, "jwt")
    knowledge_map.build(store, "jwt")
    metacognition.review_due(store)
    assert store.tracker.pending == 0


def test_tracker_flushes_when_enough_is_pending(make_store):
    tracker = AccessTracker(flush_every=3, flush_interval=3600)
    store = make_store(tracker=tracker)
    item = store.put(type="run", content="x")["id"]
    store.get(item)
    store.get(item)
    assert _row(store, item, "access_count")[0] == 0
    store.get(item)
    assert _row(store, item, "access_count")[0] == 3 and tracker.pending == 0


def test_close_flushes_and_a_busy_lock_never_blocks_reads(make_store, db_path):
    store = make_store()
    item = store.put(type="run", content="x")["id"]
    blocker = sqlite3.connect(db_path, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    try:
        store.get(item)
        started = time.monotonic()
        assert store.flush_access() == 0            # lock busy: kept for later, read not failed
        assert time.monotonic() - started < 2.0
        assert store.tracker.pending == 1
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    store.close()
    reopened = make_store()
    assert reopened.get(item, track=False)["access_count"] == 1


def test_cli_get_records_the_access(tmp_path):
    db = str(tmp_path / "m.db")
    _, out, _ = run_memtool("put", "--type", "run", "--content", "x", db=db)
    run_memtool("get", "--id", out["id"], db=db)
    _, got, _ = run_memtool("get", "--id", out["id"], db=db)
    assert got["item"]["access_count"] == 1 and got["item"]["last_accessed_at"]


def test_consolidation_lengthens_the_half_life(store, clock):
    item = store.put(type="run", content="often used")["id"]
    for _ in range(99):
        store.get(item)
    clock.advance(days=200)
    store.flush_access()
    score = store.get(item, track=False)["consolidation_score"]
    assert score == pytest.approx(0.5 + 0.2 * 200 / 365 + 0.3 * 0.5 ** (200 / 180), abs=1e-4)
    scored = store.get(item, track=False)
    assert scored["half_life_days"] == pytest.approx(14 * (1 + 2 * score), abs=1e-3)


# --- context extraction ----------------------------------------------------------------------

MONDAY_10 = dt.datetime(2026, 3, 2, 10, 0)


@pytest.mark.parametrize("when,expected", [
    (MONDAY_10, ["work_hours"]),
    (dt.datetime(2026, 3, 2, 23, 30), ["late_night"]),
    (dt.datetime(2026, 3, 3, 5, 59), ["late_night"]),
    (dt.datetime(2026, 3, 2, 19, 0), []),
    (dt.datetime(2026, 3, 7, 10, 0), ["work_hours", "weekend"]),
])
def test_time_tags(when, expected):
    assert context.time_tags(when) == expected


@pytest.mark.parametrize("text,tags,weight", [
    ("Finally solved the flaky login: success", ["positive"], 0.5),
    ("Build failed with an error, another bug", ["negative", "debugging"], -0.3),
    ("URGENT: production crash, blocking release", ["negative", "urgent", "debugging", "deployment"], 0.0),
    ("修复了登录问题，优化完成", ["positive"], 0.5),
    ("线上事故：数据库超时，紧急处理", ["negative", "urgent", "data_model"], 0.0),
    ("refactor the review notes", ["calm"], 0.0),
    ("pytest run shows an exception in test_login", ["negative", "debugging", "testing"], -0.3),
    ("Design the REST API endpoint for orders", ["api_design"], 0.0),
    ("collect user feedback", [], 0.0),               # "db" inside "feedback" is not a database
    ("接口契约：用户表结构增加字段", ["api_design", "data_model"], 0.0),
])
def test_emotion_urgency_and_task_tags(text, tags, weight):
    got_tags, got_weight = context.extract(text, MONDAY_10)
    assert got_tags == ["work_hours"] + tags
    assert got_weight == pytest.approx(weight)


def test_put_stores_context_and_allows_overrides(store, clock):
    clock.now = dt.datetime(2026, 3, 7, 23, 0, tzinfo=dt.timezone.utc)  # Saturday night
    item = store.put(type="run", content="error: timeout talking to redis")["item"]
    assert item["context_tags"] == ["late_night", "weekend", "negative", "debugging"]
    assert item["emotional_weight"] == pytest.approx(-0.3)
    manual = store.put(type="run", content="x", context_tags=["deployment"], emotional_weight=0.9)["item"]
    assert manual["context_tags"] == ["deployment"] and manual["emotional_weight"] == 0.9
    # a metadata-only update keeps the context of the content
    kept = store.put(item_id=item["id"], confidence="high")["item"]
    assert kept["context_tags"] == item["context_tags"]


# --- related ids -----------------------------------------------------------------------------

def test_related_items_are_linked_both_ways_and_duplicates_reported(store):
    a = store.put(type="run", content="Redis connection timeout in prod: increase the pool size")["id"]
    out = store.put(type="run", content="Redis timeout again: pool exhausted by long queries")
    b = out["id"]
    assert out["related"][0]["id"] == a and 0.3 <= out["related"][0]["similarity"] < 0.8
    assert store.get(b, track=False)["related_ids"] == [a]
    assert store.get(a, track=False)["related_ids"] == [b]
    dup = store.put(type="run", content="Redis connection timeout in prod: increase the pool size!")
    assert [d["id"] for d in dup["possible_duplicates"]] == [a]
    assert a not in dup["item"]["related_ids"]
    other_type = store.put(type="feature", content="Redis timeout pool exhausted by long queries")
    assert other_type["item"]["related_ids"] == []
    unrelated = store.put(type="run", content="CSS grid layout for the settings page")
    assert unrelated["item"]["related_ids"] == [] and "related" not in unrelated
    no_link = store.put(type="run", content="Redis timeout pool exhausted by long queries", auto_link=False)
    assert no_link["item"]["related_ids"] == []
    store.delete(a)
    assert a not in store.get(b, track=False)["related_ids"]


def test_chinese_items_link(store):
    a = store.put(type="run", content="数据库连接池耗尽导致接口超时")["id"]
    b = store.put(type="run", content="连接池配置太小，数据库请求超时")
    assert [r["id"] for r in b["related"]] == [a]


def test_rewriting_an_item_moves_its_links(store):
    a = store.put(type="run", content="redis timeout pool exhausted")["id"]
    b = store.put(type="run", content="redis timeout pool sizing guide")["id"]
    assert store.get(a, track=False)["related_ids"] == [b]
    store.put(item_id=b, content="css grid layout settings page")
    assert store.get(a, track=False)["related_ids"] == []
    assert store.get(b, track=False)["related_ids"] == []


def test_linking_uses_recent_items_without_fts(make_store):
    store = make_store(use_fts=False)
    a = store.put(type="run", content="redis timeout pool exhausted by queries")["id"]
    b = store.put(type="run", content="redis timeout pool sizing guide for slow reports")
    assert b["item"]["related_ids"] == [a]


# --- contextual search -----------------------------------------------------------------------

def _contextual_seed(store, clock):
    clock.now = dt.datetime(2026, 3, 2, 23, 0, tzinfo=dt.timezone.utc)
    night_bug = store.put(type="run", content="error in checkout: null pointer exception")["id"]
    clock.now = dt.datetime(2026, 3, 3, 11, 0, tzinfo=dt.timezone.utc)
    day_fix = store.put(type="run", content="checkout bug solved, success after retry fix, resolved")["id"]
    urgent = store.put(type="run", content="URGENT checkout outage")["id"]
    return night_bug, day_fix, urgent


def test_contextual_search_by_tags_and_emotion(store, clock):
    night_bug, day_fix, urgent = _contextual_seed(store, clock)
    out = recall.contextual_search(store, "checkout", context_tags=["late_night", "debugging"])
    assert [(it["id"], it["context_match"]) for it in out["items"]] == [(night_bug, 1.0), (day_fix, 0.5)]
    partial = recall.contextual_search(store, "checkout", context_tags=["work_hours", "debugging"])
    assert partial["items"][0]["context_match"] == 1.0 and partial["items"][0]["id"] == day_fix
    assert {it["id"] for it in partial["items"]} == {night_bug, day_fix, urgent}
    assert [it["id"] for it in recall.contextual_search(store, "checkout", emotional_filter="positive")["items"]] == [day_fix]
    assert [it["id"] for it in recall.contextual_search(store, "checkout", emotional_filter="urgent")["items"]] == [urgent]
    assert night_bug in [it["id"] for it in recall.contextual_search(store, "checkout", emotional_filter="negative")["items"]]
    no_query = recall.contextual_search(store, context_tags=["late_night"])
    assert [it["id"] for it in no_query["items"]] == [night_bug]
    assert recall.contextual_search(store, context_tags=["sleepy"])["unknown_context_tags"] == ["sleepy"]
    with pytest.raises(MemtoolError):
        recall.contextual_search(store, "x", emotional_filter="angry")
    with pytest.raises(MemtoolError):
        recall.contextual_search(store)


# --- assess-knowledge ------------------------------------------------------------------------

def test_assess_knowledge_levels(store, clock):
    none = metacognition.assess_knowledge(store, "kubernetes")
    assert none["confidence"] == "none" and none["score"] == 0.0 and none["evidence"] == []
    assert none["message"] == "我对「kubernetes」没有记忆" and len(none["suggestions"]) == 2

    store.put(type="run", content="kafka consumer lag notes", confidence="low")
    low = metacognition.assess_knowledge(store, "kafka")
    # 0.35*0.3 + 0.25*0.1 + 0.2*1.0 + 0.2*0 = 0.33
    assert low["confidence"] == "low" and low["score"] == pytest.approx(0.33)
    assert low["suggestions"][-1] == "找到 1 条记忆但质量较低"

    for i in range(10):
        store.put(type="project", content=f"redis cluster fact {i} " + "x" * 150, confidence="high")
    medium = metacognition.assess_knowledge(store, "redis")
    # 0.35*1 + 0.25*1 + 0.2*1 + 0.2*0 = 0.8 → high once consolidated; fresh and unread → exactly 0.8
    assert medium["score"] == pytest.approx(0.8) and medium["confidence"] == "high"
    assert medium["message"] == "我对「redis」很有把握，有 10 条相关记忆"
    assert medium["stats"] == {"total_memories": 10, "avg_confidence": 1.0, "avg_recency": 1.0,
                               "avg_consolidation": 0.0, "coverage": 1.0}
    assert len(medium["evidence"]) == 5 and medium["evidence"][0]["snippet"].endswith("...")
    assert len(medium["evidence"][0]["snippet"]) == 103
    clock.advance(days=400)
    faded = metacognition.assess_knowledge(store, "redis")
    assert faded["confidence"] == "medium" and faded["suggestions"][0] == "建议交叉验证这些记忆"
    clock.advance(days=4000)
    store.conn.execute("UPDATE memory_items SET confidence_level = 'low'")
    store.put(type="run", content="redis")  # keep one hit so the topic is not empty
    very_low = metacognition.assess_knowledge(store, "zookeeper")
    assert very_low["confidence"] == "none"


def test_assess_very_low(store, clock):
    clock.advance(days=-5000)
    store.put(type="run", content="memcached eviction", confidence="low")
    clock.advance(days=5000)
    out = metacognition.assess_knowledge(store, "memcached")
    # 0.35*0.3 + 0.25*0.1 + ~0 + 0 = 0.13
    assert out["confidence"] == "very_low" and out["message"] == "我对「memcached」几乎没有可靠记忆"


# --- knowledge map ---------------------------------------------------------------------------

def _chain(store):
    ids = []
    texts = ["payment gateway timeout retry",
             "payment gateway retry backoff policy",
             "retry backoff policy jitter settings",
             "jitter settings for cron scheduling"]
    for text in texts:
        ids.append(store.put(type="feature", content=text)["id"])
    return ids


def test_knowledge_map_bfs(store, tmp_path):
    a, b, c, d = _chain(store)
    assert store.get(a, track=False)["related_ids"] == [b]
    graph = knowledge_map.build(store, "gateway timeout", depth=2, min_score=0.0)
    depth_of = {n["id"]: n["depth"] for n in graph["nodes"]}
    assert depth_of[a] == 0 and graph["nodes"][0]["is_center"]
    assert c not in depth_of or depth_of[c] <= 1
    assert d not in depth_of
    for edge in graph["edges"]:
        assert edge["from"] in depth_of and edge["to"] in depth_of
    deep = knowledge_map.build(store, "gateway timeout", depth=5, min_score=0.0)
    assert {n["id"] for n in deep["nodes"]} == {a, b, c, d}
    assert len(deep["edges"]) == len({tuple(sorted((e["from"], e["to"]))) for e in deep["edges"]})
    assert deep["clusters"][0]["size"] == 4
    strict = knowledge_map.build(store, "gateway timeout", depth=5, min_score=0.99)
    assert all(n["is_center"] for n in strict["nodes"])
    empty = knowledge_map.build(store, "nothing like this")
    assert empty["nodes"] == [] and empty["message"] == "No memories found"
    with pytest.raises(MemtoolError):
        knowledge_map.build(store, "x", depth=0)
    mermaid = knowledge_map.to_mermaid(deep)
    assert mermaid.startswith("graph LR") and mermaid.count("---") == len(deep["edges"])
    page = knowledge_map.to_html(deep)
    assert page.startswith("<!DOCTYPE html>") and page.count("<circle") == 4 and "<script" not in page


def test_knowledge_map_cli_writes_html_and_mermaid(tmp_path):
    db = str(tmp_path / "m.db")
    for text in ("payment gateway timeout retry", "payment gateway retry backoff policy"):
        run_memtool("put", "--type", "feature", "--content", text, db=db)
    html_path, mmd_path = tmp_path / "map.html", tmp_path / "map.mmd"
    status, out, _ = run_memtool("knowledge-map", "--topic", "gateway", "--html", str(html_path),
                                 "--mermaid", str(mmd_path), db=db)
    assert status == 0 and out["total_nodes"] == 2 and len(out["edges"]) == 1
    assert out["html_file"] == str(html_path) and "<svg" in html_path.read_text(encoding="utf-8")
    assert mmd_path.read_text(encoding="utf-8").strip() == out["mermaid"]


# --- review due ------------------------------------------------------------------------------

def test_review_interval_rule():
    assert [metacognition.review_interval_days(n) for n in (0, 1, 2, 3, 6, 7, 50)] == [1, 2, 4, 8, 64, 90, 90]


def test_review_due(store, clock):
    important = store.put(type="project", content="URGENT outage playbook solved", confidence="high")["id"]
    store.put(type="project", content="plain note")                       # importance 0.24 < 0.5
    reviewed = store.put(type="project", content="URGENT deploy checklist fixed", confidence="high")["id"]
    assert metacognition.review_due(store)["total_due"] == 0              # not a day old yet
    clock.advance(days=2)
    store.get(reviewed)
    store.flush_access()                                                   # interval now 2 days
    due = metacognition.review_due(store)
    assert [it["id"] for it in due["items"]] == [important]
    first = due["items"][0]
    assert first["interval_days"] == 1 and first["days_overdue"] == pytest.approx(1.0)
    assert first["importance"] == pytest.approx(0.4 + 0.3 * 0.8) and first["content"]
    clock.advance(days=3)
    due = metacognition.review_due(store)
    assert [it["id"] for it in due["items"]] == [important, reviewed]
    assert metacognition.review_due(store, min_importance=0.0)["total_due"] == 3
    assert metacognition.review_due(store, type="run")["total_due"] == 0
    assert len(metacognition.review_due(store, limit=1)["items"]) == 1


# --- migration from the MVP schema -----------------------------------------------------------

def test_migrating_an_mvp_database_keeps_every_row(make_store, tmp_path):
    path = str(tmp_path / "mvp.db")
    conn = sqlite3.connect(path)
    conn.executescript(MVP_SCHEMA_SQL)
    rows = [(f"id{i:03d}", ("project", "feature", "run")[i % 3], f"T{i % 4}", None, f"key{i}",
             f"memory {i} about 画布 canvas" if i % 2 else f"plain memory {i}",
             f"memory {i}", json.dumps([f"tag{i % 5}"]), "manual", 1.0 + i % 2, 1 + i % 3,
             f"2026-01-{1 + i % 28:02d}T00:00:00+00:00", f"2026-02-{1 + i % 28:02d}T00:00:00+00:00")
            for i in range(120)]
    conn.executemany("INSERT INTO memory_items VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", rows)
    conn.commit()
    conn.close()

    store = make_store(path)
    assert "001_memory_items" in store.migration["applied"] and store.migration["resegmented"] == 120
    items = {it["id"]: it for it in store.list(limit=1000)}
    assert len(items) == 120
    for row in rows:
        item = items[row[0]]
        assert (item["type"], item["task_id"], item["key"], item["content"], item["tags"], item["source"],
                item["weight"], item["version"], item["created_at"], item["updated_at"]) == \
            (row[1], row[2], row[4], row[5], json.loads(row[7]), row[8], row[9], row[10], row[11], row[12])
        assert item["confidence_level"] == "medium" and item["access_count"] == 0
        assert item["context_tags"] == [] and item["related_ids"] == []
    assert len(store.search("画布", limit=100)["items"]) == 60
    assert len(store.list(tags=["tag3"], limit=1000)) == 24
    triggers = {r[0] for r in store.conn.execute("SELECT name FROM sqlite_master WHERE type='trigger'")}
    assert not {"memory_ai", "memory_ad", "memory_au"} & triggers
    # the upgraded database takes every kind of write
    updated = store.put(item_id="id007", content="now about 画布 and jwt")
    assert updated["version"] == row_version(rows, "id007") + 1
    assert store.search("jwt")["items"][0]["id"] == "id007"
    assert store.put(type="run", content="no key needed now")["item"]["key"] is None
    store.delete("id008")
    assert store.conn.execute("SELECT count(*) FROM memory_fts").fetchone()[0] == 120
    assert make_store(path).migration == {"applied": [], "resegmented": 0}


def row_version(rows, item_id):
    return next(r[10] for r in rows if r[0] == item_id)
