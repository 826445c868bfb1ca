"""Run one hook: read stdin once, normalise, load config, dispatch, answer per the contract.

``main(["rules-injector"])`` is what ``scripts/code-memory-hook.py`` calls. It always returns 0.
Output is exactly one JSON object on stdout, or nothing; any internal error is logged (one line,
metadata only) and swallowed, so a broken hook never blocks the session (fail open).
"""

from __future__ import annotations

import os
import sys
import time

from ..budget import limit_lock_waits
from ..config import DEFAULTS, load_config, setting
from ..jsonlite import dumps
from ..paths import DEFAULT_ROOT, MemoryPaths, expand, is_under
from ..projects import detect_project, group_names, project_of_file
from .event import parse_event
from .flags import SessionFlags, default_flag_dir
from .hooklog import HookLog
from .registry import BY_SHIM

DISABLE_ENV = "CODE_MEMORY_HOOKS_DISABLED"
# the most a hook waits for any lock (a stuck process holding daily/.lock): then it fails open
HOOK_LOCK_WAIT_SECONDS = 0.5


def hooks_disabled(env) -> bool:
    return str(env.get(DISABLE_ENV, "")).strip().lower() in ("1", "true", "yes", "on")


class HookContext:
    """What a hook module gets besides the event: configuration, paths, flags, log, clock."""

    def __init__(self, cfg, env, log: HookLog, event):
        self.cfg = cfg
        self.env = env
        self.log = log
        self.event = event
        self.paths: MemoryPaths = cfg.paths
        self.settings: dict = cfg.get("hooks") or {}
        self._flags = None
        self._session_flags = None

    def setting(self, key: str, default=None):
        """``hooks.<key>``; when unset, ``default`` if given, else the built-in default."""
        value = self.settings.get(key)
        if value is None:
            value = DEFAULTS["hooks"].get(key) if default is None else default
        return value

    def _flag_dir(self) -> str:
        return expand(self.settings.get("flag_dir") or default_flag_dir(self.env))

    @property
    def flags(self) -> SessionFlags:
        """The flags of the agent that sent the event: a subagent's own (keyed by ``agent_id``),
        else the session's main agent's."""
        if self._flags is None:
            self._flags = SessionFlags(self._flag_dir(), self.event.session_id, self.event.agent_id)
        return self._flags

    @property
    def session_flags(self) -> SessionFlags:
        """The session's own flags (the main agent's), whoever sent the event."""
        if self._session_flags is None:
            self._session_flags = (self.flags if not self.event.agent_id
                                   else SessionFlags(self._flag_dir(), self.event.session_id))
        return self._session_flags

    def project_for(self, path: str | None, cwd: str | None = None):
        return detect_project(path or None, cwd if cwd is not None else self.event.cwd,
                              self.cfg.get("projects") or {})

    def project_of_file(self, path: str):
        """The project ``path`` belongs to by its own location, or None outside every project
        (the gates then leave the session's project out of it)."""
        return project_of_file(path, self.event.cwd, self.cfg.get("projects") or {})

    def groups_of(self, project_name: str) -> list:
        return group_names(project_name, self.cfg.get("project_groups") or {})

    def root_ready(self) -> bool:
        return os.path.isdir(self.paths.root)

    def inside_root(self, path: str) -> bool:
        return is_under(path, self.paths.root)

    @staticmethod
    def now():
        import datetime  # only the hooks that write need it
        return datetime.datetime.now()


# -- outputs (each verified to reach the model by tests/e2e) ---------------------------------

def context_output(event_name: str, text: str) -> dict:
    return {"hookSpecificOutput": {"hookEventName": event_name, "additionalContext": text}}


def allow_with_context(text: str) -> dict:
    return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
                                   "additionalContext": text}}


def deny(reason: str) -> dict:
    return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                   "permissionDecisionReason": reason}}


def block(reason: str, context: str = "") -> dict:
    out = {"decision": "block", "reason": reason}
    if context:
        out["hookSpecificOutput"] = {"hookEventName": "PostToolUse", "additionalContext": context}
    return out


# -- the run -----------------------------------------------------------------------------------

def _read_stdin() -> bytes:
    try:
        return sys.stdin.buffer.read()
    except (OSError, ValueError, AttributeError):
        return b""


def _fallback_log(hook: str, env) -> HookLog:
    root = expand(env.get("CODE_MEMORY_ROOT") or DEFAULT_ROOT)
    return HookLog(os.path.join(root, "logs"), hook)


def _emit(output: dict) -> None:
    data = dumps(output).encode("utf-8")
    try:
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    except (OSError, ValueError):
        pass


