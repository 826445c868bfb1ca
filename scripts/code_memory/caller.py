"""Who is asking (docs/security.md § Threat model): part of a Claude Code session, a process detached
from any terminal, or the user at a terminal — and, for the first two, which memory root was
configured for them and which environment overrides they may use.

* **Session**: its variables (:data:`SESSION_ENV`) **or** a Claude Code process among its
  ancestors — unsetting the variables does not hide the ancestor.
* **Detached**: no controlling terminal, no Claude Code ancestor, and a process session whose
  leader was orphaned (its parent is init or the user's ``systemd``) or is gone — what ``setsid
  -f`` / ``nohup … &`` leave behind. Such a caller has no working directory it may claim as home.
* **Configured root**: what Claude Code was started with — ``CODE_MEMORY_ROOT`` in the ancestor's
  own environment (``/proc/PID/environ``, which a child cannot change) or in the user's
  ``~/.claude/settings.json`` ``env``, else ``~/.claude/memory`` of the ancestor's ``HOME``.
  Without an ancestor: that of ``$CLAUDE_PID`` when it names a running Claude Code, else the
  account's home directory from the password database.
* :func:`confirm_on_terminal` asks for a code printed on the controlling terminal, after
  discarding whatever was typed ahead: ``echo y | script …`` cannot answer it. A same-user process
  that drives its own pseudo-terminal and reads the prompt still can (docs/security.md § The
  same-user limit).

Linux ``/proc`` only for ancestry; elsewhere no ancestor is found (the variables still count).
"""

from __future__ import annotations

import os

SESSION_ENV = ("CLAUDECODE", "CLAUDE_CODE_SESSION_ID", "CLAUDE_CODE_ENTRYPOINT", "CLAUDE_CODE_CHILD_SESSION",
               "CLAUDE_PID", "CLAUDE_CODE_EXECPATH")
CLAUDE_NAMES = ("claude", "claude.exe")
MAX_ANCESTORS = 64
ROOT_ENV = "CODE_MEMORY_ROOT"
CONFIG_ENV = "CODE_MEMORY_CONFIG"
DEFAULT_ROOT_REL = os.path.join(".claude", "memory")
# configuration a session or a detached process may not change through its environment (only what
# Claude Code itself was started with counts): the review gate, which projects and workspaces exist,
# the stores' locations and trust settings
LOCKED_ENV_PREFIXES = ("CODE_MEMORY_REVIEW__", "CODE_MEMORY_WORKSPACES__", "CODE_MEMORY_PROJECTS",
                       "CODE_MEMORY_PROJECT_GROUPS", "CODE_MEMORY_MEMTOOL__", "CODE_MEMORY_KV__",
                       "CODE_MEMORY_CAPABILITIES__", "CAPABILITY_GENERATION", "MEMTOOL_DB")
CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"   # no 0/o, 1/l/i
CODE_LENGTH = 5


class Caller:
    """What :func:`identify` found: ``evidence`` (why it is part of a session), ``ancestor``
    (``(pid, cwd)`` of Claude Code or None), ``detached`` (why it counts as detached, or None)."""

    __slots__ = ("evidence", "ancestor", "detached")

    def __init__(self, evidence=(), ancestor=None, detached=None):
        self.evidence = list(evidence)
        self.ancestor = ancestor
        self.detached = detached

    @property
    def in_session(self) -> bool:
        return bool(self.evidence)

    @property
    def restricted(self) -> bool:
        """A session or a detached process: no widening, only the configured root, no overrides."""
        return bool(self.evidence) or bool(self.detached)

    def reasons(self) -> list:
        return self.evidence + ([self.detached] if self.detached else [])

    def __repr__(self) -> str:
        return f"Caller(evidence={self.evidence!r}, ancestor={self.ancestor!r}, detached={self.detached!r})"


# ---------------------------------------------------------------------------------------------
# processes

def _stat_fields(pid: int, proc: str) -> list | None:
    """``/proc/PID/stat`` after the command name: state, ppid, pgrp, session, tty_nr, …"""
    try:
        with open(f"{proc}/{pid}/stat", "rb") as fh:
            return fh.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return None


def _ppid(pid: int, proc: str = "/proc") -> int | None:
    fields = _stat_fields(pid, proc)
    try:
        return int(fields[1]) if fields else None
    except (ValueError, IndexError):
        return None


