"""The ``source`` argument of set_memory (README § Agent key-value memory, provenance): validation of provenance. Pure.

``source`` is required (a non-empty object or string). Writes whose source is external — kind
``web``, ``tool`` or ``file``, or a string source that is a URL or starts with ``web:``, ``tool:``
or ``file:`` — and every write to a ``/kb/…`` key need the provenance minimum:

- ``kind``: one of user, tool, web, file, system, agent
- ``name``: the tool, site, file or conversation it came from
- ``retrieved_at``: when it was obtained (ISO 8601)
- ``locator``: a URL, file path, tool query, event id or content hash (string or object)

A string source cannot carry these, so it is only accepted for non-external, non-KB writes.
"""

from __future__ import annotations

from ..errors import CodeMemoryError
from ..timeutil import parse_datetime

KINDS = ("user", "tool", "web", "file", "system", "agent")
EXTERNAL_KINDS = ("web", "tool", "file")
REQUIRED_FIELDS = ("kind", "name", "retrieved_at", "locator")
KB_PREFIX = "/kb/"
UNTRUSTED_PREFIX = "/untrusted"
_STRING_EXTERNAL_PREFIXES = ("http://", "https://", "web:", "tool:", "file:")
MAX_SOURCE_CHARS = 4096


class ProvenanceError(CodeMemoryError):
    """A source that lacks the provenance its write needs (quarantinable when configured)."""

    def __init__(self, message: str, missing=(), **extra):
        super().__init__("KV_PROVENANCE_REQUIRED", message,
                         hint='give source as {"kind": "web|tool|file|…", "name": …, '
                              '"retrieved_at": ISO-8601, "locator": URL/path/query/id}',
                         missing=list(missing), **extra)


def needs_provenance(key: str, source) -> bool:
    """Whether a write of ``key`` with ``source`` must carry the full provenance minimum."""
    if key.startswith(KB_PREFIX) or key == KB_PREFIX.rstrip("/"):
        return True
    if isinstance(source, dict):
        return source.get("kind") in EXTERNAL_KINDS
    if isinstance(source, str):
        return source.strip().lower().startswith(_STRING_EXTERNAL_PREFIXES)
    return False


def check_source(key: str, source) -> None:
    """Raise ``KV_SOURCE_INVALID`` for a missing or malformed source, ``KV_PROVENANCE_REQUIRED``
    (a :class:`ProvenanceError`) when the write needs provenance it does not have."""
    if source is None or (isinstance(source, (str, dict)) and not source):
        raise CodeMemoryError("KV_SOURCE_INVALID", "source is required (an object or a string)",
                              hint='e.g. {"kind": "user", "name": "chat", "retrieved_at": …, "locator": …}')
    if not isinstance(source, (str, dict)):
        raise CodeMemoryError("KV_SOURCE_INVALID", "source must be a JSON object or a string")
    if isinstance(source, str) and (len(source) > MAX_SOURCE_CHARS or "\x00" in source):
        raise CodeMemoryError("KV_SOURCE_INVALID", f"a string source must be at most {MAX_SOURCE_CHARS} characters")
    if isinstance(source, dict) and "kind" in source and source["kind"] not in KINDS:
        raise CodeMemoryError("KV_SOURCE_INVALID", f"source.kind must be one of {', '.join(KINDS)}",
                              kind=str(source["kind"])[:40])
    if not needs_provenance(key, source):
        return
    why = "keys under /kb/" if key.startswith(KB_PREFIX) else "external (web/tool/file) sources"
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
