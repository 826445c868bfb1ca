"""The search index: ``<root>/.index/search.sqlite`` (WAL), derived from the memory files.

Schema changes are named migrations recorded in the ``migrations`` table. Indexing is incremental:
a file whose mtime and size are unchanged is skipped without being read; a file whose content hash
is unchanged only has its mtime refreshed; deleted files are dropped. Planning what changed is
separate from applying it. A missing, corrupted or incompatible index is rebuilt from the files.

Lexical data lives in the FTS5 table ``chunks_fts(heading, title, body)`` (porter + unicode61) whose
``body`` is the chunk text with every Han run replaced by its segmented words (see segment.py).
Without FTS5 the same chunks are searched with LIKE.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import sqlite3
from dataclasses import dataclass, field

from .. import migrations
from ..errors import CodeMemoryError
from ..fsutil import NotRegularFile, note_odd, open_regular
from ..text.segment import Segmenter, get_segmenter, has_cjk

SCHEMA_VERSION = "1"

TABLES = [
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)",
    """CREATE TABLE documents (
        doc_id INTEGER PRIMARY KEY,
        path TEXT NOT NULL UNIQUE,
        rel_path TEXT NOT NULL,
        source TEXT NOT NULL,
        workspace_id TEXT,
        kind TEXT NOT NULL,
        category TEXT NOT NULL,
        mtime_ns INTEGER NOT NULL,
        size INTEGER NOT NULL,
        sha256 TEXT NOT NULL,
        indexed_at TEXT NOT NULL)""",
    """CREATE TABLE chunks (
        chunk_id INTEGER PRIMARY KEY,
        doc_id INTEGER NOT NULL REFERENCES documents(doc_id) ON DELETE CASCADE,
        ordinal INTEGER NOT NULL,
        start_line INTEGER NOT NULL,
        end_line INTEGER NOT NULL,
        heading TEXT NOT NULL,
        title TEXT NOT NULL,
        category TEXT NOT NULL,
        project TEXT,
        workspace_id TEXT,
        text TEXT NOT NULL,
        digest TEXT NOT NULL)""",
    "CREATE INDEX chunks_doc ON chunks(doc_id)",
    "CREATE INDEX chunks_project ON chunks(project)",
    "CREATE INDEX chunks_workspace ON chunks(workspace_id)",
    "CREATE INDEX chunks_digest ON chunks(digest)",
    """CREATE TABLE vectors (
        digest TEXT NOT NULL,
        model TEXT NOT NULL,
        dim INTEGER NOT NULL,
        vec BLOB NOT NULL,
        PRIMARY KEY (digest, model)) WITHOUT ROWID""",
]

FTS_TOKENIZE = "porter unicode61 remove_diacritics 2"
FTS_DDL = f"CREATE VIRTUAL TABLE chunks_fts USING fts5(heading, title, body, tokenize='{FTS_TOKENIZE}')"

# memory-root directories that are never indexed (derived data, logs, audit trails)
EXCLUDED_TOP = {"logs", "evolution", "kv", ".index"}


class IndexCorrupted(Exception):
    pass


# ---------------------------------------------------------------------------------------------
# sources and files

@dataclass(frozen=True)
class Source:
    """A directory tree whose memory files are indexed: the memory root or a workspace."""

    root: str
    kind: str = "memory"          # "memory" | "workspace"
    workspace_id: str | None = None

    @property
    def label(self) -> str:
        return "memory" if self.kind == "memory" else f"workspace:{self.workspace_id}"

    @classmethod
    def of_workspace(cls, ws) -> "Source":
        """The source of a registered workspace (:class:`code_memory.workspace.registry.Workspace`)."""
        return cls(ws.root, "workspace", ws.id)


@dataclass
class FileEntry:
    path: str
    rel_path: str
    kind: str          # markdown | daily | facts | kv
    category: str
    project: str | None
    source: Source
    mtime_ns: int = 0
    size: int = 0
    ino: int = 0


def classify(source: Source, rel: str) -> tuple | None:
    """(kind, category, project) for a file of a source, or None when it is not indexed."""
    parts = rel.split(os.sep)
    name = parts[-1]
    if any(p.startswith(".") for p in parts):
        return None
    if source.kind == "workspace":
        if len(parts) == 2 and parts[0] == "memory" and name.endswith(".md"):
            return "markdown", "workspace", None
        return None
    top = parts[0]
    if top == "kv":
        # quarantined keys (/untrusted/…, writes without provenance) never reach search results
        if len(parts) >= 3 and parts[1] == "index" and name.endswith(".json") and parts[2] != "untrusted":
            return "kv", "kv", None
        return None
    if top in EXCLUDED_TOP:
        return None
    if top == "areas" and len(parts) >= 4 and parts[1] in ("projects", "patterns", "tools"):
        area_kind, area_name = parts[1], parts[2]
        project = area_name if area_kind == "projects" else None
        category = {"projects": "project", "patterns": "pattern", "tools": "tool"}[area_kind]
        if name == "facts.json":
            return "facts", "fact", project
        if name.endswith(".md"):
            return "markdown", category, project
        return None
    if not name.endswith(".md"):
        return None
    if len(parts) == 1:
        return "markdown", "memory" if name == "MEMORY.md" else "other", None
    if top == "daily":
        return "daily", "daily", None
    if top == "sessions":
        return "markdown", "session", None
    if top == "rules":
        return "markdown", "rules", None
    if top == "projects":
        return "markdown", "schema", None
    return "markdown", "other", None


def discover(source: Source, dirs: list | None = None, under: str = "") -> tuple:
    """Walk a source without following directory symlinks. Returns (entries, skipped).

    ``dirs``: a list that receives ``(directory, source label, mtime_ns)`` of every directory walked (the
    directory-mtime check of search/freshness.py); ``under``: walk only this directory of the
    source (relative to its root)."""
    entries, skipped = [], []
    root = os.path.realpath(source.root)
    if not os.path.isdir(root):
        return entries, skipped
    stack = [(under, os.path.join(root, under) if under else root)]
    while stack:
        rel_dir, dirpath = stack.pop()
        try:
            if dirs is not None:
                dirs.append((dirpath, source.label, os.stat(dirpath).st_mtime_ns))
            scan = sorted(os.scandir(dirpath), key=lambda d: d.name)
        except OSError:
            continue
        for item in scan:
            name = item.name
            if name.startswith("."):
                continue
            rel = f"{rel_dir}{os.sep}{name}" if rel_dir else name
            try:
                if item.is_dir(follow_symlinks=False):
                    if walked_dir(source, rel):
                        stack.append((rel, item.path))
                    continue
                entry = file_entry(source, root, rel, item.path, item.is_symlink(), item.stat, skipped)
            except FileNotFoundError:
                continue
            if entry is not None:
                entries.append(entry)
    return entries, skipped


def walked_dir(source: Source, rel: str) -> bool:
    """Is the directory ``rel`` of ``source`` walked at all? Never a hidden one; in a memory root not
    logs/, evolution/, .index/; in a workspace (a project directory) only its ``memory/``, the one
    place :func:`classify` takes files from."""
    parts = rel.split(os.sep)
    if any(p.startswith(".") for p in parts):
        return False
    if source.kind == "workspace":
        return parts == ["memory"]
    return not (len(parts) == 1 and parts[0] in EXCLUDED_TOP and parts[0] != "kv")


def file_entry(source: Source, real_root: str, rel: str, path: str, is_link: bool, stat, skipped: list):
    """The :class:`FileEntry` of the file ``rel`` of ``source`` (``path`` = ``real_root``/``rel``),
    or None when it is not indexed (``skipped`` hears about a symlink that leads outside)."""
    info = classify(source, rel)
    if info is None:
        return None
    if is_link:
        real = os.path.realpath(path)
        if not real.startswith(real_root + os.sep):
            skipped.append({"path": rel, "reason": "symlink outside the root"})
            try:
                target_mode = os.stat(path).st_mode
            except OSError:
                return None
            note_odd(path, target_mode)                  # e.g. /dev/zero: said, like a FIFO
            return None
    st = stat()
    odd = note_odd(path, st.st_mode)       # a FIFO or a device would stall the read: skipped, said
    if odd:
        skipped.append({"path": rel, "reason": f"not a regular file ({odd})"})
        return None
    kind, category, project = info
    return FileEntry(path, rel, kind, category, project, source, st.st_mtime_ns, st.st_size, st.st_ino)


# ---------------------------------------------------------------------------------------------
# the database

def _connect(path: str, readonly: bool = False, busy_ms: int = 5000, immutable: bool = False) -> sqlite3.Connection:
    if immutable:     # a read-only directory: no -shm/-wal can be made, nobody can be writing
        conn = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True, timeout=busy_ms / 1000)
    elif readonly:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=busy_ms / 1000)
    else:
        conn = sqlite3.connect(path, timeout=busy_ms / 1000)
    conn.execute(f"PRAGMA busy_timeout={int(busy_ms)}")
    conn.execute("PRAGMA foreign_keys=ON")
    return conn


def fts5_available() -> bool:
    conn = sqlite3.connect(":memory:")
    try:
        conn.execute("CREATE VIRTUAL TABLE t USING fts5(a)")
        return True
    except sqlite3.OperationalError:
        return False
    finally:
        conn.close()


class IndexDB:
    """An open index. Use :func:`open_index`."""

    def __init__(self, path: str, conn: sqlite3.Connection):
        self.path = path
        self.conn = conn

    def meta(self, key: str, default=None):
        row = self.conn.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return row[0] if row else default

    def set_meta(self, key: str, value) -> None:
        self.conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, str(value)))

    @property
    def fts(self) -> bool:
        return self.meta("fts") == "1"

    @property
    def segmenter_name(self) -> str:
        return self.meta("segmenter", "bigram")

    def counts(self) -> dict:
        c = self.conn
        return {
            "documents": c.execute("SELECT count(*) FROM documents").fetchone()[0],
            "chunks": c.execute("SELECT count(*) FROM chunks").fetchone()[0],
            "vectors": dict(c.execute("SELECT model, count(*) FROM vectors GROUP BY model").fetchall()),
        }

    def close(self) -> None:
        self.conn.close()


def _now() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")


def _migrations(use_fts: bool | None) -> list:
    """The index's named migrations; ``use_fts`` None: FTS5 if this SQLite has it."""
    def m001_initial(conn) -> None:
        for statement in TABLES:
            conn.execute(statement)
        fts = fts5_available() if use_fts is None else use_fts
        conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('fts', ?)", ("1" if fts else "0",))
        if fts:
            conn.execute(FTS_DDL)
        conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('schema_version', ?)", (SCHEMA_VERSION,))
        conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('created_at', ?)", (_now(),))

    def m002_daily_session_projects(conn) -> None:
        # the summarizer's session entries in daily notes now carry their project (chunking.daily_entries):
        # re-read every daily note on the next refresh
        conn.execute("UPDATE documents SET mtime_ns = 0, sha256 = '' WHERE kind = 'daily'")

    def m003_directories(conn) -> None:
        # the directory-mtime check (search/freshness.py): every directory a sweep walked, and each
        # document's inode (a file replaced by rename under the same name is seen in its directory)
        conn.execute("CREATE TABLE dirs (path TEXT PRIMARY KEY, source TEXT NOT NULL, mtime_ns INTEGER NOT NULL)")
        conn.execute("ALTER TABLE documents ADD COLUMN ino INTEGER")

    return [("m001_initial", m001_initial), ("m002_daily_session_projects", m002_daily_session_projects),
            ("m003_directories", m003_directories)]


