"""The review queue's store: one JSON file per proposal under ``<root>/review/``.

``review/pending/<id>.json`` waits for a decision; ``review/done/<id>.json`` holds approved and
rejected proposals (the rejection memory). A decision moves the file under the queue lock, so
:func:`pending_count` is a directory listing — cheap enough for SessionStart, no ``json`` needed.
Every change bumps ``revision``; a caller that passes the revision it saw gets ``CONFLICT`` when
someone else changed the proposal in between (CLI and web UI at once), and nothing is lost.
A corrupt file is reported in the listing (``corrupt``) and skipped, never fatal.
"""

from __future__ import annotations

import hashlib
import json
import os

from ..errors import CodeMemoryError
from ..fsutil import atomic_write_json, ensure_dir, file_lock, read_text
from ..redact import redact, redact_obj
from ..text.similarity import CONTAINMENT, JACCARD, is_near_duplicate
from ..timeutil import now_iso
from .count import ID_PREFIX, pending_count, pending_dir

__all__ = ["pending_count", "list_proposals", "get_proposal", "propose", "edit", "decision", "finish",
           "queued_kinds", "known_duplicate", "valid_id"]

KINDS = ("rule", "pitfall", "fact", "skill", "kv")
STATUSES = ("pending", "approved", "rejected")
VERIFICATION_STATES = ("verified", "hypothesis")
ID_HEX = 12
MAX_TEXT = 20000
_HEX = frozenset("0123456789abcdef")


def review_dir(root: str) -> str:
    return os.path.join(root, "review")


def _pending_dir(root: str) -> str:
    return pending_dir(root)


def _done_dir(root: str) -> str:
    return os.path.join(root, "review", "done")


def _lock(root: str) -> str:
    return os.path.join(root, "review", ".lock")


def valid_id(pid) -> bool:
    return (isinstance(pid, str) and len(pid) == len(ID_PREFIX) + ID_HEX and pid.startswith(ID_PREFIX)
            and set(pid[len(ID_PREFIX):]) <= _HEX)


def check_id(pid) -> str:
    if not valid_id(pid):
        raise CodeMemoryError("NOT_FOUND", f"no proposal {str(pid)[:40]!r}",
                              hint=f"ids look like {ID_PREFIX}{'0' * ID_HEX}; see `code-memory review list`")
    return pid


def _read(path: str) -> dict:
    text = read_text(path)
    if text is None:
        raise FileNotFoundError(path)
    data = json.loads(text)
    if not isinstance(data, dict) or data.get("kind") not in KINDS or not isinstance(data.get("text"), str):
        raise ValueError("not a proposal")
    return data


def _locate(root: str, pid: str) -> str | None:
    for directory in (_pending_dir(root), _done_dir(root)):
        path = os.path.join(directory, pid + ".json")
        if os.path.exists(path):
            return path
    return None


def get_proposal(root: str, pid: str) -> dict:
    """The proposal ``pid``; ``NOT_FOUND`` for an unknown or malformed id, ``REVIEW_CORRUPT``
    for a file that cannot be read."""
    check_id(pid)
    path = _locate(root, pid)
    if path is None:
        raise CodeMemoryError("NOT_FOUND", f"no proposal {pid}", hint="see `code-memory review list`")
    try:
        return _read(path)
    except (OSError, ValueError) as exc:
        raise CodeMemoryError("REVIEW_CORRUPT", f"proposal {pid} cannot be read ({type(exc).__name__})",
                              hint=f"fix or delete {path}", path=path) from None


def _scan(directory: str):
    """``(proposal or None, id, path)`` for every file in ``directory``, oldest first."""
    try:
        names = sorted(n for n in os.listdir(directory) if n.endswith(".json"))
    except OSError:
        return
    for name in names:
        path = os.path.join(directory, name)
        try:
            yield _read(path), name[:-5], path
        except (OSError, ValueError):
            yield None, name[:-5], path


