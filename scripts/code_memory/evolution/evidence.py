"""Which experiences a session's work was about: the link a session's outcome needs before it counts
for an experience's score (docs/evolution.md, Score). Being handed to the session (a ``ref``) is
not enough — that is co-occurrence; the session must also have changed the experience's files:

  rule of project P    a file of P (or of a project in group P) changed in the session; when the
                       rule names paths (``src/pay/``, ``*.sql``, ``package.json``, ``migrations/``),
                       a changed file matching one of them
  pitfall (MEMORY.md)  a changed file matching a path the line names — a pitfall that names no
                       file is about no file, and no session's outcome moves its score
  fact                 like a rule of its area's project (``areas/projects/<name>/facts.json``),
                       else like a pitfall

Changed files are those a successful Edit, Write, MultiEdit or NotebookEdit changed (the
transcript's assessment, evolution/outcome.py). A path in a line matches a changed file by its
trailing components: ``config.py`` and ``hookrelay/config.py`` match ``…/hookrelay/config.py``,
``migrations/`` every file under a ``migrations`` directory, ``*.sql`` and ``mail/*.html`` as globs.
"""

from __future__ import annotations

import fnmatch
import os
import re

from ..memory.experience import parse_id
from ..projects import project_of_file, readable_areas

_EXTENSIONS = ("py|pyi|js|mjs|cjs|ts|tsx|jsx|json|md|sql|sh|bash|zsh|yml|yaml|toml|cfg|ini|txt|html|htm|css|"
               "scss|go|rs|java|kt|rb|php|c|h|cc|cpp|hpp|cs|swift|lock|xml|vue|svelte|proto|tf|gradle|env")
_PATH_TOKEN = re.compile(
    r"(?<![\w./*-])(?:"
    r"(?:[\w.*-]+/)+[\w.*-]*"                                        # dir/, dir/file, dir/*.ext
    r"|\*\.[A-Za-z0-9]+"                                             # *.sql
    rf"|[\w-]+(?:\.[\w-]+)*\.(?:{_EXTENSIONS})"                      # file.py, docker-compose.yml
    r"|Dockerfile|Makefile|Procfile|Gemfile|Jenkinsfile|Vagrantfile"
    r")(?![\w/])")


def scope_of(text: str) -> list:
    """The path patterns a rule, pitfall or fact names (in order, without duplicates)."""
    found = []
    for match in _PATH_TOKEN.finditer(text or ""):
        token = match.group(0).strip(".")
        if "://" in text[max(0, match.start() - 3):match.start() + 3] or token.startswith("http"):
            continue
        if token and token not in found:
            found.append(token)
    return found


def file_matches(path: str, pattern: str) -> bool:
    """Does the changed file ``path`` fall under ``pattern`` (see the module docstring)?"""
    parts = [p for p in path.replace(os.sep, "/").split("/") if p]
    suffixes = ["/".join(parts[i:]) for i in range(len(parts))]
    if pattern.endswith("/"):
        directory = pattern.strip("/")
        return any(s.startswith(directory + "/") for s in suffixes)
    if any(c in pattern for c in "*?["):
        return any(fnmatch.fnmatchcase(s, pattern) for s in suffixes)
    return any(s == pattern or s.startswith(pattern + "/") for s in suffixes)


def _owner_project(location) -> str | None:
    """The project whose area holds a fact (``areas/projects/<name>/facts.json``), else None."""
    parts = location.path.replace(os.sep, "/").split("/")
    return parts[2] if len(parts) >= 4 and parts[:2] == ["areas", "projects"] else None


def session_evidence(paths, session_id: str, assessment, project: str | None = None,
                     projects_map: dict | None = None, project_groups: dict | None = None) -> list:
    """The experiences handed to ``session_id`` (its refs) whose files the assessed transcript
    changed: what its outcome counts for (``feedback.record_assessment``)."""
    from .feedback import session_refs

    handed = [r["experience_id"] for r in session_refs(paths, session_id)]
    return touched(paths, handed, assessment.changed_files, cwd=assessment.cwd or None, project=project,
                   projects_map=projects_map, project_groups=project_groups)


def touched(paths, experience_ids, changed_files, cwd: str | None = None, project: str | None = None,
            projects_map: dict | None = None, project_groups: dict | None = None) -> list:
    """The ``experience_ids`` (those handed to the session) whose files ``changed_files`` touched.

    ``project`` is the session's project (the summary's): the project of every changed file under
    ``cwd``; a file elsewhere belongs to its own git checkout or ``projects`` entry, if any."""
    from .archive import locate

    if not changed_files:
        return []
    owners: dict = {}

    def projects_of(path: str) -> set:
        if path not in owners:
            if project and cwd and path.startswith(cwd.rstrip("/") + "/"):
                name = project
            else:
                found = project_of_file(path, cwd=cwd, projects_map=projects_map)
                name = found.name if found else None
            owners[path] = readable_areas(name, project_groups)
        return owners[path]

    out = []
    for eid in dict.fromkeys(experience_ids):
        location = locate(paths, eid)
        if location is None:
            continue
        kind, owner, _key = parse_id(eid)
        if kind == "fact":
            owner = _owner_project(location)
        files = [f for f in changed_files if owner in projects_of(f)] if owner else list(changed_files)
        scope = scope_of(location.line)
        if not scope:
            hit = bool(owner and files)          # a rule of the project; a pitfall naming no file: never
        else:
            hit = any(file_matches(f, pattern) for f in files for pattern in scope)
        if hit:
            out.append(eid)
    return out