def _migrate(conn: sqlite3.Connection, use_fts: bool | None) -> list:
    return migrations.apply(conn, _migrations(use_fts))


def index_writable(path: str) -> bool:
    """Can the index at ``path`` be created, updated or replaced (its directory writable)?"""
    folder = os.path.dirname(os.path.abspath(path))
    while not os.path.isdir(folder):
        parent = os.path.dirname(folder)
        if parent == folder:
            return False
        folder = parent
    return os.access(folder, os.W_OK) and (not os.path.exists(path) or os.access(path, os.W_OK))


def open_read_only(path: str, use_fts: bool | None = None) -> tuple:
    """``(IndexDB, how)`` for a memory root that cannot be written: the index file as it is
    (``how`` = "as is"), or — missing or unreadable — a fresh index in memory for this process
    (``how`` = "in memory"), which the caller fills from the files."""
    if os.path.exists(path):
        try:
            conn = _connect(path, immutable=True)
            conn.execute("SELECT count(*) FROM chunks").fetchone()
            version = conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
            if version and version[0] == SCHEMA_VERSION:
                return IndexDB(path, conn), "as is"
            conn.close()
        except sqlite3.DatabaseError:
            pass
    conn = _connect(":memory:")
    _migrate(conn, use_fts)
    return IndexDB(path, conn), "in memory"


