"""``code-memory facts list|add|supersede|archive|extract`` and ``auto-extract-facts.py``.

Facts live in ``areas/<kind>/<name>/facts.json`` (docs/stores.md § Facts) with a lifecycle
active → superseded (``supersededBy``) | archived; nothing is ever deleted.
"""

from __future__ import annotations

import glob
import os

from ..errors import CodeMemoryError, invalid
from ..llm import BACKENDS
from .common import add_common, options_script_main, restricted

MAX_MANUAL_FACT_CHARS = 1000


def _add_area(p, required: bool) -> None:
    group = p.add_mutually_exclusive_group(required=required)
    group.add_argument("--project", metavar="NAME", help="the project's facts (areas/projects/NAME)")
    group.add_argument("--area", metavar="KIND/NAME", help="any area: projects/NAME, patterns/NAME or tools/NAME")


AREA_KINDS = ("projects", "patterns", "tools")


def _facts_path(paths, args) -> tuple:
    if args.project:
        kind, name = "projects", args.project
    else:
        kind, _, name = args.area.partition("/")
        if kind not in AREA_KINDS or not name:
            raise invalid(f"--area must be KIND/NAME with KIND one of {', '.join(AREA_KINDS)}, got {args.area!r}",
                          hint="e.g. --area tools/docker")
    folder = paths.area_dir(kind, name)          # the name made safe: never a path outside areas/
    return os.path.relpath(folder, paths.areas), os.path.join(folder, "facts.json")


def _known_area(paths, kind: str, name: str, create: bool) -> None:
    """A fact goes to an existing area, the current directory's project, or one asked for with
    ``--create`` — a typo never silently starts a new area."""
    if create or os.path.isdir(paths.area_dir(kind, name)):
        return
    if kind == "projects":
        from ..config import load_config
        from ..projects import detect_project
        here = detect_project(None, os.getcwd(), load_config().get("projects") or {})
        if here is not None and here.name == name:
            return
    import difflib
    existing = sorted(d for d in os.listdir(os.path.join(paths.areas, kind))
                      if os.path.isdir(os.path.join(paths.areas, kind, d))) if os.path.isdir(
        os.path.join(paths.areas, kind)) else []
    close = difflib.get_close_matches(name, existing, n=3)
    raise CodeMemoryError("NOT_FOUND", f"there is no area {kind}/{name}",
                          hint=(f"did you mean {', '.join(close)}? " if close else "")
                          + "pass --create to start a new area", existing=existing[:20])


def _writable_paths(args):
    """The memory paths for a fact write — to another project's area only as the access policy
    allows a widening (search/access.py): confirmed on the terminal, never from inside Claude Code."""
    from ..config import load_config
    from ..search.access import resolve_scope
    cfg = load_config(args.root)
    named = args.project or (args.area.partition("/")[2] if (args.area or "").startswith("projects/") else None)
    resolve_scope(cfg, project=named, cwd=os.getcwd(), verb="writing to")
    return cfg.paths


def cmd_list(args) -> dict:
    """Facts of the caller's scope (search.access): patterns, tools and its own project's; another
    project's only with ``--project`` confirmed on the terminal — never from inside Claude Code."""
    from ..config import load_config
    from ..memory.facts import load_facts
    from ..search.access import resolve_scope
    cfg = load_config(args.root)
    paths = cfg.paths
    named = args.project or (args.area.partition("/")[2] if (args.area or "").startswith("projects/") else None)
    scope = resolve_scope(cfg, project=named, cwd=os.getcwd())
    if args.project or args.area:
        areas = [_facts_path(paths, args)]
    else:
        areas = [(os.path.relpath(os.path.dirname(p), paths.areas), p)
                 for p in sorted(glob.glob(os.path.join(paths.areas, "*", "*", "facts.json")))]
        areas = [(area, p) for area, p in areas
                 if not area.startswith("projects/") or area.split("/", 1)[1] in scope.areas]
    out = []
    for area, path in areas:
        for fact in load_facts(path):
            if args.status == "all" or fact.get("status", "active") == args.status:
                out.append({"area": area, **fact})
    return {"count": len(out), "facts": out}


def _clean_text(text: str) -> str:
    from ..redact import redact
    text = " ".join((text or "").split())
    if not text:
        raise invalid("the fact text is empty")
    if len(text) > MAX_MANUAL_FACT_CHARS:
        raise invalid(f"a fact is one statement of at most {MAX_MANUAL_FACT_CHARS} characters")
    return redact(text)


def cmd_add(args) -> dict:
    from ..memory.facts import add_fact
    from ..memory.tree import ensure_area
    paths = _writable_paths(args)
    area, path = _facts_path(paths, args)
    kind, _, name = area.partition("/")
    _known_area(paths, kind, name, getattr(args, "create", False))
    ensure_area(paths, kind, name)
    evidence = _clean_text(args.evidence or "added by hand")
    verification = None
    if restricted():        # the model's word: an unverified fact, whatever evidence it names
        evidence, verification = f"added from a Claude Code session: {evidence}", {"state": "hypothesis", "evidence": []}
    fact = add_fact(path, _clean_text(args.text), evidence=evidence, category=args.category,
                    supersedes=getattr(args, "supersedes", None), verification=verification)
    return {"area": area, "fact": fact}


