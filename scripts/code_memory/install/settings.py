"""Registering the hooks in Claude Code's ``settings.json`` — surgically.

* Our handlers are the ones whose command ends with ``# code-memory`` (registry.MARKER); nothing
  else in the file is ever changed, reordered or reformatted beyond JSON re-serialisation.
* Install = remove ours, then add ours: running it twice changes nothing the second time (no
  write, no backup), and a moved checkout is re-pointed.
* A file that is not a JSON object with a well-formed ``hooks`` section is refused with
  ``SETTINGS_INVALID`` and left byte-for-byte alone.
* Before a change the original is copied to ``settings.json.code-memory-backup-<time>``; the new
  file is written atomically (temp + rename) to the symlink's target if settings.json is a link.
"""

from __future__ import annotations

import json
import os
import shlex
import time

from ..errors import CodeMemoryError
from ..fsutil import atomic_write_text
from ..hooks.registry import MARKER, hook_entries


def settings_invalid(path: str, why: str) -> CodeMemoryError:
    return CodeMemoryError("SETTINGS_INVALID", f"{path}: {why}; left unchanged",
                           hint="fix the file (it must be a JSON object; hooks: {event: [{matcher, hooks: [...]}]}) "
                                "and run the installer again", path=path)


def load_settings(path: str) -> dict:
    """The settings object ({} when the file does not exist). Raises SETTINGS_INVALID."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise settings_invalid(path, f"cannot be read ({exc.strerror})") from None
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise settings_invalid(path, f"is not valid JSON ({exc})") from None
    if not isinstance(data, dict):
        raise settings_invalid(path, "is not a JSON object")
    hooks = data.get("hooks")
    if hooks is None:
        return data
    if not isinstance(hooks, dict):
        raise settings_invalid(path, '"hooks" is not an object')
    for event, groups in hooks.items():
        if not isinstance(groups, list) or not all(isinstance(g, dict) for g in groups):
            raise settings_invalid(path, f'"hooks.{event}" is not a list of objects')
        for group in groups:
            if not isinstance(group.get("hooks", []), list):
                raise settings_invalid(path, f'a "hooks.{event}" entry has a "hooks" that is not a list')
    return data


def is_ours(handler) -> bool:
    return isinstance(handler, dict) and isinstance(handler.get("command"), str) and \
        handler["command"].rstrip().endswith(MARKER)


def strip_ours(settings: dict) -> tuple:
    """(settings without our handlers, their commands). Containers we emptied are removed."""
    data = json.loads(json.dumps(settings))
    removed = []
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return data, removed
    for event in list(hooks):
        kept_groups = []
        for group in hooks[event]:
            handlers = group.get("hooks", [])
            mine = [h for h in handlers if is_ours(h)]
            removed += [h["command"] for h in mine]
            if mine:
                group = dict(group, hooks=[h for h in handlers if not is_ours(h)])
                if not group["hooks"]:
                    continue
            kept_groups.append(group)
        if kept_groups:
            hooks[event] = kept_groups
        elif hooks[event]:  # we emptied it
            del hooks[event]
    if not hooks and removed:
        del data["hooks"]
    return data, removed


def our_entries(hooks_dir: str, python: str | None = None) -> dict:
    """The hook groups to add, each command tagged with MARKER. ``python`` pins the interpreter
    (a venv outside the default place) via CODE_MEMORY_PYTHON."""
    prefix = f"CODE_MEMORY_PYTHON={shlex.quote(python)} " if python else ""
    return hook_entries(lambda shim: prefix + shlex.quote(os.path.join(hooks_dir, f"{shim}.sh")), tag=True)


def plan(path: str, hooks_dir: str, uninstall: bool = False, python: str | None = None) -> dict:
    """What install/uninstall would do: ``{path, changed, added, removed, settings}``."""
    current = load_settings(path)
    data, removed = strip_ours(current)
    added = []
    if not uninstall:
        hooks = data.setdefault("hooks", {})
        for event, groups in our_entries(hooks_dir, python).items():
            hooks.setdefault(event, []).extend(groups)
            added += [h["command"] for g in groups for h in g["hooks"]]
    return {"path": path, "changed": data != current,
            "added": added, "removed": removed, "settings": data}


def apply(change: dict) -> dict:
    """Write a :func:`plan` (if it changes anything). Returns ``{written, backup}``."""
    path = change["path"]
    if not change["changed"]:
        return {"written": False, "backup": None}
    target = os.path.realpath(path)
    backup = None
    mode = 0o644
    if os.path.exists(target):
        mode = os.stat(target).st_mode & 0o777
        backup = f"{path}.code-memory-backup-{time.strftime('%Y%m%d-%H%M%S')}"
        n = 1
        while os.path.exists(backup):
            n += 1
            backup = f"{path}.code-memory-backup-{time.strftime('%Y%m%d-%H%M%S')}-{n}"
        with open(target, "rb") as src:
            original = src.read()
        fd = os.open(backup, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as dst:
            dst.write(original)
    os.makedirs(os.path.dirname(target) or ".", exist_ok=True)
    atomic_write_text(target, json.dumps(change["settings"], ensure_ascii=False, indent=2) + "\n", mode=mode)
    return {"written": True, "backup": backup}


def status(path: str, hooks_dir: str) -> dict:
    """Which of our hooks settings.json registers, and whether their shims exist."""
    data = load_settings(path)
    found = []
    for event, groups in (data.get("hooks") or {}).items():
        for group in groups:
            for handler in group.get("hooks", []):
                if is_ours(handler):
                    found.append({"event": event, "matcher": group.get("matcher"), "command": handler["command"]})
    expected = sum(len(g) for g in our_entries(hooks_dir).values())
    current = [f for f in found if hooks_dir in f["command"]]
    return {"path": path, "registered": len(found), "expected": expected,
            "up_to_date": len(current) == expected == len(found), "entries": found}