def remove_index_files(path: str) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        try:
            os.unlink(path + suffix)
        except FileNotFoundError:
            pass


def open_index(path: str, create: bool = True, use_fts: bool | None = None, readonly: bool = False) -> IndexDB:
    """Open (and migrate) the index at ``path``.

    Raises ``IndexCorrupted`` when the file is not a usable SQLite index, and
    ``CodeMemoryError(MEMORY_INDEX_FAILED)`` when it cannot be created at all.
    """
    exists = os.path.exists(path)
    if not exists and not create:
        raise FileNotFoundError(path)
    try:
        if not exists:
            os.makedirs(os.path.dirname(path), exist_ok=True)
        conn = _connect(path, readonly=readonly and exists)
    except (OSError, sqlite3.Error) as exc:
        raise CodeMemoryError("MEMORY_INDEX_FAILED", f"cannot open the index ({exc.__class__.__name__})",
                              hint="check that the memory root is writable") from None
    try:
        if not readonly:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            _migrate(conn, use_fts)
        conn.execute("SELECT count(*) FROM chunks").fetchone()
        version = conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        if not version or version[0] != SCHEMA_VERSION:
            conn.close()
            raise IndexCorrupted(f"schema version {version[0] if version else None}")
        if conn.execute("SELECT value FROM meta WHERE key='fts'").fetchone()[0] == "1":
            conn.execute("SELECT count(*) FROM chunks_fts WHERE rowid = 0").fetchone()
    except sqlite3.DatabaseError as exc:
        conn.close()
        if isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc):
            raise CodeMemoryError("LOCK_TIMEOUT", "the index is locked by another process",
                                  hint="retry shortly") from None
        raise IndexCorrupted(str(exc)) from None
    return IndexDB(path, conn)


