"""Layered configuration, read only at the edges (CLI, hooks, MCP) and passed down as values.

Precedence, lowest first:
  built-in DEFAULTS
  ← user config: $CODE_MEMORY_CONFIG, else <root>/config.json (root from --root / $CODE_MEMORY_ROOT /
    ~/.claude/memory)
  ← project config: <project>/.claude/code-memory.json — only the keys in PROJECT_ALLOWED, so a
    cloned repository cannot redirect paths, models or LLM endpoints
  ← environment: CODE_MEMORY_ROOT, CODE_MEMORY_<SECTION>__<KEY> (e.g. CODE_MEMORY_SEARCH__TOP_K=8),
    and the design's switches AUTO_EXTRACT, CLAUDE_SEMANTIC_LINT, CAPABILITY_GENERATION
  ← explicit overrides (command-line flags)

``config.example.json`` lists every key with its default and a ``_doc`` line for it; keys starting
with ``_`` are documentation and ignored, so the example can be copied as a starting config. A test
keeps the example, DEFAULTS and the README's configuration reference in step.
"""

from __future__ import annotations

import os

from . import jsonlite
from .errors import CodeMemoryError
from .paths import DEFAULT_ROOT, MemoryPaths, expand

DEFAULTS: dict = {
    "memory_root": DEFAULT_ROOT,
    # path prefix -> project name; else the git top-level name, else the directory name
    "projects": {},
    # group name -> [project names]; members also get areas/projects/<group>/rules.md
    "project_groups": {},
    "search": {
        "default_mode": "auto",
        "top_k": 6,
        "rrf_k": 60,
        "snippet_chars": 700,
        "candidates": 50,
        "heading_weight": 3.0,
        "title_weight": 1.0,
        "fusion": "convex",
        "fusion_alpha": 0.5,
        "vector_weight": 0.5,
        # the warm search server (docs/search.md § The warm search server)
        "server": True,
        "server_idle_seconds": 3600,
        "server_timeout_seconds": 2.0,
        "server_hook_timeout_seconds": 0.5,
    },
    "index": {
        "window_lines": 40,
        "max_file_bytes": 2000000,
        "auto_rebuild": True,
        "sweep_seconds": 300,
    },
    "embedding": {
        "enabled": True,
        "model": "BAAI/bge-small-zh-v1.5",
        "model_path": None,
        "endpoint": None,
        "dim": None,
        "pooling": "cls",
        "normalize": True,
        "batch_size": 16,
        "daemon": True,
        "daemon_idle_seconds": 900,
        "daemon_start_wait_seconds": 5.0,
    },
    "llm": {
        "backend": "auto",
        "model": "claude-haiku-4-5",
        "cli_model": "haiku",
        "claude_bin": "claude",
        "base_url": None,
        "api_key_env": "ANTHROPIC_API_KEY",
        "timeout_seconds": 45.0,
        "max_retries": 0,
        "daily_token_budget": 300000,
    },
    # session summaries and fact extraction (session-summary.py, auto-extract-facts.py)
    "summary": {
        "auto_extract": True,
        "min_chars": 500,
        "max_conversation_chars": 48000,
        "raw_cap_chars": 20000,
        "include_subagents": True,
        "max_output_tokens": 1500,
        "pitfall_jaccard": 0.6,
        "pitfall_containment": 0.8,
        "max_attempts": 3,
        "max_pitfalls": 30,
        "facts_window_days": 7,
        "facts_min_sessions": 2,
        "facts_max_per_project": 3,
    },
    # self-evolution: experience feedback (memory-feedback.py)
    "feedback": {
        "half_life_days": 90.0,
        "archive_threshold": 0.3,
        "high_value_threshold": 0.7,
        "max_corrections": 3,
        "max_tool_errors": 10,
        "record_refs": True,
        "search_boost": 0.2,
    },
    # self-evolution: cross-session signals (signal-analyzer.py)
    "signals": {
        "window_sessions": 8,
        "high_threshold": 3,
        "critical_threshold": 5,
        "failure_streak": 3,
        "reopen_after": 3,
        "extra_rules": [],
    },
    # the review queue: "auto" writes what extraction proposes, "queue" waits for approval
    "review": {
        "mode": {"rules": "auto", "pitfalls": "auto", "facts": "auto", "skills": "queue", "kv": "auto"},
    },
    # self-evolution: Skills generated from recurring patterns (capability-generator.py)
    "capabilities": {
        "enabled": True,
        "cooldown_hours": 24.0,
        "min_patterns": 2,
        "min_pattern_count": 2,
        "success_window": 5,
        "min_success_rate": 0.6,
        "max_per_run": 3,
        "skills_dir": "~/.claude/skills",
        "use_llm": True,
    },
    # self-evolution: the weekly job (weekly-consolidate.sh)
    "consolidate": {
        "days": 7,
        "sessions_retention_days": 30,
        "daily_retention_days": 90,
        "cleanup": True,
        "top_files": 10,
        "max_best_practices": 12,
        "cron_schedule": "17 3 * * 0",
    },
    # the hooks (docs/hooks.md); the shell shims also honour CODE_MEMORY_HOOKS__FLAG_DIR
    "hooks": {
        "disabled": [],
        "flag_dir": None,
        "flag_max_age_hours": 48,
        "rules_injection": True,
        "rules_gate": "deny",
        "rules_max_bytes": 8000,
        "readonly_agents": ["Explore", "Plan"],
        "schema_index": "projects/shared-db/schema-index.md",
        "schema_agents": ["Plan", "Explore", "architect"],
        "schema_once_per_session": True,
        "schema_max_bytes": 8000,
        # SessionStart: blocks in priority order, one budget, each block's own share (characters)
        "session_start_blocks": ["review", "recent", "memory", "project_summary", "kv", "routing", "capabilities"],
        "session_start_max_chars": 6000,
        "session_start_block_chars": {"recent": 2000, "memory": 1600, "project_summary": 900, "kv": 600,
                                      "routing": 700, "capabilities": 600, "review": 200},
        "recent_sessions": 3,
        "recent_max_age_days": 14,
        "todo_expire_days": 30,
        "auto_init": True,
        "daily_notes": True,
        "summarize_on_end": True,
        "summarizer": None,
        "log_level": "info",
        "log_max_bytes": 1000000,
    },
    # recall at the moment of need (docs/hooks.md § Recall): on each prompt and on the first Read/Edit of a file
    "recall": {
        "prompt": True,
        "file": True,
        "threshold": 0.25,
        "threshold_work": 0.7,
        "max_chars": 1500,
        "max_items": 3,
        "candidates": 8,
        "mode": "auto",
        "file_max_chars": 700,
        "file_sessions": 2,
    },
    # avoidance-gate rule engines (docs/hooks.md § Lint rules)
    "lint": {
        "enabled": True,
        "scope": "changed",
        "max_file_bytes": 1000000,
        "python_target": None,
        "bash_target": "3.2",
        "frontend_projects": [],
        "detect_antd_v3": True,
        "severity": {},
        "user_rules": [],
        "semantic": False,
        "semantic_timeout_seconds": 8.0,
        "semantic_max_bytes": 12000,
    },
    # workspace memory (docs/stores.md § Workspace memory): registered directories with memory/YYYY-MM-DD.md
    "workspaces": {
        "paths": [],
        "id_strategy": "name",
        "compact_after_days": 30,
    },
    # agent key-value memory (set_memory; docs/stores.md § Agent key-value memory)
    "kv": {
        "read_token_limit": 400,
        "history_policy": "A",
        "rotate_lines": 100000,
        "compact_after_lines": 10000,
        "auto_compact": True,
        "drop_expired_on_compact": False,
        "quarantine_untrusted": False,
        "max_content_bytes": 65536,
        "fsync": False,
        "summary_chars": 120,
        "recency_half_life_days": 7.0,
        "lock_timeout": 10.0,
    },
    # memtool and the MCP server (docs/stores.md § memtool, § MCP server)
    "memtool": {
        "db": None,
    },
}