def run(hook: str, raw: bytes, env) -> dict | None:
    """The hook's output for payload ``raw`` (None = say nothing). Never raises."""
    spec = BY_SHIM.get(hook)
    if spec is None or hooks_disabled(env):
        return None
    _shim, expected_event, _matcher, module_name, _timeout, _doc = spec
    started = time.monotonic()
    log = None
    try:
        try:
            cfg = load_config(env=env)
        except Exception as exc:  # noqa: BLE001 — a broken config turns the gates off: say so once
            (log or _fallback_log(hook, env)).error("failed", exc)
            return _config_warning(hook, raw, env, exc)
        hooks_cfg = cfg.get("hooks") or {}
        log = HookLog(cfg.paths.logs, hook, hooks_cfg.get("log_max_bytes") or 0,
                      setting(hooks_cfg, "hooks.log_level"), started)
        if hook in (hooks_cfg.get("disabled") or []):
            return None
        event = parse_event(raw, expected_event)
        if event is None:
            log.info("ignored", reason="payload is not a JSON object", bytes=len(raw))
            return None
        if event.name != expected_event:
            log.info("ignored", reason="unexpected event", event=event.name[:40])
            return None
        if not event.session_id or not event.cwd:  # every real payload has both
            log.info("ignored", reason="no session_id or cwd")
            return None
        module = __import__(f"{__package__}.{module_name}", fromlist=["handle"])
        output = module.handle(event, HookContext(cfg, env, log, event))
        from ..fsutil import ODD_FILES
        if ODD_FILES:                     # skipped, never waited on: said in the log (and at SessionStart)
            log.warning("skipped", not_regular=sorted(_rel(p, cfg.paths.root) for p in ODD_FILES)[:10])
        if hook == "session-start":
            output = _with_encoding_notice(_with_gate_warning(output, event, cfg, env), event, cfg)
        return output if isinstance(output, dict) and output else None
    except Exception as exc:  # noqa: BLE001 — fail open, always
        (log or _fallback_log(hook, env)).error("failed", exc)
        return None


def _config_warning(hook: str, raw: bytes, env, exc) -> dict | None:
    """The once-per-session warning that the gates are off because the config does not load."""
    from .gate_health import GATE_HOOKS, problems, warn_once
    root = expand(env.get("CODE_MEMORY_ROOT") or DEFAULT_ROOT)
    if hook not in GATE_HOOKS or not os.path.isdir(root):  # no memory root: no rules to gate with anyway
        return None
    event = parse_event(raw, BY_SHIM[hook][1])
    if event is None:
        return None
    message = getattr(exc, "message", None) or type(exc).__name__
    return warn_once(event, problems(config_error=message), root)


def _with_gate_warning(output, event, cfg, env):
    """SessionStart's answer plus the gate warning when a gate cannot work (once per session)."""
    from .gate_health import problems, warn_once
    warning = warn_once(event, problems(cfg, env), cfg.paths.root)
    if not warning:
        return output
    if not output:
        return warning
    specific = output.setdefault("hookSpecificOutput", {"hookEventName": event.name})
    specific["additionalContext"] = (warning["systemMessage"] + "\n\n" + specific.get("additionalContext", "")).strip()
    output["systemMessage"] = warning["systemMessage"]
    return output


def _rel(path: str, root: str) -> str:
    return os.path.relpath(path, root) if path.startswith(root + os.sep) else path


def _with_encoding_notice(output, event, cfg):
    """SessionStart's answer plus one line per memory file it read that is not UTF-8 (the text was
    injected, read as GB18030, but code-memory will not add to the file until it is converted) and
    one naming what it skipped because it is not a regular file (a FIFO, a device)."""
    from ..fsutil import NOT_UTF8_READ, ODD_FILES
    if not NOT_UTF8_READ and not ODD_FILES:
        return output
    root = cfg.paths.root
    notes = []
    if NOT_UTF8_READ:
        names = ", ".join(sorted(_rel(p, root) for p in NOT_UTF8_READ))
        notes.append(f"[code-memory] Not UTF-8, so code-memory reads but never writes them: {names}. Convert to "
                     "keep them updated: iconv -f GB18030 -t UTF-8 FILE > FILE.new && mv FILE.new FILE.")
    if ODD_FILES:
        names = ", ".join(f"{_rel(p, root)} ({kind})" for p, kind in sorted(ODD_FILES.items())[:10])
        notes.append(f"[code-memory] Skipped, not regular files: {names}. Remove them; code-memory recreates "
                     "its files.")
    text = "\n".join(notes)
    output = output or {}
    specific = output.setdefault("hookSpecificOutput", {"hookEventName": event.name})
    specific["additionalContext"] = (specific.get("additionalContext", "") + "\n\n" + text).strip()
    output["systemMessage"] = ((output.get("systemMessage") or "") + "\n" + text).strip()
    return output


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    hook = argv[0] if argv else ""
    limit_lock_waits(HOOK_LOCK_WAIT_SECONDS)
    raw = _read_stdin()
    output = run(hook, raw, os.environ)
    if output:
        _emit(output)
    return 0