def list_proposals(root: str, status: str | None = "pending", kind: str | None = None,
                   project: str | None = None, corrupt: list | None = None) -> list:
    """Proposals with ``status`` (None: every status), optionally one kind/project, oldest first.
    Unreadable files are skipped; their ids are appended to ``corrupt`` when a list is given."""
    dirs = [_pending_dir(root)] if status == "pending" else (
        [_done_dir(root)] if status in ("approved", "rejected") else [_pending_dir(root), _done_dir(root)])
    out = []
    for directory in dirs:
        for prop, pid, path in _scan(directory):
            if prop is None:
                if corrupt is not None:
                    corrupt.append({"id": pid, "path": path})
                continue
            if status and prop.get("status") != status:
                continue
            if kind and prop.get("kind") != kind:
                continue
            if project is not None and prop.get("project") != project:
                continue
            out.append(prop)
    out.sort(key=lambda p: (p.get("created") or "", p.get("id") or ""))
    return out


def _new_id(kind: str, project, text: str, created: str) -> str:
    seed = "\0".join([kind, project or "", text, created, os.urandom(8).hex()])
    return ID_PREFIX + hashlib.sha256(seed.encode("utf-8")).hexdigest()[:ID_HEX]


def _near(prop: dict, kind: str, project, text: str) -> bool:
    return (prop.get("kind") == kind and prop.get("project") == project
            and is_near_duplicate(prop.get("text", ""), text, JACCARD, CONTAINMENT))


def known_duplicate(root: str, kind: str, project, text: str) -> dict | None:
    """A pending or rejected proposal of the same kind and project whose text is trigram-near."""
    for prop in list_proposals(root, "pending", kind=kind):
        if _near(prop, kind, project, text):
            return prop
    for prop in list_proposals(root, "rejected", kind=kind):
        if _near(prop, kind, project, text):
            return prop
    return None


def normalize_verification(value) -> dict:
    if not isinstance(value, dict) or value.get("state") not in VERIFICATION_STATES:
        return {"state": "hypothesis", "evidence": []}
    evidence = [str(e)[:300] for e in (value.get("evidence") or []) if str(e).strip()][:10]
    if value["state"] == "verified" and not evidence:
        return {"state": "hypothesis", "evidence": []}
    return {"state": value["state"], "evidence": evidence}


def propose(root: str, kind: str, text: str, *, project: str | None = None, title: str | None = None,
            target: str = "", session: str | None = None, verification: dict | None = None,
            payload: dict | None = None, source: str = "") -> dict | None:
    """Queue a proposal. Returns it, or None when a pending or rejected proposal of the same
    kind+project is trigram-near (the rejection memory: a rejected idea is not proposed again)."""
    if kind not in KINDS:
        raise CodeMemoryError("INVALID_ARGUMENT", f"unknown proposal kind {kind!r}", hint=", ".join(KINDS))
    if not isinstance(text, str) or not text.strip():
        raise CodeMemoryError("INVALID_ARGUMENT", "a proposal needs text")
    if len(text) > MAX_TEXT:
        raise CodeMemoryError("INVALID_ARGUMENT", f"proposal text longer than {MAX_TEXT} characters")
    # every stored field is redacted here, whatever the caller did (the queue is shown, edited and
    # approved from the browser and the CLI)
    text, title, payload = redact(text), redact(title) if title else title, redact_obj(payload or {})
    ensure_dir(_pending_dir(root))
    with file_lock(_lock(root)):
        if known_duplicate(root, kind, project, text):
            return None
        created = now_iso()
        prop = {"id": _new_id(kind, project, text, created), "kind": kind, "project": project,
                "title": (title or text.strip().split("\n", 1)[0])[:120], "text": text, "target": target,
                "created": created, "session": session, "status": "pending", "revision": 1,
                "verification": normalize_verification(verification), "source": source,
                "payload": payload, "history": [{"at": created, "event": "proposed", "by": source or "extractor"}]}
        atomic_write_json(os.path.join(_pending_dir(root), prop["id"] + ".json"), prop, mode=0o600)
        return prop


