"""A person correcting memory by hand (the memory browser, docs/browser.md § Memory browser): edit a rule,
pitfall or fact in place, archive it, restore it.

* A rule line (``rules.md``) or pitfall line (MEMORY.md) is replaced where it stands, under the
  file's lock, atomically; the new line carries ``[verified: edited by you]`` — a person's word is
  the evidence. The caller passes the line it showed (``expected``): if the file changed since,
  nothing is written and ``CONFLICT`` says to reload.
* A fact is never rewritten: the edit adds the new text as a fact that supersedes the old one, so
  the chain stays visible.
* Archive and restore are :mod:`.archive`'s (nothing lost, restorable).

Every change is an event in ``evolution/audit.jsonl`` (``event_type`` ``edit``) with the old and the
new line, so it can be undone by hand; the feedback loop ignores those events.
"""

from __future__ import annotations

import os

from ..errors import CodeMemoryError, invalid
from ..fsutil import append_events
from ..memory import facts as factsmod
from ..memory import tree, verification
from ..memory.experience import parse_id, pitfall_id, rule_id
from ..redact import redact
from ..timeutil import now_iso
from . import archive as archivemod
from .feedback import Settings

MAX_TEXT = 2000
USER_EVIDENCE = "edited by you"


def _clean_text(text) -> str:
    if not isinstance(text, str) or not text.strip():
        raise invalid("the new text is empty", hint="type the corrected text, or archive the item")
    if len(text) > MAX_TEXT:
        raise invalid(f"the new text is longer than {MAX_TEXT} characters")
    return redact(" ".join(redact(text).split()))        # before folding too: line-start secrets


def _edit_line(paths, experience_id: str, kind: str, project, expected: str, text: str) -> dict:
    done = tree.replace_line(paths, kind, project, experience_id, expected,
                             verification.mark(text, "verified", [USER_EVIDENCE]))
    new_id = pitfall_id(done["new"]) if kind == "pitfall" else rule_id(project, done["new"])
    return {"path": os.path.relpath(done["path"], paths.root), "old": done["old"], "new": done["new"],
            "new_id": new_id}


def _edit_fact(paths, experience_id: str, project, expected: str, text: str) -> dict:
    fid = parse_id(experience_id)[2]
    if not project:
        raise invalid("editing a fact needs its project")
    path = os.path.join(paths.project_dir(project), "facts.json")
    if not os.path.isfile(path):
        raise CodeMemoryError("NOT_FOUND", f"project {project!r} has no facts.json")
    current = next((f for f in factsmod.load_facts(path) if f.get("id") == fid), None)
    if current is None or current.get("status", "active") != "active":
        raise CodeMemoryError("CONFLICT", f"fact {fid} changed or is no longer active since the page was loaded",
                              hint="reload the page")
    if expected is not None and current.get("fact", "").strip() != expected.strip():
        raise CodeMemoryError("CONFLICT", f"fact {fid} was changed since the page was loaded", hint="reload the page")
    new = factsmod.add_fact(path, text, evidence=current.get("evidence", ""), category=current.get("category", "general"),
                            supersedes=fid, verification={"state": "verified", "evidence": [USER_EVIDENCE]})
    return {"path": os.path.relpath(path, paths.root), "old": current.get("fact", ""), "new": new["fact"],
            "new_id": f"fact:{new['id']}"}


def edit(paths, experience_id: str, text: str, *, expected: str | None = None, project: str | None = None,
         actor: str = "ui", now: float | None = None) -> dict:
    """Replace a rule/pitfall line or supersede a fact with ``text``. ``expected``: the line (or fact
    text) as the caller last saw it. Raises INVALID_ARGUMENT, NOT_FOUND, CONFLICT."""
    kind, id_project, _key = parse_id(experience_id) if isinstance(experience_id, str) else (None, None, None)
    if kind not in ("rule", "pitfall", "fact"):
        raise invalid(f"not an experience id: {experience_id!r}", hint="rule:<project>:<hash>, pitfall:<hash>, fact:<id>")
    text = _clean_text(text)
    if kind == "fact":
        result = _edit_fact(paths, experience_id, project, expected, text)
    else:
        result = _edit_line(paths, experience_id, kind, id_project, expected, text)
    append_events(paths.audit_log, [{"timestamp": now_iso(now), "event_type": "edit", "experience_id": experience_id,
                                     "new_id": result["new_id"], "kind": kind, "path": result["path"],
                                     "line": result["old"], "new_line": result["new"], "actor": actor}])
    return {"experience_id": experience_id, "kind": kind, **result}


def archive(paths, settings: Settings, experience_id: str) -> dict:
    """Archive one rule, pitfall or fact now, whatever its score (restorable)."""
    report = archivemod.archive(paths, settings, apply=True, ids=[experience_id])
    item = report["items"][0]
    if not item.get("applied"):
        raise CodeMemoryError("CONFLICT", f"{experience_id} is no longer there (changed or already archived)",
                              hint="reload the page")
    return {"experience_id": experience_id, "archived": True, "path": item.get("path")}


def restore(paths, experience_id: str) -> dict:
    return archivemod.restore(paths, experience_id)
