"""Where things live: the layout of a memory root (:class:`MemoryPaths`), the checkout this
package runs from, and the containment check every reader uses."""

from __future__ import annotations

import os

from .errors import CodeMemoryError

DEFAULT_ROOT = "~/.claude/memory"
AREA_KINDS = ("projects", "patterns", "tools")

# The code: this package, and — in a checkout — the entry scripts beside it and the repository
# (hooks/, install.sh). A plain ``pip install`` has no checkout: use :func:`entry_command` and
# :func:`shell_dir`.
PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
SCRIPTS_DIR = os.path.dirname(PACKAGE_DIR)
REPO_DIR = os.path.dirname(SCRIPTS_DIR)


def in_checkout() -> bool:
    """This package runs from a checkout (or an editable install of one), not an installed wheel."""
    return os.path.isfile(os.path.join(REPO_DIR, "hooks", "lib.sh"))


def shell_dir() -> str:
    """The directory holding the shell side — ``hooks/`` (the shims and lib.sh) and ``scripts/``
    (the hook runner, ``weekly-consolidate.sh``): the checkout, or in an installed wheel the copy
    shipped inside the package (``code_memory/_shell/``, setup.py) with the same layout."""
    return REPO_DIR if in_checkout() else os.path.join(PACKAGE_DIR, "_shell")


def entry_command(python: str, script: str, module: str) -> list:
    """How to run one of our commands with ``python``: the checkout's ``scripts/<script>`` when it
    exists (it finds the package by itself), else ``python -m <module>`` (an installed package)."""
    path = os.path.join(SCRIPTS_DIR, script)
    return [python, path] if os.path.isfile(path) else [python, "-m", module]


def version_text(prog: str) -> str:
    """What ``--version`` prints: the version, and where this code and its Python are — which of
    several installations (a checkout, a venv, a uv tool) answered."""
    import sys

    from . import __version__
    return f"{prog} {__version__} from {PACKAGE_DIR} (Python {sys.version.split()[0]}, {sys.executable})"


def expand(path: str) -> str:
    return os.path.abspath(os.path.expanduser(os.path.expandvars(path)))


class Frozen:
    """A small immutable value object (what ``@dataclass(frozen=True)`` gives, without importing
    dataclasses, which costs a hook ~15 ms). Subclasses list their fields in ``__slots__``."""

    __slots__ = ()

    def __init__(self, *values):
        if len(values) != len(self.__slots__):
            raise TypeError(f"{type(self).__name__} takes {len(self.__slots__)} values")
        for name, value in zip(self.__slots__, values):
            object.__setattr__(self, name, value)

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __delattr__(self, name):
        raise AttributeError(f"{type(self).__name__} is immutable")

    def _values(self) -> tuple:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other):
        return type(other) is type(self) and other._values() == self._values()

    def __hash__(self):
        return hash((type(self).__name__,) + self._values())

    def __repr__(self):
        inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__slots__)
        return f"{type(self).__name__}({inner})"


class MemoryPaths(Frozen):
    """The layout of one memory root (docs/stores.md § The memory tree). Pure path arithmetic, no I/O.
    Making one confines this process's writes under ``root`` (:func:`confine_writes`)."""

    __slots__ = ("root",)

    def __init__(self, root: str):
        super().__init__(root)
        confine_writes(root)

    @property
    def memory_md(self) -> str:
        return os.path.join(self.root, "MEMORY.md")

    @property
    def areas(self) -> str:
        return os.path.join(self.root, "areas")

    @property
    def daily(self) -> str:
        return os.path.join(self.root, "daily")

    @property
    def sessions(self) -> str:
        return os.path.join(self.root, "sessions")

    @property
    def pending(self) -> str:
        """Snapshots of ended sessions waiting for the summarizer (``sessions/.pending/``)."""
        return os.path.join(self.root, "sessions", ".pending")

    @property
    def kv(self) -> str:
        return os.path.join(self.root, "kv")

    @property
    def evolution(self) -> str:
        return os.path.join(self.root, "evolution")

    @property
    def rules(self) -> str:
        return os.path.join(self.root, "rules")

    @property
    def index_dir(self) -> str:
        return os.path.join(self.root, ".index")

    @property
    def index_db(self) -> str:
        return os.path.join(self.root, ".index", "search.sqlite")

    @property
    def logs(self) -> str:
        return os.path.join(self.root, "logs")

    # the evolution/ logs (docs/evolution.md) and their derived database
    @property
    def audit_log(self) -> str:
        """ref / outcome / archive / restore / llm_usage events (append-only)."""
        return os.path.join(self.root, "evolution", "audit.jsonl")

    @property
    def signals_log(self) -> str:
        return os.path.join(self.root, "evolution", "signals.jsonl")

    @property
    def pattern_states_log(self) -> str:
        return os.path.join(self.root, "evolution", "pattern_states.jsonl")

    @property
    def capabilities_log(self) -> str:
        return os.path.join(self.root, "evolution", "capabilities.jsonl")

    @property
    def generator_state(self) -> str:
        return os.path.join(self.root, "evolution", "generator_state.json")

    @property
    def signal_report(self) -> str:
        return os.path.join(self.root, "evolution", "signal_report_latest.md")

    @property
    def evolution_db(self) -> str:
        return os.path.join(self.root, ".index", "evolution.sqlite")

    @property
    def config_json(self) -> str:
        return os.path.join(self.root, "config.json")

    def area_dir(self, kind: str, name: str) -> str:
        if kind not in AREA_KINDS:
            raise CodeMemoryError("INVALID_ARGUMENT", f"unknown area kind {kind!r}",
                                  hint="use projects, patterns or tools")
        return os.path.join(self.areas, kind, safe_name(name))

    def project_dir(self, name: str) -> str:
        return self.area_dir("projects", name)

    def daily_note(self, date: str) -> str:
        if not _is_date(date):
            raise CodeMemoryError("INVALID_ARGUMENT", f"bad date {date!r}", hint="use YYYY-MM-DD")
        return os.path.join(self.daily, f"{date}.md")

    def session_note(self, session_id: str) -> str:
        return os.path.join(self.sessions, f"{safe_name(session_id)}.md")


