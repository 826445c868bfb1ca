"""Ranking, recommend and lifecycle (docs/stores.md § memtool): confidence, forgetting-curve recency with per-type
half-lives, mixed score, --sort-by, recommend with reasons, is_stale, cleanup."""

from __future__ import annotations

import datetime as dt
import math

import pytest

from code_memory.memtool import ranking, recall
from code_memory.memtool.errors import MemtoolError
from memtool_support import clock, db_path, make_store, store  # noqa: F401 (fixtures)

NOW = dt.datetime(2026, 3, 2, 10, 0, tzinfo=dt.timezone.utc)


def _ago(days):
    return (NOW - dt.timedelta(days=days)).isoformat()


def test_confidence_scores():
    assert [ranking.confidence_score(x) for x in ("high", "medium", "low", None, "HIGH", "odd")] == \
        [1.0, 0.6, 0.3, 0.6, 1.0, 0.6]


@pytest.mark.parametrize("item_type,half_life", [("run", 14), ("feature", 180), ("project", 365)])
def test_decay_halves_at_the_half_life(item_type, half_life):
    assert ranking.decay_score(_ago(half_life), item_type, NOW) == pytest.approx(0.5)
    assert ranking.decay_score(_ago(2 * half_life), item_type, NOW) == pytest.approx(0.25)
    assert ranking.decay_score(_ago(0), item_type, NOW) == 1.0
    expected = math.exp(-math.log(2) * 10 / half_life)
    assert ranking.decay_score(_ago(10), item_type, NOW) == pytest.approx(expected)


def test_adaptive_half_life_triples_at_full_consolidation():
    assert ranking.adaptive_half_life("run", 0.0) == 14
    assert ranking.adaptive_half_life("run", 0.5) == 28
    assert ranking.adaptive_half_life("run", 1.0) == 42
    assert ranking.decay_score(_ago(42), "run", NOW, consolidation=1.0) == pytest.approx(0.5)


def test_mixed_score_and_staleness():
    item = {"type": "run", "confidence_level": "high", "updated_at": _ago(14), "consolidation_score": 0}
    scores = ranking.scores(item, NOW)
    assert scores["mixed_score"] == pytest.approx(0.6 * 1.0 + 0.4 * 0.5)
    assert scores["half_life_days"] == 14 and scores["age_days"] == pytest.approx(14)
    # decay <= 0.2  <=>  age >= half_life * log2(5) ~ 32.5 days for a run
    assert ranking.scores(dict(item, updated_at=_ago(32)), NOW)["is_stale"] is False
    assert ranking.scores(dict(item, updated_at=_ago(33)), NOW)["is_stale"] is True
    assert ranking.scores(dict(item, updated_at=_ago(33), consolidation_score=0.5), NOW)["is_stale"] is False


def test_consolidation_formula():
    value = ranking.compute_consolidation(9, _ago(73), _ago(180), NOW)
    expected = 0.5 * math.log(10) / math.log(100) + 0.2 * (73 / 365) + 0.3 * 0.5
    assert value == pytest.approx(expected)
    assert ranking.compute_consolidation(10 ** 6, _ago(10 ** 4), _ago(0), NOW) == pytest.approx(1.0)
    assert ranking.compute_consolidation(0, _ago(0), _ago(10 ** 5), NOW) == pytest.approx(0.0)


def _seed(store, clock):
    """old-high (run, 20 d), fresh-low (run), mid-medium (feature, 90 d)."""
    start = clock.now
    clock.now = start - dt.timedelta(days=20)
    old = store.put(type="run", key="old", content="old high confidence", confidence="high")["id"]
    clock.now = start - dt.timedelta(days=90)
    mid = store.put(type="feature", key="mid", content="medium feature")["id"]
    clock.now = start
    fresh = store.put(type="run", key="fresh", content="fresh low confidence", confidence="low")["id"]
    return old, mid, fresh