# Dotted keys a project's own .claude/code-memory.json may set. Nothing here names a path,
# a model, a command or an endpoint.
PROJECT_ALLOWED = {
    "search.top_k",
    "search.default_mode",
    "search.snippet_chars",
    "lint.python_target",
    "lint.bash_target",
    "lint.severity",
}

# The design's environment switches (docs/configuration.md) and the keys they set.
ENV_ALIASES = {
    "CODE_MEMORY_ROOT": "memory_root",
    "CLAUDE_SEMANTIC_LINT": "lint.semantic",
    "CAPABILITY_GENERATION": "capabilities.enabled",
    "AUTO_EXTRACT": "summary.auto_extract",
}

PROJECT_CONFIG_RELPATH = os.path.join(".claude", "code-memory.json")

_MISSING = object()


def section_values(section_name: str, section: dict | None, fields) -> dict:
    """``{field: value}`` for the ``fields`` of config section ``section_name`` that DEFAULTS knows:
    the value in ``section`` when it is set (cast to the default's type), else the default. What a
    settings class's ``from_config`` passes to its constructor, so defaults live in DEFAULTS only."""
    defaults = DEFAULTS[section_name]
    section = section or {}
    out = {}
    for name in fields:
        if name not in defaults:
            continue
        default, value = defaults[name], section.get(name)
        if value is None:
            value = _deep_copy(default)
        elif isinstance(default, bool):
            value = bool(value)
        elif isinstance(default, (int, float)) and not isinstance(value, bool):
            value = type(default)(value)
        out[name] = value
    return out


