"""Who may read what: the one access policy behind every door (CLI search/get, ``code-memory
remember``, the MCP tools, the web UI).

A caller sees its **home scope**: global memory, its own project (and that project's groups) and
the registered workspace holding its home directory. Anything wider — another project, another
workspace, ``--scope all`` — is *widening*, and widening needs an explicit action on the user's
terminal:

* Inside a Claude Code session it is refused outright. A session is recognised by its environment
  (``CLAUDECODE``, ``CLAUDE_CODE_SESSION_ID``, ``CLAUDE_CODE_ENTRYPOINT``, …) **or** by a
  Claude Code process among the caller's ancestors — unsetting the variables does not hide that.
  In a session the home directory is Claude Code's own working directory (its launch directory),
  so ``cd`` in the Bash tool does not move the home scope either.
* Outside a session the user confirms on the controlling terminal (``/dev/tty``). Claude Code runs
  every Bash tool command in a new session without a controlling terminal (verified with the real
  binary, also when Claude Code itself runs on a terminal: ``/dev/tty`` gives ENXIO), so a command
  the model starts — even detached, with the variables unset — cannot open the prompt, and a
  process without a terminal is refused.

What a same-user process cannot be kept from doing is written in the README (§ Trust boundaries):
a model that deliberately builds its own pseudo-terminal (``script``, Python's ``pty``) in a
process detached from Claude Code could answer the prompt; the hard boundary for that is an OS
one (another user, a sandbox).

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

from ..errors import CodeMemoryError

SESSION_ENV = ("CLAUDECODE", "CLAUDE_CODE_SESSION_ID", "CLAUDE_CODE_ENTRYPOINT", "CLAUDE_CODE_CHILD_SESSION",
               "CLAUDE_PID", "CLAUDE_CODE_EXECPATH")
CLAUDE_NAMES = ("claude", "claude.exe")
MAX_ANCESTORS = 64
DENIED = "MEMORY_SCOPE_DENIED"
HIDDEN_LINE = "[a line of another project, hidden]"

# derived or private files under a memory root: never served by a file read
DERIVED_TOP = ("kv", "evolution")
DERIVED_SUFFIXES = (".sqlite", ".sqlite-wal", ".sqlite-shm", ".db", ".db-wal", ".db-shm", "-journal",
                    ".jsonl", ".lock", ".tmp", ".pid", ".sock", ".log")
PRIVATE_FILES = ("config.json",)


# ---------------------------------------------------------------------------------------------
# who is asking

def claude_ancestor(pid: int | None = None, proc: str = "/proc") -> tuple | None:
    """``(pid, cwd)`` of the nearest Claude Code process among ``pid``'s ancestors, or None.
    (cwd is None when it cannot be read.) Linux ``/proc`` only; elsewhere None."""
    pid = os.getpid() if pid is None else pid
    for _ in range(MAX_ANCESTORS):
        try:
            with open(f"{proc}/{pid}/stat", "rb") as fh:
                ppid = int(fh.read().rsplit(b")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            return None
        if ppid <= 1:
            return None
        pid = ppid
        try:
            with open(f"{proc}/{pid}/cmdline", "rb") as fh:
                argv = fh.read().split(b"\0")
        except OSError:
            continue
        if _is_claude(argv):
            try:
                cwd = os.readlink(f"{proc}/{pid}/cwd")
            except OSError:
                cwd = None
            return pid, cwd
    return None


def _is_claude(argv: list) -> bool:
    names = [os.path.basename(a.decode("utf-8", "replace")) for a in argv[:2] if a]
    if any(n in CLAUDE_NAMES for n in names):
        return True
    return any(b"@anthropic-ai/claude-code" in a for a in argv[:2])


def session_evidence(env=None, ancestor=None) -> list:
    """Why the caller looks like part of a Claude Code session (empty: it does not)."""
    env = os.environ if env is None else env
    found = [f"${name} is set" for name in SESSION_ENV if env.get(name)]
    ancestor = claude_ancestor() if ancestor is None else ancestor
    if ancestor:
        found.append(f"Claude Code (pid {ancestor[0]}) is an ancestor process")
    return found


def confirm_on_terminal(question: str, timeout: float = 120.0) -> bool:
    """Ask ``question`` on the controlling terminal and read the answer there (not stdin, which a
    caller can pipe). False without a terminal, on timeout, or unless the answer is y/yes."""
    import select

    try:
        fd = os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY)
    except OSError:
        return False
    try:
        os.write(fd, question.encode("utf-8", "replace"))
        answer = b""
        while not answer.endswith(b"\n") and len(answer) < 64:
            ready, _, _ = select.select([fd], [], [], timeout)
            if not ready:
                return False
            chunk = os.read(fd, 64)
            if not chunk:
                break
            answer += chunk
        return answer.decode("utf-8", "replace").strip().lower() in ("y", "yes")
    except OSError:
        return False
    finally:
        os.close(fd)


@dataclass
class Scope:
    """What a caller may read. ``wide``: every project and workspace (``--scope all``)."""

    root: str
    project: str | None = None
    areas: set = field(default_factory=set)         # project area names readable (own + groups)
    workspace: object | None = None                # workspace.registry.Workspace or None
    wide: bool = False
    in_session: bool = False

    @property
    def workspace_id(self) -> str | None:
        return getattr(self.workspace, "id", None)

    def roots(self, registry=None) -> list:
        if self.wide and registry is not None:
            return [self.root] + registry.memory_dirs()
        return [self.root] + ([self.workspace.memory_dir] if self.workspace is not None else [])


def home_dir(cwd: str | None = None, ancestor=None) -> str:
    """The directory whose project and workspace the caller sees: Claude Code's own working
    directory when it is an ancestor (the model's ``cd`` does not move it), else ``cwd``."""
    ancestor = claude_ancestor() if ancestor is None else ancestor
    if ancestor and ancestor[1]:
        return ancestor[1]
    return cwd or os.getcwd()


def authorize_widening(what: str, evidence: list, confirm=confirm_on_terminal) -> None:
    """Raise ``MEMORY_SCOPE_DENIED`` unless the user allows ``what`` on their terminal; inside a
    Claude Code session (``evidence`` non-empty) it is refused without asking."""
    if evidence:
        raise CodeMemoryError(DENIED, f"{what} is refused inside a Claude Code session ({'; '.join(evidence)})",
                              hint="a session sees global memory, its own project and its workspace; "
                                   "run the command yourself in a terminal outside Claude Code")
    if not confirm(f"code-memory: {what}. Allow? [y/N] "):
        raise CodeMemoryError(DENIED, f"{what} needs your confirmation on the terminal",
                              hint="run it in an interactive terminal and answer y (there was no terminal, "
                                   "or the answer was not y)")


def refuse_in_session(what: str, evidence: list | None = None) -> None:
    """Raise ``MEMORY_SCOPE_DENIED`` when the caller is part of a Claude Code session: deciding what
    Claude remembers (approving or rejecting a proposal, opening the memory browser) is the user's."""
    evidence = session_evidence() if evidence is None else evidence
    if evidence:
        raise CodeMemoryError(DENIED, f"{what} is refused inside a Claude Code session ({'; '.join(evidence)})",
                              hint="what Claude remembers is your decision: run it yourself in a terminal "
                                   "outside Claude Code")


def resolve_scope(cfg, *, project: str | None = None, workspace: str | None = None, scope: str = "project",
                  cwd: str | None = None, env=None, confirm=confirm_on_terminal, ancestor=None,
                  verb: str = "reading",
                  widest: str = "reading every project's and workspace's memory (--scope all)") -> Scope:
    """The scope a command may read (or, with ``verb="writing to"``, write): the caller's home
    scope, widened to ``project`` / ``workspace`` / ``scope="all"`` only when
    :func:`authorize_widening` allows it (``widest``: how the question names ``scope="all"``)."""
    from ..projects import detect_project, group_names
    from ..workspace.registry import registry_from_config

    ancestor = claude_ancestor() if ancestor is None else ancestor
    evidence = session_evidence(env, ancestor or ())
    home = home_dir(cwd, ancestor or ())
    found = detect_project(None, home, cfg.get("projects"))
    home_project = found.name if found else None
    registry = registry_from_config(cfg)
    home_ws = registry.containing(home)
    areas = {home_project, *group_names(home_project, cfg.get("project_groups"))} if home_project else set()
    out = Scope(cfg.root, home_project, areas, home_ws, in_session=bool(evidence))
    if scope not in ("project", "all"):
        raise CodeMemoryError("INVALID_ARGUMENT", f"unknown scope {scope!r}", hint="project or all")
    if scope == "all":
        authorize_widening(widest, evidence, confirm)
        out.wide, out.workspace, out.project = True, None, None
        return out
    if project and project != home_project and project not in areas:
        authorize_widening(f"{verb} project {project!r}'s memory from {home_project or 'outside any project'}",
                           evidence, confirm)
        out.project, out.areas = project, {project, *group_names(project, cfg.get("project_groups"))}
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
    from ..paths import resolve_inside
    from ..workspace.registry import registry_from_config
    from .engine import get_lines

    roots = scope.roots(registry_from_config(cfg) if scope.wide else None)
    if not isinstance(path, str) or not path:
        raise CodeMemoryError("INVALID_ARGUMENT", "a path is required", hint="pass a path or id from a search hit")
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
