"""Session notes ``sessions/<id>.md`` (README § Session summaries): one summary per session,
written whole (temp file + rename) by the summarizer."""

from __future__ import annotations

from ..fsutil import atomic_write_text, ensure_dir
from ..paths import MemoryPaths


def write_session_note(paths: MemoryPaths, session_id: str, text: str) -> str:
    """Write (or replace) ``sessions/<id>.md`` atomically. Returns its path."""
    note = paths.session_note(session_id)
    ensure_dir(paths.sessions)
    atomic_write_text(note, text if text.endswith("\n") else text + "\n")
    return note