def _argv(pid: int, proc: str) -> list:
    try:
        with open(f"{proc}/{pid}/cmdline", "rb") as fh:
            return fh.read().split(b"\0")
    except OSError:
        return []


def is_claude(argv: list) -> bool:
    names = [os.path.basename(a.decode("utf-8", "replace")) for a in argv[:2] if a]
    if any(n in CLAUDE_NAMES for n in names):
        return True
    return any(b"@anthropic-ai/claude-code" in a for a in argv[:2])


def claude_ancestor(pid: int | None = None, proc: str = "/proc") -> tuple | None:
    """``(pid, cwd)`` of the nearest Claude Code process among ``pid``'s ancestors, or None.
    (cwd is None when it cannot be read.)"""
    pid = os.getpid() if pid is None else pid
    for _ in range(MAX_ANCESTORS):
        ppid = _ppid(pid, proc)
        if ppid is None or ppid <= 1:
            return None
        pid = ppid
        if is_claude(_argv(pid, proc)):
            try:
                cwd = os.readlink(f"{proc}/{pid}/cwd")
            except OSError:
                cwd = None
            return pid, cwd
    return None


def session_evidence(env=None, ancestor=None) -> list:
    """Why the caller looks like part of a Claude Code session (empty: it does not)."""
    env = os.environ if env is None else env
    found = [f"${name} is set" for name in SESSION_ENV if env.get(name)]
    ancestor = claude_ancestor() if ancestor is None else ancestor
    if ancestor:
        found.append(f"Claude Code (pid {ancestor[0]}) is an ancestor process")
    return found


def has_terminal() -> bool:
    try:
        fd = os.open("/dev/tty", os.O_RDONLY | os.O_NOCTTY)
    except OSError:
        return False
    os.close(fd)
    return True


def detachment(proc: str = "/proc", terminal=None) -> str | None:
    """Why this process counts as detached (see the module docstring), or None."""
    if (has_terminal() if terminal is None else terminal):
        return None
    if not os.path.isdir(f"{proc}/self"):
        return None                                    # no /proc (macOS): the session variables still count
    try:
        sid = os.getsid(0)
    except OSError:
        return None
    if sid <= 1:
        return None                                    # a container's init, or no session at all
    leader_parent = _ppid(sid, proc)
    if leader_parent is None:
        return "detached: no terminal, and the leader of its process session has exited"
    if leader_parent == 1 or (leader_parent > 1 and _comm(leader_parent, proc) == "systemd"):
        return "detached: no terminal, and its process session was orphaned (setsid, nohup)"
    return None


def _comm(pid: int, proc: str) -> str:
    try:
        with open(f"{proc}/{pid}/comm", "rb") as fh:
            return fh.read().decode("utf-8", "replace").strip()
    except OSError:
        return ""


def identify(env=None, ancestor=None, proc: str = "/proc") -> Caller:
    """The caller of this process. ``ancestor``: ``()`` for none (tests), None to look it up."""
    env = os.environ if env is None else env
    ancestor = claude_ancestor(proc=proc) if ancestor is None else ancestor
    evidence = session_evidence(env, ancestor or ())
    detached = None if (evidence or ancestor) else detachment(proc)
    return Caller(evidence, ancestor or None, detached)


# ---------------------------------------------------------------------------------------------
# what the session was configured with

def process_environ(pid: int, proc: str = "/proc") -> dict | None:
    """The environment ``pid`` was started with, or None when it cannot be read."""
    try:
        with open(f"{proc}/{pid}/environ", "rb") as fh:
            raw = fh.read()
    except OSError:
        return None
    out = {}
    for item in raw.split(b"\0"):
        name, sep, value = item.partition(b"=")
        if sep:
            out[name.decode("utf-8", "replace")] = value.decode("utf-8", "replace")
    return out


def _account_home() -> str:
    try:
        import pwd
        return pwd.getpwuid(os.getuid()).pw_dir
    except (ImportError, KeyError, OSError):
        return os.path.expanduser("~")


def _settings_root(home: str) -> str | None:
    """``env.CODE_MEMORY_ROOT`` in ``home``'s Claude Code user settings, when set."""
    import json
    try:
        with open(os.path.join(home, ".claude", "settings.json"), encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError):
        return None
    value = (data.get("env") or {}).get(ROOT_ENV) if isinstance(data, dict) and isinstance(data.get("env"), dict) else None
    return value if isinstance(value, str) and value else None


