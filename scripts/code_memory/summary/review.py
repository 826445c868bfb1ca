"""Approving and rejecting review-queue proposals (docs/browser.md § Review queue).

Approval writes the item where it belongs through the same writers extraction uses (rules.md,
MEMORY.md pitfalls, facts.json, a Skill directory, a kv key), promotes its verification to
``verified`` with the approval as evidence, and moves the proposal to ``review/done/``; rejection
only moves it (the rejection memory). Both hold the queue lock, check the revision the caller saw
(``CONFLICT`` on a mismatch or on a proposal already decided) and are audited in
``evolution/review.jsonl`` — metadata only (id, kind, project, target, actor, digests), never text.
"""

from __future__ import annotations

import hashlib
import os

from ..errors import CodeMemoryError
from ..evolution import capabilities
from ..fsutil import append_events
from ..kv.layout import KVOptions
from ..kv.write import set_memory
from ..memory.facts import add_fact
from ..memory.tree import rules_path
from ..redact import redact
from ..review import queue
from ..timeutil import now_iso
from . import distribute
from .summarize import SummaryOptions

MAX_EDIT_CHARS = queue.MAX_TEXT


def audit_log(root: str) -> str:
    return os.path.join(root, "evolution", "review.jsonl")


def _digest(text: str) -> str:
    return hashlib.sha256((text or "").encode("utf-8")).hexdigest()[:16]


def _audit(root: str, event: str, prop: dict, actor: str, **extra) -> None:
    append_events(audit_log(root), [{
        "timestamp": now_iso(), "event_type": event, "id": prop["id"], "kind": prop["kind"],
        "project": prop.get("project"), "target": prop.get("target"), "actor": actor,
        "text_sha": _digest(prop.get("text", "")), **extra}])


def _require_project(paths, prop: dict) -> str:
    project = prop.get("project")
    if not project:
        raise CodeMemoryError("INVALID_ARGUMENT", f"proposal {prop['id']} names no project")
    if not os.path.isdir(paths.project_dir(project)):
        raise CodeMemoryError("REVIEW_TARGET_GONE", f"the project area of {project!r} no longer exists",
                              hint="the proposal stays pending: reject it, or recreate the project "
                                   "(`code-memory init` in it) and approve again", project=project)
    return project


def _approved_verification(prop: dict, actor: str) -> dict:
    evidence = [e for e in (prop.get("verification") or {}).get("evidence") or []]
    evidence.append(f"approved by the user ({actor}, {now_iso()[:10]})")
    return {"state": "verified", "evidence": evidence[-10:]}


def _write(cfg, prop: dict, text: str, ver: dict) -> dict:
    paths = cfg.paths
    kind = prop["kind"]
    payload = prop.get("payload") or {}
    if kind == "rule":
        project = _require_project(paths, prop)
        added = distribute.add_rules(paths, project, [{"rule": text, "category": payload.get("category"),
                                                       "verification": ver}])
        return {"written_to": os.path.relpath(rules_path(paths, project), paths.root),
                "added": len(added)}
    if kind == "pitfall":
        options = SummaryOptions.from_config(cfg)
        added = distribute.add_pitfalls(paths, [{"text": text, "verification": ver}], options.pitfall_jaccard,
                                        options.pitfall_containment)
        return {"written_to": "MEMORY.md", "added": len(added)}
    if kind == "fact":
        project = _require_project(paths, prop)
        path = os.path.join(paths.project_dir(project), "facts.json")
        fact = add_fact(path, text, evidence=payload.get("evidence") or "approved in review",
                        category=payload.get("category") or "general", supersedes=payload.get("supersedes"),
                        verification=ver)
        return {"written_to": os.path.relpath(path, paths.root), "fact_id": fact["id"]}
    if kind == "skill":
        settings = capabilities.Settings.from_config(cfg.get("capabilities"))
        item = capabilities.commit_skill(paths, settings, text, payload)
        capabilities.record_generation(paths, [item["name"]], now_iso())
        return {"written_to": item["path"], "name": item["name"]}
    if kind == "kv":
        import json
        try:
            content = json.loads(text)
        except ValueError:
            raise CodeMemoryError("INVALID_ARGUMENT", "a kv proposal's text must be JSON") from None
        source = {"kind": "user", "name": "review-approval", "retrieved_at": now_iso(),
                  "locator": f"review:{prop['id']}"}
        written = set_memory(paths, prop["target"], content, source,
                             options=KVOptions.from_config(cfg.get("kv")))
        return {"written_to": written["key"], "path": written["path"]}
    raise CodeMemoryError("INVALID_ARGUMENT", f"unknown proposal kind {kind!r}")


