"""LLM backends behind one interface: the Anthropic SDK, the ``claude -p`` CLI, or none.

    backend = get_backend(cfg)                      # a Config, or its "llm" section as a dict
    result = backend.complete(prompt, system=..., max_tokens=1024, timeout=None)
    result.text, result.model, result.input_tokens, result.output_tokens, result.backend

Every failure is an :class:`LLMError` whose ``kind`` is one of ``timeout``, ``http``,
``rate_limit``, ``unavailable``, ``budget`` or ``bad_response``; callers fall back to their
deterministic path on any of them. Nothing here retries: the SDK runs with ``max_retries=0`` (the
caller is a detached worker with a deadline) and the CLI child is killed at the timeout.

When the backend knows the memory root (a full Config, or ``paths=``), a daily token budget
(``llm.daily_token_budget``) is enforced and every call is recorded in ``evolution/audit.jsonl`` as
an ``llm_usage`` event: backend, model, purpose, token counts, duration, outcome. Never the prompt
or the answer. The running total for the day is kept in ``evolution/llm_usage.json`` (a cache that
is rebuilt from audit.jsonl when missing).

The prompt is the caller's responsibility to redact (code_memory.redact) before it gets here;
:func:`get_backend` callers in this package always do.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass

from .config import setting
from .fsutil import append_jsonl, atomic_write_json, file_lock, iter_jsonl, read_text
from .paths import MemoryPaths

ERROR_KINDS = ("timeout", "http", "rate_limit", "unavailable", "budget", "bad_response")
BACKENDS = ("auto", "anthropic", "claude-cli", "none")

# The guard every code-memory hook checks first: a child `claude -p` we start must not run our
# hooks again (they would summarise the summariser).
HOOKS_DISABLED_ENV = "CODE_MEMORY_HOOKS_DISABLED"

DEFAULT_SYSTEM = ("You are a precise assistant inside a developer tool. Answer exactly in the format "
                  "the user asks for, with no preamble.")


class LLMError(Exception):
    """A failed completion. ``kind`` says why; ``status`` is the HTTP status when there was one."""

    def __init__(self, kind: str, message: str, status: int | None = None):
        assert kind in ERROR_KINDS, kind
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.status = status

    def __repr__(self) -> str:
        return f"LLMError({self.kind!r}, {self.message!r})"


@dataclass(frozen=True)
class LLMResult:
    text: str
    model: str
    input_tokens: int
    output_tokens: int
    backend: str


def estimate_tokens(text: str) -> int:
    """A cheap upper-leaning token estimate: ~4 ASCII characters or 1 CJK character per token."""
    if not text:
        return 0
    non_ascii = sum(1 for ch in text if ord(ch) > 127)
    return (len(text) - non_ascii) // 4 + non_ascii + 1


# ---------------------------------------------------------------------------------------------
# usage accounting


class UsageLedger:
    """The daily token budget and the metadata-only usage log of one memory root."""

    def __init__(self, paths: MemoryPaths, daily_budget: int, purpose: str = ""):
        self.paths = paths
        self.daily_budget = int(daily_budget or 0)
        self.purpose = purpose
        self.audit_path = paths.audit_log
        self.counter_path = os.path.join(paths.evolution, "llm_usage.json")

    @staticmethod
    def _today() -> str:
        return dt.date.today().isoformat()

    def _recount(self, day: str) -> int:
        total = 0
        for rec in iter_jsonl(self.audit_path):
            if rec.get("event_type") == "llm_usage" and str(rec.get("timestamp", "")).startswith(day):
                total += int(rec.get("input_tokens") or 0) + int(rec.get("output_tokens") or 0)
        return total

    def used_today(self) -> int:
        day = self._today()
        try:
            data = json.loads(read_text(self.counter_path) or "{}")
        except ValueError:
            data = {}
        if isinstance(data, dict) and data.get("date") == day and isinstance(data.get("tokens"), int):
            return data["tokens"]
        return self._recount(day)

    def check(self, estimate: int) -> None:
        """Raise ``LLMError("budget")`` when a call of about ``estimate`` tokens would exceed today's
        budget (0 = no budget)."""
        if self.daily_budget <= 0:
            return
        used = self.used_today()
        if used + estimate > self.daily_budget:
            raise LLMError("budget", f"daily LLM token budget reached ({used} of {self.daily_budget} "
                                     f"used, this call needs about {estimate})")

    def record(self, backend: str, model: str, input_tokens: int, output_tokens: int,
               duration_ms: int, error_kind: str | None = None) -> None:
        now = dt.datetime.now().astimezone()
        day = now.date().isoformat()
        event = {"timestamp": now.isoformat(timespec="seconds"), "event_type": "llm_usage",
                 "backend": backend, "model": model, "purpose": self.purpose,
                 "input_tokens": int(input_tokens), "output_tokens": int(output_tokens),
                 "duration_ms": int(duration_ms), "ok": error_kind is None}
        if error_kind:
            event["error_kind"] = error_kind
        os.makedirs(self.paths.evolution, exist_ok=True)
        with file_lock(os.path.join(self.paths.evolution, ".llm_usage.lock")):
            used = self.used_today()
            append_jsonl(self.audit_path, event)
            atomic_write_json(self.counter_path,
                              {"date": day, "tokens": used + int(input_tokens) + int(output_tokens)})


# ---------------------------------------------------------------------------------------------
# backends


class _Backend:
    name = "none"

    def __init__(self, section: dict, ledger: UsageLedger | None, env):
        self.section = section
        self.ledger = ledger
        self.env = env
        self.default_timeout = setting(section, "llm.timeout_seconds")

    @property
    def model(self) -> str:
        return ""

    def complete(self, prompt: str, *, system: str | None = None, max_tokens: int = 1024,
                 timeout: float | None = None) -> LLMResult:
        if not isinstance(prompt, str) or not prompt.strip():
            raise LLMError("bad_response", "empty prompt")
        timeout = float(timeout if timeout is not None else self.default_timeout)
        if self.ledger:
            self.ledger.check(estimate_tokens(prompt) + estimate_tokens(system or "") + max_tokens)
        started = time.monotonic()
        try:
            result = self._complete(prompt, system, max_tokens, timeout)
        except LLMError as exc:
            if self.ledger and exc.kind != "unavailable":
                self.ledger.record(self.name, self.model, 0, 0,
                                   int((time.monotonic() - started) * 1000), exc.kind)
            raise
        if self.ledger:
            self.ledger.record(self.name, result.model, result.input_tokens, result.output_tokens,
                               int((time.monotonic() - started) * 1000))
        return result

    def _complete(self, prompt, system, max_tokens, timeout) -> LLMResult:
        raise LLMError("unavailable", "no LLM backend is configured (llm.backend = none)")


class NoneBackend(_Backend):
    name = "none"


def _run_with_deadline(func, timeout: float):
    """Run ``func()`` in a daemon thread and give up after ``timeout`` seconds (a hard bound on top
    of the SDK's own per-read timeout, which a slowly trickling server could otherwise stretch)."""
    box: dict = {}

    def target():
        try:
            box["value"] = func()
        except BaseException as exc:  # re-raised in the caller's thread
            box["error"] = exc

    worker = threading.Thread(target=target, name="code-memory-llm", daemon=True)
    worker.start()
    worker.join(timeout)
    if worker.is_alive():
        raise LLMError("timeout", f"no answer within {timeout:g}s")
    if "error" in box:
        raise box["error"]
    return box["value"]


class AnthropicBackend(_Backend):
    """The ``anthropic`` SDK (0.x and 2.x): explicit key, base URL, timeout and ``max_retries``."""

    name = "anthropic"

    @property
    def model(self) -> str:
        return setting(self.section, "llm.model")

    def _api_key(self) -> str | None:
        return self.env.get(setting(self.section, "llm.api_key_env")) or None

    def _client(self, timeout: float):
        try:
            import anthropic
        except ImportError:
            raise LLMError("unavailable", "the anthropic package is not installed") from None
        key = self._api_key()
        if not key:
            raise LLMError("unavailable",
                           f"${setting(self.section, 'llm.api_key_env')} is not set")
        base_url = self.section.get("base_url") or self.env.get("ANTHROPIC_BASE_URL") or None
        kwargs = {"api_key": key, "timeout": timeout,
                  "max_retries": setting(self.section, "llm.max_retries")}
        if base_url:
            kwargs["base_url"] = base_url
        return anthropic, anthropic.Anthropic(**kwargs)

    def _complete(self, prompt, system, max_tokens, timeout) -> LLMResult:
        anthropic, client = self._client(timeout)
        request = {"model": self.model, "max_tokens": int(max_tokens),
                   "messages": [{"role": "user", "content": prompt}]}
        if system:
            request["system"] = system
        try:
            response = _run_with_deadline(lambda: client.messages.create(**request), timeout + 1.0)
        except LLMError:
            raise
        except anthropic.APITimeoutError:
            raise LLMError("timeout", f"no answer within {timeout:g}s") from None
        except anthropic.RateLimitError as exc:
            raise LLMError("rate_limit", "the API is rate limiting (HTTP 429)",
                           status=getattr(exc, "status_code", 429)) from None
        except anthropic.APIStatusError as exc:
            status = getattr(exc, "status_code", None)
            kind = "rate_limit" if status in (429, 529) else "http"
            raise LLMError(kind, f"the API answered HTTP {status}", status=status) from None
        except anthropic.APIConnectionError as exc:
            raise LLMError("unavailable", f"cannot reach the API ({type(exc).__name__})") from None
        except anthropic.AnthropicError as exc:
            raise LLMError("bad_response", f"SDK error {type(exc).__name__}") from None
        except Exception as exc:  # e.g. a 200 answer whose body is not JSON (a proxy's HTML page)
            raise LLMError("bad_response", f"unreadable answer ({type(exc).__name__})") from None
        blocks = getattr(response, "content", None) or []
        text = "".join(getattr(b, "text", "") or "" for b in blocks if getattr(b, "type", "") == "text")
        if not text.strip():
            raise LLMError("bad_response", "the answer holds no text")
        usage = getattr(response, "usage", None)
        return LLMResult(text=text, model=getattr(response, "model", None) or self.model,
                         input_tokens=int(getattr(usage, "input_tokens", 0) or 0),
                         output_tokens=int(getattr(usage, "output_tokens", 0) or 0),
                         backend=self.name)


class ClaudeCliBackend(_Backend):
    """``claude -p`` as a child process: our hooks disabled (``--settings`` + the guard variable),
    no session persistence, no tools, no MCP servers, JSON output, killed at the timeout."""

    name = "claude-cli"

    @property
    def model(self) -> str:
        return setting(self.section, "llm.cli_model")

    def binary(self) -> str | None:
        configured = setting(self.section, "llm.claude_bin")
        if os.sep in configured:
            return configured if os.access(configured, os.X_OK) else None
        return shutil.which(configured, path=self.env.get("PATH"))

    def command(self, binary: str, system: str | None) -> list:
        return [binary, "-p", "--model", self.model, "--output-format", "json",
                "--no-session-persistence", "--settings", json.dumps({"disableAllHooks": True}),
                "--strict-mcp-config", "--max-turns", "1", "--tools", "",
                "--system-prompt", system or DEFAULT_SYSTEM]

    def child_env(self) -> dict:
        env = dict(self.env)
        # Claude Code from ~2.1.39 refuses to start inside another session when CLAUDECODE is set
        # (seen on the real binary); a hook's environment carries it. Same for the per-session markers.
        for name in ("CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT", "CLAUDE_CODE_CHILD_SESSION",
                     "CLAUDE_CODE_SESSION_ID"):
            env.pop(name, None)
        env[HOOKS_DISABLED_ENV] = "1"
        env.setdefault("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
        env.setdefault("DISABLE_AUTOUPDATER", "1")
        return env

    def _complete(self, prompt, system, max_tokens, timeout) -> LLMResult:
        binary = self.binary()
        if not binary:
            raise LLMError("unavailable", "the claude binary was not found (llm.claude_bin)")
        cmd = self.command(binary, system)
        env = self.child_env()
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            # Claude Code refuses some permission modes as root unless it is told it is sandboxed;
            # the child has no tools, so nothing is permitted that was not before.
            cmd += ["--permission-mode", "bypassPermissions"]
            env.setdefault("IS_SANDBOX", "1")
        try:
            proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, env=env, cwd=tempfile.gettempdir(),
                                    start_new_session=True)
        except OSError as exc:
            raise LLMError("unavailable", f"cannot start claude ({exc.strerror})") from None
        try:
            out, err = proc.communicate(prompt.encode("utf-8"), timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill_group(proc)
            raise LLMError("timeout", f"claude -p gave no answer within {timeout:g}s") from None
        return self._parse(proc.returncode, out, err)

    def _parse(self, returncode: int, out: bytes, err: bytes) -> LLMResult:
        text = out.decode("utf-8", errors="replace").strip()
        payload = None
        for line in [text] + list(reversed(text.splitlines())):
            try:
                candidate = json.loads(line)
            except ValueError:
                continue
            if isinstance(candidate, dict) and candidate.get("type") == "result":
                payload = candidate
                break
        if payload is None:
            detail = (err.decode("utf-8", errors="replace").strip().splitlines() or [""])[-1][:200]
            if returncode:
                raise LLMError("unavailable", f"claude -p exited {returncode}: {detail}")
            raise LLMError("bad_response", "claude -p printed no JSON result")
        result_text = payload.get("result")
        if payload.get("is_error") or payload.get("subtype") not in (None, "success"):
            message = str(result_text or payload.get("subtype") or "error")[:200]
            lowered = message.lower()
            if payload.get("api_error_status") in (429, 529) or "429" in lowered or "rate limit" in lowered or "rate_limit" in lowered:
                raise LLMError("rate_limit", f"claude -p: {message}", status=429)
            if "timed out" in lowered or "timeout" in lowered:
                raise LLMError("timeout", f"claude -p: {message}")
            raise LLMError("http", f"claude -p: {message}")
        if not isinstance(result_text, str) or not result_text.strip():
            raise LLMError("bad_response", "claude -p returned an empty result")
        usage = payload.get("usage") or {}
        model = self.model
        model_usage = payload.get("modelUsage")
        if isinstance(model_usage, dict) and model_usage:
            model = next(iter(model_usage))
        input_tokens = sum(int(usage.get(k) or 0) for k in
                           ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"))
        return LLMResult(text=result_text, model=model, input_tokens=input_tokens,
                         output_tokens=int(usage.get("output_tokens") or 0), backend=self.name)


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except OSError:
        proc.kill()
    try:
        proc.communicate(timeout=5)
    except (subprocess.TimeoutExpired, ValueError, OSError):
        pass


_CLASSES = {"anthropic": AnthropicBackend, "claude-cli": ClaudeCliBackend, "none": NoneBackend}


def _section_of(cfg) -> tuple:
    """``(llm_section, paths_or_None)`` from a Config, a whole config dict or an llm section."""
    if cfg is None:
        return {}, None
    paths = getattr(cfg, "paths", None) if hasattr(cfg, "get_path") else None
    if isinstance(cfg, dict) and isinstance(cfg.get("llm"), dict):
        return dict(cfg["llm"]), paths
    return dict(cfg), paths


def choose_backend_name(section: dict, env) -> str:
    """Resolve ``auto``: the SDK when it is installed and a key is set, else the claude CLI when
    the binary is on PATH, else none."""
    wanted = str(setting(section, "llm.backend")).strip().lower()
    if wanted not in BACKENDS:
        raise LLMError("unavailable", f"unknown llm.backend {wanted!r} (use {', '.join(BACKENDS)})")
    if wanted != "auto":
        return wanted
    import importlib.util
    if importlib.util.find_spec("anthropic") is not None and \
            env.get(setting(section, "llm.api_key_env")):
        return "anthropic"
    if ClaudeCliBackend(section, None, env).binary():
        return "claude-cli"
    return "none"


def get_backend(cfg, *, backend: str | None = None, paths: MemoryPaths | None = None,
                env=None, purpose: str = ""):
    """The configured backend. ``cfg`` is a Config, a config dict or its ``llm`` section.

    ``backend`` overrides ``llm.backend``; ``paths`` (or a Config) enables the daily budget and the
    usage log; ``env`` defaults to ``os.environ`` (API key, PATH, ANTHROPIC_BASE_URL).
    """
    section, cfg_paths = _section_of(cfg)
    if backend:
        section["backend"] = backend
    env = os.environ if env is None else env
    paths = paths or cfg_paths
    ledger = UsageLedger(paths, section.get("daily_token_budget") or 0, purpose) if paths else None
    name = choose_backend_name(section, env)
    return _CLASSES[name](section, ledger, env)
