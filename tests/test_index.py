import hashlib
import os

import pytest

from code_memory.search.engine import SearchOptions, ensure_index, run_query
from code_memory.search.freshness import refresh
from code_memory.search.index import Plan, Source, _LazySegmenter, apply_plan, discover, open_index
from conftest import write_file


@pytest.fixture
def tree(initialized_root):
    root = initialized_root.root
    write_file(root, "areas/projects/alpha/rules.md", "# alpha rules\n\n## SQL\n- never concatenate SQL strings\n")
    write_file(root, "areas/projects/beta/rules.md", "# beta rules\n\n## SQL\n- beta uses an ORM for SQL\n")
    write_file(root, "areas/tools/git/summary.md", "# git\n\n## Rebase\nprefer rebase over merge for feature branches\n")
    write_file(root, "sessions/s1.md", "# 会话摘要: s1\n\n- **项目**: alpha\n\n---\n\n1. **主题**: 数据库连接池调优\n")
    return initialized_root


def _tree_digest(root):
    h = hashlib.sha256()
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d != ".index")
        for f in sorted(filenames):
            p = os.path.join(dirpath, f)
            h.update(p.encode())
            with open(p, "rb") as fh:
                h.update(fh.read())
    return h.hexdigest()


def _open(paths, **kw):
    return ensure_index(paths.index_db, [Source(paths.root)], SearchOptions(**kw))


def test_incremental_reindex(tree):
    h = _open(tree)
    assert h.report["rebuilt"] == "index was missing"
    first = h.report["refresh"]
    assert first["added"] >= 4
    stats = refresh(h.db, [Source(tree.root)])
    assert stats["added"] == stats["updated"] == stats["deleted"] == 0 and stats["unchanged"] == first["added"]
    rules = os.path.join(tree.root, "areas/projects/alpha/rules.md")
    os.utime(rules, ns=(1, 1))                     # touched, same content → mtime refreshed only
    stats = refresh(h.db, [Source(tree.root)])
    assert stats["updated"] == 0 and stats["chunks_added"] == 0
    write_file(tree.root, "areas/projects/alpha/rules.md", "# alpha rules\n\n## SQL\n- use bind parameters\n")
    stats = refresh(h.db, [Source(tree.root)])
    assert stats["updated"] == 1
    os.unlink(os.path.join(tree.root, "areas/tools/git/summary.md"))
    stats = refresh(h.db, [Source(tree.root)])
    assert stats["deleted"] == 1
    assert not run_query(h.db, "rebase", "bm25", SearchOptions(), "all", None, None)["results"]
    assert run_query(h.db, "bind parameters", "bm25", SearchOptions(), "all", None, None)["results"]


def test_bad_files_are_skipped_and_reported(tree):
    write_file(tree.root, "notes/binary.md", "abc\x00def")
    write_file(tree.root, "notes/latin1.md", b"# caf\xe9\n\nbad \xff bytes\n".decode("latin-1"), mode="w")
    with open(os.path.join(tree.root, "notes/latin1.md"), "wb") as fh:
        fh.write(b"# caf\xe9\n\nbad \xff bytes and words\n")
    write_file(tree.root, "areas/projects/alpha/facts.json", "{not json")
    h = _open(tree)
    reasons = {s["path"]: s["reason"] for s in h.report["refresh"]["skipped"]}
    assert reasons["notes/binary.md"] == "binary file"
    assert "invalid UTF-8" in reasons["notes/latin1.md"]
    assert "not valid JSON" in reasons["areas/projects/alpha/facts.json"]
    assert run_query(h.db, "bytes words", "bm25", SearchOptions(), "all", None, None)["results"]


def test_file_deleted_during_indexing(tree):
    db = open_index(tree.index_db)
    db.set_meta("segmenter", "bigram")
    entries, _ = discover(Source(tree.root))
    victim = entries[0]
    os.unlink(victim.path)
    plan = Plan(new=entries)
    skipped, stats = [], {"added": 0, "updated": 0, "deleted": 0, "unchanged": 0, "chunks_added": 0, "chunks_deleted": 0}
    apply_plan(db, plan, 40, 2_000_000, _LazySegmenter("bigram", None), skipped, stats)
    assert {"path": victim.rel_path, "reason": "deleted during indexing"} in skipped
    assert stats["added"] == len(entries) - 1