def _check_revision(prop: dict, expected_revision) -> None:
    if expected_revision is not None and int(expected_revision) != prop.get("revision"):
        raise CodeMemoryError("CONFLICT", f"proposal {prop['id']} was changed elsewhere "
                              f"(revision {prop.get('revision')}, you saw {expected_revision})",
                              hint="reload it and decide again", revision=prop.get("revision"))


def _pending_or_conflict(root: str, pid: str, expected_revision) -> dict:
    prop = get_proposal(root, pid)
    if prop.get("status") != "pending":
        raise CodeMemoryError("CONFLICT", f"proposal {pid} is already {prop.get('status')}",
                              hint="a decided proposal cannot be decided again", status=prop.get("status"))
    _check_revision(prop, expected_revision)
    return prop


class decision:  # noqa: N801 — used like a function: ``with decision(root, pid, rev) as prop:``
    """Hold the queue lock over a pending proposal while the caller applies it; the caller
    then calls :func:`finish` inside the block. Raises NOT_FOUND / CONFLICT / REVIEW_CORRUPT."""

    def __init__(self, root: str, pid: str, expected_revision=None):
        self.root, self.pid, self.expected = root, check_id(pid), expected_revision
        self._lock = None

    def __enter__(self) -> dict:
        ensure_dir(_pending_dir(self.root))
        self._lock = file_lock(_lock(self.root))
        self._lock.__enter__()
        try:
            return _pending_or_conflict(self.root, self.pid, self.expected)
        except BaseException:
            self._lock.__exit__(None, None, None)
            raise

    def __exit__(self, *exc):
        return self._lock.__exit__(*exc)


def finish(root: str, prop: dict, status: str, by: str, **fields) -> dict:
    """Record the decision (call inside :class:`decision`): move the file to ``done/``."""
    if status not in ("approved", "rejected"):
        raise CodeMemoryError("INVALID_ARGUMENT", f"bad decision {status!r}")
    now = now_iso()
    done = dict(prop, status=status, revision=int(prop.get("revision", 1)) + 1, decided=now, decided_by=by, **fields)
    done["history"] = list(prop.get("history") or []) + [{"at": now, "event": status, "by": by}]
    ensure_dir(_done_dir(root))
    atomic_write_json(os.path.join(_done_dir(root), prop["id"] + ".json"), done, mode=0o600)
    try:
        os.unlink(os.path.join(_pending_dir(root), prop["id"] + ".json"))
    except FileNotFoundError:
        pass
    return done


def edit(root: str, pid: str, text: str, expected_revision=None, by: str = "cli") -> dict:
    """Change a pending proposal's text (bumps the revision; CONFLICT on a stale revision)."""
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_TEXT:
        raise CodeMemoryError("INVALID_ARGUMENT", "the edited text is empty or too long")
    text = redact(text)
    with decision(root, pid, expected_revision) as prop:
        now = now_iso()
        prop = dict(prop, text=text, revision=int(prop.get("revision", 1)) + 1)
        prop["history"] = list(prop.get("history") or []) + [{"at": now, "event": "edited", "by": by}]
        atomic_write_json(os.path.join(_pending_dir(root), pid + ".json"), prop, mode=0o600)
        return prop


CONFIG_KINDS = {"rules": "rule", "pitfalls": "pitfall", "facts": "fact", "skills": "skill", "kv": "kv"}
MODES = ("auto", "queue")


def queued_kinds(section) -> frozenset:
    """The proposal kinds whose ``review.mode`` is ``queue`` (``section``: the ``review`` config
    section as a dict; missing kinds are ``auto``). Raises CONFIG_INVALID on another mode."""
    modes = (section or {}).get("mode") or {}
    if not isinstance(modes, dict):
        raise CodeMemoryError("CONFIG_INVALID", "review.mode must be an object of kind → auto|queue")
    out = set()
    for name, kind in CONFIG_KINDS.items():
        mode = modes.get(name, "auto")
        if mode not in MODES:
            raise CodeMemoryError("CONFIG_INVALID", f"review.mode.{name} must be auto or queue, not {str(mode)[:20]!r}")
        if mode == "queue":
            out.add(kind)
    return frozenset(out)
