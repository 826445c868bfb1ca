"""The ``source`` argument of set_memory (docs/stores.md § Agent key-value memory, provenance): validation
against a declared schema, and how far a source is trusted. Pure.

:data:`SCHEMA` is the contract of a source object:

- ``kind`` (required): one of :data:`KINDS`;
- ``name``: the tool, site, file or conversation it came from (≤ 200 characters);
- ``retrieved_at``: when it was obtained (ISO 8601);
- ``locator``: a URL, file path, tool query, event id or content hash (string or object);
- other fields are allowed (strings, numbers, lists, objects), within :data:`MAX_SOURCE_BYTES`.

No field name or text may hold a control or invisible character; every URL anywhere in the source
must use a scheme of :data:`URL_SCHEMES` (``javascript:``, ``data:`` … are refused).

**Trust** has three levels (:func:`trust_level`). A source is *external* (untrusted) when its kind
is web, tool or file; when a string source is a URL or names a tool or a scheme (``web:``,
``tool :search``, ``mcp__fetch__fetch``, ``WebFetch`` — spaces and case do not matter); when an
object's ``name`` names a tool; or when it carries a URL anywhere — whatever kind it declares
(``{"kind": "agent", "locator": "https://…"}`` is external). External sources and every ``/kb/…``
key need the provenance minimum (kind, name, retrieved_at, locator). A user or system source is
*user*-level; an agent source, and any other string, *agent*-level. A write never replaces or
deletes a value of a higher level (:func:`outranked`; the write refuses it or, with
``kv.quarantine_untrusted``, stores it under ``/untrusted/…``).

**Who says so.** What a source declares about itself is believed only from you at your terminal.
Writes from the MCP server and from a Claude Code session's (or a detached process's) commands
are agent-sourced whatever they claim: :func:`as_agent` turns a declared user or system kind into
``agent`` and keeps the claim as ``claimed_kind`` — so an agent cannot pass itself off as you,
and cannot replace or delete a key you wrote.
"""

from __future__ import annotations

import re

from ..errors import CodeMemoryError
from ..names import refusal
from ..timeutil import parse_datetime

KINDS = ("user", "tool", "web", "file", "system", "agent")
EXTERNAL_KINDS = ("web", "tool", "file")
TRUSTED_KINDS = ("user", "system", "agent")
REQUIRED_FIELDS = ("kind", "name", "retrieved_at", "locator")
URL_SCHEMES = ("http", "https", "ftp", "ftps", "sftp", "file", "s3", "gs", "git", "ssh")
SCHEMA = {
    "kind": {"type": "string", "enum": KINDS, "required": True},
    "name": {"type": "string", "max_chars": 200},
    "retrieved_at": {"type": "string", "format": "ISO 8601"},
    "locator": {"type": ["string", "object"]},
}
KB_PREFIX = "/kb/"
UNTRUSTED_PREFIX = "/untrusted"
_STRING_EXTERNAL_PREFIXES = ("web:", "tool:", "file:", "mcp:", "mcp__")
# a tool's name as Claude Code spells it: MCP tools (mcp__server__tool) and the web tools
_TOOL_NAME = re.compile(r"(?i)^\s*(mcp__|mcp\s*:|tool\s*:|web\s*:|file\s*:|web\s*fetch\b|web\s*search\b)")
_USER_STRING = re.compile(r"(?i)^\s*(user|system)\s*(:|$)")
LEVELS = {"external": 0, "agent": 1, "user": 2}
_SCHEME_URL = re.compile(r"(?i)\b([a-z][a-z0-9+.\-]{1,30})://")
_DANGEROUS_SCHEMES = re.compile(r"(?i)^\s*(javascript|data|vbscript):")
MAX_SOURCE_BYTES = 8192
MAX_SOURCE_DEPTH = 8


class ProvenanceError(CodeMemoryError):
    """A source that lacks the provenance its write needs (quarantinable when configured)."""

    def __init__(self, message: str, missing=(), **extra):
        super().__init__("KV_PROVENANCE_REQUIRED", message,
                         hint='give source as {"kind": "web|tool|file|…", "name": …, '
                              '"retrieved_at": ISO-8601, "locator": URL/path/query/id}',
                         missing=list(missing), **extra)


def _invalid(message: str, **extra) -> CodeMemoryError:
    return CodeMemoryError("KV_SOURCE_INVALID", message,
                           hint='e.g. {"kind": "user", "name": "chat", "retrieved_at": …, "locator": …}', **extra)


def is_kb_key(key: str) -> bool:
    return key.startswith(KB_PREFIX) or key == KB_PREFIX.rstrip("/")


def _strings(value, depth: int = 0):
    """Every string (keys included) inside a source, depth-limited."""
    if depth > MAX_SOURCE_DEPTH:
        raise _invalid(f"source is nested deeper than {MAX_SOURCE_DEPTH} levels")
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(k, str):
                raise _invalid("source field names must be strings")
            yield k
            yield from _strings(v, depth + 1)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v, depth + 1)
    elif value is not None and not isinstance(value, (bool, int, float)):
        raise _invalid(f"source holds a value of type {type(value).__name__}")


def carries_url(source) -> bool:
    return any(_SCHEME_URL.search(text) for text in _strings(source))


def names_tool(text) -> bool:
    """Whether ``text`` names a tool or an external scheme (``tool :search``, ``mcp__fetch__fetch``)."""
    return isinstance(text, str) and bool(_TOOL_NAME.match(text))


