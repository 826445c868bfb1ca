"""When a gate cannot do its job, say so — once per session, where the user and Claude see it.

The rules gate needs its per-session flags (``hooks.flag_dir``); both gates need a readable
configuration. When either is broken the gates fail open (an edit is never blocked by a broken
gate) — and the session gets ONE warning: ``systemMessage`` (shown to the user) plus
``additionalContext`` (shown to Claude), from the first hook that notices (SessionStart, the rules
gate or the avoidance gate). "Once" is kept by a marker file per session in the memory root's
``logs/gate-warnings/`` (``/tmp`` when that cannot be written). ``code-memory status`` probes
the same conditions (:func:`problems`) and lists them under ``gates``.
"""

from __future__ import annotations

import os

from .flags import default_flag_dir, session_key

GATE_HOOKS = ("session-start", "rules-gate", "avoidance-gate")
WARNINGS_DIR = "gate-warnings"


def flag_dir_problem(flag_dir: str) -> str | None:
    """Why the flag directory cannot hold the rules gate's flags, or None (it can, or can be made)."""
    try:
        st = os.lstat(flag_dir)
    except FileNotFoundError:
        parent = os.path.dirname(flag_dir.rstrip(os.sep)) or os.sep
        return None if os.access(parent, os.W_OK | os.X_OK) else f"cannot create the flag directory {flag_dir}"
    except OSError as exc:
        return f"the flag directory {flag_dir} cannot be read ({exc.strerror})"
    if not os.path.isdir(flag_dir) or os.path.islink(flag_dir):
        return f"the flag directory {flag_dir} is not a plain directory"
    if st.st_uid != os.getuid():
        return f"the flag directory {flag_dir} belongs to another user"
    if st.st_mode & 0o077:
        return f"the flag directory {flag_dir} is open to other users (mode {oct(st.st_mode & 0o777)}; it must be 0700)"
    if not os.access(flag_dir, os.W_OK | os.X_OK):
        return f"the flag directory {flag_dir} is not writable"
    return None


def flag_dir_of(cfg, env) -> str:
    from ..paths import expand
    return expand((cfg.get("hooks") or {}).get("flag_dir") or default_flag_dir(env))


def problems(cfg=None, env=None, config_error: str | None = None) -> list:
    """What keeps the gates from working now: a configuration that does not load, a flag
    directory the rules gate cannot use."""
    env = os.environ if env is None else env
    if config_error:
        return [f"the configuration cannot be read ({config_error}): the rules gate and the avoidance gate are off"]
    found = flag_dir_problem(flag_dir_of(cfg, env))
    return [f"{found}: the rules gate cannot remember loaded rules, so it denies nothing"] if found else []


def warning_text(found: list) -> str:
    return ("[code-memory] A safety gate is not working, so edits are not being checked: "
            + "; ".join(found) + ". Fix it (`code-memory status` lists it under gates); until then edits pass "
            "unchecked.")


def warn_once(event, found: list, root: str | None) -> dict | None:
    """The warning output for ``event`` if this session has not had it yet, else None."""
    if not found or not event.session_id:
        return None
    name = f"{session_key(event.session_id)}"
    for folder in ([os.path.join(root, "logs", WARNINGS_DIR)] if root else []) + [
            os.path.join(os.environ.get("TMPDIR") or "/tmp", f"code-memory-warned-{os.getuid()}")]:
        try:
            os.makedirs(folder, mode=0o700, exist_ok=True)
            os.close(os.open(os.path.join(folder, name), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            break
        except FileExistsError:
            return None
        except OSError:
            continue
    text = warning_text(found)
    return {"systemMessage": text,
            "hookSpecificOutput": {"hookEventName": event.name, "additionalContext": text}}


def warned_sessions(root: str) -> int:
    try:
        return len(os.listdir(os.path.join(root, "logs", WARNINGS_DIR)))
    except OSError:
        return 0