def cmd_supersede(args) -> dict:
    args.supersedes = args.old_id
    result = cmd_add(args)
    result["superseded"] = args.old_id
    return result


def cmd_archive(args) -> dict:
    from ..memory.facts import set_status
    from ..search.access import refuse_restricted
    refuse_restricted("archiving a fact", "add the corrected fact (facts supersede); the user archives facts")
    paths = _writable_paths(args)
    area, path = _facts_path(paths, args)
    return {"area": area, "fact": set_status(path, args.fact_id, "archived")}


def cmd_extract(args) -> dict:
    """Facts from the week's session notes — of every project, or ``--project``; a session (or a
    detached process) extracts its own project's only (search/access.py)."""
    from ..config import load_config
    from ..search.access import resolve_scope
    from ..summary.fact_extract import extract_configured

    cfg = load_config(args.root)
    project = args.project
    scope = resolve_scope(cfg, project=project, cwd=os.getcwd(), verb="writing to")
    if scope.restricted and not scope.project:
        raise CodeMemoryError("MEMORY_SCOPE_DENIED", "fact extraction reads every project's session notes; this "
                              "caller has no project of its own", hint="run it yourself in a terminal")
    if scope.restricted:
        project = scope.project
    return extract_configured(cfg, backend_name=args.backend, dry_run=args.dry_run, project=project)


def render_list(result: dict) -> str:
    if result.get("ok") is False:
        return f"error {result.get('error')}: {result.get('message')}"
    if "facts" in result:
        lines = [f"{result['count']} facts"]
        for f in result["facts"]:
            extra = f" → {f['supersededBy']}" if f.get("supersededBy") else ""
            lines.append(f"[{f.get('status', 'active')}] {f.get('id')} ({f['area']}, {f.get('category', '')}){extra}: "
                         f"{f.get('fact')}")
        return "\n".join(lines)
    if "projects" in result:
        lines = [f"{result['facts_added']} facts {'proposed' if result['dry_run'] else 'added'} "
                 f"from {result['sessions']} recent sessions"]
        for r in result["projects"]:
            status = r.get("llm_error") or r.get("error") or r.get("invalid_json") or f"{len(r['added'])} new"
            lines.append(f"  {r['project']} ({len(r['sessions'])} sessions): {status}")
            lines += [f"    + {a['fact']}" + (f"  (supersedes {a['supersedes']})" if a.get("supersedes") else "")
                      for a in r["added"]]
        return "\n".join(lines)
    fact = result.get("fact", {})
    return f"{result.get('area')}: [{fact.get('status')}] {fact.get('id')}: {fact.get('fact')}"


def add_extract_arguments(p) -> None:
    p.add_argument("--dry-run", action="store_true", help="show the facts that would be added; write nothing")
    p.add_argument("--project", help="only this project")
    p.add_argument("--backend", choices=BACKENDS, help="override llm.backend for this run")
    add_common(p)


def register(sub) -> None:
    facts = sub.add_parser("facts", help="atomic facts: list, add, supersede, archive, extract")
    fsub = facts.add_subparsers(dest="facts_command", metavar="ACTION")
    fsub.required = True

    p = fsub.add_parser("list", help="list facts (all areas, or one)")
    _add_area(p, required=False)
    p.add_argument("--status", choices=("active", "superseded", "archived", "all"), default="active",
                   help="which facts (default active)")
    add_common(p)
    p.set_defaults(handler=cmd_list, text_renderer=render_list)

    p = fsub.add_parser("add", help="add an active fact")
    p.add_argument("text", help="the fact, one sentence")
    _add_area(p, required=True)
    p.add_argument("--category", default="general", help="a short label grouping facts (default general)")
    p.add_argument("--evidence", help="where the fact comes from")
    p.add_argument("--supersedes", metavar="FACT_ID", help="mark this older fact superseded by the new one")
    p.add_argument("--create", action="store_true",
                   help="start the area if it does not exist yet (else a name that matches no area is refused)")
    add_common(p)
    p.set_defaults(handler=cmd_add, text_renderer=render_list)

    p = fsub.add_parser("supersede", help="replace a fact: add the new text, mark the old one superseded")
    p.add_argument("old_id", metavar="FACT_ID", help="the fact to replace")
    p.add_argument("text", help="the new text")
    _add_area(p, required=True)
    p.add_argument("--category", default="general", help="a short label grouping facts (default general)")
    p.add_argument("--evidence", help="where the new text comes from")
    add_common(p)
    p.set_defaults(handler=cmd_supersede, text_renderer=render_list)

    p = fsub.add_parser("archive", help="mark a fact archived (no longer applies)")
    p.add_argument("fact_id", metavar="FACT_ID", help="the fact to archive")
    _add_area(p, required=True)
    add_common(p)
    p.set_defaults(handler=cmd_archive, text_renderer=render_list)

    p = fsub.add_parser("extract", help="LLM fact extraction from recent sessions (= auto-extract-facts.py)")
    add_extract_arguments(p)
    p.set_defaults(handler=cmd_extract, text_renderer=render_list)


def main_extract(argv=None) -> int:
    return options_script_main("auto-extract-facts.py", "Extract atomic facts from the last week's session summaries.",
                               add_extract_arguments, cmd_extract, render_list, argv)