class Config(dict):
    """The merged configuration: a plain nested dict plus where each layer came from."""

    def __init__(self, data: dict, sources: list, warnings: list):
        super().__init__(data)
        self.sources = sources
        self.warnings = warnings

    def get_path(self, dotted: str, default=_MISSING):
        """The value at ``dotted`` (``"search.top_k"``); when it is missing, ``default`` if one
        is given, else the built-in default (DEFAULTS), else None."""
        node = self
        for part in dotted.split("."):
            if not isinstance(node, dict) or part not in node:
                if default is _MISSING:
                    fallback = _default_for(dotted)
                    return None if fallback is _MISSING else _deep_copy(fallback)
                return default
            node = node[part]
        return node

    @property
    def root(self) -> str:
        return expand(self["memory_root"])

    @property
    def paths(self) -> MemoryPaths:
        return MemoryPaths(self.root)


def _deep_copy(value):
    """Copy nested dicts and lists (the JSON shapes config holds); copy.deepcopy costs hooks an import."""
    if isinstance(value, dict):
        return {k: _deep_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_deep_copy(v) for v in value]
    return value


def _set_path(data: dict, dotted: str, value) -> None:
    parts = dotted.split(".")
    node = data
    for part in parts[:-1]:
        node = node.setdefault(part, {})
        if not isinstance(node, dict):
            raise CodeMemoryError("CONFIG_INVALID", f"{dotted}: parent is not an object")
    node[parts[-1]] = value


def _default_for(dotted: str):
    node = DEFAULTS
    for part in dotted.split("."):
        if not isinstance(node, dict) or part not in node:
            return _MISSING
        node = node[part]
    return node


def _check_type(dotted: str, value, where: str) -> None:
    default = _default_for(dotted)
    if default is _MISSING or default is None or value is None:
        return
    expected = type(default)
    ok = isinstance(value, expected)
    if expected is float and isinstance(value, int) and not isinstance(value, bool):
        ok = True
    if expected is int and isinstance(value, bool):
        ok = False
    if not ok:
        raise CodeMemoryError(
            "CONFIG_INVALID",
            f"{where}: {dotted} should be {expected.__name__}, got {type(value).__name__}",
            hint="see config.example.json for every key and its type",
        )


def _flatten(data: dict, prefix: str = ""):
    for key, value in data.items():
        if key.startswith("_"):  # "_doc" / "_comment": documentation, as in config.example.json
            continue
        dotted = f"{prefix}{key}"
        default = _default_for(dotted)
        # dict-valued defaults that are empty ({} maps like "projects") take the value whole
        if isinstance(value, dict) and isinstance(default, dict) and default:
            yield from _flatten(value, dotted + ".")
        else:
            yield dotted, value


def _merge_layer(data: dict, layer: dict, where: str, warnings: list, allowed=None) -> None:
    for dotted, value in _flatten(layer):
        if allowed is not None and dotted not in allowed:
            warnings.append(f"{where}: key {dotted} is not allowed in a project config; ignored")
            continue
        if _default_for(dotted) is _MISSING:
            warnings.append(f"{where}: unknown key {dotted}")
        _check_type(dotted, value, where)
        _set_path(data, dotted, value)


