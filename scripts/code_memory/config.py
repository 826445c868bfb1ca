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

Every key is declared once, in :mod:`code_memory.config_schema` (default, type, description, allowed
values); DEFAULTS is built from it and each layer is checked against it: a wrongly typed value is a
``CONFIG_INVALID`` error, a value outside its choices or bounds is ignored with a warning
(``code-memory config`` shows them). ``config.example.json`` and the table of
docs/configuration.md are generated from the schema (``python -m code_memory.config_reference``);
keys starting with ``_`` are documentation and ignored, so the example can be copied as a starting
config. Code reads a setting that may be missing from a partial section through :func:`setting`,
never with a literal fallback.
"""

from __future__ import annotations

import os

from . import jsonlite
from .config_schema import KEYS, defaults_tree
from .errors import CodeMemoryError
from .paths import DEFAULT_ROOT, MemoryPaths, expand

# Every key's default, type, description and allowed values: config_schema.SCHEMA, the only list.
DEFAULTS: dict = defaults_tree()

# Dotted keys a project's own .claude/code-memory.json may set. Nothing here names a path,
# a model, a command or an endpoint.
PROJECT_ALLOWED = {key.name for key in KEYS.values() if key.project}

# The design's environment switches (docs/configuration.md) and the keys they set.
ENV_ALIASES = {
    "CODE_MEMORY_ROOT": "memory_root",
    "CLAUDE_SEMANTIC_LINT": "lint.semantic",
    "CAPABILITY_GENERATION": "capabilities.enabled",
    "AUTO_EXTRACT": "summary.auto_extract",
}

PROJECT_CONFIG_RELPATH = os.path.join(".claude", "code-memory.json")

_MISSING = object()


def setting(section: dict | None, dotted: str):
    """The value of key ``dotted`` (``"lint.enabled"``) in ``section``, the config object that holds
    it (``cfg["lint"]``): cast to the key's type when it is set, else (a copy of) its default. How
    code reads a setting from a section that may be partial, instead of ``.get(name, literal)``."""
    key = KEYS[dotted]
    value = section.get(dotted.rpartition(".")[2]) if isinstance(section, dict) else None
    if value is None:
        return _deep_copy(key.default)
    if key.kind is bool:
        return bool(value)
    if key.kind in (int, float) and not isinstance(value, bool):
        return key.kind(value)
    return value


def section_values(section_name: str, section: dict | None, fields) -> dict:
    """``{field: value}`` for the ``fields`` of config section ``section_name`` that the schema knows,
    each read with :func:`setting`. What a settings class's ``from_config`` passes to its
    constructor, so defaults live in the schema only."""
    return {name: setting(section, f"{section_name}.{name}") for name in fields
            if f"{section_name}.{name}" in KEYS}


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


def _kind(dotted: str):
    """The type ``dotted`` takes: a key's from the schema, an object's (``"search"``) dict; None
    when unknown or free."""
    key = KEYS.get(dotted)
    if key is not None:
        return key.kind
    default = _default_for(dotted)
    return None if default is _MISSING or default is None else type(default)


def _check_type(dotted: str, value, where: str) -> None:
    expected = _kind(dotted)
    if expected is None or value is None:
        return
    ok = isinstance(value, expected)
    if expected is float and isinstance(value, int) and not isinstance(value, bool):
        ok = True
    if expected is int and isinstance(value, bool):
        ok = False
    if not ok:
        raise CodeMemoryError(
            "CONFIG_INVALID",
            f"{where}: {dotted} should be {expected.__name__}, got {type(value).__name__}",
            hint="see config.example.json or docs/configuration.md for every key and its type",
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
        key = KEYS.get(dotted)
        problem = key.problem(value) if key is not None else None
        if problem:   # an unknown list item is skipped where it is used; any other bad value is ignored
            warnings.append(f"{where}: {dotted} {problem}" + ("; those are skipped" if key.items else "; ignored"))
            if not key.items:
                continue
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
    kind = _kind(dotted)
    if kind is bool:
        low = raw.strip().lower()
        if low in ("1", "true", "yes", "on"):
            return True
        if low in ("0", "false", "no", "off", ""):
            return False
        raise CodeMemoryError("CONFIG_INVALID", f"environment: {dotted} expects true/false, got {raw!r}")
    if kind is int:
        try:
            return int(raw)
        except ValueError:
            raise CodeMemoryError("CONFIG_INVALID", f"environment: {dotted} expects an integer") from None
    if kind is float:
        try:
            return float(raw)
        except ValueError:
            raise CodeMemoryError("CONFIG_INVALID", f"environment: {dotted} expects a number") from None
    if kind in (list, dict):
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
