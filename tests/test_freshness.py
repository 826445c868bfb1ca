"""The index stays fresh without walking the tree (search/freshness.py, journal.py, search/watch.py):
the change journal fsutil writes, the directory-mtime check, the watcher, the sweep when due — and
what none of them sees (an edit in place by another program, until the next sweep)."""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys

from code_memory import journal
from code_memory.fsutil import atomic_write_text, locked_append
from code_memory.search.engine import SearchOptions, ensure_index, run_query
from code_memory.search.freshness import catch_up, refresh, sweep_due
from code_memory.search.index import Source
from conftest import SCRIPTS, write_file


def _found(db, word) -> list:
    answer = run_query(db, word, "bm25", SearchOptions(), "all", None, None)
    return [hit["rel_path"] for hit in answer["results"]]


def _age_dirs(db):
    """Recorded directory mtimes as if the last look were long ago (not racy any more)."""
    for path, in db.conn.execute("SELECT path FROM dirs").fetchall():
        db.conn.execute("UPDATE dirs SET mtime_ns = ? WHERE path = ?", (os.stat(path).st_mtime_ns, path))
    db.conn.commit()


def test_the_journal_notes_what_code_memory_writes(initialized_root):
    root = initialized_root.root
    shutil.rmtree(initialized_root.index_dir, ignore_errors=True)
    note = os.path.join(root, "sessions", "j1.md")
    atomic_write_text(note, "# one\n")                 # no .index/ yet: nothing noted
    assert not os.path.exists(journal.journal_path(root))
    os.makedirs(initialized_root.index_dir, exist_ok=True)
    atomic_write_text(note, "# two\n")
    locked_append(os.path.join(root, "daily", "2026-01-01.md"), "- line\n")
    locked_append(os.path.join(root, "logs", "x.jsonl"), "{}\n")            # never indexed: not noted
    atomic_write_text(os.path.join(root, "evolution", "state.json"), "{}")
    paths, end, size = journal.read(root, 0)
    assert paths == [note, os.path.join(root, "daily", "2026-01-01.md")] and end == size
    assert journal.read(root, end)[0] == []
    assert journal.truncate_consumed(root, end) == end          # small: kept
    assert journal.truncate_consumed(root, journal.TRUNCATE_AT) == journal.TRUNCATE_AT   # not all consumed


def test_catch_up_finds_changes_without_a_walk(initialized_root):
    root = initialized_root.root
    write_file(root, "areas/projects/alpha/rules.md", "# alpha\n\n## SQL\n- bind parameters\n")
    write_file(root, "sessions/old.md", "# old\n\n## gone\nobsoletenote content\n")
    write_file(root, "areas/projects/beta/rules.md", "# beta\n\n## ORM\n- betaonly rule\n")
    handle = ensure_index(initialized_root.index_db, [Source(root)], SearchOptions())
    db, sources = handle.db, [Source(root)]
    assert sweep_due(db, sources, 300) is None and sweep_due(db, sources, 0)
    assert sweep_due(db, [Source(root), Source(os.path.join(root, "x"), "workspace", "w")], 300)
    _age_dirs(db)
    assert catch_up(db, sources)["changed"] == 0                         # nothing to do, no write lock

    locked_append(os.path.join(root, "areas/projects/alpha/rules.md"), "- journalword appended\n")   # in place
    write_file(root, "sessions/new.md", "# new\n\n## made by hand\nhandmadeword\n")                  # created by hand
    os.unlink(os.path.join(root, "sessions/old.md"))                                             # deleted by hand
    write_file(root, "areas/projects/gamma/rules.md", "# gamma\n\n## new dir\ngammaword\n")          # a new directory
    os.unlink(os.path.join(root, "areas/projects/beta/rules.md"))
    os.rmdir(os.path.join(root, "areas/projects/beta"))                                          # a gone directory
    stats = catch_up(db, sources)
    assert stats["journal"] == 1 and stats["added"] == 2 and stats["updated"] == 1 and stats["deleted"] == 2
    assert _found(db, "journalword") == ["areas/projects/alpha/rules.md"]
    assert _found(db, "handmadeword") == ["sessions/new.md"]
    assert _found(db, "gammaword") == ["areas/projects/gamma/rules.md"]
    assert _found(db, "obsoletenote") == [] and _found(db, "betaonly") == []
    assert not db.conn.execute("SELECT 1 FROM dirs WHERE path LIKE '%/beta'").fetchone()

    _age_dirs(db)
    tmp = os.path.join(root, "sessions/.new.md.swp")                  # saved by rename, as vim does
    write_file(root, "sessions/.new.md.swp", "# new\n\n## made by hand\nrenamedword\n")
    os.replace(tmp, os.path.join(root, "sessions/new.md"))
    write_file(root, "sessions/new.md", "# new\n\n## made by hand\nrenamedword\ninplaceword\n")   # then in place
    assert catch_up(db, sources)["updated"] == 1 and _found(db, "renamedword") == ["sessions/new.md"]
    _age_dirs(db)
    write_file(root, "sessions/new.md", "# new\n\n## made by hand\nsecondinplace\n")
    catch_up(db, sources)
    assert _found(db, "secondinplace") == []          # an edit in place by another program: the limit
    refresh(db, sources)                              # … which the sweep closes
    assert _found(db, "secondinplace") == ["sessions/new.md"]
    db.close()