# ---------------------------------------------------------------------------------------------
# planning and applying changes

@dataclass
class Plan:
    new: list = field(default_factory=list)          # FileEntry
    changed: list = field(default_factory=list)      # (FileEntry, doc_id, old_sha)
    touched: list = field(default_factory=list)      # (FileEntry, doc_id, old_sha): stat changed
    unchanged: int = 0
    deleted: list = field(default_factory=list)      # (doc_id, rel_path)
    inodes: list = field(default_factory=list)       # (ino, doc_id): unchanged, inode not recorded yet

    def empty(self) -> bool:
        return not (self.new or self.changed or self.touched or self.deleted or self.inodes)

    def work(self) -> int:
        """How many files must be read."""
        return len(self.new) + len(self.changed) + len(self.touched)


def plan_changes(entries: list, known: dict, full: bool = False) -> Plan:
    """Compare discovered files with ``known`` = {path: (doc_id, mtime_ns, size, sha, ino, rel)}."""
    plan = Plan()
    seen = set()
    for e in entries:
        seen.add(e.path)
        old = known.get(e.path)
        if old is None:
            plan.new.append(e)
        elif full:
            plan.changed.append((e, old[0], None))
        elif old[1] == e.mtime_ns and old[2] == e.size and old[4] in (e.ino, None):
            plan.unchanged += 1
            if old[4] is None and e.ino:
                plan.inodes.append((e.ino, old[0]))
        else:
            plan.touched.append((e, old[0], old[3]))
    for path, (doc_id, *_rest, rel) in known.items():
        if path not in seen:
            plan.deleted.append((doc_id, rel))
    return plan


def _decode(data: bytes) -> tuple:
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError:
        return data.decode("utf-8", errors="replace"), "invalid UTF-8 (undecodable bytes replaced)"


def chunk_file(entry: FileEntry, text: str, window_lines: int) -> list:
    from . import chunking

    title_hint = os.path.splitext(os.path.basename(entry.rel_path))[0]
    if entry.kind == "facts":
        return chunking.chunk_facts(text, entry.rel_path)
    if entry.kind == "kv":
        key = "/" + os.path.splitext(entry.rel_path.split(os.sep, 2)[-1])[0]
        return chunking.chunk_kv(text, key)
    if entry.kind == "daily":
        return chunking.chunk_daily(text, window_lines, title_hint)
    chunks = chunking.chunk_markdown(text, window_lines, title_hint)
    if entry.category == "session":
        project = chunking.session_project(text)
        for c in chunks:
            c.project = project
    return chunks


# Reading jieba's whole dictionary into memory costs ~0.3–0.8 s and then segments ~4x faster than
# looking words up in its SQLite copy (~3 ms per 1,000 Chinese characters): worth it for a build,
# not for the few files a catch-up re-reads.
BULK_SEGMENTER_FILES = 64


