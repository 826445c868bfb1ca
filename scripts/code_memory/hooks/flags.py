"""Per-agent flags in a temp directory: which projects' rules are loaded, whether the schema was
injected, and the directory markers the shell shims check before Python starts.

Layout (``<flag dir>`` = config ``hooks.flag_dir``, else ``${TMPDIR:-/tmp}/code-memory-<uid>``)::

    <flag dir>/                       mode 0700, must be owned by us
      <session key>/                  the main agent of a session
        p-<project>                   that project's rules are in the agent's context
        d<encoded directory>          files in this directory belong to a loaded (or rule-less)
                                      project: the shims answer Read/Edit there without Python
        schema                        the schema index was injected into a subagent (per session)
        a-<agent key>/                a subagent (its own p-… and d… flags): a subagent has its
                                      own context, so what the main agent read does not count

Flags are keyed by ``agent_id``, which Claude Code (≥ 2.1.69) puts on every hook payload inside a
subagent; payloads without it (the main agent, older builds) use the session's flags. Session and
agent keys are the id when it is ``[A-Za-z0-9_-]{1,128}`` (what the shims check), else a digest. A
directory is encoded by ``%`` → ``%25`` and ``/`` → ``%2F`` — the same substitution
``hooks/lib.sh`` does in pure bash — so a marker is one ``stat`` for the shim.
"""

from __future__ import annotations

import os
import time

_PLAIN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
MAX_NAME_BYTES = 250


def default_flag_dir(env) -> str:
    return os.path.join(env.get("TMPDIR") or "/tmp", f"code-memory-{os.getuid()}")


def session_key(session_id: str) -> str:
    if session_id and len(session_id) <= 128 and set(session_id) <= _PLAIN_CHARS:
        return session_id
    import hashlib  # rare: ids Claude Code does not produce
    return "h-" + hashlib.sha1(str(session_id).encode("utf-8", "replace")).hexdigest()[:24]


def encode_dir(directory: str) -> str:
    return directory.replace("%", "%25").replace("/", "%2F")


AGENT_PREFIX = "a-"


class SessionFlags:
    """The flags of one session's main agent, or — with ``agent_id`` — of one of its subagents."""

    def __init__(self, flag_dir: str, session_id: str, agent_id: str = ""):
        self.flag_dir = flag_dir
        self.session_dir = os.path.join(flag_dir, session_key(session_id)) if session_id else ""
        self.dir = self.session_dir
        if self.dir and agent_id:
            self.dir = os.path.join(self.dir, AGENT_PREFIX + session_key(agent_id))
        self._usable = None

    # -- health ------------------------------------------------------------------------------
    def usable(self) -> bool:
        """The flag directory exists (created 0700 if needed), is a real directory owned by us and
        closed to others, and the session directory exists. Unusable flags mean: inject every time,
        never deny (fail open)."""
        if self._usable is None:
            self._usable = bool(self.dir) and self._prepare()
        return self._usable

    def _prepare(self) -> bool:
        try:
            os.makedirs(self.flag_dir, mode=0o700, exist_ok=True)
            st = os.lstat(self.flag_dir)
            if not os.path.isdir(self.flag_dir) or os.path.islink(self.flag_dir):
                return False
            if st.st_uid != os.getuid() or st.st_mode & 0o077:
                return False
            os.makedirs(self.dir, mode=0o700, exist_ok=True)
            return True
        except OSError:
            return False

    # -- flags -------------------------------------------------------------------------------
    def _path(self, name: str) -> str:
        return os.path.join(self.dir, name)

    def _has(self, name: str) -> bool:
        return bool(self.dir) and os.path.exists(self._path(name))

    def _set(self, name: str) -> bool:
        """Create the (empty) flag file ``name``; only its existence counts."""
        if not self.usable() or len(name.encode("utf-8", "surrogateescape")) > MAX_NAME_BYTES:
            return False
        try:
            os.close(os.open(self._path(name), os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NONBLOCK, 0o600))
            return True
        except OSError:
            return False

    def has_flag(self, name: str) -> bool:
        """A flag of another module's (hooks/ledger.py's file markers)."""
        return self._has(name)

    def set_flag(self, name: str) -> bool:
        return self._set(name)

    def has_project(self, project: str, mark: str = "") -> bool:
        """The project's rules are loaded; if so, directory ``mark`` (when given) is marked too."""
        if not self._has("p-" + project):
            return False
        if mark:
            self.mark_dir(mark)
        return True

    def set_project(self, project: str, mark: str = "") -> bool:
        """Flag the project's rules as loaded and mark directory ``mark`` (when given)."""
        done = self._set("p-" + project)
        if mark:
            self.mark_dir(mark)
        return done

    def mark_dir(self, directory: str) -> bool:
        return self._set("d" + encode_dir(directory))

    def has_schema(self) -> bool:
        return self._has("schema")

    def set_schema(self) -> bool:
        return self._set("schema")

    def clear(self) -> int:
        """Remove every flag of this agent — for the main agent, its subagents' too (PreCompact,
        SessionEnd). Returns how many flags."""
        return _remove_tree(self.dir) if self.dir else 0


def _remove_tree(directory: str) -> int:
    """Delete a flag directory: its flag files and its subagents' directories (one level). Returns
    how many flag files went; never follows a symlink."""
    removed = 0
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return 0
    for entry in entries:
        try:
            if entry.name.startswith(AGENT_PREFIX) and entry.is_dir(follow_symlinks=False):
                removed += _remove_tree(entry.path)
            else:
                os.unlink(entry.path)
                removed += 1
        except OSError:
            pass
    try:
        os.rmdir(directory)
    except OSError:
        pass
    return removed


def sweep_stale(flag_dir: str, max_age_seconds: float, now: float | None = None) -> int:
    """Remove session flag directories untouched for ``max_age_seconds`` (sessions that ended
    without a SessionEnd). Returns how many were removed."""
    now = time.time() if now is None else now
    removed = 0
    try:
        entries = list(os.scandir(flag_dir))
    except OSError:
        return 0
    for entry in entries:
        try:
            if not entry.is_dir(follow_symlinks=False) or now - entry.stat().st_mtime < max_age_seconds:
                continue
        except OSError:
            continue
        _remove_tree(entry.path)
        removed += not os.path.exists(entry.path)
    return removed