def test_corrupted_and_missing_index_are_rebuilt(tree):
    h = _open(tree)
    h.db.close()
    with open(tree.index_db, "r+b") as fh:
        fh.seek(0)
        fh.write(b"this is not a sqlite database at all" * 100)
    for suffix in ("-wal", "-shm"):
        if os.path.exists(tree.index_db + suffix):
            os.unlink(tree.index_db + suffix)
    h = _open(tree)
    assert "corrupted" in h.report["rebuilt"]
    assert run_query(h.db, "concatenate", "bm25", SearchOptions(), "all", None, None)["results"]
    h.db.close()
    os.unlink(tree.index_db)
    h = _open(tree)
    assert h.report["rebuilt"] == "index was missing"


def test_like_fallback_without_fts5(tree):
    db = open_index(tree.index_db, use_fts=False)
    db.set_meta("segmenter", "bigram")
    db.conn.commit()
    refresh(db, [Source(tree.root)])
    assert not db.fts
    ans = run_query(db, "concatenate SQL", "bm25", SearchOptions(), "all", None, None)
    assert ans["results"][0]["path"].endswith("alpha/rules.md")
    assert "LIKE" in ans["degraded"]["fts"]
    assert run_query(db, "数据库", "bm25", SearchOptions(), "all", None, None)["results"]
    assert run_query(db, "100%_off", "bm25", SearchOptions(), "all", None, None)["ok"]


def test_scope_isolation(tree):
    h = _open(tree)
    opts = SearchOptions(top_k=10)
    alpha = run_query(h.db, "SQL", "bm25", opts, "project", "alpha", None)["results"]
    assert {r["project"] for r in alpha} == {"alpha"}
    beta = run_query(h.db, "SQL rebase", "bm25", opts, "project", "beta", None)["results"]
    assert {r["project"] for r in beta} <= {"beta", None}
    assert any(r["path"].endswith("git/summary.md") for r in beta)           # global memory is shared
    assert any(r["project"] == "alpha" for r in run_query(h.db, "SQL", "bm25", opts, "all", None, None)["results"])
    assert run_query(h.db, "连接池", "bm25", opts, "project", "alpha", None)["results"]
    assert not run_query(h.db, "连接池", "bm25", opts, "project", "beta", None)["results"]


@pytest.mark.parametrize("query", [
    "what is the SQL rule?", '"unbalanced', "AND OR NOT NEAR", "SQL AND NOT", "*", "-SQL", "col:SQL",
    "(SQL", "SQL*", "?!.,;", "x" * 100_000, "数据库？", "NEAR(SQL concatenate, 2)",
])
def test_hostile_queries_never_fail(tree, query):
    h = _open(tree)
    before = _tree_digest(tree.root)
    ans = run_query(h.db, query, "bm25", SearchOptions(), "all", None, None)
    assert ans["ok"] is True
    if "SQL" in query and "x" not in query:
        assert ans["results"], query      # questions and operators are plain words, OR-ed
    assert _tree_digest(tree.root) == before


def test_punctuation_only_query_has_no_terms(tree):
    h = _open(tree)
    ans = run_query(h.db, "?!.,;", "bm25", SearchOptions(), "all", None, None)
    assert ans["results"] == [] and ans["note"]


def test_kv_keys_are_indexed_but_quarantined_ones_are_not(initialized_root):
    from code_memory.search.index import classify
    src = Source(initialized_root.root)
    assert classify(src, os.path.join("kv", "index", "user", "pref@1a2b3c4d.json")) == ("kv", "kv", None)
    assert classify(src, os.path.join("kv", "index", "untrusted", "web", "page@1a2b3c4d.json")) is None
    assert classify(src, os.path.join("kv", "log.jsonl")) is None
