"""Who may read what: the one access policy behind every door (CLI search/get, ``code-memory
remember``, facts, memtool, the MCP tools, the web UI) — docs/security.md.

A caller sees its **home scope**: global memory, its own project (and that project's groups) and
the registered workspace holding its home directory. Anything wider — another project, another
workspace, ``--scope all`` — is *widening*, and widening needs an explicit action on the user's
terminal. Who is asking is :mod:`code_memory.caller`'s question:

* Inside a Claude Code session widening is refused outright (its variables, or a Claude Code
  ancestor). The home directory is Claude Code's own working directory, so ``cd`` in the Bash
  tool does not move the home scope; a session process that lost its ancestor (``setsid``) and a
  process detached from every terminal have no home at all — global memory only.
* Such *restricted* callers use only the memory root Claude Code was started with
  (:func:`guard_root`: another ``--root`` / ``$CODE_MEMORY_ROOT`` is ``MEMORY_SCOPE_DENIED``).
* Outside a session the user confirms on the controlling terminal (``/dev/tty``) by typing the
  code it shows, after type-ahead is discarded. Claude Code runs every Bash tool command without a
  controlling terminal (verified with the real binary 2.1.330: ``/dev/tty`` gives ENXIO), so a
  command the model starts cannot open the prompt.

What a same-user process cannot be kept from doing is in docs/security.md (§ The same-user
limit); the hard boundary is Claude Code's sandbox (``code-memory sandbox install``).

Paths: :func:`path_denial` says why a file may not be read — derived files (the index, the
key-value log, snapshot, digests and index files, databases, logs, locks, config) never, another
project's area and session notes only in a widened scope. :func:`read_memory_lines` is the one
file read every door uses; in a daily note it blanks the lines of projects outside the scope.

For the web UI: ``resolve_scope(cfg, …)`` → :class:`Scope`; ``read_memory_lines(cfg, scope, path,
…)``; ``path_denial(root, real_path, scope)``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from ..caller import (  # noqa: F401 — the policy's names, kept importable from here
    SESSION_ENV,
    Caller,
    claude_ancestor,
    confirm_on_terminal,
    identify,
    session_evidence,
)
from ..errors import CodeMemoryError

DENIED = "MEMORY_SCOPE_DENIED"
HIDDEN_LINE = "[a line of another project, hidden]"

# derived or private files under a memory root: never served by a file read
DERIVED_TOP = ("kv", "evolution")
DERIVED_SUFFIXES = (".sqlite", ".sqlite-wal", ".sqlite-shm", ".db", ".db-wal", ".db-shm", "-journal",
                    ".jsonl", ".lock", ".tmp", ".pid", ".sock", ".log")
PRIVATE_FILES = ("config.json",)


@dataclass
class Scope:
    """What a caller may read. ``wide``: every project and workspace (``--scope all``)."""

    root: str
    project: str | None = None
    areas: set = field(default_factory=set)         # project area names readable (own + groups)
    workspace: object | None = None                # workspace.registry.Workspace or None
    wide: bool = False
    in_session: bool = False
    restricted: bool = False                       # a session or a detached process (caller.Caller)

    @property
    def workspace_id(self) -> str | None:
        return getattr(self.workspace, "id", None)

    def roots(self, registry=None) -> list:
        if self.wide and registry is not None:
            return [self.root] + registry.memory_dirs()
        return [self.root] + ([self.workspace.memory_dir] if self.workspace is not None else [])


def home_dir(cwd: str | None = None, ancestor=None, caller: Caller | None = None) -> str | None:
    """The directory whose project and workspace the caller sees: Claude Code's own working
    directory when it is an ancestor (the model's ``cd`` does not move it); None for a session
    process without that ancestor or a detached process (they have no home: global memory only);
    else ``cwd``."""
    ancestor = claude_ancestor() if ancestor is None else ancestor
    if ancestor and ancestor[1]:
        return ancestor[1]
    if ancestor or (caller is not None and caller.restricted):
        return None
    return cwd or os.getcwd()


def authorize_widening(what: str, evidence: list, confirm=confirm_on_terminal) -> None:
    """Raise ``MEMORY_SCOPE_DENIED`` unless the user allows ``what`` on their terminal; inside a
    Claude Code session (``evidence`` non-empty) it is refused without asking."""
    if evidence:
        raise CodeMemoryError(DENIED, f"{what} is refused inside a Claude Code session ({'; '.join(evidence)})",
                              hint="a session sees global memory, its own project and its workspace; "
                                   "run the command yourself in a terminal outside Claude Code")
    if not confirm(f"code-memory: {what}."):
        raise CodeMemoryError(DENIED, f"{what} needs your confirmation on the terminal",
                              hint="run it in an interactive terminal and type the code it shows (there was "
                                   "no terminal, or the answer was not the code)")


def refuse_in_session(what: str, evidence: list | None = None) -> None:
    """Raise ``MEMORY_SCOPE_DENIED`` when the caller is part of a Claude Code session: deciding what
    Claude remembers (approving or rejecting a proposal, opening the memory browser) is the user's."""
    evidence = session_evidence() if evidence is None else evidence
    if evidence:
        raise CodeMemoryError(DENIED, f"{what} is refused inside a Claude Code session ({'; '.join(evidence)})",
                              hint="what Claude remembers is your decision: run it yourself in a terminal "
                                   "outside Claude Code")


def require_the_user(what: str, caller: Caller | None = None, confirm=confirm_on_terminal,
                     details=None) -> None:
    """A decision only the user makes at their own terminal (approving or rejecting a proposal):
    refused inside a session, and otherwise confirmed with the code :func:`confirm_on_terminal`
    shows — a detached process has no terminal to type it on. ``details()`` (say, the proposal's
    text) is shown on the terminal only, never in an error a refused caller reads."""
    caller = identify() if caller is None else caller
    refuse_in_session(what, caller.evidence)
    if not confirm(f"code-memory: {what}" + (f" — {details()}" if details else "") + "."):
        raise CodeMemoryError(DENIED, f"{what} needs your confirmation on the terminal",
                              hint="run it yourself in an interactive terminal and type the code it shows, "
                                   "or decide in the memory browser (code-memory ui)")


def who_asks(caller: Caller) -> str:
    """How a refusal names a restricted caller: inside a session, or detached, with the evidence."""
    where = "inside a Claude Code session" if caller.in_session else "for a detached process"
    return f"{where} ({'; '.join(caller.reasons())})"


def refuse_restricted(what: str, hint: str, caller: Caller | None = None) -> Caller:
    """Raise ``MEMORY_SCOPE_DENIED`` when a session or a detached process asks for ``what``, which
    only the user at a terminal does (``hint``: where they do it). Returns the caller."""
    caller = identify() if caller is None else caller
    if caller.restricted:
        raise CodeMemoryError(DENIED, f"{what} is refused {who_asks(caller)}", hint=hint)
    return caller


def guard_root(root_arg: str | None, caller: Caller | None = None, env=None) -> Caller:
    """Inside a session or from a detached process, only the memory root (and config file) Claude
    Code was started with may be used: ``MEMORY_SCOPE_DENIED`` for another ``--root`` /
    ``$CODE_MEMORY_ROOT`` / ``$CODE_MEMORY_CONFIG``. Returns the caller."""
    from ..caller import root_refusal

    caller = identify(env) if caller is None else caller
    reason = root_refusal(caller, root_arg, env)
    if reason:
        raise CodeMemoryError(DENIED, f"{reason}; refused {who_asks(caller)}",
                              hint="a session reads and writes only the memory root Claude Code was started "
                                   "with; run the command yourself in a terminal for another root")
    return caller


def resolve_scope(cfg, *, project: str | None = None, workspace: str | None = None, scope: str = "project",
                  cwd: str | None = None, env=None, confirm=confirm_on_terminal, ancestor=None,
                  verb: str = "reading",
                  widest: str = "reading every project's and workspace's memory (--scope all)",
                  caller: Caller | None = None) -> Scope:
    """The scope a command may read (or, with ``verb="writing to"``, write): the caller's home
    scope, widened to ``project`` / ``workspace`` / ``scope="all"`` only when
    :func:`authorize_widening` allows it (``widest``: how the question names ``scope="all"``).
    ``caller`` (default: :func:`~code_memory.caller.identify` from ``env`` and ``ancestor``)
    decides the home: a session process without its Claude Code ancestor and a detached process
    have none (global memory only)."""
    from ..projects import detect_project, readable_areas
    from ..workspace.registry import registry_from_config

    if caller is None:
        caller = identify(env, claude_ancestor() if ancestor is None else ancestor)
    evidence = caller.evidence
    home = home_dir(cwd, caller.ancestor or (), caller)
    found = detect_project(None, home, cfg.get("projects")) if home else None
    home_project = found.name if found else None
    registry = registry_from_config(cfg)
    home_ws = registry.containing(home) if home else None
    areas = readable_areas(home_project, cfg.get("project_groups"))
    out = Scope(cfg.root, home_project, areas, home_ws, in_session=bool(evidence), restricted=caller.restricted)
    if scope not in ("project", "all"):
        raise CodeMemoryError("INVALID_ARGUMENT", f"unknown scope {scope!r}", hint="project or all")
    if scope == "all":
        authorize_widening(widest, evidence, confirm)
        out.wide, out.workspace, out.project = True, None, None
        return out
    if project and project != home_project and project not in areas:
        authorize_widening(f"{verb} project {project!r}'s memory from {home_project or 'outside any project'}",
                           evidence, confirm)
        out.project, out.areas = project, readable_areas(project, cfg.get("project_groups"))
    if workspace:
        wanted = registry.get(workspace)
        if home_ws is None or wanted.id != home_ws.id:
            authorize_widening(f"using workspace {wanted.id!r} from "
                               f"{'workspace ' + repr(home_ws.id) if home_ws else 'outside any workspace'}",
                               evidence, confirm)
        out.workspace = wanted
    return out


# ---------------------------------------------------------------------------------------------
# which files

def path_denial(root: str, real_path: str, scope: Scope | None = None) -> str | None:
    """Why ``real_path`` (resolved, inside the memory root or a workspace's ``memory/``) may not be
    read through ``get``, or None. Derived files never; another project's memory outside ``scope``."""
    base = os.path.realpath(root)
    inside_root = real_path == base or real_path.startswith(base.rstrip(os.sep) + os.sep)
    rel = os.path.relpath(real_path, base).split(os.sep) if inside_root else [os.path.basename(real_path)]
    name = rel[-1]
    if any(part.startswith(".") for part in rel) or name.endswith(DERIVED_SUFFIXES):
        return "derived and internal files (index, logs, databases, locks) are not served"
    if inside_root and (rel[0] in DERIVED_TOP or (len(rel) == 1 and name in PRIVATE_FILES)):
        return (f"{rel[0]}/ holds derived files: read key-value memory with kv:<key>" if rel[0] == "kv"
                else f"{'/'.join(rel)} is not memory text")
    if scope is None or scope.wide or not inside_root:
        return None
    if len(rel) >= 3 and rel[0] == "areas" and rel[1] == "projects" and rel[2] not in scope.areas:
        return f"areas/projects/{rel[2]} is another project's memory"
    if len(rel) == 2 and rel[0] == "sessions" and name.endswith(".md"):
        from ..fsutil import read_text
        from .chunking import session_project
        owner = session_project(read_text(real_path, default="") or "")
        if owner and owner not in scope.areas:
            return "that session note belongs to another project"
    return None


def foreign_daily_lines(text: str, scope: Scope) -> set:
    """0-based line numbers of a daily note that belong to projects outside ``scope``."""
    from .chunking import daily_entries

    lines = text.split("\n")
    hidden = set()
    for start, end, project in daily_entries(lines):
        if project and project not in scope.areas:
            hidden.update(i for i in range(start, end) if lines[i].strip())
    return hidden


def read_memory_lines(cfg, scope: Scope, path: str, from_line: int = 1, lines: int = 40) -> dict:
    """Lines of one memory file as every door serves them: inside the scope's roots, never a
    derived file or another project's, other projects' daily lines blanked."""
    from ..fsutil import read_text
    from ..paths import is_memory_root, resolve_inside
    from ..workspace.registry import registry_from_config
    from .engine import get_lines

    roots = scope.roots(registry_from_config(cfg) if scope.wide else None)
    if not isinstance(path, str) or not path:
        raise CodeMemoryError("INVALID_ARGUMENT", "a path is required", hint="pass a path or id from a search hit")
    if not is_memory_root(cfg.root):         # `get --root / --path etc/passwd`: not memory text
        raise CodeMemoryError("NOT_FOUND", f"there is no memory root at {cfg.root}",
                              hint="get reads memory files; `code-memory init` makes a memory root", path=path)
    real = resolve_inside(path, roots, base=cfg.root)
    reason = path_denial(cfg.root, real, scope)
    if reason:
        raise CodeMemoryError("MEMORY_PATH_TRAVERSAL", f"{reason}; this session sees global memory and its own "
                              "project's and workspace's", hint="use search to find readable files", path=path)
    answer = get_lines(roots, real, from_line, lines, base=cfg.root)
    rel = os.path.relpath(real, os.path.realpath(cfg.root)).split(os.sep)
    if not scope.wide and len(rel) == 2 and rel[0] == "daily":
        hidden = foreign_daily_lines(read_text(real, default="") or "", scope)
        if hidden:
            first = answer["from_line"] - 1
            shown = answer["text"].split("\n")
            answer["text"] = "\n".join(HIDDEN_LINE if first + i in hidden else line for i, line in enumerate(shown))
            answer["hidden_lines"] = sum(1 for i in range(len(shown)) if first + i in hidden)
    return answer