def test_sort_by(store, clock):
    old, mid, fresh = _seed(store, clock)
    ids = lambda sort_by: [it["id"] for it in store.list(sort_by=sort_by)]
    assert ids("updated") == [fresh, old, mid]
    assert ids("confidence") == [old, mid, fresh]
    assert ids("recency") == [fresh, mid, old]          # run 20 d → 0.37; feature 90 d → 0.71
    # mixed: old 0.6+0.4*0.371=0.748, mid 0.36+0.4*0.707=0.643, fresh 0.18+0.4=0.58
    assert ids("mixed") == [old, mid, fresh]
    assert [it["id"] for it in store.search("confidence", sort_by="confidence")["items"]] == [old, fresh]
    with pytest.raises(MemtoolError):
        store.list(sort_by="random")


def test_exclude_stale(store, clock):
    clock.advance(days=-40)
    stale = store.put(type="run", content="ancient run log")["id"]
    clock.advance(days=40)
    fresh = store.put(type="run", content="recent run log")["id"]
    assert {it["id"] for it in store.list()} == {stale, fresh}
    assert [it["id"] for it in store.list(include_stale=False)] == [fresh]
    assert [it["id"] for it in store.search("log", include_stale=False)["items"]] == [fresh]


def test_recommend_recall_scores_and_reasons(store, clock):
    clock.advance(days=-60)
    store.put(type="run", task_id="T1", key="old", content="redis timeout long ago")  # stale run
    clock.advance(days=60)
    ctx = store.put(type="feature", task_id="T1", key="contract.login", content="redis timeout retry policy",
                    confidence="high", weight=2)["id"]
    other = store.put(type="feature", task_id="T1", key="contract.audit", content="audit log format")["id"]
    store.put(type="feature", task_id="T2", key="contract.x", content="unrelated task")
    out = recall.recommend(store, context="redis timeout", task_id="T1")
    ids = [it["id"] for it in out["items"]]
    assert ids == [ctx, other]                      # T2 not recalled, the stale run left out
    top = out["items"][0]
    assert top["recommend_reasons"] == ["context_match", "high_confidence", "recent", "high_weight"]
    relevance = 2 / 4                               # {redis, timeout} vs {redis, timeout, retry, policy}
    assert top["relevance"] == pytest.approx(relevance)
    assert top["recommend_score"] == pytest.approx((0.5 * relevance + 0.3 * 1.0 + 0.2 * 1.0) * 2)
    assert top["matched_keywords"] == ["redis", "timeout"]
    assert out["items"][1]["recommend_reasons"] == ["recent"]
    with_stale = recall.recommend(store, task_id="T1", include_stale=True)
    assert len(with_stale["items"]) == 3
    by_prefix = recall.recommend(store, key_prefix="contract.a")
    assert [it["id"] for it in by_prefix["items"]] == [other]


def test_recommend_recalls_by_context_without_filters(store):
    for i in range(5):
        store.put(type="run", content=f"unrelated note {i}")
    hit = store.put(type="project", key="pool", content="connection pool exhaustion explained")["id"]
    out = recall.recommend(store, context="pool exhaustion", limit=1)
    assert out["items"][0]["id"] == hit and "context_match" in out["items"][0]["recommend_reasons"]


def test_cleanup_is_a_dry_run_unless_applied(store, clock):
    clock.advance(days=-40)
    stale_run = store.put(type="run", content="old run")["id"]
    old_feature = store.put(type="feature", content="old feature")["id"]
    clock.advance(days=40)
    store.put(type="run", content="new run")
    dry = store.cleanup()
    assert dry["dry_run"] is True and dry["deleted"] == 0
    assert [c["id"] for c in dry["candidates"]] == [stale_run] and dry["candidates"][0]["reasons"] == ["stale"]
    assert len(store.list()) == 3
    older = store.cleanup(older_than_days=30)
    assert {c["id"] for c in older["candidates"]} == {stale_run, old_feature}
    assert store.cleanup(type="feature", older_than_days=30)["count"] == 1
    applied = store.cleanup(apply=True)
    assert applied["deleted"] == 1 and len(store.list()) == 2
    with pytest.raises(MemtoolError):
        store.cleanup(stale_threshold=2)
