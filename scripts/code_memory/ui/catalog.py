"""The memory browser's catalog of session notes and daily notes: what the Timeline lists.

Ten thousand notes cannot be parsed on every page view, so the catalog keeps, per note, the few
fields the Timeline shows (project, end time, topic, counts) with the file's ``(mtime, size)``; a
refresh lists the directory, re-reads only new or changed notes and forgets deleted ones. The
memory root may change while the page is open — files appear, vanish or are rewritten between
two requests — and every refresh simply sees the directory as it is then.
"""

from __future__ import annotations

import os
import threading

from ..fsutil import read_text
from ..memory.sessions import parse_note
from ..paths import MemoryPaths
from ..timeutil import day_of, parse_ts

TOPIC_CHARS = 160


def _fields(path: str, stat) -> dict:
    note = parse_note(read_text(path, default="") or "", path)
    ts = parse_ts(note["ended"]) or parse_ts(note["time"]) or stat.st_mtime
    return {"id": os.path.splitext(os.path.basename(path))[0], "session_id": note["session_id"],
            "project": note["project"], "ts": ts, "day": day_of(ts), "topic": note["topic"][:TOPIC_CHARS],
            "files": len(note["files"]), "todos": len(note["todos"]), "decisions": len(note["decisions"])}


class Catalog:
    """Thread-safe: the server's warm-up thread and request handlers share one catalog."""

    def __init__(self, root: str):
        self.paths = MemoryPaths(root)
        self._notes: dict = {}        # file name -> ((mtime_ns, size), fields)
        self.fingerprint = None       # changes whenever a note is added, removed or rewritten
        self._lock = threading.Lock()

    def refresh(self) -> list:
        """Every session note's fields, newest first (deleted notes dropped, changed ones re-read)."""
        with self._lock:
            seen = {}
            try:
                entries = list(os.scandir(self.paths.sessions))
            except OSError:
                entries = []
            for entry in entries:
                if not entry.name.endswith(".md") or entry.name.startswith("."):
                    continue
                try:
                    stat = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                if not entry.is_file(follow_symlinks=False):
                    continue
                key = (stat.st_mtime_ns, stat.st_size)
                cached = self._notes.get(entry.name)
                if cached is None or cached[0] != key:
                    cached = (key, _fields(entry.path, stat))
                seen[entry.name] = cached
            self._notes = seen
            self.fingerprint = (len(seen), sum(hash((name, key)) for name, (key, _f) in seen.items()))
            notes = [fields for _key, fields in seen.values()]
        notes.sort(key=lambda n: (-n["ts"], n["id"]))
        return notes

    def daily_days(self) -> list:
        """Dates (newest first) that have a daily note."""
        try:
            names = os.listdir(self.paths.daily)
        except OSError:
            return []
        days = [n[:-3] for n in names if n.endswith(".md") and len(n) == 13 and n[4] == "-" and n[7] == "-"]
        return sorted(days, reverse=True)

    def projects(self, notes: list) -> list:
        """Project names known from the notes and from ``areas/projects/``, sorted."""
        names = {n["project"] for n in notes if n["project"]}
        try:
            names.update(d for d in os.listdir(os.path.join(self.paths.areas, "projects")) if not d.startswith("."))
        except OSError:
            pass
        return sorted(names)