def test_searches_catch_up_and_sweep_when_due(initialized_root):
    root = initialized_root.root
    write_file(root, "sessions/a.md", "# a\n\n## x\nfirstword\n")
    handle = ensure_index(initialized_root.index_db, [Source(root)], SearchOptions())
    assert handle.report["rebuilt"] == "index was missing"
    handle.db.close()
    write_file(root, "sessions/a.md", "# a\n\n## x\nsecondword\n")          # in place, by hand
    handle = ensure_index(initialized_root.index_db, [Source(root)], SearchOptions())
    assert "sweep" not in handle.report.get("refresh", {}) and _found(handle.db, "secondword") == []
    handle.db.close()
    handle = ensure_index(initialized_root.index_db, [Source(root)], SearchOptions(sweep_seconds=0))
    assert handle.report["refresh"]["sweep"] and _found(handle.db, "secondword") == ["sessions/a.md"]
    handle.db.close()


def test_the_watcher_sees_edits_in_place_and_new_directories(tmp_path):
    from code_memory.search.watch import open_watcher

    watcher = open_watcher(lambda d: not os.path.basename(d).startswith("."))
    if watcher is None:
        import pytest
        pytest.skip("inotify is not available here")
    top = tmp_path / "w"
    (top / "a").mkdir(parents=True)
    (top / "a" / "n.md").write_text("x")
    watcher.watch_tree(str(top), root=True)
    with open(top / "a" / "n.md", "a") as fh:
        fh.write("more")
    (top / "b").mkdir()
    assert {str(top / "a" / "n.md"), str(top / "b")} <= watcher.drain()
    (top / "b" / "m.md").write_text("y")              # the new directory is watched already
    (top / ".hidden.tmp").write_text("z")
    assert watcher.drain() == {str(top / "b" / "m.md")}
    os.rename(top, tmp_path / "moved")
    watcher.drain()
    assert watcher.gone_roots == {str(top)}
    watcher.close()


def test_a_full_disk_never_fails_a_write_or_a_search(initialized_root):
    """Real limits, no mocks: RLIMIT_FSIZE makes writes past a size fail with EFBIG, as ENOSPC does."""
    root = initialized_root.root
    write_file(root, "sessions/a.md", "# a\n\n## x\ndiskword\n")
    ensure_index(initialized_root.index_db, [Source(root)], SearchOptions()).db.close()
    with open(journal.journal_path(root), "a") as fh:       # a journal already past the limit
        fh.write("/x\n" * 3000)
    code = ("import sys; sys.path.insert(0, sys.argv[1]); from code_memory.fsutil import atomic_write_text; "
            "from code_memory.paths import MemoryPaths; MemoryPaths(sys.argv[2]); "
            "atomic_write_text(sys.argv[2] + '/sessions/b.md', '# b\\n\\n## y\\nfullword\\n'); print('written')")

    def limit():
        import signal
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

    out = subprocess.run([sys.executable, "-c", code, SCRIPTS, root], capture_output=True, text=True, preexec_fn=limit)
    assert out.stdout.strip() == "written", out.stderr       # the note is written, the journal append failed
    assert "sessions/b.md" not in open(journal.journal_path(root)).read()
    search = subprocess.run([sys.executable, os.path.join(SCRIPTS, "memory-search.py"), "diskword", "--mode", "bm25",
                             "--scope", "project"], capture_output=True, text=True, preexec_fn=limit,
                            env={**os.environ, "CODE_MEMORY_INDEX__SWEEP_SECONDS": "0"})
    import json
    answer = json.loads(search.stdout)
    assert answer["ok"], answer
    assert answer["ok"] and [h["rel_path"] for h in answer["results"]] == ["sessions/a.md"]
    assert "cannot be written" in answer["index"]["read_only"]
