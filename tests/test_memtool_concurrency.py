"""Concurrency as designed (docs/stores.md § memtool): WAL, IMMEDIATE write transactions, busy_timeout 5000.
Many processes writing different items never lose a write; writers of one id are serialized (last
writer wins, every write counts in the version); a lock held past the timeout is DB_ERROR, exit 4."""

from __future__ import annotations

import multiprocessing
import sqlite3
import time

from code_memory.memtool.store import MemoryStore
from memtool_support import clock, db_path, make_store, run_memtool, store  # noqa: F401 (fixtures)

PROCESSES = 6


def _write_own_items(db_path, worker, count, queue):
    with MemoryStore(db_path) as store:
        for i in range(count):
            store.put(type="run", task_id=f"T{worker}", step_id=f"S{i}", key="logs",
                      content=f"worker {worker} item {i}", auto_link=False)
    queue.put(worker)


def _update_one_id(db_path, item_id, worker, count, queue):
    results = []
    with MemoryStore(db_path) as store:
        for i in range(count):
            out = store.put(item_id=item_id, content=f"worker {worker} write {i}", auto_link=False)
            results.append((out["version"], out["item"]["content"]))
    queue.put(results)


def _upsert_one_key(db_path, worker, count, queue):
    with MemoryStore(db_path) as store:
        for i in range(count):
            store.put(type="feature", task_id="T1", key="contract", content=f"worker {worker} v{i}",
                      auto_link=False)
    queue.put(worker)


def _run(target, args_for):
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    procs = [ctx.Process(target=target, args=args_for(w) + (queue,)) for w in range(PROCESSES)]
    for p in procs:
        p.start()
    results = [queue.get(timeout=120) for _ in procs]
    for p in procs:
        p.join(timeout=60)
        assert p.exitcode == 0
    return results


def test_writers_of_different_items_lose_nothing(db_path):
    MemoryStore(db_path).close()
    _run(_write_own_items, lambda w: (db_path, w, 40))
    with MemoryStore(db_path) as store:
        items = store.list(limit=1000)
        assert len(items) == PROCESSES * 40
        assert {it["content"] for it in items} == {f"worker {w} item {i}" for w in range(PROCESSES) for i in range(40)}
        assert all(it["version"] == 1 for it in items)
        assert store.conn.execute("SELECT count(*) FROM memory_fts").fetchone()[0] == PROCESSES * 40


def test_same_id_last_writer_wins_and_every_write_counts(db_path):
    with MemoryStore(db_path) as store:
        item_id = store.put(type="feature", key="contract", content="v0")["id"]
    results = _run(_update_one_id, lambda w: (db_path, item_id, w, 20))
    versions = sorted(v for worker in results for v, _ in worker)
    assert versions == list(range(2, 2 + PROCESSES * 20))      # no version was handed out twice
    last_content = dict(v for worker in results for v in worker)[1 + PROCESSES * 20]
    with MemoryStore(db_path) as store:
        final = store.get(item_id, track=False)
    assert final["version"] == 1 + PROCESSES * 20 and final["content"] == last_content


def test_concurrent_upserts_of_one_logical_key_make_one_item(db_path):
    MemoryStore(db_path).close()
    _run(_upsert_one_key, lambda w: (db_path, w, 20))
    with MemoryStore(db_path) as store:
        items = store.list(key="contract")
    assert len(items) == 1 and items[0]["version"] == PROCESSES * 20


def test_lock_timeout_is_db_error_exit_4_with_retry_hint(db_path):
    MemoryStore(db_path).close()
    status, out, _ = run_memtool("put", "--type", "run", "--content", "first", db=db_path)
    item_id = out["id"]
    blocker = sqlite3.connect(db_path, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    try:
        started = time.monotonic()
        status, out, _ = run_memtool("put", "--type", "run", "--content", "blocked", db=db_path)
        waited = time.monotonic() - started
        # readers are not blocked by the writer (WAL), and their access bookkeeping never waits long
        read_started = time.monotonic()
        read_status, read_out, _ = run_memtool("get", "--id", item_id, db=db_path)
        read_time = time.monotonic() - read_started
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    assert status == 4 and waited >= 4.5
    assert out == {"ok": False, "error": "DB_ERROR", "message": "Database is locked (timeout after 5000ms)",
                   "hint": "Another process may be writing. Retry after a short delay.", "db": db_path}
    assert read_status == 0 and read_out["item"]["content"] == "first" and read_time < 4.0
    # after the lock is released the retry succeeds and nothing was half-written
    status, out, _ = run_memtool("put", "--type", "run", "--content", "blocked", db=db_path)
    assert status == 0
    status, out, _ = run_memtool("list", db=db_path)
    assert sorted(it["content"] for it in out["items"]) == ["blocked", "first"]
