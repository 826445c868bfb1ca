"""Helpers and fixtures for the memtool tests: the MVP schema, a settable clock, a store on a temp
database, a runner for the real ``scripts/memtool.py`` command line. Test modules import the
fixtures they use from here."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MEMTOOL = os.path.join(REPO, "scripts", "memtool.py")

# Same columns, indexes, FTS table and triggers as the MVP design (docs/stores.md § memtool): what a database
# created by the first memtool looks like.
MVP_SCHEMA_SQL = """
PRAGMA journal_mode=WAL;
CREATE TABLE memory_items (
  id TEXT PRIMARY KEY,
  type TEXT NOT NULL CHECK (type IN ('project','feature','run')),
  task_id TEXT,
  step_id TEXT,
  key TEXT NOT NULL,
  content TEXT NOT NULL,
  content_search TEXT NOT NULL DEFAULT '',
  tags_json TEXT NOT NULL DEFAULT '[]',
  source TEXT,
  weight REAL NOT NULL DEFAULT 1.0,
  version INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX idx_memory_type_key ON memory_items(type, key);
CREATE INDEX idx_memory_task_step ON memory_items(task_id, step_id);
CREATE INDEX idx_memory_updated ON memory_items(updated_at);
CREATE VIRTUAL TABLE memory_fts USING fts5(id, content_search, tokenize='unicode61');
CREATE TRIGGER memory_ai AFTER INSERT ON memory_items BEGIN
  INSERT INTO memory_fts(id, content_search) VALUES (new.id, new.content_search);
END;
CREATE TRIGGER memory_ad AFTER DELETE ON memory_items BEGIN
  DELETE FROM memory_fts WHERE id = old.id;
END;
CREATE TRIGGER memory_au AFTER UPDATE OF content, content_search ON memory_items BEGIN
  UPDATE memory_fts SET content_search = new.content_search WHERE id = new.id;
END;
"""


class Clock:
    """A settable UTC clock (and local clock for context extraction)."""

    def __init__(self, start=None):
        self.now = start or dt.datetime(2026, 3, 2, 10, 0, tzinfo=dt.timezone.utc)  # a Monday

    def __call__(self):
        return self.now

    def local(self):
        return self.now.replace(tzinfo=None)

    def advance(self, **delta):
        self.now += dt.timedelta(**delta)


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def db_path(tmp_path):
    return str(tmp_path / "mem.db")


@pytest.fixture
def make_store(db_path, clock):
    from code_memory.memtool.store import MemoryStore
    opened = []

    def factory(path=None, **kwargs):
        kwargs.setdefault("clock", clock)
        kwargs.setdefault("local_clock", clock.local)
        store = MemoryStore(path or db_path, **kwargs)
        opened.append(store)
        return store

    yield factory
    for store in opened:
        store.close()


@pytest.fixture
def store(make_store):
    return make_store()


def run_memtool(*args, db=None, input=None, env=None, timeout=60, cwd=None):
    """Run the real command line; returns (exit status, parsed JSON or raw stdout, stderr)."""
    full_env = dict(os.environ)
    if env:
        full_env.update(env)
    cmd = [sys.executable, MEMTOOL] + (["--db", db] if db else []) + list(args)
    proc = subprocess.run(cmd, input=input, capture_output=True, text=True, timeout=timeout, env=full_env,
                          cwd=cwd)
    try:
        out = json.loads(proc.stdout)
    except ValueError:
        out = proc.stdout
    return proc.returncode, out, proc.stderr