class _LazySegmenter:
    """Loads the segmenter only when CJK text actually needs segmenting; ``bulk`` (the whole
    dictionary in memory) for large batches. Both give the same words."""

    def __init__(self, name: str, cache_dir: str | None, bulk: bool = True):
        self.name = name
        self.cache_dir = cache_dir
        self.bulk = bulk
        self._seg: Segmenter | None = None

    def search_text(self, text: str) -> str:
        if not has_cjk(text):
            return text
        if self._seg is None:
            self._seg = get_segmenter(self.name, bulk=self.bulk, cache_dir=self.cache_dir)
        return self._seg.search_text(text)


def desired_segmenter(cache_dir: str | None = None) -> str:
    """The name of the segmenter a new index should use (jieba dictionary when installed)."""
    return get_segmenter("auto", cache_dir=cache_dir).name


def apply_plan(db: IndexDB, plan: Plan, window_lines: int, max_file_bytes: int,
               segmenter: _LazySegmenter, skipped: list, stats: dict) -> None:
    conn = db.conn
    fts = db.fts

    def delete_doc_chunks(doc_id: int) -> int:
        ids = [r[0] for r in conn.execute("SELECT chunk_id FROM chunks WHERE doc_id=?", (doc_id,))]
        if fts and ids:
            for i in range(0, len(ids), 500):
                part = ids[i:i + 500]
                conn.execute(f"DELETE FROM chunks_fts WHERE rowid IN ({','.join('?' * len(part))})", part)
        conn.execute("DELETE FROM chunks WHERE doc_id=?", (doc_id,))
        return len(ids)

    def read(entry: FileEntry):
        if entry.size > max_file_bytes:
            skipped.append({"path": entry.rel_path, "reason": f"larger than index.max_file_bytes ({entry.size} bytes)"})
            return None
        try:
            with open_regular(entry.path) as fh:
                data = fh.read(max_file_bytes + 1)
        except FileNotFoundError:
            skipped.append({"path": entry.rel_path, "reason": "deleted during indexing"})
            return None
        except NotRegularFile as exc:
            skipped.append({"path": entry.rel_path, "reason": f"not a regular file ({exc.strerror})"})
            return None
        except OSError as exc:
            skipped.append({"path": entry.rel_path, "reason": f"unreadable ({exc.strerror})"})
            return None
        if b"\x00" in data[:8192]:
            skipped.append({"path": entry.rel_path, "reason": "binary file"})
            return None
        return data

    def insert(entry: FileEntry, data: bytes, doc_id: int | None, sha: str) -> None:
        text, warning = _decode(data)
        if warning:
            skipped.append({"path": entry.rel_path, "reason": warning, "indexed": True})
        try:
            chunks = chunk_file(entry, text, window_lines)
        except (ValueError, CodeMemoryError) as exc:
            message = exc.message if isinstance(exc, CodeMemoryError) else str(exc)
            skipped.append({"path": entry.rel_path, "reason": f"not indexed: {message}"})
            chunks = []
        values = (entry.path, entry.rel_path, entry.source.label, entry.source.workspace_id, entry.kind,
                  entry.category, entry.mtime_ns, entry.size, sha, _now(), entry.ino or None)
        if doc_id is None:
            cur = conn.execute(
                "INSERT INTO documents(path, rel_path, source, workspace_id, kind, category, mtime_ns, size,"
                " sha256, indexed_at, ino) VALUES (?,?,?,?,?,?,?,?,?,?,?)", values)
            doc_id = cur.lastrowid
        else:
            stats["chunks_deleted"] += delete_doc_chunks(doc_id)
            conn.execute(
                "UPDATE documents SET path=?, rel_path=?, source=?, workspace_id=?, kind=?, category=?,"
                " mtime_ns=?, size=?, sha256=?, indexed_at=?, ino=? WHERE doc_id=?", values + (doc_id,))
        for n, c in enumerate(chunks):
            project = c.project if c.project is not None else entry.project
            cur = conn.execute(
                "INSERT INTO chunks(doc_id, ordinal, start_line, end_line, heading, title, category, project,"
                " workspace_id, text, digest) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                (doc_id, n, c.start_line, c.end_line, c.heading, c.title, entry.category, project,
                 entry.source.workspace_id, c.text, c.digest))
            if fts:
                conn.execute("INSERT INTO chunks_fts(rowid, heading, title, body) VALUES (?,?,?,?)",
                             (cur.lastrowid, segmenter.search_text(c.heading), segmenter.search_text(c.title),
                              segmenter.search_text(c.text)))
        stats["chunks_added"] += len(chunks)

    for doc_id, _rel in plan.deleted:
        stats["chunks_deleted"] += delete_doc_chunks(doc_id)
        conn.execute("DELETE FROM documents WHERE doc_id=?", (doc_id,))
        stats["deleted"] += 1
    for entry in plan.new:
        data = read(entry)
        if data is not None:
            insert(entry, data, None, hashlib.sha256(data).hexdigest())
            stats["added"] += 1
    for entry, doc_id, old_sha in plan.changed + plan.touched:
        data = read(entry)
        if data is None:
            stats["chunks_deleted"] += delete_doc_chunks(doc_id)
            conn.execute("DELETE FROM documents WHERE doc_id=?", (doc_id,))
            continue
        sha = hashlib.sha256(data).hexdigest()
        if sha == old_sha:      # None (a full rebuild) never matches
            conn.execute("UPDATE documents SET mtime_ns=?, size=?, ino=? WHERE doc_id=?",
                         (entry.mtime_ns, entry.size, entry.ino or None, doc_id))
            stats["unchanged"] += 1
            continue
        insert(entry, data, doc_id, sha)
        stats["updated"] += 1
    conn.executemany("UPDATE documents SET ino=? WHERE doc_id=?", plan.inodes)


