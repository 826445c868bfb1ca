"""Archiving low-value experiences (score < ``feedback.archive_threshold``) and restoring them.

Archiving takes a pitfall line out of MEMORY.md or a rule line out of its rules.md (a fact gets
``status: archived`` in its facts.json, which keeps it) and records the line, its file and its
section in an ``archive`` event of ``evolution/audit.jsonl``; ``restore`` puts it back from there.
Nothing is lost, and the default is a dry run.
"""

from __future__ import annotations

import glob
import os
import time
from dataclasses import asdict, dataclass

from ..errors import CodeMemoryError, invalid
from ..fsutil import append_events, iter_jsonl
from ..memory import facts as factsmod
from ..memory import tree
from ..memory.experience import KINDS, is_valid_id, parse_id
from ..timeutil import now_iso
from .feedback import Settings, scores


@dataclass(frozen=True)
class Location:
    experience_id: str
    kind: str
    path: str          # relative to the memory root
    line: str          # the list item (rules, pitfalls) or the fact text
    section: str       # the heading the line sits under ("" for none / facts)


def locate(paths, experience_id: str) -> Location | None:
    """Where the experience lives now, or None (deleted, edited, or an unknown kind)."""
    kind, project, key = parse_id(experience_id)
    if kind == "pitfall" or (kind == "rule" and project):
        found = tree.find_line(paths, kind, project, experience_id)
        if found:
            return Location(experience_id, kind, os.path.relpath(found[0], paths.root), found[1], found[2])
    elif kind == "fact":
        for path in sorted(glob.glob(os.path.join(paths.areas, "*", "*", "facts.json"))):
            try:
                items = factsmod.load_facts(path)
            except CodeMemoryError:
                continue
            for fact in items:
                if fact.get("id") == key and fact.get("status", "active") == "active":
                    return Location(experience_id, kind, os.path.relpath(path, paths.root), fact["fact"], "")
    return None


def _remove_line(paths, loc: Location) -> bool:
    return tree.remove_line(paths, loc.kind, parse_id(loc.experience_id)[1], loc.experience_id)


def archive(paths, settings: Settings, apply: bool = False, ids=None, now: float | None = None) -> dict:
    """Archive the archive candidates (or the given ``ids``). Dry run unless ``apply``."""
    now = time.time() if now is None else now
    scored = {s["experience_id"]: s for s in scores(paths, settings, now=now)}
    if ids:
        bad = [i for i in ids if not is_valid_id(i)]
        if bad:
            raise invalid(f"not an experience id: {bad[0]!r}", hint="rule:<project>:<hash>, pitfall:<hash>, fact:<id>")
        wanted = list(dict.fromkeys(ids))
    else:
        # only experiences can be archived; recalled items (session:…, kv:…) are scored, not removed
        wanted = [eid for eid, s in scored.items() if s["status"] == "archive_candidate" and parse_id(eid)[0] in KINDS]
    items = []
    for eid in wanted:
        score = scored.get(eid, {}).get("score")
        loc = locate(paths, eid)
        item = {"experience_id": eid, "score": score}
        if loc is None:
            item["action"] = "not-found"
        else:
            item.update(action="set-fact-status" if loc.kind == "fact" else "remove-line",
                        path=loc.path, line=loc.line, section=loc.section)
            if apply:
                done = (_archive_fact(paths, loc) if loc.kind == "fact" else _remove_line(paths, loc))
                item["applied"] = done
                if done:
                    append_events(paths.audit_log, [{"timestamp": now_iso(now), "event_type": "archive",
                                                      "score": score, **asdict(loc)}])
        items.append(item)
    return {"dry_run": not apply, "threshold": settings.archive_threshold,
            "archived": sum(1 for i in items if i.get("applied")), "items": items}


def _archive_fact(paths, loc: Location) -> bool:
    factsmod.set_status(os.path.join(paths.root, loc.path), parse_id(loc.experience_id)[2], "archived")
    return True


def restore(paths, experience_id: str, now: float | None = None) -> dict:
    """Put an archived experience back where it was (its section, or the end of the file)."""
    last = None
    for record in iter_jsonl(paths.audit_log):
        if record.get("experience_id") == experience_id and record.get("event_type") in ("archive", "restore"):
            last = record
    if last is None or last["event_type"] != "archive":
        raise CodeMemoryError("NOT_FOUND", f"{experience_id} is not archived",
                              hint="`memory-feedback.py score --id ID` shows its status")
    kind = last.get("kind")
    target = os.path.join(paths.root, last["path"])
    if kind == "fact":
        factsmod.set_status(target, parse_id(experience_id)[2], "active")
    else:
        tree.restore_line(paths, kind, target, last.get("section") or "", last["line"])
    append_events(paths.audit_log, [{"timestamp": now_iso(now), "event_type": "restore",
                                      "experience_id": experience_id, "kind": kind, "path": last["path"]}])
    return {"experience_id": experience_id, "restored": True, "path": last["path"]}