def session_environ(caller: Caller, env=None, proc: str = "/proc") -> dict | None:
    """The environment Claude Code itself was started with (its ancestor, else ``$CLAUDE_PID`` when
    that is a running Claude Code), or None."""
    env = os.environ if env is None else env
    if caller.ancestor:
        return process_environ(caller.ancestor[0], proc)
    try:
        pid = int(env.get("CLAUDE_PID") or 0)
    except ValueError:
        pid = 0
    if pid > 1 and is_claude(_argv(pid, proc)):
        return process_environ(pid, proc)
    return None


def _expand(path: str, home: str) -> str:
    if path == "~" or path.startswith("~/"):
        path = home + path[1:]
    return os.path.realpath(os.path.abspath(path))


def configured_roots(caller: Caller, env=None, proc: str = "/proc") -> list:
    """The memory roots a restricted caller may use (real paths; see the module docstring)."""
    started = session_environ(caller, env, proc)
    home = (started or {}).get("HOME") or _account_home()
    roots = []
    if started and started.get(ROOT_ENV):
        roots.append(_expand(started[ROOT_ENV], home))
    from_settings = _settings_root(home)
    if from_settings:
        roots.append(_expand(from_settings, home))
    if not roots:
        roots.append(_expand(os.path.join(home, DEFAULT_ROOT_REL), home))
    return list(dict.fromkeys(roots))


def requested_root(root_arg: str | None, env=None) -> str:
    """The root a command would use: ``--root``, else ``$CODE_MEMORY_ROOT``, else ``~/.claude/memory``
    (``~`` as this process sees it), as a real path."""
    env = os.environ if env is None else env
    home = env.get("HOME") or _account_home()
    return _expand(os.path.expandvars(root_arg or env.get(ROOT_ENV) or os.path.join("~", DEFAULT_ROOT_REL)), home)


def root_refusal(caller: Caller, root_arg: str | None, env=None, proc: str = "/proc") -> str | None:
    """Why a restricted caller may not use the root it asks for (None: it may, or it is not restricted)."""
    if not caller.restricted:
        return None
    env = os.environ if env is None else env
    wanted = requested_root(root_arg, env)
    allowed = configured_roots(caller, env, proc)
    if wanted not in allowed:
        return (f"memory root {wanted} is not the one this session was configured with "
                f"({', '.join(allowed)})")
    config = env.get(CONFIG_ENV)
    if config:
        started = session_environ(caller, env, proc) or {}
        home = started.get("HOME") or _account_home()
        if not started.get(CONFIG_ENV) or _expand(started[CONFIG_ENV], home) != _expand(config, home):
            return f"${CONFIG_ENV} names a configuration file this session was not started with"
    return None


def locked_overrides(caller: Caller, env=None, proc: str = "/proc") -> list:
    """Names of environment variables a restricted caller set that change locked configuration
    (:data:`LOCKED_ENV_PREFIXES`) to something Claude Code was not started with."""
    if not caller.restricted:
        return []
    env = os.environ if env is None else env
    started = session_environ(caller, env, proc) or {}
    return sorted(name for name, value in env.items()
                  if name.startswith(LOCKED_ENV_PREFIXES) and started.get(name) != value)


# ---------------------------------------------------------------------------------------------
# the user's terminal

def challenge_code(length: int = CODE_LENGTH) -> str:
    import secrets
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


def confirm_on_terminal(question: str, timeout: float = 120.0, code: str | None = None) -> bool:
    """Ask ``question`` on the controlling terminal (never stdin, which a caller can pipe) and
    require the random code it shows, typed after the prompt appeared: input typed ahead is
    discarded first. False without a terminal, on timeout, or on any other answer."""
    import select
    import termios

    try:
        fd = os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY)
    except OSError:
        return False
    code = code or challenge_code()
    try:
        try:
            termios.tcflush(fd, termios.TCIFLUSH)       # what was typed ahead (echo y | script …) is dropped
        except termios.error:
            return False                                 # not a terminal after all
        prompt = question.rstrip() + f"\nType {code} to allow (anything else refuses): "
        os.write(fd, prompt.encode("utf-8", "replace"))
        answer = b""
        while not answer.endswith(b"\n") and len(answer) < 64:
            ready, _, _ = select.select([fd], [], [], timeout)
            if not ready:
                return False
            chunk = os.read(fd, 64)
            if not chunk:
                break
            answer += chunk
        return answer.decode("utf-8", "replace").strip().lower() == code
    except OSError:
        return False
    finally:
        os.close(fd)
