"""Project identity (docs/stores.md § The memory tree): config ``projects`` map → git top-level name → directory name.

Pure file-system inspection, no subprocesses, so hooks can call it on the hot path. Worktrees of
one repository share the main checkout's name.
"""

from __future__ import annotations

import os

from .paths import Frozen, expand, safe_name


class Project(Frozen):
    """``name``: safe for use as a directory name under areas/projects/; ``root``: the directory
    the name was derived from; ``source``: "config" | "git" | "directory"."""

    __slots__ = ("name", "root", "source")


def _git_top(start: str) -> tuple[str, str] | None:
    """(top-level dir, repository name) for the git checkout holding ``start``, or None."""
    current = start
    while True:
        dot_git = os.path.join(current, ".git")
        if os.path.isdir(dot_git):
            return current, os.path.basename(current)
        if os.path.isfile(dot_git):
            return current, _name_from_gitfile(current, dot_git)
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def _name_from_gitfile(top: str, dot_git: str) -> str:
    """A ``.git`` file marks a worktree or a submodule; worktrees take the main checkout's name."""
    try:
        with open(dot_git, encoding="utf-8", errors="replace") as fh:
            line = fh.readline().strip()
    except OSError:
        return os.path.basename(top)
    if not line.startswith("gitdir:"):
        return os.path.basename(top)
    gitdir = line[len("gitdir:"):].strip()
    if not os.path.isabs(gitdir):
        gitdir = os.path.normpath(os.path.join(top, gitdir))
    commondir_file = os.path.join(gitdir, "commondir")
    if os.path.isfile(commondir_file):  # a linked worktree: <main>/.git/worktrees/<name>
        try:
            with open(commondir_file, encoding="utf-8", errors="replace") as fh:
                common = fh.readline().strip()
        except OSError:
            return os.path.basename(top)
        if not os.path.isabs(common):
            common = os.path.normpath(os.path.join(gitdir, common))
        if os.path.basename(common) == ".git":
            return os.path.basename(os.path.dirname(common))
        return os.path.basename(common).removesuffix(".git") or os.path.basename(top)
    return os.path.basename(top)  # a submodule is a project of its own


def _config_match(path: str, projects_map: dict) -> Project | None:
    best = None
    for prefix, name in (projects_map or {}).items():
        if not isinstance(prefix, str) or not isinstance(name, str) or not name.strip():
            continue
        full = os.path.realpath(expand(prefix)).rstrip(os.sep)
        if path == full or path.startswith(full + os.sep):
            if best is None or len(full) > len(best[0]):
                best = (full, name)
    if best:
        return Project(safe_name(best[1]), best[0], "config")
    return None


def detect_project(path: str | None, cwd: str | None = None, projects_map: dict | None = None) -> Project | None:
    """The project a file (or, without one, the working directory) belongs to.

    ``path`` may be a file that does not exist yet (a Write); its directory is used.
    """
    candidates = []
    for p in (path, cwd):
        if p and isinstance(p, str) and "\x00" not in p:
            if not os.path.isabs(p) and cwd:
                p = os.path.join(cwd, p)
            candidates.append(os.path.realpath(expand(p)))
    if not candidates:
        return None
    for cand in candidates:
        match = _config_match(cand, projects_map or {})
        if match:
            return match
    for cand in candidates:
        start = cand if os.path.isdir(cand) else os.path.dirname(cand)
        found = _git_top(start)
        if found:
            return Project(safe_name(found[1]), found[0], "git")
    base = candidates[-1] if cwd else os.path.dirname(candidates[0])
    if not os.path.isdir(base):
        base = os.path.dirname(base)
    return Project(safe_name(os.path.basename(base) or "root"), base, "directory")


def project_of_file(path: str, cwd: str | None = None, projects_map: dict | None = None) -> Project | None:
    """The project a file belongs to by its own location — the config map, its git checkout, or
    the working directory's project when the file lies inside that project's directory — or None
    for a file outside every project (``~/scratch/x.py``, ``~/.bashrc``): the gates must not hold
    such a file to the session's project. A directory project rooted at the home directory or at
    ``/`` contains no files here (it is not a project, just where the session started)."""
    if not path or not isinstance(path, str) or "\x00" in path:
        return None
    if not os.path.isabs(path) and cwd:
        path = os.path.join(cwd, path)
    real = os.path.realpath(expand(path))
    match = _config_match(real, projects_map or {})
    if match:
        return match
    found = _git_top(real if os.path.isdir(real) else os.path.dirname(real))
    if found:
        return Project(safe_name(found[1]), found[0], "git")
    home = detect_project(None, cwd, projects_map) if cwd else None
    if home is None or home.source == "git" or home.root in (os.path.realpath(os.path.expanduser("~")), os.sep):
        return None          # a git project would have been found above; the file lies outside it
    return home if real.startswith(home.root.rstrip(os.sep) + os.sep) else None


def project_areas(project: str | None, project_groups: dict | None) -> set:
    """The areas a caller of ``project`` reads: the project's own and its groups' (none without a project)."""
    return {project, *group_names(project, project_groups)} if project else set()


def group_names(project: str, project_groups: dict | None) -> list:
    """The groups (shared rules sets) a project belongs to, in config order."""
    out = []
    for group, members in (project_groups or {}).items():
        if isinstance(members, list) and project in members:
            out.append(safe_name(group))
    return out
