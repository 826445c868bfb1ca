"""facts.json: atomic facts with a lifecycle (active → superseded | archived). New facts never
delete old ones (docs/stores.md § Facts)."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os

from ..errors import CodeMemoryError
from ..fsutil import atomic_write_json, file_lock, read_text
from .tree import lock_path_for

STATUSES = ("active", "superseded", "archived")


def _validate_fact(fact, where: str) -> dict:
    if not isinstance(fact, dict):
        raise CodeMemoryError("INVALID_ARGUMENT", f"{where}: a fact must be an object")
    text = fact.get("fact")
    if not isinstance(text, str) or not text.strip():
        raise CodeMemoryError("INVALID_ARGUMENT", f"{where}: fact text is missing")
    status = fact.get("status", "active")
    if status not in STATUSES:
        raise CodeMemoryError("INVALID_ARGUMENT", f"{where}: bad status {status!r}",
                              hint="active, superseded or archived")
    return fact


def parse_facts(text: str, path: str = "facts.json") -> list:
    """Parse the text of a facts.json. Accepts ``{"facts": [...]}`` or a bare list.

    Raises ``INVALID_ARGUMENT`` with the file name when the JSON or a fact is malformed.
    """
    try:
        data = json.loads(text) if text.strip() else {"facts": []}
    except ValueError as exc:
        raise CodeMemoryError("INVALID_ARGUMENT", f"{path} is not valid JSON ({exc})",
                              hint="fix the file; the indexer skips it until then") from None
    facts = data.get("facts") if isinstance(data, dict) else data
    if not isinstance(facts, list):
        raise CodeMemoryError("INVALID_ARGUMENT", f"{path}: expected a 'facts' list")
    return [_validate_fact(f, f"{path}[{i}]") for i, f in enumerate(facts)]


def load_facts(path: str) -> list:
    text = read_text(path)
    return [] if text is None else parse_facts(text, path)


def fact_id(text: str) -> str:
    return "fact-" + hashlib.sha256(text.strip().encode("utf-8")).hexdigest()[:10]


def _today() -> str:
    return dt.date.today().isoformat()


def update_facts(path: str, transform) -> list:
    """Read-modify-write a facts.json under its lock: ``transform(facts) -> facts``."""
    with file_lock(lock_path_for(path)):
        facts = load_facts(path) if os.path.exists(path) else []
        new = transform([dict(f) for f in facts])
        atomic_write_json(path, {"facts": new})
        return new


def add_fact(path: str, text: str, evidence: str = "", category: str = "general",
             supersedes: str | None = None, timestamp: str | None = None,
             verification: dict | None = None) -> dict:
    """Add an active fact; an exact duplicate of an active fact is returned instead of added.

    ``supersedes`` marks that older fact ``superseded`` with ``supersededBy`` = the new id.
    ``verification`` (``{"state", "evidence"}``, memory/verification.py) is stored with the fact;
    a verified duplicate promotes an active hypothesis it repeats.
    """
    text = text.strip()
    new_fact = {"id": fact_id(text), "fact": text, "evidence": evidence,
                "timestamp": timestamp or _today(), "status": "active", "category": category}
    if verification:
        new_fact["verification"] = verification
    result = {}

    def transform(facts):
        for f in facts:
            if f.get("fact", "").strip() == text and f.get("status", "active") == "active":
                if verification and verification.get("state") == "verified":
                    f["verification"] = verification
                result["fact"] = f
                return facts
        ids = {f.get("id") for f in facts}
        if new_fact["id"] in ids:
            new_fact["id"] = new_fact["id"] + "-" + str(len(facts))
        if supersedes:
            for f in facts:
                if f.get("id") == supersedes:
                    f["status"] = "superseded"
                    f["supersededBy"] = new_fact["id"]
                    break
            else:
                raise CodeMemoryError("NOT_FOUND", f"no fact with id {supersedes}")
        facts.append(new_fact)
        result["fact"] = new_fact
        return facts

    update_facts(path, transform)
    return result["fact"]


def set_status(path: str, fid: str, status: str, superseded_by: str | None = None) -> dict:
    if status not in STATUSES:
        raise CodeMemoryError("INVALID_ARGUMENT", f"bad status {status!r}")
    found = {}

    def transform(facts):
        for f in facts:
            if f.get("id") == fid:
                f["status"] = status
                if superseded_by:
                    f["supersededBy"] = superseded_by
                found["fact"] = f
                return facts
        raise CodeMemoryError("NOT_FOUND", f"no fact with id {fid}", hint="list facts to see ids")

    update_facts(path, transform)
    return found["fact"]