def _read_json_object(path: str) -> dict | None:
    from .fsutil import NotRegularFile, open_regular
    try:
        with open_regular(path) as fh:
            raw = fh.read()
    except FileNotFoundError:
        return None
    except NotRegularFile as exc:
        raise CodeMemoryError("CONFIG_INVALID", f"config {path} is {exc.strerror}",
                              hint="remove it (code-memory init writes a fresh one)") from None
    except OSError as exc:
        raise CodeMemoryError("CONFIG_INVALID", f"cannot read config {path}: {exc.strerror}") from None
    try:
        obj = jsonlite.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise CodeMemoryError("CONFIG_INVALID", f"config {path} is not valid JSON ({exc})",
                              hint="fix or remove the file") from None
    if not isinstance(obj, dict):
        raise CodeMemoryError("CONFIG_INVALID", f"config {path} must hold a JSON object")
    return obj


def _coerce_env(dotted: str, raw: str):
    default = _default_for(dotted)
    if isinstance(default, bool):
        low = raw.strip().lower()
        if low in ("1", "true", "yes", "on"):
            return True
        if low in ("0", "false", "no", "off", ""):
            return False
        raise CodeMemoryError("CONFIG_INVALID", f"environment: {dotted} expects true/false, got {raw!r}")
    if isinstance(default, int):
        try:
            return int(raw)
        except ValueError:
            raise CodeMemoryError("CONFIG_INVALID", f"environment: {dotted} expects an integer") from None
    if isinstance(default, float):
        try:
            return float(raw)
        except ValueError:
            raise CodeMemoryError("CONFIG_INVALID", f"environment: {dotted} expects a number") from None
    if isinstance(default, (list, dict)):
        try:
            return jsonlite.loads(raw)
        except ValueError:
            raise CodeMemoryError("CONFIG_INVALID", f"environment: {dotted} expects JSON") from None
    return raw


def _env_layer(env) -> dict:
    layer: dict = {}
    for name, dotted in ENV_ALIASES.items():
        if env.get(name) not in (None, ""):
            _set_path(layer, dotted, _coerce_env(dotted, env[name]))
    for name, raw in env.items():
        if not name.startswith("CODE_MEMORY_") or "__" not in name:
            continue
        section, _, key = name[len("CODE_MEMORY_"):].partition("__")
        dotted = f"{section.lower()}.{key.lower()}"
        if _default_for(dotted) is _MISSING and _default_for(dotted.replace("__", ".")) is not _MISSING:
            dotted = dotted.replace("__", ".")   # a nested key: CODE_MEMORY_REVIEW__MODE__SKILLS
        if _default_for(dotted) is _MISSING:
            continue
        _set_path(layer, dotted, _coerce_env(dotted, raw))
    return layer


def user_config_path(root_override: str | None = None, env=None) -> str:
    env = os.environ if env is None else env
    if env.get("CODE_MEMORY_CONFIG"):
        return expand(env["CODE_MEMORY_CONFIG"])
    root = root_override or env.get("CODE_MEMORY_ROOT") or DEFAULT_ROOT
    return os.path.join(expand(root), "config.json")


def load_config(root_override: str | None = None, project_dir: str | None = None,
                env=None, overrides: dict | None = None) -> Config:
    """Merge every layer and return a :class:`Config`.

    Raises ``CONFIG_INVALID`` for malformed JSON or wrongly typed values; unknown keys and keys a
    project config may not set are reported in ``Config.warnings`` instead.
    """
    env = os.environ if env is None else env
    data = _deep_copy(DEFAULTS)
    sources = ["defaults"]
    warnings: list = []

    user_path = user_config_path(root_override, env)
    user = _read_json_object(user_path)
    if user is not None:
        _merge_layer(data, user, user_path, warnings)
        sources.append(user_path)

    if project_dir:
        project_path = os.path.join(project_dir, PROJECT_CONFIG_RELPATH)
        try:
            project = _read_json_object(project_path)
        except CodeMemoryError as exc:  # a broken project file must not break the user's tools
            warnings.append(exc.message)
            project = None
        if project is not None:
            _merge_layer(data, project, project_path, warnings, allowed=PROJECT_ALLOWED)
            sources.append(project_path)

    env_layer = _env_layer(env)
    if env_layer:
        _merge_layer(data, env_layer, "environment", warnings)
        sources.append("environment")

    if root_override:
        data["memory_root"] = root_override
    if overrides:
        for dotted, value in overrides.items():
            if value is not None:
                _check_type(dotted, value, "command line")
                _set_path(data, dotted, value)
        sources.append("command line")
    return Config(data, sources, warnings)