def preview(cfg, prop: dict, actor: str = "ui") -> dict:
    """What approving ``prop`` as it stands would change, computed by the writers :func:`_write`
    uses, in their dry-run mode (nothing is written): ``{target, before, after}`` — the target
    file's whole text (rules, pitfalls), the key's current value as JSON (kv, ``before`` None
    when the key is new), the fact it supersedes (facts), nothing (``before`` None: a new Skill).
    A target that cannot be written is ``{target, error, message}``."""
    paths = cfg.paths
    kind, payload = prop["kind"], prop.get("payload") or {}
    ver = _approved_verification(prop, actor)
    try:
        if kind == "rule":
            project = _require_project(paths, prop)
            out = {"target": os.path.relpath(rules_path(paths, project), paths.root)}
            distribute.add_rules(paths, project, [{"rule": prop["text"], "category": payload.get("category"),
                                                   "verification": ver}], dry_run=True, preview=out)
            return out
        if kind == "pitfall":
            options = SummaryOptions.from_config(cfg)
            out = {"target": "MEMORY.md"}
            distribute.add_pitfalls(paths, [{"text": prop["text"], "verification": ver}], options.pitfall_jaccard,
                                    options.pitfall_containment, dry_run=True, preview=out)
            return out
        if kind == "kv":
            return {"target": prop["target"], "before": _kv_now(cfg, prop["target"]), "after": prop["text"]}
        if kind == "fact":
            project = _require_project(paths, prop)
            target = os.path.relpath(os.path.join(paths.project_dir(project), "facts.json"), paths.root)
            return {"target": target, "before": _fact_text(paths, project, payload.get("supersedes")),
                    "after": prop["text"]}
        return {"target": prop.get("target") or "", "before": None, "after": prop["text"]}
    except CodeMemoryError as exc:
        return {"target": prop.get("target") or "", "error": exc.code, "message": exc.message}


def _kv_now(cfg, key: str) -> str | None:
    """The live value of ``key`` as the kv proposal's text is written (sorted, indented JSON), or None."""
    import json

    from ..kv.view import get
    try:
        entry = get(cfg.root, key)
    except CodeMemoryError:
        return None
    return json.dumps(entry.get("content"), ensure_ascii=False, indent=2, sort_keys=True)


def _fact_text(paths, project: str, fact_id) -> str | None:
    from ..memory.facts import load_facts
    if not fact_id:
        return None
    facts = load_facts(os.path.join(paths.project_dir(project), "facts.json"))
    return next((f.get("fact") for f in facts if f.get("id") == fact_id), None)


def approve(cfg, pid: str, edited_text: str | None = None, expected_revision: int | None = None,
            actor: str = "cli") -> dict:
    """Write the proposal where it belongs (``edited_text`` replaces its text) and mark it approved.
    Raises NOT_FOUND, CONFLICT (stale revision, already decided), REVIEW_CORRUPT,
    REVIEW_TARGET_GONE (the project area was removed; the proposal stays pending)."""
    root = cfg.root
    if edited_text is not None:
        if not isinstance(edited_text, str) or not edited_text.strip():
            raise CodeMemoryError("INVALID_ARGUMENT", "the edited text is empty")
        if len(edited_text) > MAX_EDIT_CHARS:
            raise CodeMemoryError("INVALID_ARGUMENT", f"the edited text is longer than {MAX_EDIT_CHARS} characters")
        edited_text = redact(edited_text)
    with queue.decision(root, pid, expected_revision) as prop:
        text = edited_text if edited_text is not None else prop["text"]
        ver = _approved_verification(prop, actor)
        result = _write(cfg, prop, text, ver)
        fields = {"verification": ver, "written_to": result["written_to"]}
        if edited_text is not None:
            fields.update(text=text, original_text=prop["text"])
        done = queue.finish(root, prop, "approved", actor, **fields)
        _audit(root, "approved", done, actor, edited=edited_text is not None, written_to=result["written_to"])
    return {"id": pid, "kind": done["kind"], "project": done.get("project"), "status": "approved",
            "revision": done["revision"], "edited": edited_text is not None, **result}


def reject(cfg, pid: str, reason: str | None = None, expected_revision: int | None = None,
           actor: str = "cli") -> dict:
    """Mark the proposal rejected; a trigram-near proposal of the same kind+project is not queued again."""
    root = cfg.root
    reason = redact(" ".join(str(reason).split())[:500]) if reason else None
    with queue.decision(root, pid, expected_revision) as prop:
        done = queue.finish(root, prop, "rejected", actor, **({"reason": reason} if reason else {}))
        _audit(root, "rejected", done, actor, has_reason=bool(reason))
    return {"id": pid, "kind": done["kind"], "project": done.get("project"), "status": "rejected",
            "revision": done["revision"]}
