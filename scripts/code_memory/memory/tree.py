"""The memory tree (docs/stores.md § The memory tree): creating a root from the templates, the area
files (``areas/<kind>/<name>/``), and the locked read-modify-write every writer of a shared file
uses. Daily notes are :mod:`.daily`, session notes :mod:`.sessions`.

Every whole-file write is temp file + rename; every read-modify-write holds a lock, so two hooks or
two summarizer workers never lose each other's lines.
"""

from __future__ import annotations

import os

from ..fsutil import atomic_write_text, create_new_text, ensure_dir, file_lock, read_text
from ..paths import AREA_KINDS, MemoryPaths, safe_name
from .templates import seed_rule, seed_rules, template

PITFALLS_HEADING = "## 避坑经验 (Pitfalls)"
BEST_PRACTICES_HEADING = "## 最佳实践 (Best practices)"


def init_root(paths: MemoryPaths) -> dict:
    """Create a memory root from the templates. Existing files are never overwritten.

    Returns ``{"created": [...], "existing": [...]}`` with paths relative to the root.
    """
    created, existing = [], []
    for directory in (paths.root, paths.daily, paths.sessions, paths.evolution, paths.kv,
                      paths.rules, paths.index_dir, *(os.path.join(paths.areas, k) for k in AREA_KINDS)):
        ensure_dir(directory)
    os.chmod(paths.root, 0o700)
    ensure_dir(paths.logs, 0o700)

    def place(rel: str, text: str) -> None:
        if create_new_text(os.path.join(paths.root, rel), text):
            created.append(rel)
        else:
            existing.append(rel)

    place("MEMORY.md", template("MEMORY.md"))
    for name in seed_rules():
        place(os.path.join("rules", name), seed_rule(name))
    return {"created": created, "existing": existing}


def area_files(kind: str) -> list:
    """The files an area of ``kind`` holds: summary.md, facts.json, and rules.md for projects."""
    return ["summary.md", "facts.json"] + (["rules.md"] if kind == "projects" else [])


def ensure_area(paths: MemoryPaths, kind: str, name: str) -> str:
    """Create ``areas/<kind>/<name>/`` with its :func:`area_files`."""
    directory = paths.area_dir(kind, name)
    ensure_dir(directory)
    label = safe_name(name)
    for fname in area_files(kind):
        target = os.path.join(directory, fname)
        if not os.path.exists(target):  # the fast path; create_new_text decides under races
            create_new_text(target, template(fname, name=label, kind=kind[:-1]))
    return directory


def lock_path_for(path: str) -> str:
    """The hidden sidecar lock of a file: ``<dir>/.<name>.lock``."""
    return os.path.join(os.path.dirname(path), "." + os.path.basename(path) + ".lock")


def update_file(path: str, transform, default_text: str = "") -> str:
    """Read-modify-write ``path`` under its lock: ``transform(old_text) -> new_text``."""
    with file_lock(lock_path_for(path)):
        old = read_text(path)
        new = transform(old if old is not None else default_text)
        if new != old:
            atomic_write_text(path, new)
        return new