KNOWN_COLUMNS = "path, doc_id, mtime_ns, size, sha256, ino, rel_path"


def known_documents(db: IndexDB, labels=None) -> dict:
    """{path: (doc_id, mtime_ns, size, sha256, ino, rel_path)} of the indexed documents — of every
    source, or only of the sources whose ``Source.label`` is in ``labels``."""
    sql = f"SELECT {KNOWN_COLUMNS} FROM documents"
    params = list(labels or ())
    if labels is not None:
        sql += f" WHERE source IN ({','.join('?' * len(params)) or 'NULL'})"
    return {r[0]: r[1:] for r in db.conn.execute(sql, params)}


def discover_all(sources: list, dirs: list | None = None) -> tuple:
    """``discover`` over several sources: (entries, skipped); ``dirs`` as for :func:`discover`."""
    entries, skipped = [], []
    for source in sources:
        e, s = discover(source, dirs)
        entries += e
        skipped += s
    return entries, skipped


def scope_filter(scope: str = "project", project: str | None = None, workspace: str | None = None,
                 alias: str = "c") -> tuple:
    """SQL condition (over chunks ``alias``) and parameters for a search scope.

    * ``all``: everything (CLI-only, read-only; the edges enforce that).
    * ``project``: global memory (chunks without a project) plus ``project``'s chunks; workspace
      chunks only of ``workspace`` (and none when no workspace is given).
    """
    if scope == "all":
        return "1", []
    conds, params = [], []
    if project:
        conds.append(f"({alias}.project IS NULL OR {alias}.project = ?)")
        params.append(project)
    else:
        conds.append(f"{alias}.project IS NULL")
    if workspace:
        conds.append(f"({alias}.workspace_id IS NULL OR {alias}.workspace_id = ?)")
        params.append(workspace)
    else:
        conds.append(f"{alias}.workspace_id IS NULL")
    return " AND ".join(conds), params


INDEX_SOURCES = ("memory", "workspace", "kv")


def source_filter(sources, alias: str = "c") -> str | None:
    """SQL condition (over chunks ``alias``) keeping the chunks of the named sources — ``memory``
    (the memory tree), ``workspace`` (the session's workspace), ``kv`` (agent key-value keys) — or
    None when every source is wanted. Fixed SQL only: the names are checked, never interpolated."""
    wanted = [s for s in INDEX_SOURCES if s in set(sources or INDEX_SOURCES)]
    if len(wanted) == len(INDEX_SOURCES):
        return None
    parts = {"memory": f"({alias}.workspace_id IS NULL AND {alias}.category != 'kv')",
             "workspace": f"{alias}.workspace_id IS NOT NULL",
             "kv": f"{alias}.category = 'kv'"}
    return "(" + " OR ".join(parts[s] for s in wanted) + ")" if wanted else "0"


def chunk_source(category: str, workspace_id: str | None) -> str:
    """Which of :data:`INDEX_SOURCES` a chunk belongs to."""
    return "workspace" if workspace_id else ("kv" if category == "kv" else "memory")


def gc_vectors(db: IndexDB) -> int:
    cur = db.conn.execute("DELETE FROM vectors WHERE digest NOT IN (SELECT digest FROM chunks)")
    return cur.rowcount