def is_external(source) -> bool:
    """Whether ``source`` is untrusted (see the module docstring)."""
    if isinstance(source, str):
        text = source.strip().lower()
        return (text.startswith(_STRING_EXTERNAL_PREFIXES) or names_tool(text)
                or bool(_SCHEME_URL.search(text)))
    if isinstance(source, dict):
        return (source.get("kind") not in TRUSTED_KINDS or carries_url(source) or names_tool(source.get("name"))
                or names_tool(source.get("kind")))
    return True


def trust_level(source) -> str:
    """``"user"`` (user or system, as written from your terminal), ``"agent"`` or ``"external"``."""
    try:
        if is_external(source):
            return "external"
    except CodeMemoryError:
        return "external"
    if isinstance(source, dict):
        return "user" if source.get("kind") in ("user", "system") else "agent"
    return "user" if _USER_STRING.match(source) else "agent"


def outranked(stored, new) -> bool:
    """Whether a write with source ``new`` may not replace or delete a value from ``stored``."""
    return LEVELS[trust_level(new)] < LEVELS[trust_level(stored)]


def as_agent(source):
    """``source`` as an agent's write says it: a declared user or system kind becomes ``agent``
    (the claim kept as ``claimed_kind``); a string that claims to be the user likewise. Other
    sources are returned as they are (external stays external)."""
    if isinstance(source, dict) and source.get("kind") in ("user", "system"):
        return {**source, "kind": "agent", "claimed_kind": source["kind"]}
    if isinstance(source, str) and _USER_STRING.match(source):
        return {"kind": "agent", "name": source.strip()[:200], "claimed_kind": "user"}
    return source


def is_quarantined(key: str) -> bool:
    """Whether a (normalized) key is a quarantined one, under ``/untrusted/…``: never served to a
    session or the MCP tools."""
    return key == UNTRUSTED_PREFIX or key.startswith(UNTRUSTED_PREFIX + "/")


def needs_provenance(key: str, source) -> bool:
    """Whether a write of ``key`` with ``source`` must carry the full provenance minimum."""
    return is_kb_key(key) or is_external(source)


def validate_schema(source) -> None:
    """``KV_SOURCE_INVALID`` unless ``source`` is a non-empty string or an object matching
    :data:`SCHEMA` (a missing kind is a provenance gap, raised by :func:`check_source`)."""
    if source is None or (isinstance(source, (str, dict)) and not source):
        raise _invalid("source is required (an object or a string)")
    if not isinstance(source, (str, dict)):
        raise _invalid("source must be a JSON object or a string")
    for text in _strings(source):
        problem = refusal(text, "source")
        if problem:
            raise _invalid(problem)
        if _DANGEROUS_SCHEMES.match(text):
            raise _invalid("source holds a javascript:/data: URL")
        for m in _SCHEME_URL.finditer(text):
            if m.group(1).lower() not in URL_SCHEMES:
                raise _invalid(f"source URL scheme {m.group(1)!r} is not one of {', '.join(URL_SCHEMES)}",
                               scheme=m.group(1)[:20])
    if isinstance(source, str):
        return
    kind = source.get("kind")
    if kind is not None and kind not in KINDS:
        raise _invalid(f"source.kind must be one of {', '.join(KINDS)}", kind=str(kind)[:40])
    name = source.get("name")
    if name is not None and (not isinstance(name, str) or len(name) > SCHEMA["name"]["max_chars"]):
        raise _invalid(f"source.name must be a string of at most {SCHEMA['name']['max_chars']} characters")
    if source.get("retrieved_at") is not None and not isinstance(source["retrieved_at"], str):
        raise _invalid("source.retrieved_at must be an ISO 8601 string")
    locator = source.get("locator")
    if locator is not None and not isinstance(locator, (str, dict)):
        raise _invalid("source.locator must be a string or an object")


def check_source(key: str, source) -> None:
    """Raise ``KV_SOURCE_INVALID`` for a source that does not match the schema,
    ``KV_PROVENANCE_REQUIRED`` (a :class:`ProvenanceError`) when the write needs provenance it does
    not have: an object without ``kind``, an external source or a ``/kb/`` key without the minimum."""
    validate_schema(source)
    if isinstance(source, dict) and _blank(source.get("kind")):
        raise ProvenanceError("a source object must declare its kind "
                              f"({', '.join(KINDS)})", missing=["kind"])
    if not needs_provenance(key, source):
        return
    why = "keys under /kb/" if is_kb_key(key) else "external sources (web/tool/file or with a URL)"
    if isinstance(source, str):
        raise ProvenanceError(f"{why} need a source object with provenance, not a string",
                              missing=REQUIRED_FIELDS)
    missing = [f for f in REQUIRED_FIELDS if _blank(source.get(f))]
    if missing:
        raise ProvenanceError(f"{why} need source fields {', '.join(REQUIRED_FIELDS)}; missing {', '.join(missing)}",
                              missing=missing)
    if parse_datetime(source["retrieved_at"]) is None:
        raise ProvenanceError("source.retrieved_at must be an ISO 8601 time", missing=["retrieved_at"])


def _blank(value) -> bool:
    if value is None:
        return True
    if isinstance(value, (str, dict, list)):
        return not (value.strip() if isinstance(value, str) else value)
    return False


def source_kind(source) -> str:
    """What the operations log records about a source: its kind only, never free text."""
    if isinstance(source, dict):
        kind = source.get("kind")
        return kind if kind in KINDS else "unspecified"
    return "string"