ROOT_MARKERS = ("MEMORY.md", "areas", "config.json")


def is_memory_root(path: str) -> bool:
    """Whether ``path`` holds a memory root (``code-memory init`` made it, or it has memory or a
    config): only there does a read (a search) create its index — a ``--root`` naming any other
    directory gets nothing written into it."""
    return any(os.path.lexists(os.path.join(path, marker)) for marker in ROOT_MARKERS)


def _is_date(text: str) -> bool:
    """YYYY-MM-DD with decimal digits (what ``\\d{4}-\\d{2}-\\d{2}`` meant, without ``re``: hooks
    import this module and ``re`` costs them ~5 ms)."""
    return (isinstance(text, str) and len(text) == 10 and text[4] == "-" and text[7] == "-"
            and (text[:4] + text[5:7] + text[8:]).isdecimal())


def _replace_unsafe(text: str) -> str:
    """Each run of characters other than letters, digits, ``_``, ``.`` and ``-`` becomes one ``-``."""
    out, in_run = [], False
    for ch in text:
        if ch.isalnum() or ch in "_.-":
            out.append(ch)
            in_run = False
        elif not in_run:
            out.append("-")
            in_run = True
    return "".join(out)


def safe_name(name: str, max_len: int = 96) -> str:
    """A file-system-safe, non-empty name: no separators, no leading dots, bounded length.

    Keeps Unicode letters and digits (project names may be Chinese).
    """
    cleaned = _replace_unsafe(str(name)).strip("-.")
    if not cleaned:
        cleaned = "unnamed"
    return cleaned[:max_len]


# (absolute path, real path) of every memory root this process works in: fsutil's writers refuse a
# path under one of them that resolves outside it (a symlink anywhere on the way, or the file itself)
_WRITE_ROOTS: list = []


def confine_writes(root: str) -> None:
    if not root:
        return
    pair = (os.path.abspath(root), os.path.realpath(root))
    if pair not in _WRITE_ROOTS:
        _WRITE_ROOTS.append(pair)


def write_escape(path: str) -> str | None:
    """Why writing ``path`` would leave the memory root it lies under, or None. A root that is
    itself a symlink is fine (its real path is the boundary); a symlink below it that leads
    elsewhere is not."""
    if not _WRITE_ROOTS:
        return None
    lexical = os.path.abspath(path)
    for base, real_base in _WRITE_ROOTS:
        if is_within(lexical, base) or is_within(lexical, real_base):
            real = os.path.realpath(lexical)
            if is_within(real, real_base):
                return None
            return f"{lexical} leads outside the memory root (to {real}) through a symlink"
    return None


def is_within(real: str, base: str) -> bool:
    """``real`` is ``base`` or inside it; both already resolved (``os.path.realpath``)."""
    return real == base or real.startswith(base.rstrip(os.sep) + os.sep)


def is_under(path: str, root: str) -> bool:
    """``path`` is ``root`` or inside it (symlinks resolved)."""
    if not root:
        return False
    return is_within(os.path.realpath(path), os.path.realpath(root))


def rel_inside(path: str, root: str) -> str | None:
    """``path`` relative to ``root`` (``"."`` for the root itself) when it is inside it, symlinks
    resolved; None when it is not."""
    if not root:
        return None
    real, base = os.path.realpath(path), os.path.realpath(root)
    return os.path.relpath(real, base) if is_within(real, base) else None


def resolve_inside(path: str, allowed_roots, base: str | None = None) -> str:
    """Resolve ``path`` (symlinks included) and require it to sit inside one of ``allowed_roots``.

    Relative paths are taken relative to ``base`` (default: the first allowed root). Returns the
    real path; raises ``MEMORY_PATH_TRAVERSAL`` otherwise.
    """
    roots = [os.path.realpath(expand(r)) for r in allowed_roots if r]
    if not roots:
        raise CodeMemoryError("MEMORY_PATH_TRAVERSAL", "no readable memory roots are configured")
    if "\x00" in path:
        raise CodeMemoryError("MEMORY_PATH_TRAVERSAL", "path contains a NUL byte")
    candidate = os.path.expanduser(path)
    if not os.path.isabs(candidate):
        candidate = os.path.join(base or roots[0], candidate)
    real = os.path.realpath(candidate)
    for root in roots:
        if is_within(real, root):
            return real
    raise CodeMemoryError(
        "MEMORY_PATH_TRAVERSAL",
        "path is outside the memory root and registered workspaces",
        hint="use a path returned by search",
        path=path,
    )
